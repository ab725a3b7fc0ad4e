// The typed builder: what it emits for small bodies, and what its types refuse.
import { describe, expect, it } from 'vitest';
import { PtxModule, renderImm, warpReduce, type F32, type U64 } from '../../src/kernels/builder/index.js';
import { parsePtx } from '../../src/parser/parse.js';

function body(build: (m: PtxModule) => void, arch: 'sm_75' | 'sm_90' = 'sm_90'): string {
  const m = new PtxModule({ arch });
  build(m);
  return m.emit();
}

describe('PtxModule', () => {
  it('writes the header for the target with its minimum .version', () => {
    expect(body(() => {}, 'sm_75')).toContain('.version 6.3\n.target sm_75\n.address_size 64');
    expect(new PtxModule({ arch: 'sm_90a' }).version).toBe('8.0');
    expect(new PtxModule({ arch: 'sm_80' }).version).toBe('7.0');
    expect(() => new PtxModule({ arch: 'sm_90', version: '7.0' })).toThrow(/below the minimum 7.8/);
  });

  it('declares shared variables with their alignment and refuses duplicate names', () => {
    const text = body((m) => {
      m.shared('tile', 'f32', 33 * 32, 16);
      expect(() => m.shared('tile', 'f32', 4)).toThrow(/declared twice/);
    });
    expect(text).toContain('.shared .align 16 .f32 tile[1056];');
  });

  it('emits a kernel with typed registers, declarations sized to their use, and unique labels', () => {
    const text = body((m) => m.kernel('k', { out: 'u64', n: 'u32' }, { reqntid: [64, 1, 1] }, (k, p) => {
      const tid = k.sreg('tid.x');
      const n = k.ldParam(p.n);
      const out = k.globalPtr(p.out);
      const a = k.newLabel('skip');
      const b = k.newLabel('skip');
      expect(b.name).toBe('skip_1');
      k.braIf(k.setp('ge', 'u32', tid, n), a);
      k.st('global', 'f32', k.add('u64', out, k.mulWide('u32', tid, 4)), 1.5);
      k.place(a);
      k.place(b);
      k.ret();
    }));
    expect(text).toContain('.visible .entry k(\n\t.param .u64 out,\n\t.param .u32 n\n)\n.reqntid 64, 1, 1\n{');
    expect(text).toContain('\t.reg .pred \t%p<2>;');
    expect(text).toContain('setp.hs.u32 %p1, %r1, %r2;');
    expect(text).toContain('@%p1 bra skip;');
    expect(text).toContain('st.global.f32 [%rd4], 0f3FC00000;');
    expect(parsePtx(text).errors).toEqual([]);
  });

  it('structures loops and guarded blocks', () => {
    const text = body((m) => m.kernel('k', { n: 'u32' }, {}, (k, p) => {
      const n = k.ldParam(p.n);
      const acc = k.mov('u32', 0);
      k.forRange('loop', 0, n, (i, ctl) => {
        ctl.breakIf(k.setp('eq', 'u32', i, 7));
        k.add('u32', acc, i, acc);
      });
      k.guard(k.setp('gt', 'u32', acc, 3), () => k.mov('u32', 1, acc));
      k.ret();
    }));
    expect(text).toMatch(/loop:\n\tsetp\.hs\.u32 %p1, %r3, %r1;\n\t@%p1 bra loop_end;/);
    expect(text).toContain('@%p2 bra loop_end;');
    expect(text).toMatch(/loop_next:\n\tadd\.u32 %r3, %r3, 1;\n\tbra loop;\nloop_end:/);
    expect(text).toContain('@%p3 mov.u32 %r2, 1;');
    expect(parsePtx(text).errors).toEqual([]);
  });

  it('calls a .func with the nvcc call sequence', () => {
    const text = body((m) => {
      const f = m.func('twice', ['f32'] as const, ['f32'] as const, (fb, [x], [r]) => {
        const v = fb.ldParam(x);
        fb.stParam(r, fb.add('f32', v, v));
        fb.ret();
      });
      m.kernel('k', { v: 'f32' }, {}, (k, p) => {
        const [r] = k.call(f, [k.ldParam(p.v)] as const);
        k.add('f32', r, 1);
        k.ret();
      });
    });
    expect(text).toContain('.func (.param .b32 twice_retval_0) twice(\n\t.param .b32 twice_param_0\n)');
    expect(text).toMatch(/\{\n\t\t\.param \.b32 param0;\n\tst\.param\.f32 \[param0\], %f1;\n\t\t\.param \.b32 retval0;\n\tcall\.uni \(retval0\), twice, \(param0\);\n\tld\.param\.f32 %f2, \[retval0\];\n\t\}/);
    expect(parsePtx(text).errors).toEqual([]);
  });

  it('reduces over a warp with five butterfly shuffles', () => {
    const text = body((m) => m.kernel('k', { v: 'f32' }, {}, (k, p) => {
      warpReduce(k, 'max', k.ldParam(p.v));
      k.ret();
    }));
    expect(text.match(/shfl\.sync\.bfly\.b32 %f\d+, %f\d+, (16|8|4|2|1), 31, 4294967295;/g)).toHaveLength(5);
    expect(text.match(/max\.f32/g)).toHaveLength(5);
  });

  it('renders immediates exactly for their type', () => {
    expect(renderImm(1, 'f32')).toBe('0f3F800000');
    expect(renderImm(-Infinity, 'f32')).toBe('0fFF800000');
    expect(renderImm(0.1, 'f64')).toBe('0d3FB999999999999A');
    expect(renderImm(-1, 'u32')).toBe('4294967295');
    expect(renderImm(-5, 's32')).toBe('-5');
    expect(() => renderImm(1.5, 'u32')).toThrow(/not an integer/);
    expect(() => renderImm(2 ** 32, 'u32')).toThrow(/does not fit/);
    expect(() => renderImm(1, 'f16')).toThrow(/no \.f16 immediates/);
  });
});

describe('the builder\'s types', () => {
  it('reject an instruction type that does not match the registers (compile-time checks)', () => {
    const m = new PtxModule({ arch: 'sm_90' });
    m.kernel('k', { p: 'u64', x: 'f32' }, {}, (k, p) => {
      const ptr: U64 = k.ldParam(p.p);
      const x: F32 = k.ldParam(p.x);
      const r = k.sreg('tid.x');
      // @ts-expect-error add.f32 on a .u64 register
      k.add('f32', ptr, x);
      // @ts-expect-error a 32-bit register as a global address
      k.ld('global', 'f32', r);
      // @ts-expect-error mul.wide takes 32-bit operands
      k.mulWide('u32', ptr, 4);
      // @ts-expect-error a .f32 value stored as .u32
      k.st('global', 'u32', ptr, x);
      // @ts-expect-error setp.lt.u32 on an f32 register
      k.setp('lt', 'u32', x, 0);
      // Bit types take any register of their size; signed and unsigned interchange.
      k.and('b32', r, 0xff);
      k.add('s32', r, 1);
      k.mov('b64', ptr);
      k.ret();
    });
    // The refused lines still emit (types are erased): the point is that tsc rejects them.
    expect(m.emit()).toContain('add.f32 %f2, %rd1, %f1;');
  });
});

// F088: `wmma`/`mma`/`ldmatrix` operands disagree: load layouts vs the mma
// layout, shape or type mismatch between loads and the mma, wrong fragment
// register counts, stride not a multiple of 16 bytes.
import type * as A from '../parser/ast.js';
import { affineAnalysis, isConstant } from '../cfg/dataflow/affine.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { at, definitionsReaching, intValue, mnemonic, registersIn } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

const TYPES = new Set(['.f16', '.f32', '.f64', '.s32', '.bf16', '.tf32', '.s8', '.u8', '.s4', '.u4', '.b1']);
const SHAPE = /^\.m\d+n\d+k\d+$/;

/** Bits per element of a fragment type. */
const ELEMENT_BITS: Readonly<Record<string, number>> = {
  '.f16': 16, '.bf16': 16, '.f32': 32, '.tf32': 32, '.s32': 32, '.f64': 64, '.s8': 8, '.u8': 8, '.s4': 4, '.u4': 4, '.b1': 1,
};

/** WMMA fragment registers by shape and element type: [a, b]; accumulators by type. */
const WMMA_AB: Readonly<Record<string, readonly [number, number]>> = {
  '.m16n16k16.f16': [8, 8], '.m32n8k16.f16': [8, 8], '.m8n32k16.f16': [8, 8],
  '.m16n16k16.bf16': [4, 4], '.m32n8k16.bf16': [8, 2], '.m8n32k16.bf16': [2, 8],
  '.m16n16k16.s8': [2, 2], '.m32n8k16.s8': [4, 1], '.m8n32k16.s8': [1, 4],
  '.m16n16k16.u8': [2, 2], '.m32n8k16.u8': [4, 1], '.m8n32k16.u8': [1, 4],
  '.m16n16k8.tf32': [4, 4], '.m8n8k4.f64': [1, 1],
  '.m8n8k32.s4': [1, 1], '.m8n8k32.u4': [1, 1], '.m8n8k128.b1': [1, 1],
};
/** WMMA accumulator (c/d) registers by shape and type. */
function wmmaAccumulator(shape: string, type: string): number | undefined {
  if (shape === '.m8n8k4' || shape === '.m8n8k32' || shape === '.m8n8k128') return 2;
  if (type === '.f16') return 4;
  if (type === '.f32' || type === '.s32') return 8;
  return undefined;
}

/** `mma.sync` fragment registers by shape and input type: [a, b, c for f32/s32, c for f16]. */
const MMA_COUNTS: Readonly<Record<string, readonly [number, number, number, number]>> = {
  '.m8n8k4.f16': [2, 2, 8, 4], '.m16n8k8.f16': [2, 1, 4, 2], '.m16n8k16.f16': [4, 2, 4, 2],
  '.m16n8k8.bf16': [2, 1, 4, 0], '.m16n8k16.bf16': [4, 2, 4, 0],
  '.m16n8k4.tf32': [2, 1, 4, 0], '.m16n8k8.tf32': [4, 2, 4, 0],
  '.m8n8k16.s8': [1, 1, 2, 0], '.m16n8k16.s8': [2, 1, 4, 0], '.m16n8k32.s8': [4, 2, 4, 0],
  '.m8n8k16.u8': [1, 1, 2, 0], '.m16n8k16.u8': [2, 1, 4, 0], '.m16n8k32.u8': [4, 2, 4, 0],
  '.m8n8k4.f64': [1, 1, 2, 0],
};

const count = (e: A.Expression | undefined): number | undefined => (e === undefined ? undefined : e.kind === 'Vector' ? e.elements.length : 1);

/** A constant operand: an immediate or a register with a constant affine form. */
function constantOf(ctx: CheckContext, fn: FunctionModel, ins: number, e: A.Expression | undefined): number | undefined {
  const v = intValue(e);
  if (v !== undefined) return Number(v);
  if (e?.kind !== 'Name') return undefined;
  const form = ctx.analysis.get(fn, affineAnalysis).operand(ins, e);
  return form !== undefined && isConstant(form) ? form.c : undefined;
}

interface WmmaLoad {
  readonly index: number;
  readonly frag: string;
  readonly layout: string | undefined;
  readonly shape: string | undefined;
  readonly type: string | undefined;
}

function wmmaLoad(fn: FunctionModel, index: number): WmmaLoad | undefined {
  const node = fn.instructions[index]!.node;
  if (node.opcode !== 'wmma' || node.modifiers[0] !== '.load') return undefined;
  return {
    index,
    frag: node.modifiers[1] ?? '',
    layout: node.modifiers.find((m) => m === '.row' || m === '.col'),
    shape: node.modifiers.find((m) => SHAPE.test(m)),
    type: [...node.modifiers].reverse().find((m) => TYPES.has(m)),
  };
}

export const F088: Check = {
  meta: {
    id: 'F088',
    name: 'tensor-core-consistency',
    category: 'known-patterns',
    severity: 'high',
    points: 1,
    description: 'Tensor-core operands that disagree: a `wmma.load` fragment whose layout, shape or type differs from the `wmma.mma` that '
      + 'consumes it, a fragment with the wrong number of registers, or a `wmma.load`/`wmma.store` stride that is not a multiple of 16 bytes.',
    rationale: 'A fragment loaded `.col` but multiplied as `.row` holds the matrix transposed: C comes out wrong with no error from '
      + 'ptxas or the driver. Fragment sizes and strides are fixed by the hardware layout; a stride that is not 16-byte aligned is '
      + 'undefined behaviour.',
    remedy: 'Load each fragment with the layout, shape and type that the `wmma.mma` declares (`wmma.load.b...row` for `.row.row` or '
      + '`.col.row`...), use the register counts of the PTX ISA fragment tables, and pad leading dimensions to a multiple of 16 bytes.',
    notes: 'For every `wmma.mma`, the `a`, `b` and `c` fragments are followed back (reaching definitions of their registers) to the '
      + '`wmma.load` that wrote them: the load\'s fragment must be a/b/c respectively, its layout must equal the mma\'s alayout (for a) '
      + 'or blayout (for b) (the c layout is free), its shape the mma\'s, and its type the mma\'s atype/btype (f16 when the mma names '
      + 'only dtype and ctype) or ctype. Register counts are checked against the ISA\'s fragment tables for `wmma.load/mma/store` '
      + '(f16, bf16, tf32, f64, s8/u8, s4/u4, b1 shapes) and for `mma.sync` shapes m8n8k4, m16n8k8, m16n8k16 (f16/bf16), m16n8k4/k8 '
      + '(tf32), m8n8k16, m16n8k16, m16n8k32 (s8/u8), m8n8k4 (f64); `ldmatrix .xN` must write N registers. A constant stride (in '
      + 'elements) times the element size must be a multiple of 16 bytes. `ldmatrix` → `mma.sync` layouts and `wgmma` descriptors are '
      + 'not judged (their layout is in the data, not the instruction).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %a<9>;\n\t.reg .b32 %b<9>;\n'
        + '\t.reg .f32 %c<9>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n'
        + '\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a1,%a2,%a3,%a4,%a5,%a6,%a7,%a8}, [%rd1], 16;\n'
        + '\twmma.load.b.sync.aligned.col.m16n16k16.global.f16 {%b1,%b2,%b3,%b4,%b5,%b6,%b7,%b8}, [%rd1], 16;\n'
        + '\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%c1,%c2,%c3,%c4,%c5,%c6,%c7,%c8}, [%rd1], 16;\n'
        + '\twmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 {%c1,%c2,%c3,%c4,%c5,%c6,%c7,%c8}, {%a1,%a2,%a3,%a4,%a5,%a6,%a7,%a8}, '
        + '{%b1,%b2,%b3,%b4,%b5,%b6,%b7,%b8}, {%c1,%c2,%c3,%c4,%c5,%c6,%c7,%c8};\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n\t.reg .b32 %a<9>;\n\t.reg .b32 %b<9>;\n'
        + '\t.reg .f32 %c<9>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n'
        + '\twmma.load.a.sync.aligned.row.m16n16k16.global.f16 {%a1,%a2,%a3,%a4,%a5,%a6,%a7,%a8}, [%rd1], 16;\n'
        + '\twmma.load.b.sync.aligned.row.m16n16k16.global.f16 {%b1,%b2,%b3,%b4,%b5,%b6,%b7,%b8}, [%rd1], 16;\n'
        + '\twmma.load.c.sync.aligned.row.m16n16k16.global.f32 {%c1,%c2,%c3,%c4,%c5,%c6,%c7,%c8}, [%rd1], 16;\n'
        + '\twmma.mma.sync.aligned.row.row.m16n16k16.f32.f32 {%c1,%c2,%c3,%c4,%c5,%c6,%c7,%c8}, {%a1,%a2,%a3,%a4,%a5,%a6,%a7,%a8}, '
        + '{%b1,%b2,%b3,%b4,%b5,%b6,%b7,%b8}, {%c1,%c2,%c3,%c4,%c5,%c6,%c7,%c8};\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      for (const ins of fn.instructions) {
        const node = ins.node;
        const problems: string[] = [];
        if (node.opcode === 'wmma') {
          judged++;
          const shape = node.modifiers.find((m) => SHAPE.test(m));
          const types = node.modifiers.filter((m) => TYPES.has(m));
          const op = node.modifiers[0];
          if (op === '.load' || op === '.store') {
            const frag = op === '.store' ? '.d' : node.modifiers[1]!;
            const type = types[types.length - 1];
            const regs = count(op === '.store' ? node.operands[1] : node.operands[0]);
            if (shape !== undefined && type !== undefined && regs !== undefined) {
              const ab = WMMA_AB[`${shape}${type}`];
              const want = frag === '.a' ? ab?.[0] : frag === '.b' ? ab?.[1] : wmmaAccumulator(shape, type);
              if (want !== undefined && regs !== want) problems.push(`a ${shape.slice(1)} ${type.slice(1)} ${frag.slice(1)} fragment has ${want} registers, not ${regs}`);
            }
            const stride = constantOf(ctx, fn, ins.index, node.operands[2]);
            const bits = type === undefined ? undefined : ELEMENT_BITS[type];
            if (stride !== undefined && bits !== undefined && ((stride * bits) / 8) % 16 !== 0) {
              problems.push(`the stride ${stride} (× ${bits / 8} bytes) is not a multiple of 16 bytes`);
            }
          } else if (op === '.mma') {
            const layouts = node.modifiers.filter((m) => m === '.row' || m === '.col');
            const [dtype, atype, btype, ctype] = types.length === 2 ? [types[0], '.f16', '.f16', types[1]] : types;
            const fragments: [string, number, string | undefined, string | undefined][] = [
              ['.a', 1, layouts[0], atype], ['.b', 2, layouts[1], btype], ['.c', 3, undefined, ctype],
            ];
            for (const [frag, k, layout, type] of fragments) {
              const operand = node.operands[k];
              const first = operand === undefined ? undefined : registersIn(fn, operand)[0];
              if (shape !== undefined && type !== undefined) {
                const ab = WMMA_AB[`${shape}${frag === '.c' ? '' : type}`];
                const want = frag === '.a' ? ab?.[0] : frag === '.b' ? ab?.[1] : wmmaAccumulator(shape, type);
                const regs = count(operand);
                if (want !== undefined && regs !== undefined && regs !== want) problems.push(`its ${frag.slice(1)} operand has ${regs} registers; a ${shape.slice(1)} ${type.slice(1)} fragment has ${want}`);
              }
              if (first === undefined) continue;
              for (const d of definitionsReaching(ctx, fn, ins.index, first)) {
                const load = wmmaLoad(fn, d);
                if (load === undefined) continue;
                const line = fn.instructions[d]!.node.range.line;
                if (load.frag !== frag) problems.push(`its ${frag.slice(1)} operand was loaded as a ${load.frag.slice(1)} fragment (line ${line})`);
                if (layout !== undefined && load.layout !== undefined && load.layout !== layout) {
                  problems.push(`${frag.slice(1)} was loaded ${load.layout} (line ${line}) but the mma multiplies it as ${layout}`);
                }
                if (shape !== undefined && load.shape !== undefined && load.shape !== shape) problems.push(`${frag.slice(1)} was loaded with shape ${load.shape.slice(1)} (line ${line}), the mma is ${shape.slice(1)}`);
                if (type !== undefined && load.type !== undefined && load.type !== type) problems.push(`${frag.slice(1)} was loaded as ${load.type.slice(1)} (line ${line}), the mma takes ${type.slice(1)}`);
              }
            }
            if (shape !== undefined && dtype !== undefined) {
              const want = wmmaAccumulator(shape, dtype);
              const regs = count(node.operands[0]);
              if (want !== undefined && regs !== undefined && regs !== want) problems.push(`its d operand has ${regs} registers; a ${shape.slice(1)} ${dtype.slice(1)} accumulator has ${want}`);
            }
          }
        } else if (node.opcode === 'mma' && !node.modifiers.some((m) => m.startsWith('.sp'))) {
          judged++;
          const shape = node.modifiers.find((m) => SHAPE.test(m));
          const types = node.modifiers.filter((m) => TYPES.has(m));
          // mma.sync.aligned.shape.alayout.blayout.dtype.atype.btype.ctype (f16: dtype.f16.f16.ctype)
          const [dtype, atype, , ctype] = types.length >= 4 ? types : [types[0], types[1], types[2], types[3]];
          const counts = shape === undefined || atype === undefined ? undefined : MMA_COUNTS[`${shape}${atype}`];
          if (counts !== undefined) {
            const want: [number, number, string | undefined][] = [
              [0, dtype === '.f16' ? counts[3] : counts[2], 'd'], [1, counts[0], 'a'], [2, counts[1], 'b'], [3, ctype === '.f16' ? counts[3] : counts[2], 'c'],
            ];
            for (const [k, n, name] of want) {
              const regs = count(node.operands[k]);
              if (n > 0 && regs !== undefined && regs !== n) problems.push(`its ${name} operand has ${regs} registers; ${shape!.slice(1)} with ${atype!.slice(1)} inputs needs ${n}`);
            }
          }
        } else if (node.opcode === 'ldmatrix') {
          judged++;
          const x = node.modifiers.find((m) => /^\.x[124]$/.test(m));
          const regs = count(node.operands[0]);
          if (x !== undefined && regs !== undefined && regs !== Number(x.slice(2))) problems.push(`${x.slice(1)} loads ${x.slice(2)} registers, not ${regs}`);
        }
        if (problems.length > 0) out.push({ message: `${mnemonic(node)}: ${problems.join('; ')}`, ...at(ctx, fn, ins.index) });
      }
    }
    if (judged === 0) return na('no wmma, mma or ldmatrix');
    return found(out);
  },
};

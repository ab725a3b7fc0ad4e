// Growth with function size: one kernel whose body is a realistic block
// (global loads, shared stores, a barrier, a guarded branch, a counted loop)
// repeated 1×, 4× and 16×, with labels renamed per copy. Written to
// bench/.cache/scale-<n>.ptx; run.js times each and checks 16× ≤ 24 × 1×.
import { writeFileSync, mkdirSync } from 'node:fs';

export function scaleInput(copies) {
  const out = ['.version 8.0', '.target sm_90', '.address_size 64', '',
    '.visible .entry scaled(.param .u64 in, .param .u64 out, .param .u32 n)', '.reqntid 256, 1, 1', '{',
    '\t.reg .pred %p<8>;', '\t.reg .b32 %r<64>;', '\t.reg .f32 %f<32>;', '\t.reg .b64 %rd<32>;',
    '\t.shared .align 4 .b8 tile[1024];',
    '\tld.param.u64 %rd1, [in];', '\tld.param.u64 %rd2, [out];', '\tld.param.u32 %r1, [n];',
    '\tcvta.to.global.u64 %rd3, %rd1;', '\tcvta.to.global.u64 %rd4, %rd2;', '\tmov.u32 %r2, %tid.x;',
    '\tmov.u32 %r3, %ctaid.x;', '\tmad.lo.s32 %r4, %r3, 256, %r2;', '\tmov.u32 %r5, tile;', '\tshl.b32 %r6, %r2, 2;', '\tadd.s32 %r7, %r5, %r6;'];
  for (let c = 0; c < copies; c++) {
    out.push(
      `\tsetp.ge.s32 %p1, %r4, %r1;`, `\t@%p1 bra $SKIP_${c};`,
      `\tmul.wide.s32 %rd5, %r4, 4;`, `\tadd.s64 %rd6, %rd3, %rd5;`, `\tld.global.f32 %f1, [%rd6];`,
      `\tadd.f32 %f2, %f1, 0f3F800000;`, `\tst.shared.f32 [%r7], %f2;`,
      `$SKIP_${c}:`, `\tbar.sync 0;`, `\tmov.u32 %r8, 0;`, `\tmov.f32 %f3, 0f00000000;`,
      `$LOOP_${c}:`, `\tshl.b32 %r9, %r8, 2;`, `\tadd.s32 %r10, %r5, %r9;`, `\tld.shared.f32 %f4, [%r10];`,
      `\tfma.rn.f32 %f3, %f4, %f2, %f3;`, `\tadd.s32 %r8, %r8, 1;`, `\tsetp.lt.u32 %p2, %r8, 32;`, `\t@%p2 bra $LOOP_${c};`,
      `\tbar.sync 0;`, `\t@%p1 bra $NEXT_${c};`, `\tadd.s64 %rd7, %rd4, %rd5;`, `\tst.global.f32 [%rd7], %f3;`, `$NEXT_${c}:`,
    );
  }
  out.push('\tret;', '}', '');
  return out.join('\n');
}

export function writeScaleInputs(dir, base) {
  mkdirSync(dir, { recursive: true });
  return [1, 4, 16].map((k) => {
    const path = `${dir}/scale-${k}x.ptx`;
    writeFileSync(path, scaleInput(base * k));
    return { factor: k, path };
  });
}

// F052: a warp's shared-memory load or store needs more wavefronts than its
// width requires (a bank conflict), computed from the per-lane affine address.
import { affineAnalysis, requiredWavefronts, sharedWavefronts, type BankConflict, type Form, type LaneStride } from '../cfg/dataflow/affine.js';
import { assumptionsAndSilencing, LANE_ASSUMPTION, laneView, memoryAccesses, opText, type MemoryAccess } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** "pad the row to 33 words (132 bytes)", "XOR-swizzle ...": what removes the conflict. */
export function conflictRemedy(b: BankConflict): string {
  const fixes: string[] = [];
  if (b.padding !== undefined) {
    const after = b.padding.degreeAfter <= 1 ? 'conflict-free' : `${b.padding.degreeAfter}-way`;
    // A stride that is not a whole number of words (a 38-byte row of u16) is padded in bytes.
    const row = b.padding.rowBytes % 4 === 0 ? `${b.padding.rowWords} words (${b.padding.rowBytes} bytes between lanes, ` : `${b.padding.rowBytes} bytes between lanes (`;
    fixes.push(`pad the row to ${row}+${b.padding.padBytes}): ${after}`);
  }
  if (b.swizzle !== undefined) {
    fixes.push(`or XOR-swizzle the ${b.swizzle.unitBytes}-byte column index with (row mod ${b.swizzle.period}): conflict-free without padding`);
  }
  if (fixes.length === 0) fixes.push('make consecutive lanes touch consecutive words (swap the index roles, or stage through a padded tile)');
  return fixes.join('; ');
}

const mod = (x: number, m: number): number => ((x % m) + m) % m;

/** A judged access with a conflict. */
interface Conflict {
  readonly a: MemoryAccess;
  readonly form: Form;
  readonly bytes: number;
  readonly stride: number;
  readonly waves: number;
  readonly required: number;
  readonly b: BankConflict;
  readonly assumptions: readonly string[];
}

/** Wavefronts of a warp's access: the fewest over the lane-0 offsets modulo 4
 *  that the address's known alignment allows (a conflict is reported only when
 *  every placement of the variable has it). */
export function wavefronts(ls: LaneStride, bytes: number): number {
  let best = Infinity;
  for (let r = 0; r < 4; r++) {
    if (ls.align >= 4 ? r !== mod(ls.rem, 4) : mod(r, ls.align) !== mod(ls.rem, ls.align)) continue;
    best = Math.min(best, sharedWavefronts(Array.from({ length: 32 }, (_x, l) => r + ls.stride * l), bytes));
  }
  return best;
}

export const F052: Check = {
  meta: {
    id: 'F052',
    name: 'shared-bank-conflict',
    category: 'memory',
    severity: 'medium',
    points: 2,
    description: 'A warp\'s `.shared` load or store needs at least twice the wavefronts its width requires (a 2-way or worse bank conflict), computed from the per-lane affine address.',
    rationale: 'Shared memory has 32 banks of 4 bytes; lanes that touch different words of one bank are served one after another. A 32-way conflict (a column of a 32-float tile) makes the access 32 times slower, and the kernel usually hides it nowhere.',
    remedy: 'Pad the row so that the lane stride is an odd number of words (`float tile[32][33]`), or XOR-swizzle the column index with the row (`tile[r][c ^ r]`); for 8- and 16-byte accesses keep each phase (16 or 8 lanes) on distinct banks.',
    notes: 'Precise rule: every `ld`/`st` whose state space is `.shared` (named, or a generic address whose provenance is shared only) and whose address is '
      + 'affine in the lane index: lane l touches bytes [base + stride·l, +size). The warp is served in phases: all 32 lanes for accesses of ≤ 4 bytes, '
      + 'a half warp (16 lanes) for 8-byte and a quarter warp (8 lanes) for 16-byte accesses; a phase needs as many wavefronts as the largest number of '
      + 'distinct 4-byte words in one bank (lanes reading one word share it). Degree = wavefronts ÷ required, where required = max(1, 32·size/128) '
      + '(so a linear `float4` access, 4 wavefronts for 512 bytes, has degree 1). Where only the address modulo 2 is known (a `.align 2` variable), '
      + 'the degree is the smallest over the placements modulo 4 the alignment allows. The check fails at degree ≥ 2 and names the row padding that '
      + 'brings the degree down and, for strides that are multiples of 128 bytes, the XOR swizzle. Lanes are mapped to %tid only when the block '
      + 'shape is known exactly (`.reqntid`, `--block` without `.maxntid`) or the kernel reads only %tid.x (a one-dimensional block); otherwise '
      + 'such accesses are not judged (the degree depends on blockDim.x), and the check is n/a when no access can be judged. All 32 lanes are taken '
      + 'to be active; an address that is not affine in the lane (an XOR swizzle, a loaded index) is not judged. Atomics, `ldmatrix`, '
      + '`cp.async` and remote `.shared::cluster` accesses are not judged. One finding per distinct pattern: accesses of one function in the '
      + 'same innermost loop (or all outside loops), of the same kind (load or store), size and lane stride, whose addresses differ only by a '
      + 'constant (the unrolled copies of one source access, a thread\'s consecutive items) are reported once, at the worst (then the first), '
      + 'with the others as related locations. Padding is given in words, or in bytes when the stride is not a whole number of words.'
      + assumptionsAndSilencing('F052', LANE_ASSUMPTION),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .f32 tile[1024];\n.entry k()\n.reqntid 32, 32, 1\n{\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<2>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, tile;\n\tmad.lo.s32 %r4, %r1, 128, %r3;\n\tshl.b32 %r5, %r2, 2;\n\tadd.s32 %r4, %r4, %r5;\n'
        + '\tld.shared.f32 %f1, [%r4];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .f32 tile[1056];\n.entry k()\n.reqntid 32, 32, 1\n{\n\t.reg .b32 %r<6>;\n\t.reg .f32 %f<2>;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %tid.y;\n\tmov.u32 %r3, tile;\n\tmad.lo.s32 %r4, %r1, 132, %r3;\n\tshl.b32 %r5, %r2, 2;\n\tadd.s32 %r4, %r4, %r5;\n'
        + '\tld.shared.f32 %f1, [%r4];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let seen = 0;
    let judged = 0;
    let why: string | undefined;
    for (const fn of ctx.functions) {
      const accesses = memoryAccesses(ctx.analysis, fn).filter((a) => a.space === 'shared' && a.kind !== 'atomic' && a.bytes !== undefined);
      if (accesses.length === 0) continue;
      seen += accesses.length;
      const af = ctx.analysis.get(fn, affineAnalysis);
      const cfg = ctx.analysis.cfg(fn);
      const loops = ctx.analysis.loops(fn);
      // One finding per distinct pattern: unrolled copies (same loop, kind, size,
      // lane stride and address up to its constant) are reported once, at the worst.
      const groups = new Map<string, Conflict[]>();
      for (const a of accesses) {
        if (a.form === undefined) continue;
        const view = laneView(ctx.analysis, fn, af, a.form);
        if (!view.ok) {
          why ??= view.reason;
          continue;
        }
        judged++;
        const waves = wavefronts(view.lanes, a.bytes!);
        const required = requiredWavefronts(a.bytes!);
        if (waves / required < 2) continue;
        const b = af.bankConflictDegree(a.form, a.bytes!);
        if (b === undefined) continue;
        const key = `${loops.loopOf[cfg.blockOf[a.index]!]}|${a.kind}|${a.bytes}|${view.lanes.stride}|${a.form.terms.map((t) => `${t.sym}:${t.coef}`).join(',')}`;
        let g = groups.get(key);
        if (g === undefined) groups.set(key, (g = []));
        g.push({ a, form: a.form, bytes: a.bytes!, stride: view.lanes.stride, waves, required, b, assumptions: view.assumptions });
      }
      for (const g of groups.values()) {
        const worst = g.reduce((w, c) => (c.waves / c.required > w.waves / w.required ? c : w));
        const { a, b, waves, required } = worst;
        const degree = waves / required;
        const phase = b.lanesPerPhase === 32 ? 'the warp' : `its ${32 / b.lanesPerPhase} phases of ${b.lanesPerPhase} lanes`;
        const assumed = worst.assumptions.length > 0 ? ` (assuming ${worst.assumptions.join('; ')})` : '';
        const others = g.filter((c) => c !== worst);
        const copies = others.length > 0 ? `; ${others.length} more ${others.length === 1 ? 'access' : 'accesses'} of this pattern (the same lane stride, other constant offsets) listed as related` : '';
        out.push({
          message: `${degree}-way bank conflict: ${opText(a.ins)} at ${af.format(worst.form)} moves ${worst.bytes} bytes per lane with lanes `
            + `${worst.stride} bytes apart; ${phase} need${b.lanesPerPhase === 32 ? 's' : ''} ${waves} wavefronts where ${required} would do (degree ${degree})${copies}. `
            + `Fix: ${conflictRemedy(b)}${assumed}`,
          location: ctx.locate(a.ins.node.range, fn, a.index),
          function: fn.name,
          ...(others.length > 0 ? {
            related: others.map((c) => ({
              location: ctx.locate(c.a.ins.node.range, fn, c.a.index),
              message: `${opText(c.a.ins)} at ${af.format(c.form)}: ${c.waves / c.required}-way (${c.waves} wavefronts where ${c.required} would do)`,
            })),
          } : {}),
        });
      }
    }
    if (seen === 0) return na('no shared-memory loads or stores');
    if (judged === 0) return na(`no shared-memory access could be judged: ${why ?? 'no address is affine in the lane index'}`);
    return found(out);
  },
};

// F080: a loop-carried accumulator is f16/bf16 (or an mma accumulates in
// f16) while the kernel sums half-precision inputs and stores the result.
import type * as A from '../parser/ast.js';
import { reachingDefinitionsAnalysis, type ReachingDefinitions } from '../cfg/dataflow/reaching-definitions.js';
import type { FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { at, backwardSlice, LOADS, mnemonic, registersIn, stepAt } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Operations that accumulate into their result. */
const ACCUMULATE = new Set(['add', 'sub', 'fma', 'mad']);
const HALF = new Set(['.f16', '.bf16', '.f16x2', '.bf16x2']);
const TYPES = new Set(['.f16', '.bf16', '.f32', '.f64', '.s32', '.tf32']);
/** Instructions that write memory (their non-address operands are stored). */
const STORES = new Set(['st', 'atom', 'red', 'stmatrix', 'cp', 'call']);

/** The accumulator type of an `mma.sync`/`wmma.mma` (its first type modifier), else undefined. */
function mmaAccumulatorType(node: A.Instruction): string | undefined {
  if (node.opcode !== 'mma' && !(node.opcode === 'wmma' && node.modifiers[0] === '.mma')) return undefined;
  return node.modifiers.find((m) => TYPES.has(m));
}

/** The half type an accumulating instruction computes in, or undefined. */
function halfAccumulator(node: A.Instruction): string | undefined {
  if (ACCUMULATE.has(node.opcode)) return node.modifiers.find((m) => HALF.has(m));
  return mmaAccumulatorType(node) === '.f16' ? '.f16' : undefined;
}

/** Whether a value written at `ins` into `reg` reaches memory, following register operations (bounded). */
function stored(fn: FunctionModel, rd: ReachingDefinitions, ins: number, reg: RegisterSymbol): number | undefined {
  const t = rd.table;
  const work: [number, RegisterSymbol][] = [[ins, reg]];
  const seen = new Set<string>();
  while (work.length > 0 && seen.size < 400) {
    const [i, r] = work.pop()!;
    if (seen.has(`${i}:${r.id}`)) continue;
    seen.add(`${i}:${r.id}`);
    for (const u of rd.usesOf(i, r)) {
      const node = fn.instructions[u]!.node;
      if (STORES.has(node.opcode) || (node.opcode === 'wmma' && node.modifiers[0] === '.store')) {
        const data = node.operands.filter((o) => o.kind !== 'Address').flatMap((o) => registersIn(fn, o));
        if (data.includes(r)) return u;
        continue;
      }
      if (LOADS.has(node.opcode) && node.opcode !== 'shfl' && node.opcode !== 'mma' && node.opcode !== 'wmma') continue;
      for (let s = t.defStart[u]!; s < t.defStart[u + 1]!; s++) work.push([u, fn.registers[t.defReg[s]!]!]);
    }
  }
  return undefined;
}

export const F080: Check = {
  meta: {
    id: 'F080',
    name: 'low-precision-accumulator',
    category: 'data-flow',
    severity: 'medium',
    points: 1,
    description: 'A loop sums half-precision inputs into an `.f16`/`.bf16` accumulator (or an `mma` accumulates in f16), and the '
      + 'sum is stored.',
    rationale: 'f16 has an 11-bit significand (bf16 8 bits): once the running sum is large, each small addend is rounded away, so '
      + 'dot products, reductions and GEMM tiles over more than a few hundred elements lose most of their digits or stop growing '
      + 'altogether. The inputs being half precision is fine; the accumulator is not.',
    remedy: 'Accumulate in f32: convert each input (`cvt.f32.f16`) and use `add/fma.f32`, or give the `mma` an f32 accumulator '
      + '(`mma.sync...f32.f16.f16.f32`, `wmma::fragment<accumulator, .., float>`), and convert once when storing.',
    notes: 'Judged per natural loop. An instruction in the loop fails when (1) it accumulates in half precision: `add`, `sub`, `fma` '
      + 'or `mad` typed `.f16`, `.bf16`, `.f16x2` or `.bf16x2`, or an `mma.sync`/`wmma.mma` whose accumulator (first) type is `.f16`; '
      + '(2) it is loop-carried: the value it writes reaches the loop header around a back edge (directly, or through a `mov` in the '
      + 'loop, or through further half accumulations of an unrolled body) and it reads that value back (in an unrolled body, the first '
      + 'accumulation of the chain is reported); (3) the inputs are data: some other operand derives from a load (not only from '
      + 'constants); and (4) the result is stored: its value reaches a store, atomic, `wmma.store` or call through register '
      + 'operations. Half-precision arithmetic that is not carried around a loop (one product, one rescale) passes, and so does an '
      + 'f16 accumulator that is never stored.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n'
        + '\t.reg .b16 %h<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n'
        + '\tmov.b16 %h1, 0x0000;\n\tmov.u32 %r2, 0;\n\tmov.u64 %rd2, %rd1;\nLOOP:\n\tld.global.b16 %h2, [%rd2];\n'
        + '\tadd.f16 %h1, %h1, %h2;\n\tadd.u64 %rd2, %rd2, 2;\n\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n'
        + '\tst.global.b16 [%rd1], %h1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n'
        + '\t.reg .b16 %h<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [a];\n'
        + '\tld.param.u32 %r1, [n];\n\tmov.f32 %f1, 0f00000000;\n\tmov.u32 %r2, 0;\n\tmov.u64 %rd2, %rd1;\nLOOP:\n'
        + '\tld.global.b16 %h2, [%rd2];\n\tcvt.f32.f16 %f2, %h2;\n\tadd.f32 %f1, %f1, %f2;\n\tadd.u64 %rd2, %rd2, 2;\n'
        + '\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n\tcvt.rn.f16.f32 %h1, %f1;\n'
        + '\tst.global.b16 [%rd1], %h1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let loops = 0;
    for (const fn of ctx.functions) {
      const forest = ctx.analysis.loops(fn);
      if (forest.loops.length === 0) continue;
      loops += forest.loops.length;
      const cfg = ctx.analysis.cfg(fn);
      const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
      const t = rd.table;
      const reported = new Set<number>();
      for (const loop of forest.loops) {
        const inLoop = new Set(loop.blocks);
        /** The instructions in the loop that pass on the value written at `ins` (`mov`s and further half accumulations, as
         *  in an unrolled body), when one of them reaches the header around a back edge. */
        const carried = (ins: number): Set<number> | undefined => {
          const chain = new Set<number>([ins]);
          let reaches = false;
          const work = [ins];
          while (work.length > 0 && chain.size < 32) {
            const i = work.pop()!;
            for (let s = t.defStart[i]!; s < t.defStart[i + 1]!; s++) {
              if (rd.reachesBlockStart(rd.defIdOfSlot[s]!, loop.header) === true) reaches = true;
              for (const u of rd.usesOf(i, t.defReg[s]!)) {
                const n = fn.instructions[u]!.node;
                if ((n.opcode === 'mov' || halfAccumulator(n) !== undefined) && inLoop.has(cfg.blockOf[u]!) && !chain.has(u)) { chain.add(u); work.push(u); }
              }
            }
          }
          return reaches ? chain : undefined;
        };
        for (const b of loop.blocks) {
          const blk = cfg.blocks[b]!;
          if (!blk.reachable) continue;
          for (let i = blk.start; i < blk.end; i++) {
            if (reported.has(i)) continue;
            const node = fn.instructions[i]!.node;
            const type = halfAccumulator(node);
            if (type === undefined || t.defStart[i + 1]! === t.defStart[i]!) continue;
            const chain = carried(i);
            if (chain === undefined) continue;
            const sources = node.operands.slice(1).flatMap((o) => registersIn(fn, o));
            const back = sources.filter((r) => rd.reaching(i, r).some((d) => chain.has(d)));
            if (back.length === 0) continue;
            const inputs = sources.filter((r) => !back.includes(r));
            const slice = inputs.length === 0 ? undefined : backwardSlice(ctx, fn, i, inputs, { limit: 256 });
            if (node.opcode === 'add' || node.opcode === 'sub' || node.opcode === 'fma' || node.opcode === 'mad') {
              if (slice === undefined || ![...slice].some((d) => LOADS.has(fn.instructions[d]!.node.opcode))) continue;
            }
            const dest = fn.registers[t.defReg[t.defStart[i]!]!]!;
            let store: number | undefined;
            for (let s = t.defStart[i]!; s < t.defStart[i + 1]! && store === undefined; s++) store = stored(fn, rd, i, fn.registers[t.defReg[s]!]!);
            if (store === undefined) continue;
            reported.add(i);
            out.push({
              message: `${mnemonic(node)} accumulates ${node.opcode === 'mma' || node.opcode === 'wmma' ? 'the mma result' : dest.name} `
                + `in ${type} around a loop, and the sum is stored: accumulate in f32 and convert once`,
              ...at(ctx, fn, i),
              chain: [stepAt(ctx, fn, i, `${type} accumulation`), stepAt(ctx, fn, store, 'the sum is stored')],
            });
          }
        }
      }
    }
    if (loops === 0) return na('no loops');
    return found(out);
  },
};

// F078: a thread-indexed global store is neither guarded by a predicate nor
// dominated by a branch or loop-exit test that compares its thread-derived
// index against a uniform bound.
import type * as A from '../parser/ast.js';
import { ATOM_MASK, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';
import { uniformityAnalysis, WARP } from '../cfg/dataflow/uniformity.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { at, backwardSlice, mnemonic, operandFrom, protections, readsSreg, registersIn, spaceOf, stepAt } from './flow.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** Whether an operand of `ins` is the same for every thread of a warp: an immediate, a uniform or warp-uniform value. */
function uniformOperand(ctx: CheckContext, fn: FunctionModel, ins: number, e: A.Expression): boolean {
  if (e.kind === 'Int' || e.kind === 'Float' || (e.kind === 'Unary' && e.arg.kind === 'Int')) return true;
  const u = ctx.analysis.get(fn, uniformityAnalysis);
  return (u.operandVariance(ins, e) & WARP) === 0;
}

/** Whether store `ins` writes global memory: `st.global`, or a generic `st` whose address is known to point there. */
function isGlobalStore(ctx: CheckContext, fn: FunctionModel, ins: number): boolean {
  const node = fn.instructions[ins]!.node;
  const space = spaceOf(node);
  if (space === '.global') return true;
  if (space !== undefined) return false;
  const prov = ctx.analysis.get(fn, provenanceAnalysis);
  const acc = prov.accessesAt(ins)[0];
  if (acc === undefined) return false;
  const global = PROV.global | PROV['generic-global'];
  return (acc.provenance & global) !== 0 && (acc.provenance & ~global & ATOM_MASK) === 0;
}

const THREAD_SREGS = ['%tid', '%laneid'];
const BLOCK_SREGS = ['%ctaid', '%clusterid', '%cluster_ctaid'];
const READ_KNOWN = 1;
const READS_THREAD = 2;
const READS_BLOCK = 4;

export const F078: Check = {
  meta: {
    id: 'F078',
    name: 'missing-bounds-check',
    category: 'data-flow',
    severity: 'high',
    points: 2,
    description: 'A global store whose address is computed from the thread index, with no test of that index against a uniform bound '
      + '(a guard `@p`, a dominating branch, or a loop-exit test).',
    rationale: 'The grid is rounded up to whole blocks, so the last block has threads past the end of the data: without `if (i < n)` '
      + 'they write out of bounds, corrupting other allocations or faulting. It is the most common CUDA indexing bug.',
    remedy: 'Compare the index with the size before storing (`setp.lt.s32 %p, %r_i, %r_n; @!%p bra DONE;`), or make the loop that '
      + 'produces the index stop at the size.',
    notes: 'Judged on `st.global` and on generic `st` whose address provenance is only global (a kernel pointer parameter). A store is '
      + 'thread-indexed when its address, followed back through arithmetic (not through loads: `out[idx[i]]` is a scatter, judged by '
      + 'nobody here), comes from %tid or %laneid and from %ctaid: a grid-wide index such as `ctaid * ntid + tid`. A per-block '
      + 'address (`out[blockIdx.x]`) is not judged, nor a block-local one (`out[tid]`, `out[lane]`): it stays below the block size the '
      + 'launch chose, while the grid-wide index is the one that runs past the data when the grid is rounded up to whole blocks. It passes when some comparison '
      + '(`setp`, through `and`/`or`/`not` of predicates) decides whether it runs: its own guard\'s, the conditional branch (or guarded '
      + '`ret`/`exit`) ending a block that dominates it, or an exit branch of a loop around it; and that comparison has one side '
      + 'computed from the same special register (%tid.x, %tid.y, %laneid ...) as the address, read by any instruction (the index register itself, `base + 16 > n` for an index `base`, '
      + 'a neighbour `i | 1` of a vectorized index, the induction variable of a grid-stride loop) and the other side the same for every thread of the warp (an immediate, a kernel '
      + 'parameter, a `.const` value, %ntid, arithmetic on them, or a per-warp value such as a row length that is 0 for the warps '
      + 'past the last row). A bound that is itself computed from '
      + 'such a test passes too: `limit = selp cols, 0, row < rows` then a loop `col < limit` (the row test is in the limit). A tile test passes too: a comparison the same for every thread '
      + 'whose sides are computed from the %ctaid component the address reads and from a kernel parameter (CUB\'s full-tile test '
      + '`num_items - tile_idx * TILE_ITEMS > TILE_ITEMS` before the unguarded stores of a full tile, the block index re-read at the store): the thread '
      + 'part of the index stays below the tile size the launch chose. The direction of the test is not judged. So `if (tid < 32) out[ctaid*ntid+tid]` '
      + 'passes too: %tid is what the index is computed from.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u32 n)\n{\n\t.reg .b32 %r<4>;\n'
        + '\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [out];\n\tcvta.to.global.u64 %rd1, %rd1;\n\tmov.u32 %r1, %tid.x;\n'
        + '\tmov.u32 %r3, %ctaid.x;\n\tmad.lo.s32 %r1, %r3, 256, %r1;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n\tst.global.u32 [%rd3], %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n'
        + '\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [out];\n\tld.param.u32 %r2, [n];\n\tcvta.to.global.u64 %rd1, %rd1;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r3, %ctaid.x;\n\tmad.lo.s32 %r1, %r3, 256, %r1;\n\tsetp.ge.u32 %p1, %r1, %r2;\n\t@%p1 bra DONE;\n\tmul.wide.u32 %rd2, %r1, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n'
        + '\tst.global.u32 [%rd3], %r1;\nDONE:\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let judged = 0;
    for (const fn of ctx.functions) {
      const cfg = ctx.analysis.cfg(fn);
      // The thread indices a comparison side is computed from: the same comparisons guard many stores.
      const sideThreads = new Map<A.Expression, readonly string[] | undefined>();
      const threadsBehind = (cmpIns: number, e: A.Expression): readonly string[] | undefined => {
        if (sideThreads.has(e)) return sideThreads.get(e);
        const side = backwardSlice(ctx, fn, cmpIns, registersIn(fn, e), { limit: 512 });
        const names = side === undefined ? undefined : [...new Set([...side].flatMap((d) => threadSregs(fn, fn.instructions[d]!.node)))];
        sideThreads.set(e, names);
        return names;
      };
      // Which special registers each instruction reads, found once per instruction (slices of many stores
      // share their instructions).
      const reads = new Uint8Array(fn.instructions.length);
      const readsOf = (d: number): number => {
        let r = reads[d]!;
        if (r === 0) {
          const node = fn.instructions[d]!.node;
          r = READ_KNOWN | (readsSreg(fn, node, THREAD_SREGS) ? READS_THREAD : 0) | (readsSreg(fn, node, BLOCK_SREGS) ? READS_BLOCK : 0);
          reads[d] = r;
        }
        return r;
      };
      for (const ins of fn.instructions) {
        const node = ins.node;
        if (node.opcode !== 'st' || node.modifiers.includes('.async')) continue;
        if (!cfg.blocks[cfg.blockOf[ins.index]!]!.reachable) continue;
        const addr = node.operands.find((o): o is A.AddressExpr => o.kind === 'Address');
        if (addr === undefined) continue;
        const regs = registersIn(fn, addr);
        if (regs.length === 0 || !isGlobalStore(ctx, fn, ins.index)) continue;
        const slice = backwardSlice(ctx, fn, ins.index, regs, { limit: 512 });
        if (slice === undefined) continue;
        const seeds = [...slice].filter((d) => (readsOf(d) & READS_THREAD) !== 0).sort((a, b) => a - b);
        if (seeds.length === 0) continue;
        // A grid-wide index: the block index takes part too (a block-local one stays below the block size).
        if (![...slice].some((d) => (readsOf(d) & READS_BLOCK) !== 0)) continue;
        judged++;
        const seedNames = new Set(seeds.flatMap((d) => threadSregs(fn, fn.instructions[d]!.node)));
        /** A comparison side computed from a thread-index read the address is computed from too. */
        const fromIndex = (cmpIns: number, e: A.Expression): boolean => {
          if (operandFrom(ctx, fn, cmpIns, e, slice) || isSeedSreg(fn, e, slice)) return true;
          return threadsBehind(cmpIns, e)?.some((n) => seedNames.has(n)) === true;
        };
        /** A direct bounds test: an index side against a warp-uniform side. */
        const direct = (i: number, a: A.Expression, b: A.Expression): boolean =>
          (uniformOperand(ctx, fn, i, b) && fromIndex(i, a)) || (uniformOperand(ctx, fn, i, a) && fromIndex(i, b));
        /** A bound computed from such a test (`selp cols, 0, row < rows` as the loop limit). */
        const testedBound = (i: number, e: A.Expression): boolean => {
          const side = backwardSlice(ctx, fn, i, registersIn(fn, e), { limit: 256 });
          return side !== undefined && [...side].some((d) => {
            const node = fn.instructions[d]!.node;
            return node.opcode === 'setp' && node.operands.length >= 3 && direct(d, node.operands[1]!, node.operands[2]!);
          });
        };
        const blockNames = new Set([...slice].flatMap((d) => blockSregs(fn, fn.instructions[d]!.node)));
        /** A tile test: a comparison, the same for every thread, of the block's part of the index (computed from a
         *  %ctaid component the address is computed from too, read by any instruction) against a bound read from a kernel parameter (CUB's
         *  `num_items - tile_offset > TILE_ITEMS` before a full tile's unguarded stores). */
        const tileTest = (i: number, a: A.Expression, b: A.Expression): boolean => {
          if (!uniformOperand(ctx, fn, i, a) || !uniformOperand(ctx, fn, i, b)) return false;
          const side = backwardSlice(ctx, fn, i, [...registersIn(fn, a), ...registersIn(fn, b)], { limit: 256 });
          if (side === undefined) return false;
          const tile = [...side].some((d) => blockSregs(fn, fn.instructions[d]!.node).some((n) => blockNames.has(n)));
          return tile && [...side].some((d) => !slice.has(d) && fn.instructions[d]!.node.opcode === 'ld' && spaceOf(fn.instructions[d]!.node) === '.param');
        };
        const guarded = protections(ctx, fn, ins.index).some(({ comparison: c }) =>
          direct(c.index, c.a, c.b) || (fromIndex(c.index, c.a) && testedBound(c.index, c.b)) || (fromIndex(c.index, c.b) && testedBound(c.index, c.a))
          || tileTest(c.index, c.a, c.b));
        if (guarded) continue;
        const steps = [...slice].filter((d) => d >= seeds[0]!).sort((a, b) => a - b).slice(0, 8);
        out.push({
          message: `${mnemonic(node)} writes to an address computed from the thread index (line ${fn.instructions[seeds[0]!]!.node.range.line}) with no test of that index against a bound`,
          ...at(ctx, fn, ins.index),
          chain: [...steps.map((d) => stepAt(ctx, fn, d)), stepAt(ctx, fn, ins.index)],
        });
      }
    }
    if (judged === 0) return na('no thread-indexed global store');
    return found(out);
  },
};

/** The special registers matching `names` an instruction reads, by name with component (`%tid.x`). */
function sregsRead(fn: FunctionModel, node: A.Instruction, names: RegExp): string[] {
  const out: string[] = [];
  for (const o of node.operands) {
    if (o.kind !== 'Name') continue;
    const s = fn.resolve(o);
    if (s?.kind === 'sreg' && names.test(s.name)) out.push(o.component === undefined ? s.name : `${s.name}.${o.component}`);
  }
  return out;
}

/** The %tid.x/y/z and %laneid an instruction reads. */
function threadSregs(fn: FunctionModel, node: A.Instruction): string[] {
  return sregsRead(fn, node, /^%(tid|laneid)$/);
}

/** The block indices (%ctaid.x/y/z, cluster ids) an instruction reads. */
function blockSregs(fn: FunctionModel, node: A.Instruction): string[] {
  return sregsRead(fn, node, /^%(ctaid|clusterid|cluster_ctaid)$/);
}

/** A comparison side that reads %tid/%laneid directly while the address slice reads it too. */
function isSeedSreg(fn: FunctionModel, e: A.Expression, slice: ReadonlySet<number>): boolean {
  if (e.kind !== 'Name') return false;
  const s = fn.resolve(e);
  if (s?.kind !== 'sreg' || !/^%(tid|laneid)/.test(s.name)) return false;
  for (const d of slice) {
    const node = fn.instructions[d]!.node;
    if (node.operands.some((o) => o.kind === 'Name' && o.name === e.name && o.component === e.component)) return true;
  }
  return false;
}

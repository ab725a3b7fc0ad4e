// F048: the destination of an asynchronous copy is read before the copy is
// known to be complete: a `cp.async` without `cp.async.wait_group`/`wait_all`
// (or an mbarrier wait) first, a `cp.async.bulk` without a wait on its mbarrier.
import type { FunctionModel } from '../cfg/symbols.js';
import { sharedRacesAnalysis, type SharedAccess } from './shared-races.js';
import { constValue, syncFactsAnalysis } from './sync-facts.js';
import { hasSharedVariables } from './race-findings.js';
import type { CheckContext, Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Max (block, commits) states explored per copy. */
const MAX_STATES = 20000;

export const F048: Check = {
  meta: {
    id: 'F048',
    name: 'async-copy-wait',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'A `cp.async` destination is read before `cp.async.wait_group`/`wait_all` (or an mbarrier wait), or a `cp.async.bulk` destination is read without waiting on its mbarrier.',
    rationale: 'An asynchronous copy lands in shared memory at some later time: a read before the wait sees old data at random. '
      + 'A barrier alone does not wait for the copies.',
    remedy: 'Commit the copies and wait for them (`cp.async.commit_group` then `cp.async.wait_group N`, with N counting only the groups '
      + 'still allowed in flight; CUDA: `__pipeline_wait_prior(N)`, `cuda::pipeline::consumer_wait`), then `__syncthreads()` when other '
      + 'threads read them; for `cp.async.bulk`, wait on the mbarrier it completes (`mbarrier.try_wait`).',
    notes: '`cp.async` (non-bulk): from each copy, paths are followed while counting `cp.async.commit_group`s passed; a '
      + '`cp.async.wait_group N` ends the path once more than N groups were committed after the copy (the copy\'s group is done), '
      + '`cp.async.wait_all` and an `mbarrier.try_wait`/`test_wait` (the `cp.async.mbarrier.arrive` protocol) always end it. A shared '
      + 'load reached on a path not ended fails when its bytes may overlap the copy\'s destination, by the same thread or another '
      + '(the thread-overlap test of F036, the copy\'s size from its operand). `cp.async.bulk`/`cp.async.bulk.tensor` into shared '
      + 'memory: a shared load of the same variable reached with no mbarrier wait on the path fails (the copied extent is not '
      + 'modelled, so any element of the destination variable counts). A missing barrier between the wait and other threads\' '
      + 'reads is F036\'s (read after write).',
    examples: {
      fails: '.version 8.0\n.target sm_80\n.address_size 64\n.entry k(.param .u64 src)\n.reqntid 64, 1, 1\n{\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<5>;\n\t.shared .align 16 .b8 buf[1024];\n'
        + '\tld.param.u64 %rd1, [src];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 4;\n\tmov.u32 %r3, buf;\n\tadd.s32 %r4, %r3, %r2;\n'
        + '\tcvt.u64.u32 %rd3, %r2;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tcp.async.cg.shared.global [%r4], [%rd4], 16;\n\tcp.async.commit_group;\n\tld.shared.u32 %r1, [%r4];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_80\n.address_size 64\n.entry k(.param .u64 src)\n.reqntid 64, 1, 1\n{\n\t.reg .b32 %r<5>;\n\t.reg .b64 %rd<5>;\n\t.shared .align 16 .b8 buf[1024];\n'
        + '\tld.param.u64 %rd1, [src];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 4;\n\tmov.u32 %r3, buf;\n\tadd.s32 %r4, %r3, %r2;\n'
        + '\tcvt.u64.u32 %rd3, %r2;\n\tadd.s64 %rd4, %rd2, %rd3;\n\tcp.async.cg.shared.global [%r4], [%rd4], 16;\n\tcp.async.commit_group;\n\tcp.async.wait_group 0;\n\tld.shared.u32 %r1, [%r4];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => fn.instructions.some((i) => i.node.opcode === 'cp' && i.node.modifiers.includes('.async') && !i.node.modifiers.some((m) => m.startsWith('.wait') || m === '.commit_group' || m === '.mbarrier')));
    if (fns.length === 0 || !hasSharedVariables(ctx)) return na('no asynchronous copy into shared memory in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) out.push(...judge(ctx, fn));
    return found(out);
  },
};

function judge(ctx: CheckContext, fn: FunctionModel): Omit<Finding, 'id' | 'severity'>[] {
  const out: Omit<Finding, 'id' | 'severity'>[] = [];
  const facts = ctx.analysis.get(fn, syncFactsAnalysis);
  const races = ctx.analysis.get(fn, sharedRacesAnalysis);
  const cfg = facts.cfg;
  const ins = fn.instructions;
  const loads = races.accesses.filter((a) => a.kind === 'load');
  const loadAt = new Map(loads.map((a) => [a.index, a] as const));
  let maxN = 0;
  for (const i of ins) {
    const n = i.node;
    if (n.opcode === 'cp' && n.modifiers.includes('.wait_group') && !n.modifiers.includes('.bulk')) maxN = Math.max(maxN, Math.min(8, constValue(n.operands[0]) ?? 8));
  }
  const cap = maxN + 1;
  const reported = new Set<number>();
  for (const copy of ins) {
    const n = copy.node;
    if (n.opcode !== 'cp' || !n.modifiers.includes('.async') || n.modifiers.some((m) => m.startsWith('.wait') || m === '.commit_group' || m === '.mbarrier')) continue;
    const bulk = n.modifiers.includes('.bulk');
    if (bulk && (n.modifiers.includes('.prefetch') || !n.modifiers.some((m) => m.startsWith('.shared')))) continue;
    if (bulk && n.modifiers.findIndex((m) => m.startsWith('.shared')) > n.modifiers.findIndex((m) => m === '.global')) continue; // shared → global
    const dst: SharedAccess | undefined = races.accessAt.get(copy.index);
    const dstRegion = bulk ? (() => {
      const f = facts.affine().addressOf(copy.index, 0);
      return f === undefined ? undefined : facts.affine().baseOf(f).base?.variable.name;
    })() : dst?.region;
    if (dstRegion === undefined) continue;
    // Walk (instruction, commits since the copy).
    const ends = (i: number, commits: number): boolean => {
      const m = ins[i]!.node;
      if (m.opcode === 'mbarrier' && (m.modifiers.includes('.try_wait') || m.modifiers.includes('.test_wait'))) return true;
      if (bulk || m.opcode !== 'cp' || m.modifiers.includes('.bulk')) return false;
      if (m.modifiers.includes('.wait_all')) return true;
      if (m.modifiers.includes('.wait_group')) return commits > (constValue(m.operands[0]) ?? Infinity);
      return false;
    };
    const commitAt = (i: number): boolean => !bulk && ins[i]!.node.opcode === 'cp' && ins[i]!.node.modifiers.includes('.commit_group') && !ins[i]!.node.modifiers.includes('.bulk');
    const seen = new Set<number>();
    const work: [number, number, number][] = []; // [block, start index, commits]
    const b0 = cfg.blockOf[copy.index]!;
    work.push([b0, copy.index + 1, 0]);
    let hit: number | undefined;
    let states = 0;
    while (work.length > 0 && hit === undefined && states++ < MAX_STATES) {
      const [b, from, c0] = work.pop()!;
      const blk = cfg.blocks[b]!;
      let c = c0;
      let stopped = false;
      for (let i = from; i < blk.end; i++) {
        if (i === copy.index && from !== copy.index + 1) { stopped = true; break; } // the copy again: a new one
        if (ends(i, c)) { stopped = true; break; }
        if (commitAt(i)) c = Math.min(cap, c + 1);
        const l = loadAt.get(i);
        if (l !== undefined && l.region === dstRegion) {
          if (bulk || dst === undefined) { hit = i; break; }
          const o = races.overlap(dst, l);
          if (o.kind === 'cross-thread' || o.kind === 'same-thread-only') { hit = i; break; }
        }
      }
      if (stopped || hit !== undefined) continue;
      for (const s of blk.succs) {
        if (s === cfg.exit) continue;
        const key = s * (cap + 1) + c;
        if (seen.has(key)) continue;
        seen.add(key);
        work.push([s, cfg.blocks[s]!.start, c]);
      }
    }
    if (hit === undefined || reported.has(hit)) continue;
    reported.add(hit);
    const ln = ins[hit]!.node;
    out.push({
      message: `${ln.opcode}${ln.modifiers.join('')} at line ${ln.range.line} reads shared memory that ${n.opcode}${n.modifiers.join('')} at line ${n.range.line} copies asynchronously, `
        + (bulk ? 'on a path with no wait on the copy\'s mbarrier' : 'on a path with no cp.async.wait_group/wait_all covering the copy\'s group')
        + ': it may read the old contents',
      location: ctx.locate(ln.range, fn, hit), function: fn.name,
      related: [{ location: ctx.locate(n.range, fn, copy.index), message: 'the asynchronous copy' }],
    });
  }
  return out;
}

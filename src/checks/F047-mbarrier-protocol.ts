// F047: an mbarrier used against its protocol: waited on but never
// initialized in the kernel, initialized by one thread and used by others with
// no `fence.mbarrier_init` or barrier between, or armed with `expect_tx` bytes
// that no transaction source ever completes.
import type { FunctionModel } from '../cfg/symbols.js';
import { cutFreeReach, singleThread, syncFactsAnalysis, type SyncFacts } from './sync-facts.js';
import type { CheckContext, Check, Finding } from './types.js';
import { found, na } from './types.js';

type Role = 'init' | 'wait' | 'arrive' | 'expect' | 'complete' | 'other';

interface MbarOp { index: number; role: Role; region: string | undefined; which: number }

/** The mbarrier operand and the role of an instruction, if it uses one. */
function mbarOp(fn: FunctionModel, i: number): { role: Role; which: number } | undefined {
  const n = fn.instructions[i]!.node;
  const m = n.modifiers;
  const addrs = n.operands.filter((o) => o.kind === 'Address').length;
  if (n.opcode === 'mbarrier') {
    if (m.includes('.pending_count')) return undefined;
    const role: Role = m.includes('.init') ? 'init' : m.includes('.try_wait') || m.includes('.test_wait') ? 'wait'
      : m.includes('.expect_tx') ? 'expect' : m.includes('.complete_tx') ? 'complete' : m.includes('.arrive') || m.includes('.arrive_drop') ? 'arrive' : 'other';
    return addrs === 0 ? undefined : { role, which: 0 };
  }
  if (n.opcode === 'cp' && m.includes('.mbarrier') && m.includes('.arrive')) return addrs === 0 ? undefined : { role: 'arrive', which: 0 };
  if (m.some((x) => x.startsWith('.mbarrier::complete_tx'))) return addrs === 0 ? undefined : { role: 'complete', which: addrs - 1 };
  return undefined;
}

function mbarOps(facts: SyncFacts, fn: FunctionModel): MbarOp[] {
  const out: MbarOp[] = [];
  for (const ins of fn.instructions) {
    const op = mbarOp(fn, ins.index);
    if (op === undefined) continue;
    const f = facts.affine().addressOf(ins.index, op.which);
    const base = f === undefined ? undefined : facts.affine().baseOf(f).base;
    out.push({ index: ins.index, role: op.role, which: op.which, region: base === undefined ? undefined : base.variable.name });
  }
  return out;
}

export const F047: Check = {
  meta: {
    id: 'F047',
    name: 'mbarrier-protocol',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'An `mbarrier` is waited on but never initialized in the kernel, is initialized without `fence.mbarrier_init`/a barrier before other threads use it, or `expect_tx` bytes never get a matching `complete_tx` source.',
    rationale: 'An mbarrier is a shared-memory object with a phase and a pending count: waiting on garbage, or arriving before the '
      + 'initializing thread\'s `mbarrier.init` is visible, corrupts the phase; bytes announced with `expect_tx` that no copy completes '
      + 'keep the phase open forever (a hang).',
    remedy: 'Initialize each mbarrier once (one thread), then `fence.mbarrier_init.release.cluster` (for TMA users) and `__syncthreads()` '
      + 'before any other thread arrives or waits; arm `expect_tx` only for bytes a `cp.async.bulk` (or `mbarrier.complete_tx`) will deliver to that barrier.',
    notes: 'mbarriers are identified by the shared variable their address is based on (affine address; unknown addresses are left '
      + 'alone, and an `mbarrier.init` at an unknown address counts as initializing every mbarrier). Uses: `mbarrier.arrive`/'
      + '`arrive_drop`/`expect_tx`/`complete_tx`/`try_wait`/`test_wait`, `cp.async.mbarrier.arrive`, and the mbarrier operand of '
      + '`.mbarrier::complete_tx::bytes` copies and stores. (1) A wait on a variable no `mbarrier.init` of the function initializes. '
      + '(2) An init run by a single thread (its `%tid` guards) reaching a use run by other threads on a path with no '
      + '`fence.mbarrier_init`, barrier (`bar.sync`/`barrier.sync`/`bar.red`) or `barrier.cluster.wait`. (3) An `expect_tx` '
      + '(`mbarrier.expect_tx`, `mbarrier.arrive.expect_tx`) on a variable no complete-tx source of the function names. Per '
      + 'function: an mbarrier initialized in one kernel and used in a device function it calls is not related (no interprocedural facts).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b64 %rd<2>;\n\t.shared .align 8 .b64 bar;\n'
        + '\tmbarrier.arrive.shared::cta.b64 %rd1, [bar];\n$W:\n\tmbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd1;\n\t@!%p1 bra $W;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\t.shared .align 8 .b64 bar;\n'
        + '\tmov.u32 %r1, %tid.x;\n\tsetp.eq.u32 %p2, %r1, 0;\n\t@%p2 mbarrier.init.shared::cta.b64 [bar], 32;\n\tbar.sync 0;\n'
        + '\tmbarrier.arrive.shared::cta.b64 %rd1, [bar];\n$W:\n\tmbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd1;\n\t@!%p1 bra $W;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const fns = ctx.functions.filter((fn) => fn.instructions.some((i) => mbarOp(fn, i.index) !== undefined));
    if (fns.length === 0) return na('no mbarrier in the module');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of fns) out.push(...judge(ctx, fn));
    return found(out);
  },
};

function judge(ctx: CheckContext, fn: FunctionModel): Omit<Finding, 'id' | 'severity'>[] {
  const out: Omit<Finding, 'id' | 'severity'>[] = [];
  const facts = ctx.analysis.get(fn, syncFactsAnalysis);
  const ops = mbarOps(facts, fn);
  const ins = fn.instructions;
  const at = (i: number) => ctx.locate(ins[i]!.node.range, fn, i);
  const text = (i: number): string => `${ins[i]!.node.opcode}${ins[i]!.node.modifiers.join('')}`;
  const inits = ops.filter((o) => o.role === 'init');
  const anyUnknownInit = inits.some((o) => o.region === undefined);
  const initRegions = new Set(inits.map((o) => o.region));
  // (1) waits on never-initialized mbarriers.
  if (!anyUnknownInit) {
    const seen = new Set<string>();
    for (const o of ops) {
      if (o.role !== 'wait' || o.region === undefined || initRegions.has(o.region) || seen.has(o.region)) continue;
      seen.add(o.region);
      out.push({
        message: `${text(o.index)} at line ${ins[o.index]!.node.range.line} waits on mbarrier ${o.region}, which no mbarrier.init in ${fn.name} initializes: its phase and count are garbage`,
        location: at(o.index), function: fn.name,
      });
    }
  }
  // (2) a single-thread init reaching other threads' uses with nothing in between.
  const isCut = (i: number): boolean => {
    const op = facts.ops[i];
    if (op === 'barrier' || op === 'cluster-wait') return true;
    return op === 'fence' && ins[i]!.node.modifiers.includes('.mbarrier_init');
  };
  const uses = ops.filter((o) => o.role !== 'init');
  const reach = cutFreeReach(facts.cfg, isCut, inits.map((o) => o.index), uses.map((o) => o.index));
  for (const init of inits) {
    const box = facts.threadBox(init.index);
    if (!singleThread(box)) continue;
    const use = (reach.get(init.index) ?? [])
      .map((u) => uses.find((o) => o.index === u)!)
      .find((u) => (u.region === init.region || u.region === undefined || init.region === undefined) && !sameSingleThread(box, facts.threadBox(u.index)));
    if (use === undefined) continue;
    out.push({
      message: `${text(init.index)} at line ${ins[init.index]!.node.range.line} is run by one thread, and ${text(use.index)} at line ${ins[use.index]!.node.range.line} by other threads `
        + `may use the mbarrier with no fence.mbarrier_init or barrier between: they can see it uninitialized`,
      location: at(use.index), function: fn.name,
      related: [{ location: at(init.index), message: 'the initialization' }],
    });
  }
  // (3) expect_tx with no complete_tx source.
  const sources = ops.filter((o) => o.role === 'complete');
  const anyUnknownSource = sources.some((o) => o.region === undefined);
  if (!anyUnknownSource) {
    const sourceRegions = new Set(sources.map((o) => o.region));
    const seen = new Set<string>();
    for (const o of ops) {
      const n = ins[o.index]!.node;
      const expects = o.role === 'expect' || (n.opcode === 'mbarrier' && n.modifiers.includes('.expect_tx'));
      if (!expects || o.region === undefined || sourceRegions.has(o.region) || seen.has(o.region)) continue;
      seen.add(o.region);
      out.push({
        message: `${text(o.index)} at line ${n.range.line} announces transaction bytes on mbarrier ${o.region}, but no cp.async.bulk / mbarrier.complete_tx of ${fn.name} completes any on it: the phase never completes`,
        location: at(o.index), function: fn.name,
      });
    }
  }
  return out;
}

function sameSingleThread(a: { x: readonly number[]; y: readonly number[]; z: readonly number[] }, b: { x: readonly number[]; y: readonly number[]; z: readonly number[] }): boolean {
  return a.x[0] === b.x[0] && a.x[1] === b.x[1] && a.y[0] === b.y[0] && a.y[1] === b.y[1] && a.z[0] === b.z[0] && a.z[1] === b.z[1];
}

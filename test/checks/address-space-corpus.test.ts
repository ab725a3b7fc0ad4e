// THE GATE for F021–F035, F081–F083 and F090: on real code (nvcc output of the
// CUDA corpus for sm_75/80/90/90a and some -G builds, llc output of the LLVM
// corpus, Triton output, every committed fixture but the invalid corpus, the
// examples) these checks report nothing, except where an input really has a
// check's pattern: those are named below with the reason. F081 is advisory
// (info: hardware refuted the seeds' claim, and every block reduction has the
// shape), so its findings are allowed anywhere but must stay at info.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';

const IDS = [
  'F021', 'F022', 'F023', 'F024', 'F025', 'F026', 'F027', 'F028', 'F029', 'F030', 'F031', 'F032', 'F033', 'F034', 'F035',
  'F081', 'F082', 'F083', 'F090',
];
const ADVISORY = new Set(['F081']);

const HANDWRITTEN_RAW_POINTERS = [
  'alu_cvt_sm90', 'async_proxy_sm90a', 'blocksareclusters_ptx90', 'calls_branches_linkage', 'control_sreg_misc_sm80',
  'debug_sections_loc', 'fp8_sm89', 'immediates_addressing', 'initializers_constexpr', 'lexical_crlf', 'mbarrier_sm90',
  'memory_atomics_sm80', 'mma_ldmatrix_sm90', 'perf_directives_sm90', 'scopes_names_regs', 'tcgen05_sm100a',
  'texture_independent', 'texture_unified', 'tma_bulk_tensor_sm90', 'warp_cluster_sm90',
].map((f) => `fixtures/corpus/handwritten/${f}.ptx`);

/** Inputs that really have a check's pattern: input → check → why. */
const EXPECTED: ReadonlyMap<string, Readonly<Record<string, string>>> = new Map<string, Record<string, string>>([
  ...['fixtures/corpus/llvm/ptx/atomics_memory.sm_80.ptx', 'fixtures/corpus/llvm/ptx/atomics_memory.sm_80.O0.ptx',
    'llvm/atomics_memory.ll@sm_75', 'llvm/atomics_memory.ll@sm_80', 'llvm/atomics_memory.ll@sm_86'].map((name): [string, Record<string, string>] => [name, {
    F021: 'the IR casts a shared pointer to generic (addrspacecast) and calls the generic-address intrinsic llvm.nvvm.atomic.add.gen.i.cta on it: a generic atomic on a cvta.shared address, as written',
  }]),
  ...HANDWRITTEN_RAW_POINTERS.map((name): [string, Record<string, string>] => [name, {
    F029: 'hand-written parser fixture that addresses kernel pointer parameters with .global directly, without cvta.to.global',
  }]),
  ['fixtures/corpus/handwritten/immediates_addressing.ptx', {
    F028: 'the [reg+-imm] addressing form is exercised as ld.shared [%r27+-4] with %r27 = stile: 4 bytes before the array',
    F029: 'hand-written parser fixture that addresses kernel pointer parameters with .global directly, without cvta.to.global',
  }],
  ['fixtures/corpus/handwritten/wgmma_sm90a.ptx', {
    F035: 'smem_tiles is declared for the wgmma descriptors, which are built from constants and never name it',
  }],
  ['fixtures/gpu/crash-markers.ptx', {
    F029: 'hand-written instrumented kernel that stores through its raw pointer parameters (the null store is the point of the fixture)',
  }],
]);

const compiled = await compiledCorpus();
for (const why of compiled.skipped) console.warn(`[address-space corpus] ${why}`);
const inputs = [...committedPtx(), ...committedPtx('examples'), ...compiled.inputs];

describe('address-space and loaded-value checks on real code', () => {
  it('covers the checks, the compiled corpus, Triton, llc and the fixtures', () => {
    const built = new Set(CHECKS.map((c) => c.meta.id as string));
    expect(IDS.filter((id) => !built.has(id))).toEqual([]);
    expect(inputs.some((i) => i.name.startsWith('fixtures/corpus/triton/'))).toBe(true);
    expect(inputs.some((i) => i.name.startsWith('examples/'))).toBe(true);
    if (compiled.skipped.length === 0) {
      expect(inputs.filter((i) => i.name.startsWith('cuda/')).length).toBeGreaterThanOrEqual(25 * 4);
      expect(inputs.filter((i) => i.name.startsWith('llvm/')).length).toBeGreaterThanOrEqual(5 * 3);
    }
  });

  it('names only inputs that exist', () => {
    const names = new Set(inputs.map((i) => i.name));
    const missing = [...EXPECTED.keys()].filter((n) => !names.has(n) && (compiled.skipped.length === 0 || !/^(cuda|llvm)\//.test(n)));
    expect(missing).toEqual([]);
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s', (name, input) => {
    const parsed = parsePtx(input.text);
    expect(parsed.errors).toEqual([]);
    const report = runChecks(parsed.module, input.text, { only: IDS });
    const expected = EXPECTED.get(name) ?? {};
    const mine = report.outcomes.filter((o) => IDS.includes(o.id));
    const unexpected = mine
      .filter((o) => !(o.id in expected) && !ADVISORY.has(o.id))
      .flatMap((o) => o.findings.map((f) => `${o.id} line ${f.location.line}: ${f.message}`));
    expect(unexpected).toEqual([]);
    // A named pattern must really be found (the table cannot go stale).
    for (const id of Object.keys(expected)) expect(mine.find((o) => o.id === id)?.status, `${id} on ${name}`).toBe('fail');
    // Advisory findings stay advisory in the default profile.
    const advisorySeverities = mine.filter((x) => ADVISORY.has(x.id)).flatMap((o) => o.findings.map((f) => f.severity));
    expect(advisorySeverities.filter((s) => s !== 'info')).toEqual([]);
    const crashed = mine.filter((o) => o.status === 'na' && (o.reason ?? '').startsWith('the check failed'));
    expect(crashed.map((o) => `${o.id}: ${o.reason ?? ''}`)).toEqual([]);
  });
});

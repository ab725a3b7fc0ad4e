// A large module is checked part by part (runChecks: per-function checks run
// on parts of about CHUNK_BYTES bytes of function bodies, each part with its own
// facts, dropped after it). That must change nothing: on every module of the
// corpus with more than one function, checking each function as its own part
// gives exactly the outcomes of checking the module whole; and a module-level
// statement is judged once, not once per part. The same when the parts are
// checked as part threads check them: each part on a tree of its own (its
// bodies and its callees'), the module-level checks joined from the parts'
// summaries on a tree of the declarations alone, the report's outline from what
// the parts sent.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { bodiesOf, planParts, reportOfParts } from '../../src/checks/parallel.js';
import { checkOnePart } from '../../src/checks/part-check.js';
import { EarlyPrints } from '../../src/checks/early-prints.js';
import { prepareRun, runChecks } from '../../src/checks/run.js';
import type { CheckOutcome } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';

const compiled = await compiledCorpus();
const inputs = [...committedPtx(), ...committedPtx('examples'), ...compiled.inputs].filter((i) => {
  const p = parsePtx(i.text);
  return p.errors.length === 0 && p.module.statements.filter((s) => s.kind === 'Function' && s.body !== null).length > 1;
});

const signature = (o: CheckOutcome): string => `${o.id} ${o.status} ${o.reason ?? ''} `
  + o.findings.map((f) => `${f.location.line}:${f.location.column} ${f.message} ${f.fingerprint ?? ''}`).join(' | ');

// Three kernels, one part each at one instruction a part: a deprecated function directive (F087) and one
// newer than the .version (F008). Both were once reported once per part.
const directives = `.version 7.0
.target sm_90
.address_size 64
.visible .entry k()
.maxnctapersm 2
{
\tret;
}
.visible .entry j()
{
\tret;
}
.visible .entry m()
.reqnctapercluster 2, 1, 1
{
\tret;
}
`;

describe('checking a module part by part changes nothing', () => {
  it('reports a function directive once, not once per part', () => {
    const parsed = parsePtx(directives);
    expect(parsed.errors).toEqual([]);
    const report = runChecks(parsed.module, directives, { chunkBytes: 1, only: ['F008', 'F087'] });
    const lines = (id: string): number[] => report.outcomes.find((o) => o.id === id)!.findings.map((f) => f.location.line);
    expect(lines('F087')).toEqual([5]);
    expect(lines('F008')).toEqual([14]);
  });

  it('has multi-function modules to compare', () => {
    expect(inputs.length).toBeGreaterThanOrEqual(compiled.skipped.length === 0 ? 20 : 5);
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, input) => {
    const parsed = parsePtx(input.text);
    const whole = runChecks(parsed.module, input.text, { chunkBytes: Infinity });
    const parts = runChecks(parsed.module, input.text, { chunkBytes: 1 });
    expect(parts.outcomes.map(signature)).toEqual(whole.outcomes.map(signature));
    expect(parts.score).toEqual(whole.score);
  });
});

const byId = new Map(CHECKS.map((c) => [c.meta.id as string, c]));

/** The report of `text` checked as part threads check it (one part per function), on this thread; with
 *  `prints`, fingerprints made as each part comes, as `analyzeTextInParts` makes them (file `FILE`). */
function asPartThreads(text: string, prints?: (p: EarlyPrints) => void): ReturnType<typeof runChecks> | undefined {
  const planned = planParts(text, { chunkBytes: 1 });
  if (planned === undefined) return undefined;
  const declarations = parsePtx(text, { skipBodies: bodiesOf(planned) });
  expect(declarations.errors).toEqual([]);
  expect(declarations.module.statements.some((s) => s.kind === 'Function' && s.body !== null)).toBe(false);
  const { work } = planned;
  const checks = work.checks.map((id) => byId.get(id)!);
  const split = work.split.map((id) => byId.get(id)!);
  const messages = work.parts.map((_, i) => checkOnePart(work, checks, split, i));
  if (prints === undefined) return reportOfParts(prepareRun(declarations.module, text, { chunkBytes: 1 }), planned, messages);
  const early = new EarlyPrints(text, FILE, work.bodies);
  for (const m of messages) early.add(m, work.parts[m.part]!);
  prints(early);
  return reportOfParts(prepareRun(declarations.module, text, { chunkBytes: 1, file: FILE }), planned, messages, undefined, early);
}

const FILE = 'kernel.ptx';

// Module-level findings of every split check across parts: a body's non-ASCII comment (F010), a label twice
// (F004), a directive newer than .version in a body (F008), recursion through a callee in another part (F064),
// shared memory over the limit through a callee (F034), unused shared variables (F035), an arrive no kernel
// waits on, in a device function two kernels call (F040, reported once), a call with the wrong argument (F066),
// and suppressions inside bodies and across functions.
const acrossParts = `.version 7.0
.target sm_90
.address_size 64
// ptx-debug-disable F035 -- módulo
.shared .align 4 .b8 unused_global[16];
// ptx-debug-enable F035
.shared .align 4 .b8 big[40000];
.shared .align 4 .b8 unused_too[8];
.func (.param .b32 r) rec(.param .b32 n);
.func helper()
{
	.shared .align 4 .b8 more[12000];
	.reg .b32 %r<2>;
	.reg .b64 %rd<2>;
	mov.u64 %rd1, more;
	st.shared.u32 [%rd1], 1;
	bar.arrive 3, 64;
	ret;
}
.func (.param .b32 r) rec(.param .b32 n)
{
	.reg .b32 %r<3>;
	ld.param.u32 %r1, [n];
	{
	.param .b32 a;
	.param .b32 b;
	st.param.b32 [a], %r1;
	call (b), rec, (a);
	}
	st.param.b32 [r], %r1;
	ret;
}
.visible .entry k1()
{
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	// a comment with a non-ASCII character: é
	mov.u64 %rd1, big;
	st.shared.u32 [%rd1], 1;
	call helper, ();
L1:
	// ptx-debug-disable-next-line F004
L1:
	ret;
}
.visible .entry k2()
{
	.reg .b32 %r<3>;
	.reg .b16 %h<2>;
	call helper, ();
	{
	.param .b16 a;
	.param .b32 b;
	st.param.b16 [a], %h1;
	call (b), rec, (a);
	}
	ret;
}
`;

describe('checking the parts as part threads do changes nothing', () => {
  it('joins the module-level checks across parts as on the whole module', () => {
    const parsed = parsePtx(acrossParts);
    expect(parsed.errors).toEqual([]);
    const whole = runChecks(parsed.module, acrossParts, { chunkBytes: Infinity });
    const threads = asPartThreads(acrossParts)!;
    expect(threads.outcomes.map(signature)).toEqual(whole.outcomes.map(signature));
    expect(threads.kernels).toEqual(whole.kernels);
    const ids = (r: typeof whole): string[] => [...new Set(r.findings.map((f) => f.id))].sort();
    expect(ids(whole)).toEqual(expect.arrayContaining(['F004', 'F010', 'F034', 'F035', 'F040', 'F064', 'F066']));
    // Suppressed: inside a body (F004), and across functions (F035's unused_global).
    expect(whole.findings.filter((f) => f.suppressed !== undefined).map((f) => `${f.id}:${f.location.line}`)).toEqual(['F035:5', 'F004:43']);
    expect(whole.findings.filter((f) => f.id === 'F040')).toHaveLength(1);
  });

  it('makes the fingerprints of a function\'s findings as its part comes, the same as the report\'s', () => {
    const whole = runChecks(parsePtx(acrossParts).module, acrossParts, { chunkBytes: 1, file: FILE });
    let made = 0;
    const threads = asPartThreads(acrossParts, (p) => { made = p.made; })!;
    expect(threads.findings.map((f) => f.fingerprint)).toEqual(whole.findings.map((f) => f.fingerprint));
    // The split checks' findings are joined on this thread, after the parts; the others' are made early.
    const functionLevel = whole.findings.filter((f) => f.function !== undefined && byId.get(f.id)!.split === undefined);
    expect(functionLevel.length).toBeGreaterThan(0);
    expect(made).toBe(functionLevel.length);
  });

  it('leaves a function whose findings share a line with another function\'s body to the report', () => {
    // Two kernels on one line: what stands on it is the first kernel's instruction, which the second's part
    // lacks. Each kernel's mov to a register it never reads is a dead store (F073).
    const oneLine = `.version 7.0
.target sm_90
.address_size 64
.visible .entry a() { .reg .b32 %r<2>; mov.u32 %r1, 1; ret; } .visible .entry b() { .reg .b32 %r<2>; mov.u32 %r1, 2; ret; }
.visible .entry c()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, 3;
	ret;
}
`;
    const whole = runChecks(parsePtx(oneLine).module, oneLine, { chunkBytes: 1, file: FILE });
    let made = -1;
    const threads = asPartThreads(oneLine, (p) => { made = p.made; })!;
    expect(threads.findings.map((f) => `${f.id} ${f.location.line} ${f.fingerprint}`)).toEqual(whole.findings.map((f) => `${f.id} ${f.location.line} ${f.fingerprint}`));
    // c's findings were made early, a's and b's (line 4) by the report.
    const early = whole.findings.filter((f) => f.function === 'c').length;
    expect(early).toBeGreaterThan(0);
    expect(whole.findings.filter((f) => f.location.line === 4).map((f) => f.function)).toEqual(expect.arrayContaining(['a', 'b']));
    expect(made).toBe(early);
  });

  it('has modules that part threads would check', () => {
    // (Each below returns early for a module planParts gives no threads: these must be most of them.)
    const planned = inputs.filter((i) => planParts(i.text, { chunkBytes: 1 }) !== undefined);
    expect(planned.length).toBeGreaterThanOrEqual(compiled.skipped.length === 0 ? 20 : 5);
  });

  // (With fingerprints made as the parts come, src/checks/early-prints.ts: the same as the report makes.)
  it.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, input) => {
    const threads = asPartThreads(input.text, () => undefined);
    if (threads === undefined) return;
    const whole = runChecks(parsePtx(input.text).module, input.text, { chunkBytes: 1, file: FILE });
    expect(threads.outcomes.map(signature)).toEqual(whole.outcomes.map(signature));
    expect(threads.kernels).toEqual(whole.kernels);
    expect(threads.score).toEqual(whole.score);
  });
});

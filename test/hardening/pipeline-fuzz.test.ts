// The whole pipeline never lets an exception escape (issue 13): parse, the
// engine, every check and every report format, on mutated real fixtures and
// on generated programs (random control flow with loops, guards, barriers,
// shared and global accesses, shuffles and atomics). Each input yields
// either a report or a clean input error; no check may fail on it ("the
// check failed on this input" would mean a crash caught by the runner).
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeText, summarize, type FileAnalysis } from '../../src/analyze.js';
import { formatHtml } from '../../src/report/html.js';
import { formatJson } from '../../src/report/json.js';
import { formatJunit } from '../../src/report/junit.js';
import { formatSarif } from '../../src/report/sarif.js';
import { formatText } from '../../src/report/text.js';
import { formatTsv } from '../../src/report/tsv.js';
import { listFiles } from '../helpers/corpus.js';

/** Fixed for CI (reproducible); FUZZ_SEED and FUZZ_RUNS explore further. */
const SEED = Number(process.env['FUZZ_SEED'] ?? 20261122);
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 300);

const seeds = [
  ...listFiles('fixtures/corpus/handwritten', '.ptx'),
  ...listFiles('fixtures/corpus/triton', '.ptx'),
  ...listFiles('fixtures/gpu', '.ptx'),
  'examples/block-reduce.ptx',
].map((f) => readFileSync(f, 'utf8')).filter((t) => t.length < 60_000);

/** Runs every stage on one input; returns what went wrong, if anything. */
function pipeline(text: string): FileAnalysis {
  const r = analyzeText(text, 'fuzz.ptx', {});
  if (r.report === undefined) {
    expect(r.error?.message).toMatch(/syntax error|not analyzed/);
    expect(r.exitCode).toBe(4);
  } else {
    const crashed = r.report.outcomes.filter((o) => o.status === 'na' && (o.reason ?? '').startsWith('the check failed'));
    expect(crashed.map((o) => `${o.id}: ${o.reason ?? ''}`), text).toEqual([]);
  }
  const result = summarize([r]);
  for (const out of [
    formatText(result, { source: () => undefined, falsify: true, color: false, quiet: false }),
    formatJson(result, '0.0.0-fuzz'), formatSarif(result, { version: '0.0.0-fuzz' }), formatJunit(result), formatTsv(result),
  ]) expect(typeof out).toBe('string');
  return r;
}

type LineMutation = { kind: 'delete' | 'duplicate' | 'swap' | 'renumber'; at: number; to: number; value: number };
const lineMutation: fc.Arbitrary<LineMutation> = fc.record({
  kind: fc.constantFrom('delete', 'duplicate', 'swap', 'renumber'),
  at: fc.nat(), to: fc.nat(), value: fc.integer({ min: -3, max: 70000 }),
});

function mutate(text: string, muts: readonly LineMutation[]): string {
  const lines = text.split('\n');
  for (const m of muts) {
    if (lines.length === 0) break;
    const a = m.at % lines.length;
    const b = m.to % lines.length;
    if (m.kind === 'delete') lines.splice(a, 1);
    else if (m.kind === 'duplicate') lines.splice(b, 0, lines[a]!);
    else if (m.kind === 'swap') [lines[a], lines[b]] = [lines[b]!, lines[a]!];
    else lines[a] = lines[a]!.replace(/\b\d+\b/, String(m.value));
  }
  return lines.join('\n');
}

/** One generated kernel: straight-line pieces, labels, guarded branches forward and back. */
const STATEMENTS = [
  'mov.u32 %r1, %tid.x;', 'mov.u32 %r2, %ctaid.x;', 'mov.u32 %r3, %laneid;', 'add.s32 %r4, %r1, %r2;', 'mul.lo.s32 %r5, %r4, %r3;',
  'shl.b32 %r6, %r1, 2;', 'and.b32 %r7, %r5, 255;', 'shr.u32 %r8, %r1, 5;', 'mov.u32 %r9, smem;', 'add.s32 %r10, %r9, %r6;',
  'st.shared.u32 [%r10], %r4;', 'ld.shared.u32 %r11, [%r10+4];', 'ld.shared.u32 %r12, [%r9];', 'atom.shared.add.u32 %r13, [%r9], 1;',
  'bar.sync 0;', 'bar.warp.sync -1;', 'shfl.sync.down.b32 %r14, %r11, 16, 31, -1;', 'setp.lt.u32 %p1, %r1, 32;',
  'setp.eq.s32 %p2, %r11, 0;', 'ld.param.u64 %rd1, [p0];', 'cvta.to.global.u64 %rd2, %rd1;', 'mul.wide.u32 %rd3, %r4, 4;',
  'add.s64 %rd4, %rd2, %rd3;', 'st.global.u32 [%rd4], %r11;', 'ld.global.u32 %r15, [%rd4];', 'atom.global.add.u32 %r16, [%rd2], %r11;',
  'cvta.shared.u64 %rd5, %rd3;', 'st.u32 [%rd5], %r1;', 'membar.gl;', 'fence.acq_rel.gpu;', 'ld.volatile.global.u32 %r17, [%rd2];',
  'mov.u32 %r18, %r19;', 'cvt.u64.u32 %rd6, %r18;', 'rem.u32 %r20, %r1, 7;', 'selp.b32 %r21, %r1, %r2, %p1;',
];
const piece = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...STATEMENTS) },
  { weight: 1, arbitrary: fc.nat(5).map((l) => `L${l}:`) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('@%p1 ', '@!%p1 ', '@%p2 ', ''), fc.nat(5)).map(([g, l]) => `${g}bra L${l};`) },
  { weight: 1, arbitrary: fc.constantFrom('@%p1 ret;', '@%p2 exit;', '@%p1 bar.sync 0;') },
);
const program = fc.tuple(fc.array(piece, { minLength: 1, maxLength: 60 }), fc.boolean()).map(([body, reqntid]) => {
  // Every branch target is defined exactly once: undefined or duplicate labels are F004/F005's business, not the engine's.
  const seen = new Set<string>();
  const code = body.map((s) => {
    if (!s.endsWith(':')) return s;
    if (seen.has(s)) return `// ${s}`;
    seen.add(s);
    return s;
  });
  const tail = Array.from({ length: 6 }, (_, l) => `L${l}:`).filter((l) => !seen.has(l));
  return [
    '.version 8.0', '.target sm_90', '.address_size 64',
    `.visible .entry gen(.param .u64 p0)${reqntid ? ' .reqntid 128, 1, 1' : ''}`, '{',
    '.reg .pred %p<3>;', '.reg .b32 %r<22>;', '.reg .b64 %rd<7>;', '.shared .align 4 .b8 smem[1024];',
    ...code, ...tail, 'ret;', '}', '',
  ].join('\n');
});

describe('whole-pipeline fuzz: parse, engine, every check, every report', () => {
  // Async properties: the event loop breathes between runs (vitest's worker must answer its RPC calls).
  it('mutated fixtures', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom(...seeds), fc.array(lineMutation, { minLength: 1, maxLength: 5 }), async (seed, muts) => {
      await Promise.resolve();
      pipeline(mutate(seed, muts));
    }), { numRuns: RUNS, seed: SEED });
  }, 300_000);

  it('generated programs', async () => {
    let findings = 0;
    await fc.assert(fc.asyncProperty(program, async (text) => {
      await new Promise((resolve) => setImmediate(resolve));
      const r = pipeline(text);
      expect(r.error?.diagnostics ?? [], text).toEqual([]);
      findings += r.report?.findings.length ?? 0;
    }), { numRuns: RUNS, seed: SEED });
    // The programs reach the checks (races, divergence, ... are found in them).
    expect(findings).toBeGreaterThan(RUNS);
  }, 300_000);

  it('HTML reports of a few of each', async () => {
    const texts = [...fc.sample(program, { numRuns: 3, seed: 7 }),
      ...fc.sample(fc.tuple(fc.constantFrom(...seeds), fc.array(lineMutation, { maxLength: 3 })), { numRuns: 3, seed: 7 }).map(([s, m]) => mutate(s, m))];
    for (const text of texts) {
      const html = await formatHtml(summarize([analyzeText(text, 'fuzz.ptx', {})]), { version: '0.0.0-fuzz' });
      expect(html).toContain('</html>');
    }
  }, 300_000);
});

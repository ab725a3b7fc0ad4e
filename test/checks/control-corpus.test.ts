// THE GATE for the control-flow, data-flow, known-pattern and instrumentation
// checks (F061–F079, F084–F089, F096–F100) on correct compiler output: nvcc
// output of the CUDA corpus (sm_75/80/90/90a, and -G for a sample), llc output
// of the LLVM corpus (sm_75/80/86) and its committed PTX, the committed Triton
// PTX, and examples/. No check of severity low or above may report there,
// except the true findings listed in fixtures/known-findings.json (each with
// why it is true), and
// info-level checks report only the facts listed in INFO (with reasons).
// Hand-written fixtures (fixtures/corpus/handwritten, fixtures/cfg,
// fixtures/gpu) exercise syntax and deliberate defects and are not part of it.
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { runChecks } from '../../src/checks/run.js';
import { SEVERITY_ORDER } from '../../src/checks/types.js';
import { parsePtx } from '../../src/parser/parse.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';
import { knownGate } from '../helpers/known.js';

const MINE = new Set([
  ...Array.from({ length: 19 }, (_, i) => `F0${61 + i}`),
  'F084', 'F085', 'F086', 'F087', 'F088', 'F089', 'F096', 'F097', 'F098', 'F099', 'F100',
]);

/** Info-level checks: what they report on correct code, and why it is true there. */
const INFO: Readonly<Record<string, string>> = {
  F062: 'nothing: compilers remove unreachable code',
  F068: 'thread-varying branches in loops (bounds tests in grid-stride loops, per-thread trip counts): facts of the uniformity analysis',
  F069: 'nothing: nvcc, llc and Triton emit reducible control flow',
  F070: 'nothing: no brkpt in the corpus',
  F072: 'Triton\'s two trailing scratch-buffer pointers, and functor parameters of empty structs in 29-templates.cu: never named',
  F073: 'registers named only in inline-asm comments (Triton\'s "wait for regs"), unused old values of inline-asm atomics, -O0 and -G '
    + 'leftovers, printf\'s unused vprintf return value: never read',
  F076: 'nothing: no function needs more than 255 registers',
  F096: 'complex kernels (a loop with shared memory or 200+ instructions) of the corpus are not instrumented: true by construction',
  F097: 'nothing: no kernel has a debug buffer (n/a)',
  F100: 'llc output of IR without debug info, and -O0 output: no .loc; nvcc -lineinfo and Triton output have line info',
};

const compiled = await compiledCorpus();
for (const why of compiled.skipped) console.warn(`[control corpus] ${why}`);
const inputs = [
  ...compiled.inputs,
  ...committedPtx('fixtures/corpus/triton'),
  ...committedPtx('fixtures/corpus/llvm/ptx'),
  ...committedPtx('examples'),
];
const ids = CHECKS.map((c) => c.meta.id).filter((id) => MINE.has(id));
const low = SEVERITY_ORDER.indexOf('low');
const known = knownGate([...MINE]);

describe('control corpus: F061–F079, F084–F089, F096–F100 on correct compiler output', () => {
  it('covers every check and the whole corpus', () => {
    expect(ids.length).toBe(MINE.size);
    for (const id of ids) {
      const c = CHECKS.find((x) => x.meta.id === id)!;
      if (SEVERITY_ORDER.indexOf(c.meta.severity) > low) expect(INFO[id], `${id} (info) needs a reason in INFO`).toBeDefined();
    }
    if (compiled.skipped.length === 0) {
      expect(inputs.filter((i) => i.name.startsWith('cuda/')).length).toBeGreaterThanOrEqual(33 * 4);
      expect(inputs.filter((i) => i.name.startsWith('llvm/')).length).toBeGreaterThanOrEqual(8 * 3);
    }
    expect(inputs.filter((i) => i.name.includes('triton/')).length).toBe(5);
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s', (_name, input) => {
    const parsed = parsePtx(input.text);
    expect(parsed.errors).toEqual([]);
    const report = runChecks(parsed.module, input.text, { only: ids });
    const crashed = report.outcomes.filter((o) => o.status === 'na' && (o.reason ?? '').startsWith('the check failed'));
    expect(crashed.map((o) => `${o.id}: ${o.reason ?? ''}`)).toEqual([]);
    const unexpected: string[] = [];
    for (const o of report.outcomes) {
      if (!MINE.has(o.id)) continue;
      for (const f of o.findings) {
        if (SEVERITY_ORDER.indexOf(f.severity) > low) {
          // Info: allowed where INFO says what it reports; "nothing" means none.
          if ((INFO[o.id] ?? 'nothing').startsWith('nothing')) unexpected.push(`${o.id} (info) line ${f.location.line}: ${f.message}`);
          continue;
        }
        if (known.allowed(o.id, input.name, f.location.line)) continue;
        unexpected.push(`${o.id} line ${f.location.line}: ${f.message}`);
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('every listed true finding still occurs (fixtures/known-findings.json stays tight)', () => {
    expect(known.stale(inputs.map((i) => i.name))).toEqual([]);
  });
});

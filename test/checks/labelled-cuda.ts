// Labelled CUDA fixtures of every check family: each `.cu` under
// fixtures/checks/F0xx/{fails,passes}/ marks its expected findings on the
// source line (`// expect: F036`, several ids allowed). The tests compile it
// with `nvcc -ptx -lineinfo` at the targets its `// arch: sm_XX` header allows
// (minimum; default sm_75) and sm_90, run every check of the check's family
// (address, sync, memory, control), map each finding through `.loc` to its
// `.cu` line, and compare the set of (id, line) with the marks: a fails/ file
// must produce exactly its marks, a passes/ file nothing. An
// `// analyze: --block X,Y,Z` line gives the block size the analysis assumes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cudaLines } from '../../src/accuracy-cuda.js';
import { ADDRESS_IDS, CONTROL_IDS, familyOf, MEMORY_IDS, SYNC_IDS } from '../../src/checks/families.js';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { listFiles } from '../helpers/corpus.js';
import { compileCuda, NVCC, toolMissing } from '../helpers/toolchain.js';

export { ADDRESS_IDS, CONTROL_IDS, MEMORY_IDS, SYNC_IDS, cudaLines, familyOf };

/** The block size an `// analyze: --block X,Y,Z` line gives. */
export function fixtureBlock(source: string): [number, number, number] | undefined {
  const m = /^\/\/\s*analyze:.*--block (\d+),(\d+),(\d+)/m.exec(source);
  return m === null ? undefined : [Number(m[1]), Number(m[2]), Number(m[3])];
}

/** The fixture files of one check: fails/ and passes/ `.cu` files. */
export function cudaFixtures(id: string): { fails: string[]; passes: string[] } {
  const dir = join('fixtures', 'checks', id);
  const list = (sub: string): string[] => (existsSync(join(dir, sub)) ? listFiles(join(dir, sub), '.cu') : []);
  return { fails: list('fails'), passes: list('passes') };
}

/** Every `// expect: F0xx [F0yy]` mark of a source, as `F0xx:line` strings. */
export function expectedMarks(source: string): string[] {
  const out: string[] = [];
  source.split('\n').forEach((text, i) => {
    const m = /\/\/\s*expect:\s*((?:F\d{3}\s*)+)$/.exec(text.trim());
    if (m !== null) for (const id of m[1]!.trim().split(/\s+/)) out.push(`${id}:${i + 1}`);
  });
  return out.sort();
}

/** Every `// known-miss: F0xx reason` mark: a labelled bug the check is known not to find, with why. */
export function knownMisses(source: string): { id: string; line: number; reason: string }[] {
  return source.split('\n').flatMap((text, i) => {
    const m = /\/\/\s*known-miss:\s*(F\d{3})\s+(.+)$/.exec(text.trim());
    return m === null ? [] : [{ id: m[1]!, line: i + 1, reason: m[2]!.trim() }];
  });
}

/** The targets a fixture compiles for: `// archs: sm_XX ...` exactly, else its `// arch: sm_XX` minimum
 *  (default sm_75) and sm_90. */
export function fixtureArchs(source: string): string[] {
  const only = /^\/\/\s*archs:\s*((?:sm_\w+\s*)+)$/m.exec(source);
  if (only !== null) return only[1]!.trim().split(/\s+/);
  const m = /^\/\/\s*arch:\s*(sm_\d+)/m.exec(source);
  const min = m?.[1] ?? 'sm_75';
  return [...new Set([min, 'sm_90'])];
}

/** The family's findings on a compiled fixture, as `F0xx:line` (source lines of the `.cu` file; a finding
 *  no `.loc` maps gets its kernel's `__global__` line, else minus its PTX line). */
export function sourceFindings(ptx: string, file: string, only: readonly string[] = SYNC_IDS,
  block?: readonly [number, number, number]): { marks: string[]; details: string[] } {
  const parsed = parsePtx(ptx);
  expect(parsed.errors).toEqual([]);
  const report = runChecks(parsed.module, ptx, { only, ...(block !== undefined ? { block } : {}) });
  const lines = cudaLines(parsed.module, file);
  const sourceLines = readFileSync(file, 'utf8').split('\n');
  const marks = new Set<string>();
  const details: string[] = [];
  for (const f of report.findings) {
    // A kernel-level finding (no instruction a `.loc` maps) belongs to the kernel's `__global__` line.
    const decl = f.function === undefined ? 0
      : sourceLines.findIndex((l) => l.includes('__global__') && new RegExp(`\\b${f.function}\\s*\\(`).test(l)) + 1;
    const line = lines.get(f.location.line) ?? (decl > 0 ? decl : -f.location.line);
    marks.add(`${f.id}:${line}`);
    details.push(`${f.id}:${line} (ptx ${f.location.line}) ${f.message}`);
  }
  return { marks: [...marks].sort(), details };
}

/** Vitest cases for one check's CUDA fixtures, compared against the findings of `only` (default: its family). */
export function describeCudaFixtures(id: string, only: readonly string[] = familyOf(id)): void {
  const missing = toolMissing(NVCC);
  const { fails, passes } = cudaFixtures(id);
  describe(`${id} CUDA fixtures (nvcc -lineinfo, findings matched through .loc)`, () => {
    if (missing !== undefined) {
      it.skip(`skipped: ${missing}`, () => {});
      return;
    }
    it('has fixtures that fail and fixtures that pass', () => {
      expect(fails.length).toBeGreaterThan(0);
      expect(passes.length).toBeGreaterThan(0);
    });
    for (const file of [...fails, ...passes]) {
      const source = readFileSync(file, 'utf8');
      const expected = expectedMarks(source);
      for (const arch of fixtureArchs(source)) {
        it(`${file}@${arch}: ${expected.length === 0 ? 'no finding' : expected.join(' ')}`, async () => {
          // A known miss (`// known-miss: F0xx reason`) is a bug the check does not find yet: the file still fails
          // by intent, and the day the check finds it this test fails until the mark becomes `expect:`.
          if (fails.includes(file)) expect(expected.length + knownMisses(source).length).toBeGreaterThan(0);
          else expect(expected).toEqual([]);
          const ptx = await compileCuda(file, arch);
          const got = sourceFindings(ptx, file, only, fixtureBlock(source));
          expect(got.marks, got.details.join('\n')).toEqual(expected);
        });
      }
    }
  });
}

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
import { cudaLines, expectedMarks, fixtureArchs, fixtureFindings, fixtureOptions, knownMisses } from '../../src/accuracy-cuda.js';
import { ADDRESS_IDS, CONTROL_IDS, familyOf, MEMORY_IDS, SYNC_IDS } from '../../src/checks/families.js';
import { listFiles } from '../helpers/corpus.js';
import { compileCuda, NVCC, toolMissing } from '../helpers/toolchain.js';

export { ADDRESS_IDS, CONTROL_IDS, MEMORY_IDS, SYNC_IDS, cudaLines, expectedMarks, familyOf, fixtureArchs, fixtureOptions, knownMisses };

/** The fixture files of one check: fails/ and passes/ `.cu` files. */
export function cudaFixtures(id: string): { fails: string[]; passes: string[] } {
  const dir = join('fixtures', 'checks', id);
  const list = (sub: string): string[] => (existsSync(join(dir, sub)) ? listFiles(join(dir, sub), '.cu') : []);
  return { fails: list('fails'), passes: list('passes') };
}

/** The family's findings on a compiled fixture, as sorted `F0xx:line` (see `fixtureFindings`), with details. */
export function sourceFindings(ptx: string, file: string, only: readonly string[] = SYNC_IDS): { marks: string[]; details: string[] } {
  const got = fixtureFindings(ptx, file, readFileSync(file, 'utf8'), only);
  return { marks: [...got.keys()].sort(), details: [...got].map(([m, message]) => `${m} ${message}`) };
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
          const got = sourceFindings(ptx, file, only);
          expect(got.marks, got.details.join('\n')).toEqual(expected);
        });
      }
    }
  });
}

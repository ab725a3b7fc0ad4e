// Every PTX that ptxas accepts, from nvcc, llc and by hand, parses with no
// error; the printer turns each tree back into PTX that ptxas accepts and that
// reparses to the same tree.
import { describe, expect, it } from 'vitest';
import { parsePtx } from '../../src/parser/parse.js';
import { printModule } from '../../src/parser/printer.js';
import { stripRanges } from '../helpers/ast.js';
import { committedPtx, compiledCorpus } from '../helpers/corpus.js';
import { pool, ptxasRejects, toolMissing, PTXAS } from '../helpers/toolchain.js';

const compiled = await compiledCorpus();
for (const why of compiled.skipped) console.warn(`[corpus] ${why}`);
const inputs = [...committedPtx(), ...compiled.inputs];
const ptxasMissing = toolMissing(PTXAS);
if (ptxasMissing !== undefined) console.warn(`[corpus] printer ptxas check skipped: ${ptxasMissing}`);

describe('parser corpus', () => {
  it('holds our CUDA kernels for 4 targets, llc output for 3 targets, and hand-written PTX', () => {
    expect(inputs.filter((i) => i.name.startsWith('fixtures/corpus/handwritten/')).length).toBeGreaterThanOrEqual(15);
    if (compiled.skipped.length === 0) {
      expect(compiled.inputs.filter((i) => i.name.startsWith('cuda/')).length).toBeGreaterThanOrEqual(25 * 4);
      expect(compiled.inputs.filter((i) => i.name.startsWith('llvm/')).length).toBeGreaterThanOrEqual(5 * 3);
    }
  });

  it.each(inputs.map((i) => [i.name, i] as const))('%s parses with no error and round-trips', (_name, input) => {
    const first = parsePtx(input.text);
    expect(first.errors).toEqual([]);
    expect(first.module.statements.length).toBeGreaterThan(2);
    const printed = printModule(first.module);
    const second = parsePtx(printed);
    expect(second.errors).toEqual([]);
    expect(stripRanges(second.module.statements)).toEqual(stripRanges(first.module.statements));
  });

  it.skipIf(ptxasMissing !== undefined)('ptxas accepts the printer output of every input', async () => {
    const failures = (await pool(inputs, async (input) => {
      const why = await ptxasRejects(printModule(parsePtx(input.text).module), input.arch);
      return why === undefined ? undefined : `${input.name} (${input.arch}): ${why}`;
    })).filter((f): f is string => f !== undefined);
    expect(failures).toEqual([]);
  }, 600_000);
});

// The cross-check corpus: fixtures/invalid/F0xx/*.ptx are valid fixtures with
// one defect each. The first line names the check and the line of its finding
// (`// expect: F004 line 61`); ptxas must reject the file at the file's own
// `.target` (a second line `// ptxas: accepts` exempts defects ptxas
// tolerates, such as F001 and F010), and the named check must fail with a
// finding on that line. Generic over every subdirectory: helpers add files,
// not code.
import { readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleTarget } from '../../src/checks/header.js';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';
import { INVALID_DIR, listFiles } from '../helpers/corpus.js';
import { ptxasRejects, toolMissing, PTXAS } from '../helpers/toolchain.js';

/** ptxas's target for a file without a `.target` directive (the defect of some F002 files). */
const FALLBACK_ARCH = 'sm_90';

interface InvalidCase {
  readonly file: string;
  readonly id: string;
  readonly line: number;
  readonly ptxasAccepts: boolean;
  readonly text: string;
}

function load(file: string): InvalidCase {
  const text = readFileSync(file, 'utf8');
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  const m = /^\/\/ expect: (F\d{3}) line (\d+)\s*$/.exec(lines[0] ?? '');
  if (m === null) throw new Error(`${file}: the first line must be "// expect: F0xx line N"`);
  return { file, id: m[1]!, line: Number(m[2]), ptxasAccepts: /^\/\/ ptxas: accepts\s*$/.test(lines[1] ?? ''), text };
}

const cases = listFiles(INVALID_DIR, '.ptx').map(load);
const ptxasMissing = toolMissing(PTXAS);
if (ptxasMissing !== undefined) console.warn(`[invalid corpus] ptxas checks skipped: ${ptxasMissing}`);

describe('invalid corpus (fixtures/invalid)', () => {
  it('has files for every check directory it holds, each in the directory of its check', () => {
    expect(cases.length).toBeGreaterThan(0);
    for (const c of cases) expect(basename(dirname(c.file)), c.file).toBe(c.id);
  });

  it.each(cases.map((c) => [c.file, c] as const))('%s', async (_name, c) => {
    const parsed = parsePtx(c.text);
    expect(parsed.errors, 'the defect must be one the checks judge, not a parse error').toEqual([]);
    const report = runChecks(parsed.module, c.text);
    const outcome = report.outcomes.find((o) => o.id === c.id);
    expect(outcome?.status, `${c.id} on ${c.file}: ${outcome?.reason ?? ''}`).toBe('fail');
    const lines = outcome!.findings.map((f) => f.location.line);
    expect(lines, outcome!.findings.map((f) => `${f.location.line}: ${f.message}`).join('\n')).toContain(c.line);
    if (ptxasMissing !== undefined || c.ptxasAccepts) return;
    const arch = moduleTarget(parsed.module)?.name ?? FALLBACK_ARCH;
    const why = await ptxasRejects(c.text, arch);
    expect(why, `ptxas -arch=${arch} accepts ${c.file}`).toBeDefined();
  }, 60_000);
});

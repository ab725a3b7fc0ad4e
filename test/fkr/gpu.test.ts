// The runtime tests gen-fkr writes with --gpu: run through a stand-in for the
// native runner (so they run without a GPU), they fail without a reference,
// record one with FKR_UPDATE_REFERENCE=1, pass against it, and fail (only the
// capture tests) when the outputs differ; with the real runner and no CUDA
// driver they are skipped with the reason printed.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateFkr } from '../../src/fkr/generate.js';
import { apiImport, fakeCapture, fakeRunnerEnv, missingTool, ROOT, runVitest, scratchDir } from './helpers.js';

const cc = process.env['CC'] ?? 'cc';
const noCompiler = missingTool(cc);
if (noCompiler !== undefined) console.warn(`[fkr] GPU runtime tests skipped: ${noCompiler} (they build a stand-in runner)`);

function hasDriver(): boolean {
  return missingTool('sh', ['-c', 'ldconfig -p | grep -q libcuda.so.1']) === undefined;
}

function setup(): string {
  const dir = scratchDir('gpu');
  copyFileSync(join(ROOT, 'fixtures', 'gpu', 'race-raw-fixed.ptx'), join(dir, 'race.ptx'));
  copyFileSync(join(ROOT, 'fixtures', 'gpu', 'specs', 'race-raw-fixed.json'), join(dir, 'race.launch.json'));
  const common = { ptx: join(dir, 'race.ptx'), importFrom: apiImport(dir) };
  writeFileSync(join(dir, 'exact.fkr.test.ts'), generateFkr({ ...common, output: join(dir, 'exact.fkr.test.ts'), gpu: { launch: join(dir, 'race.launch.json') } }));
  writeFileSync(join(dir, 'close.fkr.test.ts'), generateFkr({
    ...common, output: join(dir, 'close.fkr.test.ts'),
    gpu: { launch: join(dir, 'race.launch.json'), reference: join(dir, 'close-ref'), tolerance: { rel: 1e-6, abs: 0 } },
  }));
  return dir;
}

const gpuTests = (tests: { fullName: string; status: string }[]): string[] => tests
  .filter((t) => t.fullName.includes('on the GPU'))
  .map((t) => `${t.fullName.replace(/^FKR race\.ptx on the GPU /, '')}: ${t.status}`);

describe.skipIf(noCompiler !== undefined)('generated GPU tests', () => {
  it('compare captured outputs with the reference files', async () => {
    const dir = setup();
    const env = fakeRunnerEnv(dir);

    const none = await runVitest(dir, env);
    expect(none.fileErrors).toEqual([]);
    expect(gpuTests(none.tests)).toEqual([
      'race_raw_fixed runs to completion: passed', 'captured out matches the reference: failed',
      'race_raw_fixed runs to completion: passed', 'captured out matches the reference: failed',
    ]);
    expect(none.tests.find((t) => t.status === 'failed')!.failureMessages.join('\n')).toMatch(/no reference .*out\.bin: record one from a run you trust with FKR_UPDATE_REFERENCE=1/);

    const recorded = await runVitest(dir, { ...env, FKR_UPDATE_REFERENCE: '1' });
    expect(recorded.tests.filter((t) => t.status !== 'passed')).toEqual([]);
    expect(readFileSync(join(dir, 'race.reference', 'out.bin'))).toEqual(fakeCapture(1024));
    expect(readFileSync(join(dir, 'close-ref', 'out.bin'))).toEqual(fakeCapture(1024));

    const again = await runVitest(dir, env);
    expect(again.tests.length).toBe(2 * (101 + 2));
    expect(again.tests.filter((t) => t.status !== 'passed')).toEqual([]);

    const exact = fakeCapture(1024);
    exact[10] ^= 1;
    writeFileSync(join(dir, 'race.reference', 'out.bin'), exact);
    const close = fakeCapture(1024);
    close.writeFloatLE(close.readFloatLE(8) * 2 + 1, 8);
    writeFileSync(join(dir, 'close-ref', 'out.bin'), close);
    const differs = await runVitest(dir, env);
    const failed = differs.tests.filter((t) => t.status === 'failed');
    expect(failed.map((t) => t.title)).toEqual(['captured out matches the reference', 'captured out matches the reference']);
    const messages = failed.map((t) => t.failureMessages.join('\n')).join('\n');
    expect(messages).toMatch(/out: 1 byte\(s\) differ from .*race\.reference\/out\.bin, the first at offset 10/);
    expect(messages).toMatch(/out: 1 f32 value\(s\) outside the tolerance of .*close-ref\/out\.bin, the first at \[2\]/);
  }, 300_000);

  it.skipIf(hasDriver())('are skipped with the reason printed where there is no CUDA driver', async () => {
    const dir = setup();
    const run = await runVitest(dir, { XDG_CACHE_HOME: join(dir, 'cache') });
    expect(run.fileErrors).toEqual([]);
    expect(gpuTests(run.tests).every((t) => t.endsWith(': skipped'))).toBe(true);
    expect(gpuTests(run.tests).length).toBe(4);
    expect(run.tests.filter((t) => t.status === 'failed')).toEqual([]);
    expect(run.output).toContain('[fkr] GPU tests of race.ptx skipped: no CUDA driver');
  }, 300_000);
});

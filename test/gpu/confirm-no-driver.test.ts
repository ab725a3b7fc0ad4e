// `analyze --confirm` without a CUDA driver: each finding with a runtime
// witness is marked "not run (no driver)" and the exit code stays the static one.
import { describe, expect, it } from 'vitest';
import { hasCudaDriver } from '../helpers/toolchain.js';
import { main } from '../../src/cli/main.js';
import { reportSchema } from '../../src/report/schema.js';


async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await main(['node', 'ptx-debug', ...args], { out: (s) => { out += `${s}\n`; }, err: () => {} });
  return { code, out };
}

describe.skipIf(hasCudaDriver())('analyze --confirm without a driver', () => {
  it('marks the race "not run (no driver)" and keeps exit 3', async () => {
    const args = ['analyze', 'fixtures/gpu/race-raw.ptx', '--only', 'F036'];
    const plain = await cli(...args);
    const confirmed = await cli(...args, '--confirm', '--launch', 'fixtures/gpu/specs/race-raw.json', '--format', 'json');
    expect(confirmed.code).toBe(plain.code);
    expect(confirmed.code).toBe(3);
    const f = reportSchema.parse(JSON.parse(confirmed.out)).files[0]!.findings.find((x) => x.id === 'F036')!;
    expect(f.confirmation).toEqual({ status: 'not-run', evidence: 'not run (no driver)' });
    const text = await cli(...args, '--confirm', '--launch', 'fixtures/gpu/specs/race-raw.json');
    expect(text.out).toContain('runtime: not run (no driver)');
  }, 60_000);

  it('needs --launch', async () => {
    expect((await cli('analyze', 'fixtures/gpu/race-raw.ptx', '--confirm')).code).toBe(4);
  });
});

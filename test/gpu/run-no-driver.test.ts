// Without a CUDA driver (CI), the runner still builds, `run` says so in one
// line and exits 4, and launch specs are validated. With a driver the GPU
// path is exercised on the device machine (docs/gpu-validation.md).
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasCudaDriver } from '../helpers/toolchain.js';
import { main } from '../../src/cli/main.js';
import { parseLaunchSpec } from '../../src/gpu/launch-spec.js';
import { toPlan } from '../../src/gpu/plan.js';
import { buildRunner } from '../../src/gpu/runner.js';

const driver = hasCudaDriver();
if (driver) console.warn('[gpu] a CUDA driver is present: the no-driver tests are skipped');

async function cli(...args: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await main(['node', 'ptx-debug', ...args], { out: () => {}, err: (s) => { err += `${s}\n`; } });
  return { code, err };
}

describe('GPU runner without a driver', () => {
  it('builds the native runner with the system C compiler', async () => {
    const bin = await buildRunner();
    expect(existsSync(bin)).toBe(true);
  }, 60_000);

  it.skipIf(driver)('run says there is no driver in one line and exits 4', async () => {
    const r = await cli('run', 'fixtures/gpu/race-raw.ptx', '--kernel', 'race_raw', '--launch', 'fixtures/gpu/specs/race-raw.json');
    expect(r.code).toBe(4);
    expect(r.err.trim()).toBe('ptx-debug: no CUDA driver: libcuda.so.1 could not be loaded');
  });

  it('rejects a bad launch spec with a located message', async () => {
    expect(() => parseLaunchSpec({ kernel: 'k', block: 0, args: [] }, 'spec.json')).toThrow(/spec.json: block/);
    expect(() => parseLaunchSpec({ kernel: 'k', block: 32, args: [{ kind: 'buffer', name: 'x' }] }, 'spec.json')).toThrow(/args.0.bytes/);
  });

  it('turns a launch spec into the runner plan', () => {
    const spec = parseLaunchSpec({ kernel: 'k', grid: [2, 1, 1], block: 128, args: [
      { kind: 'buffer', name: 'a', bytes: 64, fill: { random: 'f32', seed: 7 } },
      { kind: 'scalar', type: 'u32', value: 16 },
      { kind: 'debug', words: 9 },
      { kind: 'buffer', name: 'out', bytes: 64, capture: true },
    ] });
    const plan = toPlan(spec, '/tmp/k.ptx', '/tmp/out');
    expect(plan.text).toBe('ptx /tmp/k.ptx\nkernel k\ngrid 2 1 1\nblock 128 1 1\nshared 0\ntimeout 30\n' +
      'buffer 64 random_f32 7 -\nscalar u32 16\ndebug 9 /tmp/out/debug_buf.bin\nbuffer 64 zeros /tmp/out/out.bin\n');
    expect([...plan.captures.keys()]).toEqual(['debug_buf', 'out']);
  });
});

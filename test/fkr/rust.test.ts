// The Rust output compiles and passes with `cargo test` in a scratch crate
// with no dependencies (offline), running the built CLI (dist/, from `npm run
// build`) through PTX_DEBUG; it fails on exactly the flipped hypothesis with a
// readable message; its GPU tests (the `cuda` feature) compare captured
// outputs through a stand-in runner; and rustfmt leaves it as it is.
// Skipped, with the reason printed, where cargo or dist/ is missing.
import { execFile } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generateFkr } from '../../src/fkr/generate.js';
import { fakeCapture, fakeRunnerEnv, missingTool, ROOT, tempDir } from './helpers.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const skip = missingTool('cargo') ?? (existsSync(CLI) ? undefined : 'dist/ is not built (npm run build)');
if (skip !== undefined) console.warn(`[fkr] Rust output tests skipped: ${skip}`);
const noCompiler = missingTool(process.env['CC'] ?? 'cc');
const noRustfmt = missingTool('rustfmt');

function cargo(crate: string, args: readonly string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile('cargo', [...args], {
      cwd: crate, maxBuffer: 1 << 26, timeout: 300_000,
      env: { ...process.env, CARGO_NET_OFFLINE: 'true', CARGO_TARGET_DIR: join(crate, 'target'), CARGO_TERM_COLOR: 'never', ...env },
    }, (err, stdout, stderr) => {
      resolve({ code: err === null ? 0 : typeof err.code === 'number' ? err.code : 1, output: `${stdout}\n${stderr}` });
    });
  });
}

const WIDEN = '.version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n  .reg .f32 %f<2>;\n  .reg .b16 %h<2>;\n  mov.b16 %h1, 0;\n  cvt.rn.f32.f16 %f1, %h1;\n  ret;\n}\n';

describe.skipIf(skip !== undefined)('the Rust output', () => {
  it('compiles and passes with cargo test, and fails on exactly the flipped hypothesis', async () => {
    // The verdicts come from the built analyzer, the one the tests will run.
    const dist = await import(pathToFileURL(join(ROOT, 'dist', 'analyze.js')).href) as typeof import('../../src/analyze.js');
    const crate = tempDir('crate');
    for (const d of ['src', 'tests', 'kernels', 'specs']) mkdirSync(join(crate, d));
    writeFileSync(join(crate, 'Cargo.toml'), '[package]\nname = "fkr-scratch"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n\n[features]\ncuda = []\n');
    writeFileSync(join(crate, 'src', 'lib.rs'), '');
    copyFileSync(join(ROOT, 'examples', 'block-reduce.ptx'), join(crate, 'kernels', 'block-reduce.ptx'));
    writeFileSync(join(crate, 'kernels', 'widen.ptx'), WIDEN);
    copyFileSync(join(ROOT, 'fixtures', 'gpu', 'race-raw-fixed.ptx'), join(crate, 'kernels', 'race.ptx'));
    copyFileSync(join(ROOT, 'fixtures', 'gpu', 'specs', 'race-raw-fixed.json'), join(crate, 'specs', 'race.json'));
    const wrapper = join(crate, 'ptx-debug.sh');
    writeFileSync(wrapper, `#!/bin/sh\nexec '${process.execPath}' '${join(ROOT, 'bin', 'ptx-debug.js')}' "$@"\n`);
    chmodSync(wrapper, 0o755);

    const outputs: Record<string, string> = {};
    for (const [name, file, gpu] of [['block_reduce', 'block-reduce.ptx', false], ['widen', 'widen.ptx', false], ['race', 'race.ptx', true]] as const) {
      const ptx = join(crate, 'kernels', file);
      const out = join(crate, 'tests', `${name}_fkr.rs`);
      outputs[name] = generateFkr({
        ptx, output: out, lang: 'rust', analysis: dist.analyzeText(readFileSync(ptx, 'utf8'), ptx),
        ...(gpu ? { gpu: { launch: join(crate, 'specs', 'race.json'), tolerance: { rel: 0, abs: 1e-6 } } } : {}),
      });
      writeFileSync(out, outputs[name]);
    }
    expect(outputs['widen']).toContain('expect_verdict("F015", "invalid-conversion", "fail", "9");');

    const env = { PTX_DEBUG: wrapper };
    const pass = await cargo(crate, ['test'], env);
    expect(pass.output).not.toMatch(/^warning/m);
    expect(pass.code, pass.output).toBe(0);
    expect(pass.output.match(/test result: ok\. 101 passed; 0 failed/g)?.length, pass.output).toBe(3);

    // The defect fixed: F015 passes now, and its test alone says so.
    writeFileSync(join(crate, 'kernels', 'widen.ptx'), WIDEN.replace('cvt.rn.f32.f16', 'cvt.f32.f16'));
    const flipped = await cargo(crate, ['test', '--test', 'widen_fkr'], env);
    expect(flipped.code).not.toBe(0);
    expect(flipped.output).toContain('test result: FAILED. 100 passed; 1 failed');
    expect(flipped.output).toMatch(/failures:\s+f015_invalid_conversion\s/);
    expect(flipped.output).toContain('F015 invalid-conversion changed on kernels/widen.ptx: expected fail at line 9, got pass\n'
      + 'if that is intended, regenerate this file: ptx-debug gen-fkr ../kernels/widen.ptx -o widen_fkr.rs --lang rust (in this file\'s directory)');

    if (noRustfmt === undefined) {
      for (const name of Object.keys(outputs)) {
        const fmt = await new Promise<string>((resolve) => {
          execFile('rustfmt', ['--edition', '2021', '--check', join(crate, 'tests', `${name}_fkr.rs`)], (err, stdout) => resolve(err === null ? '' : `${stdout}${err.message}`));
        });
        expect(fmt, `${name}_fkr.rs is not as rustfmt formats it`).toBe('');
      }
    } else {
      console.warn(`[fkr] rustfmt check skipped: ${noRustfmt}`);
    }
  }, 600_000);

  it.skipIf(noCompiler !== undefined)('runs its GPU tests behind the cuda feature', async () => {
    const crate = tempDir('crate-gpu');
    for (const d of ['src', 'tests', 'kernels']) mkdirSync(join(crate, d));
    writeFileSync(join(crate, 'Cargo.toml'), '[package]\nname = "fkr-gpu"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\ncuda = []\n');
    writeFileSync(join(crate, 'src', 'lib.rs'), '');
    copyFileSync(join(ROOT, 'fixtures', 'gpu', 'race-raw-fixed.ptx'), join(crate, 'kernels', 'race.ptx'));
    copyFileSync(join(ROOT, 'fixtures', 'gpu', 'specs', 'race-raw-fixed.json'), join(crate, 'kernels', 'race.json'));
    const dist = await import(pathToFileURL(join(ROOT, 'dist', 'analyze.js')).href) as typeof import('../../src/analyze.js');
    const ptx = join(crate, 'kernels', 'race.ptx');
    writeFileSync(join(crate, 'tests', 'race_fkr.rs'), generateFkr({
      ptx, output: join(crate, 'tests', 'race_fkr.rs'), lang: 'rust', analysis: dist.analyzeText(readFileSync(ptx, 'utf8'), ptx),
      gpu: { launch: join(crate, 'kernels', 'race.json') },
    }));
    const env = { PTX_DEBUG: `${process.execPath} ${join(ROOT, 'bin', 'ptx-debug.js')}`, ...fakeRunnerEnv(crate) };
    const args = ['test', '--features', 'cuda', '--', 'gpu::'];
    const missing = await cargo(crate, args, env);
    expect(missing.output).toContain('no reference');
    expect(missing.output).toContain('test result: FAILED. 1 passed; 1 failed');
    const recorded = await cargo(crate, args, { ...env, FKR_UPDATE_REFERENCE: '1' });
    expect(recorded.code, recorded.output).toBe(0);
    expect(readFileSync(join(crate, 'tests', 'race.reference', 'out.bin'))).toEqual(fakeCapture(1024));
    const again = await cargo(crate, args, env);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('test result: ok. 2 passed; 0 failed');
    const bad = fakeCapture(1024);
    bad[100] ^= 0x80;
    writeFileSync(join(crate, 'tests', 'race.reference', 'out.bin'), bad);
    const differs = await cargo(crate, args, env);
    expect(differs.output).toMatch(/failures:\s+gpu::captured_out_matches_the_reference\s/);
    expect(differs.output).toContain('out: 1 byte(s) differ from');
    expect(differs.output).toContain('the first at offset 100');
  }, 600_000);
});

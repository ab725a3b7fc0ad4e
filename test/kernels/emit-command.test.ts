// `ptx-debug emit`: the listing, one kernel to standard output or to a file
// with its launch spec beside it, every kernel into a directory, and one-line
// errors with exit 4 for bad requests.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseLaunchSpec } from '../../src/kernels/launch-spec.js';
import { KERNELS } from '../../src/kernels/library/index.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['node', 'ptx-debug', ...args], {
    out: (s) => { out += s.endsWith('\n') ? s : `${s}\n`; },
    err: (s) => { err += s.endsWith('\n') ? s : `${s}\n`; },
  });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'ptx-debug-emit-'));

describe('ptx-debug emit', () => {
  it('lists kernels with their parameters, defects and checks', async () => {
    const r = await cli('emit', '--list');
    expect(r.code).toBe(0);
    expect(r.out).toContain('gemm_tiled: ');
    expect(r.out).toContain('params:  M=1024 N=1024 K=1024');
    expect(r.out).toContain('early-exit (F038)');
    expect(r.out).toContain('f16-load (F090, ptxas rejects)');
    const json = JSON.parse((await cli('emit', '--list', '--json')).out) as { name: string }[];
    expect(json.map((k) => k.name)).toEqual(KERNELS.map((k) => k.name));
  });

  it('prints a kernel for a target on standard output', async () => {
    const r = await cli('emit', 'vector_add', '--arch', 'sm_80');
    expect(r.code).toBe(0);
    expect(r.out).toContain('.version 7.0\n.target sm_80\n');
    expect(r.out).toContain('.visible .entry vector_add(');
    expect((await cli('emit', 'vector_add', '--arch', 'sm_90', '--ptx-version', '8.5')).out).toContain('.version 8.5\n');
  });

  it('writes the PTX and its launch spec for the given sizes and defect', async () => {
    const file = join(dir, 'tiled.ptx');
    const r = await cli('emit', 'gemm_tiled', '--param', 'M=100', '--param', 'K=33', '--defect', 'no-barrier', '--seed', '9', '-o', file);
    expect(r.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('DEFECT no-barrier');
    const spec = parseLaunchSpec(readFileSync(join(dir, 'tiled.launch.json'), 'utf8'));
    expect(spec).toMatchObject({ kernel: 'gemm_tiled', ptx: 'tiled.ptx', arch: 'sm_90', seed: 9, sizes: { M: 100, N: 1024, K: 33 }, grid: [32, 4, 1], block: [32, 8, 1] });
    expect(spec.args.map((a) => a.name)).toEqual(['A', 'B', 'C', 'M', 'N', 'K']);
    expect(spec.args[0]).toMatchObject({ kind: 'buffer', type: 'f32', count: 3300, role: 'input' });
    expect(spec.args[3]).toEqual({ kind: 'scalar', name: 'M', type: 'u32', value: 100 });
  });

  it('writes every clean kernel with its launch spec into a directory', async () => {
    const out = join(dir, 'all');
    const r = await cli('emit', '--all', '-o', out, '--arch', 'sm_75');
    expect(r.code).toBe(0);
    const files = readdirSync(out).sort();
    expect(files).toHaveLength(2 * KERNELS.length);
    for (const k of KERNELS) {
      expect(readFileSync(join(out, `${k.name}.ptx`), 'utf8')).toContain('.target sm_75\n');
      expect(parseLaunchSpec(readFileSync(join(out, `${k.name}.launch.json`), 'utf8')).ptx).toBe(`${k.name}.ptx`);
    }
  });

  it.each([
    [['emit', 'nope'], /unknown kernel 'nope' \(kernels: vector_add, /],
    [['emit', 'relu', '--arch', 'sm_70'], /unknown target 'sm_70'/],
    [['emit', 'relu', '--defect', 'early-exit'], /relu has no defect 'early-exit'/],
    [['emit', 'relu', '--param', 'n'], /--param: expected NAME=INTEGER, got 'n'/],
    [['emit', 'relu', '--param', 'm=3'], /no size parameter 'm'/],
    [['emit', 'q4k_gemv', '--param', 'K=100'], /K must be at least 256/],
    [['emit', 'relu', '--ptx-version', '6.0', '--arch', 'sm_75'], /below the minimum 6.3/],
    [['emit'], /name a kernel, or use --list or --all -o DIR/],
    [['emit', '--all'], /needs -o DIR/],
    [['emit', '--all', '-o', join(dir, 'x'), '--defect', 'no-barrier'], /--defect and --param do not apply/],
  ])('refuses %j with one line and exit 4', async (args, message) => {
    const r = await cli(...args);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(message);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.out).toBe('');
  });

  it('writes nothing for a refused request', () => {
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });
});

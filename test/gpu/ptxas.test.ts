// ptxas resource usage: the `ptxas -v` parser on recorded output, and the
// runner for real (target, cache, failures) when ptxas is installed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeText } from '../../src/analyze.js';
import { F091 } from '../../src/checks/F091-register-spills.js';
import { moduleTarget, parsePtxasVerbose, ptxasResources } from '../../src/gpu/ptxas.js';
import { parsePtx } from '../../src/parser/parse.js';
import { PTXAS, toolMissing } from '../helpers/toolchain.js';

/** ptxas 13.0 (`ptxas -v -arch=sm_90`) on a module with an entry that spills, an entry with shared memory and a `.func`. */
const RECORDED = `ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z5plainPf' for 'sm_90'
ptxas info    : Function properties for _Z5plainPf
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 1 barriers, 4096 bytes smem
ptxas info    : Compile time = 12.400 ms
ptxas info    : Function properties for _Z1ff
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Compiling entry function '_Z5spillPfPKfi' for 'sm_90'
ptxas info    : Function properties for _Z5spillPfPKfi
    8288 bytes stack frame, 14804 bytes spill stores, 19284 bytes spill loads
ptxas info    : Used 32 registers, used 0 barriers, 8288 bytes cumulative stack size
ptxas info    : Compile time = 3139.521 ms
`;

/** ptxas 13.0 for sm_80 with constant banks. */
const RECORDED_CMEM = `ptxas info    : 400 bytes gmem, 1024 bytes cmem[3], 8 bytes cmem[4]
ptxas info    : Compiling entry function '_Z1kPfi' for 'sm_80'
ptxas info    : Function properties for _Z1kPfi
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 12 registers, used 1 barriers, 364 bytes cmem[0]
ptxas info    : Compile time = 4.358 ms
`;

describe('parsePtxasVerbose', () => {
  it('reads registers, spills, stack frame, shared memory and barriers per function', () => {
    const r = parsePtxasVerbose(RECORDED);
    expect(r['_Z5spillPfPKfi']).toEqual({ name: '_Z5spillPfPKfi', kind: 'entry', registers: 32, spillStores: 14804, spillLoads: 19284, stackFrame: 8288, barriers: 0, sharedBytes: 0 });
    expect(r['_Z5plainPf']).toEqual({ name: '_Z5plainPf', kind: 'entry', registers: 12, spillStores: 0, spillLoads: 0, stackFrame: 0, barriers: 1, sharedBytes: 4096 });
    expect(r['_Z1ff']).toEqual({ name: '_Z1ff', kind: 'function', spillStores: 0, spillLoads: 0, stackFrame: 0 });
  });

  it('reads constant bank 0 and the older spill warning', () => {
    expect(parsePtxasVerbose(RECORDED_CMEM)['_Z1kPfi']).toMatchObject({ registers: 12, constBytes: 364, sharedBytes: 0, barriers: 1 });
    const old = parsePtxasVerbose("ptxas warning : Registers are spilled to local memory in function 'f', 8 bytes spill stores, 12 bytes spill loads\n");
    expect(old['f']).toMatchObject({ spillStores: 8, spillLoads: 12 });
  });

  it('is empty for output with no functions', () => {
    expect(parsePtxasVerbose('ptxas info    : 0 bytes gmem\n')).toEqual({});
  });
});

describe('ptxasResources without a usable ptxas or target', () => {
  it('says why', () => {
    expect(ptxasResources('.version 8.0\n', undefined)).toEqual({ status: 'unavailable', reason: 'the module declares no sm_ target for ptxas' });
    const r = ptxasResources('.version 8.0\n.target sm_90\n', 'sm_90', { ptxas: '/nonexistent/ptxas', cacheDir: null });
    expect(r.status).toBe('unavailable');
    expect(moduleTarget(parsePtx('.version 8.0\n.target sm_90a, texmode_independent\n.address_size 64\n').module)).toBe('sm_90a');
  });
});

const missing = toolMissing(PTXAS);
describe.skipIf(missing !== undefined)(`ptxas for real (${missing ?? PTXAS})`, () => {
  const spills = F091.meta.examples.fails;

  it('matches what ptxas -v prints, and caches by content', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ptxas-test-'));
    const file = join(dir, 'k.ptx');
    writeFileSync(file, spills);
    // What ptxas -v prints (on standard error) for this module.
    const raw = spawnSync(PTXAS, ['-v', '-arch=sm_90', file, '-o', join(dir, 'k.cubin')], { encoding: 'utf8' }).stderr;
    const m = /(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads/.exec(raw)!;
    const cache = join(dir, 'cache');
    const r = ptxasResources(spills, 'sm_90', { cacheDir: cache });
    expect(r.status).toBe('ok');
    if (r.status !== 'ok') return;
    expect(r.functions['k']).toMatchObject({ kind: 'entry', stackFrame: Number(m[1]), spillStores: Number(m[2]), spillLoads: Number(m[3]) });
    expect(r.functions['k']!.spillStores).toBeGreaterThan(0);
    expect(readdirSync(cache).filter((f) => f.endsWith('.json')).length).toBe(1);
    expect(ptxasResources(spills, 'sm_90', { cacheDir: cache })).toBe(r);
  });

  it('reports a module ptxas rejects', () => {
    const r = ptxasResources('.version 8.0\n.target sm_90a\n.address_size 64\n.entry k()\n{\n\tret;\n}\n', 'sm_90', { cacheDir: null });
    expect(r.status).toBe('unavailable');
    if (r.status === 'unavailable') expect(r.reason).toMatch(/rejected the module/);
  });

  it('feeds F091 through analyze --ptxas, with the figures ptxas printed', () => {
    const report = analyzeText(spills, 'spills.ptx', { ptxas: true, only: ['F091'] });
    expect(report.resources?.status).toBe('ok');
    const o = report.report!.outcomes.find((x) => x.id === 'F091')!;
    expect(o.status).toBe('fail');
    const k = report.resources?.status === 'ok' ? report.resources.functions['k']! : undefined;
    expect(o.findings[0]!.message).toContain(`${k!.spillStores} bytes spill stores, ${k!.spillLoads} bytes spill loads`);
    expect(analyzeText(spills, 'spills.ptx', { only: ['F091'] }).report!.outcomes.find((x) => x.id === 'F091')!.status).toBe('na');
  });
});

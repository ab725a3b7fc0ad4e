// On the GPU machine (bundled with esbuild, run by the carried node): every
// library kernel, clean, at each of its test sizes and at its default (large)
// size, through the native runner, compared with its CPU reference; kernel
// time from CUDA events, effective bandwidth (buffer bytes / time) and, for
// the GEMMs, TFLOP/s. Prints a markdown table and writes results.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferBytes, checkReference, prepareKernelSpec } from '../../src/gpu/kernel-spec.js';
import { runKernel } from '../../src/gpu/runner.js';
import { emitKernel, writeEmitted } from '../../src/kernels/emit.js';
import { KERNELS } from '../../src/kernels/library/index.js';

const out = process.argv[2] ?? '/tmp/kernels';
mkdirSync(out, { recursive: true });
const rows: string[] = ['| kernel | sizes | status | vs CPU reference | max abs err | time ms | GB/s | TFLOP/s |', '|---|---|---|---|---:|---:|---:|---:|'];
const results: unknown[] = [];
for (const k of KERNELS) {
  const sizeSets = [...k.testSizes, Object.fromEntries(k.sizes.map((s) => [s.name, s.default]))];
  for (const [i, sizes] of sizeSets.entries()) {
    const dir = join(out, `${k.name}-${i}`);
    mkdirSync(dir, { recursive: true });
    let line: string;
    try {
      const e = emitKernel(k.name, { arch: 'sm_90', sizes });
      const files = writeEmitted(e, join(dir, `${k.name}.ptx`));
      const prepared = prepareKernelSpec(e.spec, dir, join(dir, 'inputs'));
      const r = await runKernel(files.ptx, prepared.spec, { outDir: dir });
      const check = r.status === 'ok' ? checkReference(e.spec, prepared.inputs, r.captures) : undefined;
      const bad = check?.comparisons.reduce((n, c) => n + c.mismatches, 0) ?? 0;
      const err = check?.comparisons.reduce((m, c) => Math.max(m, c.maxAbsError), 0) ?? 0;
      const gbps = r.ms !== undefined && r.ms > 0 ? bufferBytes(e.spec) / (r.ms * 1e6) : undefined;
      const s = e.spec.sizes as Record<string, number>;
      const tflops = k.name.startsWith('gemm') && r.ms !== undefined ? (2 * s['M']! * s['N']! * s['K']!) / (r.ms * 1e9) : undefined;
      const verdict = check === undefined ? 'not compared' : check.ok ? 'match' : `${bad} differ`;
      line = `| ${k.name} | ${JSON.stringify(sizes).replace(/"/g, '')} | ${r.status}${r.error !== undefined ? ` ${r.error.name}` : ''} | ${verdict} | ${err.toExponential(1)} | ${r.ms?.toFixed(3) ?? '-'} | ${gbps?.toFixed(1) ?? '-'} | ${tflops?.toFixed(2) ?? '-'} |`;
      results.push({ kernel: k.name, sizes, status: r.status, error: r.error, ok: check?.ok, mismatches: bad, maxAbsError: err, ms: r.ms, gbps, tflops, device: r.device });
    } catch (err) {
      line = `| ${k.name} | ${JSON.stringify(sizes).replace(/"/g, '')} | error: ${(err as Error).message.slice(0, 80)} | | | | | |`;
      results.push({ kernel: k.name, sizes, error: String(err) });
    }
    rows.push(line);
    console.log(line);
  }
}
writeFileSync(join(out, 'results.json'), JSON.stringify(results, null, 2));
writeFileSync(join(out, 'table.md'), `${rows.join('\n')}\n`);

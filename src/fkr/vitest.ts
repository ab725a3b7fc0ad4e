// The vitest output of gen-fkr: one test per hypothesis asserting its current
// outcome on the PTX file, one for the score band, and with a launch spec
// runtime tests that run the kernel through the GPU runner and compare its
// captured outputs with reference files (skipped, with the reason printed,
// where there is no driver).
import type { FkrHypothesis } from './model.js';
import { describeOutcome, regenerateHint, tsString, wrapComment, type FkrAnalyzeOptions, type FkrGpuInput, type FkrInput } from './input.js';

function optionsLiteral(options: FkrAnalyzeOptions): string {
  const parts: string[] = [];
  if (options.profile !== undefined) parts.push(`profile: ${tsString(options.profile)}`);
  if (options.only !== undefined) parts.push(`only: [${options.only.map(tsString).join(', ')}]`);
  if (options.disable !== undefined) parts.push(`disable: [${options.disable.map(tsString).join(', ')}]`);
  if (options.block !== undefined) parts.push(`block: [${options.block.join(', ')}]`);
  if (options.kernel !== undefined) parts.push(`kernel: ${tsString(options.kernel)}`);
  if (options.minScore !== undefined) parts.push(`minScore: ${options.minScore}`);
  if (options.overrides !== undefined) {
    const entries = Object.keys(options.overrides).sort().map((k) => `${tsString(k)}: ${tsString(options.overrides![k]!)}`);
    parts.push(`overrides: { ${entries.join(', ')} }`);
  }
  return parts.length === 0 ? '{}' : `{ ${parts.join(', ')} }`;
}

function hypothesisTest(h: FkrHypothesis): string[] {
  const title = `${h.id} ${h.name}: ${describeOutcome(h.status, h.findings.map((f) => f.line))}`;
  const lines: string[] = [];
  if (h.reason !== undefined && h.status !== 'not-built') lines.push(...wrapComment(`${h.status === 'na' ? 'n/a' : h.status}: ${h.reason}`, '  // '));
  lines.push(`  it(${tsString(title)}, () => {`);
  const actual = `expect(outcome(${tsString(h.id)}), changed(${tsString(`${h.id} ${h.name}`)}))`;
  if (h.findings.length === 0) {
    lines.push(`    ${actual}.toEqual({ status: ${tsString(h.status)}, findings: [] });`);
  } else {
    lines.push(`    ${actual}.toEqual({`);
    lines.push(`      status: ${tsString(h.status)},`);
    lines.push('      findings: [');
    for (const f of h.findings) lines.push(`        { id: ${tsString(f.id)}, line: ${f.line} },`);
    lines.push('      ],');
    lines.push('    });');
  }
  lines.push('  });');
  return lines;
}

function gpuSection(input: FkrInput, gpu: FkrGpuInput): string[] {
  const lines = [
    '',
    `const LAUNCH = fileURLToPath(new URL(${tsString(gpu.launch)}, import.meta.url));`,
    `const REFERENCE = fileURLToPath(new URL(${tsString(gpu.reference.endsWith('/') ? gpu.reference : `${gpu.reference}/`)}, import.meta.url));`,
    "const UPDATE_REFERENCE = process.env['FKR_UPDATE_REFERENCE'] === '1';",
    ...(gpu.tolerance !== undefined ? [`const TOLERANCE = { rel: ${gpu.tolerance.rel}, abs: ${gpu.tolerance.abs} };`] : []),
    '',
    'type Run = Awaited<ReturnType<typeof runKernel>>;',
    'let gpuRun: Promise<Run | string> | undefined;',
    'let skipNoted = false;',
    '',
    '/** The kernel\'s run (once), or the test skipped with the reason there is no GPU to run it on. */',
    'async function ranOrSkip(ctx: TestContext): Promise<Run> {',
    '  gpuRun ??= runKernel(PTX, loadLaunchSpec(LAUNCH)).catch((err: unknown) => {',
    '    if (err instanceof GpuUnavailable) return err.message;',
    '    throw err;',
    '  });',
    '  const run = await gpuRun;',
    "  if (typeof run !== 'string') return run;",
    '  if (!skipNoted) {',
    `    console.log(\`[fkr] GPU tests of ${input.displayName.replace(/[`\\$]/g, '\\$&')} skipped: \${run}\`);`,
    '    skipNoted = true;',
    '  }',
    '  return ctx.skip(run);',
    '}',
    '',
    '/** Compares a captured buffer with its reference file (written instead with FKR_UPDATE_REFERENCE=1). */',
    'function matchesReference(run: Run, name: string): void {',
    '  const captured = run.captures.get(name);',
    '  if (captured === undefined) throw new Error(`the run captured no buffer \'${name}\'`);',
    '  const got = readFileSync(captured);',
    '  const file = join(REFERENCE, `${name}.bin`);',
    '  if (UPDATE_REFERENCE) {',
    '    mkdirSync(REFERENCE, { recursive: true });',
    '    writeFileSync(file, got);',
    '    return;',
    '  }',
    '  if (!existsSync(file)) throw new Error(`no reference ${file}: record one from a run you trust with FKR_UPDATE_REFERENCE=1`);',
    '  const want = readFileSync(file);',
    '  expect(got.length, `${name}: size in bytes`).toBe(want.length);',
  ];
  if (gpu.tolerance === undefined) {
    lines.push(
      '  const first = got.findIndex((b, i) => b !== want[i]);',
      '  const differing = got.filter((b, i) => b !== want[i]).length;',
      '  expect(differing, `${name}: ${differing} byte(s) differ from ${file}, the first at offset ${first}`).toBe(0);',
    );
  } else {
    lines.push(
      '  const g = new Float32Array(Uint8Array.from(got).buffer, 0, got.length >> 2);',
      '  const w = new Float32Array(Uint8Array.from(want).buffer, 0, want.length >> 2);',
      '  const close = (a: number, b: number): boolean => Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= TOLERANCE.abs + TOLERANCE.rel * Math.abs(b);',
      '  const bad = [...g.keys()].filter((i) => !close(g[i]!, w[i]!));',
      '  const at = bad[0];',
      '  const where = at === undefined ? \'\' : `, the first at [${at}]: ${g[at]} vs ${w[at]}`;',
      '  expect(bad.length, `${name}: ${bad.length} f32 value(s) outside the tolerance of ${file}${where}`).toBe(0);',
    );
  }
  lines.push(
    '}',
    '',
    `describe(${tsString(`FKR ${input.displayName} on the GPU`)}, () => {`,
    `  it(${tsString(`${gpu.kernel} runs to completion`)}, async (ctx) => {`,
    '    const run = await ranOrSkip(ctx);',
    "    expect(run.status, run.detail).toBe('ok');",
    `  }, ${String(gpu.timeoutSeconds * 1000).replace(/\B(?=(\d{3})+(?!\d))/g, '_')});`,
  );
  for (const name of gpu.captures) {
    lines.push(
      '',
      `  it(${tsString(`captured ${name} matches the reference`)}, async (ctx) => {`,
      '    const run = await ranOrSkip(ctx);',
      "    expect(run.status, run.detail).toBe('ok');",
      `    matchesReference(run, ${tsString(name)});`,
      `  }, ${String(gpu.timeoutSeconds * 1000).replace(/\B(?=(\d{3})+(?!\d))/g, '_')});`,
    );
  }
  lines.push('});');
  return lines;
}

export function renderVitest(input: FkrInput): string {
  const { model, gpu } = input;
  const header = [
    ...wrapComment(`FKR (falsification) tests for ${input.displayName}: the verdict of every ptx-debug hypothesis on it, frozen when this file was generated (score ${model.score}, band ${model.band}). A test fails when the kernel or the analyzer changes a verdict; if the change is intended, regenerate this file and review the diff.${gpu !== undefined ? ` The GPU tests run ${gpu.kernel} through the runner and compare its captured outputs with ${gpu.reference}; they are skipped, with the reason printed, where there is no CUDA driver.` : ''}`, '// '),
    '//',
    `// Generated by \`ptx-debug gen-fkr\`; do not edit by hand. Regenerate with${input.regenerateFrom !== undefined ? ` (in ${input.regenerateFrom})` : ''}:`,
    `//   ${input.regenerate}`,
  ];
  const fsNames = gpu !== undefined ? ['existsSync', 'mkdirSync', 'readFileSync', 'writeFileSync'] : ['readFileSync'];
  const apiNames = gpu !== undefined
    ? ['analyzeText', 'decodePtx', 'GpuUnavailable', 'loadLaunchSpec', 'runKernel', 'type AnalyzeOptions', 'type FileAnalysis']
    : ['analyzeText', 'decodePtx', 'type AnalyzeOptions', 'type FileAnalysis'];
  const lines = [
    ...header,
    `import { ${fsNames.join(', ')} } from 'node:fs';`,
    ...(gpu !== undefined ? ["import { join } from 'node:path';"] : []),
    "import { fileURLToPath } from 'node:url';",
    `import { describe, expect, it${gpu !== undefined ? ', type TestContext' : ''} } from 'vitest';`,
    `import { ${apiNames.join(', ')} } from ${tsString(input.importFrom)};`,
    '',
    `const PTX = fileURLToPath(new URL(${tsString(input.ptx)}, import.meta.url));`,
    `const OPTIONS: AnalyzeOptions = ${optionsLiteral(input.options)};`,
    `const REGENERATE = ${tsString(regenerateHint(input))};`,
    '',
    'let analysis: FileAnalysis | undefined;',
    '',
    "function report(): NonNullable<FileAnalysis['report']> {",
    "  analysis ??= analyzeText(decodePtx(readFileSync(PTX)), PTX, OPTIONS);",
    "  if (analysis.report === undefined) throw new Error(`${PTX} could not be analyzed: ${analysis.error?.message ?? 'unknown error'}`);",
    '  return analysis.report;',
    '}',
    '',
    '/** A hypothesis\'s status and unsuppressed findings (ids and lines, by line). */',
    'function outcome(id: string): { status: string; findings: { id: string; line: number }[] } {',
    '  const o = report().outcomes.find((x) => x.id === id);',
    "  if (o === undefined) return { status: 'absent from the report', findings: [] };",
    '  const findings = o.findings',
    '    .filter((f) => f.suppressed === undefined)',
    '    .map((f) => ({ id: f.id, line: f.location.line }))',
    '    .sort((a, b) => a.line - b.line);',
    '  return { status: o.status, findings };',
    '}',
    '',
    'function changed(what: string): string {',
    `  return \`\${what} changed on ${input.displayName.replace(/[`\\$]/g, '\\$&')}; if that is intended, regenerate this file: \${REGENERATE}\`;`,
    '}',
    '',
    `describe(${tsString(`FKR ${input.displayName}`)}, () => {`,
  ];
  model.hypotheses.forEach((h, i) => {
    if (i > 0) lines.push('');
    lines.push(...hypothesisTest(h));
  });
  lines.push(
    '',
    `  it(${tsString(`score band: ${model.band}`)}, () => {`,
    `    expect(report().band, changed('the score band')).toBe(${tsString(model.band)});`,
    '  });',
    '});',
  );
  if (gpu !== undefined) lines.push(...gpuSection(input, gpu));
  return `${lines.join('\n')}\n`;
}

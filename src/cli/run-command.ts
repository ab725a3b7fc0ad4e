// `ptx-debug run` and `ptx-debug crash-analyze`: execute a kernel through the
// native runner (optionally under compute-sanitizer), and decode a debug buffer.
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { analyzeCrash, loadMarkers } from '../gpu/debug-buffer.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bufferBytes, checkReference, isKernelSpec, parseKernelSpec, prepareKernelSpec, type ReferenceCheck } from '../gpu/kernel-spec.js';
import { parseLaunchSpec, type LaunchSpec } from '../gpu/launch-spec.js';
import { GpuUnavailable, runKernel } from '../gpu/runner.js';
import { SANITIZER_TOOLS, type SanitizerTool } from '../gpu/sanitizer.js';
import { InputError } from '../input.js';
import type { CliIO } from './io.js';

export const EXIT_KERNEL_FAILED = 5;
export const EXIT_SANITIZER = 6;

export function registerRun(program: Command, io: CliIO, setExit: (code: number) => void): void {
  program
    .command('run')
    .description('run a kernel on the GPU through the native runner, optionally under compute-sanitizer')
    .argument('<file>', 'PTX file')
    .requiredOption('--kernel <name>', 'the kernel to launch')
    .requiredOption('--launch <spec>', 'launch spec (JSON)')
    .addOption(new Option('--sanitizer <tool>', 'run under compute-sanitizer').choices([...SANITIZER_TOOLS]))
    .option('--timeout <seconds>', 'give up on a kernel that runs longer')
    .option('--out <dir>', 'where captured buffers are written')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, opts: { kernel: string; launch: string; sanitizer?: SanitizerTool; timeout?: string; out?: string; json?: boolean }) => {
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(opts.launch, 'utf8'));
      } catch (err) {
        throw new InputError(`${opts.launch}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not valid JSON'}`);
      }
      const outDir = opts.out ?? mkdtempSync(join(tmpdir(), 'ptx-debug-run-'));
      // An emitter spec (version 1) brings typed buffers and a CPU reference to compare with.
      const kernelSpec = isKernelSpec(raw) ? (() => {
        try {
          return parseKernelSpec(raw);
        } catch (err) {
          throw new InputError(`${opts.launch}: ${(err as Error).message.split('\n')[0]}`);
        }
      })() : undefined;
      const prepared = kernelSpec !== undefined ? prepareKernelSpec(kernelSpec, dirname(opts.launch), join(outDir, 'inputs')) : undefined;
      const spec: LaunchSpec = prepared?.spec ?? parseLaunchSpec(raw, opts.launch);
      if (opts.timeout !== undefined) {
        const t = Number(opts.timeout);
        if (!(t > 0)) throw new InputError(`--timeout: expected seconds, got '${opts.timeout}'`);
        spec.timeoutSeconds = t;
      }
      spec.kernel = opts.kernel;
      let result;
      try {
        result = await runKernel(file, spec, { ...(opts.sanitizer !== undefined ? { sanitizer: opts.sanitizer } : {}), outDir });
      } catch (err) {
        if (err instanceof GpuUnavailable) throw new InputError(err.message);
        throw err;
      }
      const sanitizerErrors = result.sanitizer?.errors ?? 0;
      const reference: ReferenceCheck | undefined = kernelSpec !== undefined && prepared !== undefined && result.status === 'ok'
        ? checkReference(kernelSpec, prepared.inputs, result.captures) : undefined;
      const gbps = kernelSpec !== undefined && result.ms !== undefined && result.ms > 0 ? bufferBytes(kernelSpec) / (result.ms * 1e6) : undefined;
      if (opts.json === true) {
        io.out(JSON.stringify({ ...result, captures: Object.fromEntries(result.captures), ...(reference !== undefined ? { reference } : {}), ...(gbps !== undefined ? { effectiveGBps: gbps } : {}) }, null, 2));
      } else {
        const lines = [`${file}: ${opts.kernel}: ${result.status}${result.error !== undefined ? ` (${result.error.name})` : ''}${result.ms !== undefined ? `, ${result.ms.toFixed(3)} ms` : ''}${result.device !== undefined ? ` on ${result.device}` : ''}`];
        for (const [name, path] of result.captures) lines.push(`  ${name} → ${path}`);
        if (gbps !== undefined) lines.push(`  buffers ${(bufferBytes(kernelSpec!) / 1e6).toFixed(1)} MB: ${gbps.toFixed(1)} GB/s effective`);
        if (reference !== undefined) {
          for (const c of reference.comparisons) {
            lines.push(`  ${c.name}: ${c.mismatches === 0 ? 'matches the CPU reference' : `${c.mismatches} of ${c.count} elements differ from the CPU reference (first at ${c.first?.index}: got ${String(c.first?.got)}, want ${String(c.first?.want)})`}${c.maxAbsError > 0 ? `, max abs error ${c.maxAbsError.toExponential(2)}` : ''}`);
          }
        }
        if (result.sanitizer !== undefined) {
          lines.push(`  ${result.sanitizer.tool}: ${sanitizerErrors} error(s)`);
          for (const e of result.sanitizer.events) lines.push(`    ${e.message}${e.locations.length > 0 ? ` [${e.locations.map((l) => `line ${l.line}`).join(', ')}]` : ''}`);
        }
        io.out(lines.join('\n'));
      }
      // A sanitizer that found errors often stops the kernel too: its report is the better witness.
      setExit(sanitizerErrors > 0 ? EXIT_SANITIZER : result.status !== 'ok' || reference?.ok === false ? EXIT_KERNEL_FAILED : 0);
    });

  program
    .command('crash-analyze')
    .description('decode a debug buffer and name the last marker reached')
    .requiredOption('--debug-buffer <file>', 'the captured debug buffer')
    .option('--ptx <file>', 'the instrumented PTX (for the excerpt)')
    .option('--markers <file>', 'marker map (JSON: marker → line)')
    .action((opts: { debugBuffer: string; ptx?: string; markers?: string }) => {
      let bytes: Buffer;
      try {
        bytes = readFileSync(opts.debugBuffer);
      } catch {
        throw new InputError(`cannot read '${opts.debugBuffer}': no such file`);
      }
      const markers = opts.markers !== undefined ? loadMarkers(opts.markers) : {};
      const a = analyzeCrash(bytes, markers);
      const lines = [`${a.decoded.records.length} record(s)${a.decoded.unwritten > 0 ? `, ${a.decoded.unwritten} slot(s) claimed but never written` : ''}${a.decoded.truncated ? ` (${a.decoded.attempted} attempted: the buffer filled up)` : ''}`];
      for (const r of a.reached) lines.push(`  marker ${r.marker}${r.line !== undefined ? ` (line ${r.line}${r.label !== undefined ? `, ${r.label}` : ''})` : ''}: ${r.count} thread(s)`);
      if (a.last === undefined) lines.push('no marker was reached');
      else {
        lines.push(`last marker reached: ${a.last.marker}${a.last.line !== undefined ? ` at line ${a.last.line}` : ''} (${a.last.threads} thread(s)); the failure lies after it`);
        if (opts.ptx !== undefined && a.last.line !== undefined) {
          const src = readFileSync(opts.ptx, 'utf8').split('\n');
          lines.push(`  ${a.last.line} | ${src[a.last.line - 1]?.trim() ?? ''}`);
        }
      }
      io.out(lines.join('\n'));
      setExit(0);
    });
}

// `analyze --confirm --launch SPEC`: each finding with a runtime witness is
// tried on the GPU and marked confirmed, not reproduced or inconclusive, with
// the evidence. Races are witnessed by racecheck, barrier problems by
// synccheck, out-of-bounds and misaligned accesses by memcheck, uninitialized
// reads by initcheck; F021/F081/F082 by a plain run whose outputs are compared
// with the kernel's CPU reference (emitter specs carry one). Without a driver
// every finding is "not run (no driver)" and the static result stands.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { FileAnalysis } from '../analyze.js';
import type { Confirmation, Finding } from '../checks/types.js';
import { InputError } from '../input.js';
import { checkReference, isKernelSpec, parseKernelSpec, prepareKernelSpec } from './kernel-spec.js';
import { parseLaunchSpec, type LaunchSpec } from './launch-spec.js';
import { GpuUnavailable, runKernel, type RunResult } from './runner.js';
import type { SanitizerTool } from './sanitizer.js';

/** Which runtime witness can test a check's hypothesis. */
export const WITNESS: Readonly<Record<string, SanitizerTool | 'reference'>> = {
  F036: 'racecheck', F037: 'racecheck',
  F038: 'synccheck', F039: 'synccheck', F040: 'synccheck', F041: 'synccheck', F042: 'synccheck', F049: 'synccheck', F050: 'synccheck',
  F025: 'memcheck', F028: 'memcheck', F051: 'memcheck', F054: 'memcheck',
  F058: 'initcheck',
  F021: 'reference', F081: 'reference', F082: 'reference',
};

function lines(f: Finding): number[] {
  return [f.location.line, ...(f.related ?? []).map((r) => r.location.line), ...(f.chain ?? []).map((c) => c.location.line)];
}

function judge(f: Finding, tool: SanitizerTool, run: RunResult): Confirmation {
  const report = run.sanitizer;
  const device = run.device;
  const base = { tool, ...(device !== undefined ? { device } : {}) };
  if (report === undefined) return { status: 'inconclusive', ...base, evidence: 'the sanitizer gave no report' };
  const mine = new Set(lines(f));
  const hit = report.events.find((e) => e.locations.some((l) => mine.has(l.line)));
  if (hit !== undefined) return { status: 'confirmed', ...base, evidence: hit.text.split('\n').slice(0, 2).join(' ') };
  if (report.errors === 0) return { status: 'not-reproduced', ...base, evidence: `${tool}: 0 errors` };
  return { status: 'inconclusive', ...base, evidence: `${tool} reported ${report.errors} error(s), none at this finding's lines` };
}

export interface ConfirmOptions {
  /** Reports progress while kernels run. */
  readonly onStep?: (what: string) => void;
}

/** Tries every witnessable finding of the files whose PTX defines the spec's kernel. */
export async function confirmFindings(files: readonly FileAnalysis[], specPath: string, options: ConfirmOptions = {}): Promise<FileAnalysis[]> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(specPath, 'utf8'));
  } catch {
    throw new InputError(`${specPath}: cannot read the launch spec`);
  }
  const kernelSpec = isKernelSpec(raw) ? parseKernelSpec(raw) : undefined;
  const out: FileAnalysis[] = [];
  for (const file of files) {
    const report = file.report;
    const spec: LaunchSpec = kernelSpec === undefined ? parseLaunchSpec(raw, specPath) : { kernel: kernelSpec.kernel, grid: kernelSpec.grid, block: kernelSpec.block, sharedBytes: kernelSpec.dynamicSharedBytes, timeoutSeconds: 30, args: [] };
    const targets = (report?.findings ?? []).filter((f) => f.suppressed === undefined && WITNESS[f.id] !== undefined && (f.function === undefined || f.function === spec.kernel));
    if (report === undefined || targets.length === 0 || file.compiledFrom === 'cuda') {
      out.push(file);
      continue;
    }
    const confirmations = new Map<Finding, Confirmation>();
    const runs = new Map<string, RunResult | Error>();
    const runOnce = async (tool: SanitizerTool | 'reference'): Promise<RunResult | Error> => {
      const hit = runs.get(tool);
      if (hit !== undefined) return hit;
      options.onStep?.(`${file.file}: ${tool === 'reference' ? 'plain run' : tool}`);
      const work = mkdtempSync(join(tmpdir(), 'ptx-debug-confirm-'));
      const prepared = kernelSpec !== undefined ? prepareKernelSpec(kernelSpec, dirname(specPath), join(work, 'inputs')) : undefined;
      let result: RunResult | Error;
      try {
        const r = await runKernel(file.file, prepared?.spec ?? spec, { outDir: work, ...(tool !== 'reference' ? { sanitizer: tool } : {}) });
        result = r;
        if (tool === 'reference' && kernelSpec !== undefined && prepared !== undefined && r.status === 'ok') {
          const check = checkReference(kernelSpec, prepared.inputs, r.captures);
          if (check !== undefined) (result as RunResult & { matchesReference?: boolean }).matchesReference = check.ok;
        }
      } catch (err) {
        result = err as Error;
      }
      runs.set(tool, result);
      return result;
    };
    for (const f of targets) {
      const tool = WITNESS[f.id]!;
      const r = await runOnce(tool);
      if (r instanceof GpuUnavailable) confirmations.set(f, { status: 'not-run', evidence: `not run (${r.message.startsWith('no CUDA driver') ? 'no driver' : r.message})` });
      else if (r instanceof Error) confirmations.set(f, { status: 'inconclusive', evidence: r.message });
      else if (tool === 'reference') {
        const match = (r as RunResult & { matchesReference?: boolean }).matchesReference;
        const device = r.device !== undefined ? { device: r.device } : {};
        confirmations.set(f, match === undefined
          ? { status: 'inconclusive', tool: 'plain run', ...device, evidence: r.status === 'ok' ? 'ran correctly; no CPU reference to compare with' : `the kernel failed: ${r.error?.name ?? r.status}` }
          : match ? { status: 'not-reproduced', tool: 'plain run', ...device, evidence: 'outputs match the CPU reference' }
            : { status: 'confirmed', tool: 'plain run', ...device, evidence: 'outputs differ from the CPU reference' });
      } else confirmations.set(f, judge(f, tool, r));
    }
    const findings = report.findings.map((f) => {
      const c = confirmations.get(f);
      return c === undefined ? f : { ...f, confirmation: c };
    });
    out.push({ ...file, report: { ...report, findings, outcomes: report.outcomes.map((o) => ({ ...o, findings: o.findings.map((f) => findings.find((x) => x.fingerprint !== undefined && x.fingerprint === f.fingerprint && x.id === f.id) ?? f) })) } });
  }
  return out;
}

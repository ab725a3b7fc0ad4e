// `--format tsv`: one line per hypothesis per kernel (file, kernel, id,
// status, finding lines), for tools that cannot parse JSON. Module-level
// results use the kernel column `-`.
import type { AnalysisResult } from '../analyze.js';

export function formatTsv(result: AnalysisResult): string {
  const lines = ['file\tkernel\tid\tstatus\tlines'];
  for (const f of result.files) {
    if (f.report === undefined) {
      lines.push(`${f.file}\t-\t-\terror\t-`);
      continue;
    }
    const kernels = f.report.kernels.length > 0 ? f.report.kernels : [];
    for (const o of f.report.outcomes) {
      const moduleLines = o.findings.filter((x) => x.function === undefined && x.suppressed === undefined).map((x) => x.location.line);
      if (kernels.length === 0 || moduleLines.length > 0) lines.push(`${f.file}\t-\t${o.id}\t${o.status}\t${moduleLines.join(',') || '-'}`);
      for (const k of kernels) {
        const r = k.results.find((x) => x.id === o.id)!;
        const at = o.findings.filter((x) => x.function === k.name && x.suppressed === undefined).map((x) => x.location.line);
        lines.push(`${f.file}\t${k.name}\t${o.id}\t${r.status}\t${at.join(',') || '-'}`);
      }
    }
  }
  return lines.join('\n');
}

// Inputs the report tests share: analysis results of real files, and a
// result with a synthetic dataflow finding (no built check emits chains
// yet), made by adding the finding to a real file's report.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeText, summarize, type AnalysisResult, type FileAnalysis } from '../../src/analyze.js';
import type { Finding, Location } from '../../src/checks/types.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');
export const HEADER = '.version 8.0\n.target sm_90\n.address_size 64\n';

export function resultOf(...files: FileAnalysis[]): AnalysisResult {
  return summarize(files);
}

export function textResult(text: string, file = 'kernel.ptx'): AnalysisResult {
  return resultOf(analyzeText(text, file));
}

/** A kernel with a shared-memory store, a barrier-free load, and a global store. */
export const RACE_PTX = `${HEADER}.file 1 "src/race.cu"
.visible .entry race(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .f32 %f<3>;
	.reg .b64 %rd<3>;
	.shared .align 4 .b8 tile[512];
	mov.u32 %r1, %tid.x;
	shl.b32 %r2, %r1, 2;
	mov.u32 %r3, tile;
	add.s32 %r3, %r3, %r2;
	.loc 1 10 3
	st.shared.f32 [%r3], %f1;
	.loc 1 11 3
	ld.shared.f32 %f2, [%r3+4];
	ld.param.u64 %rd1, [out];
	.loc 1 12 3
	st.global.f32 [%rd1], %f2;
	ret;
}
`;

const at = (line: number, column: number, source?: number): Location => ({
  line, column, endLine: line, endColumn: column + 10,
  ...(source !== undefined ? { source: { file: 'src/race.cu', line: source, column: 3 } } : {}),
});

/** The chain a read-after-write race check would report on RACE_PTX. */
export const RACE_FINDING: Finding = {
  id: 'F001',
  severity: 'critical',
  message: 'st.shared at 16 reaches ld.shared at 18 with no barrier between',
  location: at(18, 2, 11),
  function: 'race',
  chain: [
    { location: at(16, 2, 10), what: 'st.shared.f32' },
    { location: at(18, 2, 11), what: 'ld.shared.f32' },
    { location: at(21, 2, 12), what: 'st.global.f32' },
  ],
  related: [{ location: at(16, 2, 10), message: 'the store the load may see half-written' }],
};

/** RACE_PTX analyzed, with RACE_FINDING added to its report (and its check failing). */
export function raceResult(file = 'race.ptx'): AnalysisResult {
  const real = analyzeText(RACE_PTX, file);
  const report = real.report!;
  return resultOf({
    ...real,
    report: {
      ...report,
      findings: [...report.findings, RACE_FINDING],
      outcomes: report.outcomes.map((o) => (o.id === RACE_FINDING.id ? { ...o, status: 'fail' as const, findings: [...o.findings, RACE_FINDING] } : o)),
    },
  });
}

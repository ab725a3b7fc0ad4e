// The library entry point. The CLI is a thin layer over these functions.
import { InputError, decodePtx, readPtxSource } from './input.js';
import { parsePtx, type ParseResult } from './parser/parse.js';
import { summarizeModule, type ModuleSummary } from './parser/summary.js';
import { formatDiagnostic, type PtxDiagnostic } from './parser/diagnostics.js';
import { printModule } from './parser/printer.js';
import { AnalysisContext, type AnalysisOptions } from './cfg/context.js';
import { cfgToDot } from './cfg/dot.js';

export type { ParseResult, ModuleSummary, PtxDiagnostic };
export type * from './parser/ast.js';
export { parsePtx, printModule, summarizeModule, formatDiagnostic, AnalysisContext, InputError, decodePtx, readPtxSource };
export { analyzeFiles, analyzeText, type AnalysisResult, type AnalyzeOptions, type FileAnalysis } from './analyze.js';
export { CHECKS, NOT_BUILT } from './checks/index.js';
export { CATALOG } from './checks/catalog.js';
export type { Check, CheckMeta, Finding, Location, Severity } from './checks/types.js';
export type { AnalysisOptions };
export { formatSarif, toSarif, type SarifOptions } from './report/sarif.js';
export { formatHtml, type HtmlOptions } from './report/html.js';
export { formatJunit } from './report/junit.js';
export { GpuUnavailable, runKernel } from './gpu/runner.js';
export { loadLaunchSpec } from './gpu/launch-spec.js';

/** Graphviz dot of each function's CFG (or of the one named). */
export function cfgDot(module: ParseResult['module'], functionName?: string): string[] {
  const ctx = new AnalysisContext(module);
  const fns = functionName === undefined ? ctx.functions : ctx.functions.filter((f) => f.name === functionName);
  if (functionName !== undefined && fns.length === 0) {
    const known = ctx.functions.map((f) => f.name).join(', ') || 'none';
    throw new InputError(`no function '${functionName}' with a body (functions: ${known})`);
  }
  return fns.map((f) => cfgToDot(ctx.cfg(f)));
}

export interface ParsedFile extends ParseResult {
  readonly file: string;
  readonly text: string;
}

/** Reads and parses one file. Syntax errors are in `errors`; only an
 *  unreadable file throws (InputError). */
export async function parseFile(path: string): Promise<ParsedFile> {
  const text = await readPtxSource(path);
  return { file: path === '-' ? '<stdin>' : path, text, ...parsePtx(text) };
}

/** Every error of a parsed file rendered as `file:line:col: message` + caret. */
export function formatErrors(parsed: ParsedFile): string[] {
  return parsed.errors.map((e) => formatDiagnostic(parsed.file, parsed.text, e));
}

/** JSON for an AST: bigints as decimal strings. */
export function astToJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2);
}

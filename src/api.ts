// The library entry point. The CLI is a thin layer over these functions.
import { readFile } from 'node:fs/promises';
import { parsePtx, type ParseResult } from './parser/parse.js';
import { summarizeModule, type ModuleSummary } from './parser/summary.js';
import { formatDiagnostic, type PtxDiagnostic } from './parser/diagnostics.js';
import { printModule } from './parser/printer.js';
import { AnalysisContext, type AnalysisOptions } from './cfg/context.js';
import { cfgToDot } from './cfg/dot.js';

export type { ParseResult, ModuleSummary, PtxDiagnostic };
export type * from './parser/ast.js';
export { parsePtx, printModule, summarizeModule, formatDiagnostic, AnalysisContext };
export type { AnalysisOptions };

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

/** An input problem the user must fix (missing file, bad option): exit 4. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** Decodes file bytes as UTF-8. Invalid sequences become U+FFFD, which the
 *  lexer reports outside comments; nothing here throws. */
export function decodePtx(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(bytes);
}

/** Reads a PTX file (or standard input for `-`) as text. */
export async function readPtxSource(path: string): Promise<string> {
  try {
    if (path === '-') {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return decodePtx(Buffer.concat(chunks));
    }
    return decodePtx(await readFile(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? err);
    throw new InputError(`cannot read '${path}': ${why}`);
  }
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

// Analysis tests on small PTX: wrap a kernel body, build the context, and find
// instructions by their line so facts read like bug reports.
import { expect } from 'vitest';
import { AnalysisContext, type AnalysisOptions } from '../../src/cfg/context.js';
import type { FlatInstruction, FunctionModel } from '../../src/cfg/symbols.js';
import { parsePtx } from '../../src/parser/parse.js';

export interface Analyzed {
  readonly ctx: AnalysisContext;
  readonly fn: FunctionModel;
  /** The instruction on a 1-based line of the text. */
  at(line: number): FlatInstruction;
}

/** Parses a whole module (must be error-free) and picks a function (first by default). */
export function analyze(text: string, fnName?: string, options?: AnalysisOptions): Analyzed {
  const r = parsePtx(text);
  expect(r.errors).toEqual([]);
  const ctx = new AnalysisContext(r.module, options);
  const fn = fnName === undefined ? ctx.functions[0] : ctx.function(fnName);
  if (fn === undefined) throw new Error(`no function ${fnName ?? ''}`);
  return {
    ctx,
    fn,
    at(line: number): FlatInstruction {
      const ins = fn.instructions.find((i) => i.node.range.line === line);
      if (ins === undefined) throw new Error(`no instruction on line ${line}`);
      return ins;
    },
  };
}

/** The 1-based line of the first line of `text` containing `needle`. */
export function lineOf(text: string, needle: string): number {
  const i = text.split('\n').findIndex((l) => l.includes(needle));
  if (i === -1) throw new Error(`'${needle}' not found`);
  return i + 1;
}

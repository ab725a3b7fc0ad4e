// What `ptx-debug parse` prints without --json: the module header and, per
// function, its kind, parameters, declarations and instruction count.
import type { Block, FunctionDecl, Module, Statement } from './ast.js';

export interface FunctionSummary {
  readonly name: string;
  readonly kind: 'entry' | 'func';
  readonly line: number;
  readonly params: number;
  readonly instructions: number;
  readonly declarations: number;
  readonly labels: number;
  /** False for a prototype (`.extern .func f(...);`). */
  readonly defined: boolean;
}

export interface ModuleSummary {
  readonly version?: string;
  readonly targets: readonly string[];
  readonly addressSize?: number;
  readonly functions: readonly FunctionSummary[];
  /** Module-scope variable declarations. */
  readonly declarations: number;
  readonly instructions: number;
}

interface Counts { instructions: number; declarations: number; labels: number }

function countBlock(b: Block, c: Counts): void {
  for (const s of b.statements) countStatement(s, c);
}

function countStatement(s: Statement, c: Counts): void {
  if (s.kind === 'Instruction') c.instructions++;
  else if (s.kind === 'Variable') c.declarations++;
  else if (s.kind === 'Label') c.labels++;
  else if (s.kind === 'Block') countBlock(s, c);
}

function summarizeFunction(f: FunctionDecl): FunctionSummary {
  const c: Counts = { instructions: 0, declarations: 0, labels: 0 };
  if (f.body !== null) countBlock(f.body, c);
  return {
    name: f.name, kind: f.isEntry ? 'entry' : 'func', line: f.range.line,
    params: f.params.length, defined: f.body !== null, ...c,
  };
}

export function summarizeModule(m: Module): ModuleSummary {
  let version: string | undefined;
  let addressSize: number | undefined;
  const targets: string[] = [];
  const functions: FunctionSummary[] = [];
  let declarations = 0;
  for (const s of m.statements) {
    if (s.kind === 'Version' && version === undefined) version = `${s.major}.${s.minor}`;
    else if (s.kind === 'Target') targets.push(...s.targets);
    else if (s.kind === 'AddressSize' && addressSize === undefined) addressSize = s.size;
    else if (s.kind === 'Function') functions.push(summarizeFunction(s));
    else if (s.kind === 'Variable') declarations++;
  }
  const instructions = functions.reduce((n, f) => n + f.instructions, 0);
  return {
    ...(version !== undefined ? { version } : {}),
    targets,
    ...(addressSize !== undefined ? { addressSize } : {}),
    functions, declarations, instructions,
  };
}

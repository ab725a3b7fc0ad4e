// F010: the file has a byte-order mark, or non-ASCII characters (or invalid
// UTF-8, decoded as U+FFFD) inside comments or strings.
import type { Comment, ModuleStatement, SourceRange, Statement } from '../parser/ast.js';
import { commentsOutsideBodies, commentsWithin } from './comments.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, pass, runWhole } from './types.js';

type Draft = Omit<Finding, 'id' | 'severity'>;

/** The first non-ASCII character of `text`: its index and code point. */
function firstNonAscii(text: string): { index: number; code: number } | undefined {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return { index: i, code: text.codePointAt(i) ?? c };
  }
  return undefined;
}

/** The line and column of `index` within a node's text that starts at `range`. */
function positionIn(text: string, index: number, range: SourceRange): SourceRange {
  let line = range.line;
  let column = range.column;
  for (let i = 0; i < index; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return { line, column, offset: range.offset + index, endLine: line, endColumn: column + 1, endOffset: range.offset + index + 1 };
}

const describe = (code: number): string => code === 0xfffd
  ? 'an invalid UTF-8 sequence (decoded as U+FFFD)'
  : `the non-ASCII character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

function scanComment(ctx: CheckContext, c: Comment, out: Draft[]): void {
  const bad = firstNonAscii(c.text);
  if (bad !== undefined) out.push({ message: `${describe(bad.code)} in a comment`, location: ctx.locate(positionIn(c.text, bad.index, c.range)) });
}

/** A string: the value's position inside the directive is not kept, so it is reported at the directive. */
function scanString(ctx: CheckContext, text: string, range: SourceRange, what: string, out: Draft[]): void {
  const bad = firstNonAscii(text);
  if (bad !== undefined) out.push({ message: `${describe(bad.code)} in ${what}`, location: ctx.locate(range) });
}

/** The strings of statements: of functions, their bodies' only with `bodies` (else none). */
function visitStatements(ctx: CheckContext, stmts: readonly (Statement | ModuleStatement)[], bodies: boolean, out: Draft[]): void {
  for (const x of stmts) {
    if (x.kind === 'File') scanString(ctx, x.path, x.range, 'a .file path', out);
    else if (x.kind === 'Pragma') for (const v of x.values) scanString(ctx, v, x.range, 'a .pragma string', out);
    else if (x.kind === 'Dwarf') scanString(ctx, x.text, x.range, 'an @@DWARF line', out);
    else if (x.kind === 'Section') for (const it of x.items) { if (it.kind === 'Dwarf') scanString(ctx, it.text, it.range, 'an @@DWARF line', out); }
    else if (x.kind === 'Function' && bodies && x.body !== null) visitStatements(ctx, x.body.statements, true, out);
    else if (x.kind === 'Block') visitStatements(ctx, x.statements, bodies, out);
  }
}

export const F010: Check = {
  meta: {
    id: 'F010',
    name: 'encoding',
    category: 'module',
    severity: 'low',
    points: 1,
    description: 'The file starts with a byte-order mark, or has non-ASCII characters or invalid UTF-8 inside comments or strings.',
    rationale: 'ptxas 13 rejects them, in comments too ("Unexpected non-ASCII character encountered on line N"), and so do other PTX '
      + 'consumers (older drivers\' JIT, scripts that slice PTX by bytes); a BOM or a typographic quote pasted into a comment is an easy '
      + 'way to break a tool chain far from the source.',
    remedy: 'Save the file as plain ASCII without a BOM; replace typographic characters in comments and `.file`/`.pragma` strings.',
    notes: 'Strings are `.file` paths, `.pragma` values and `@@DWARF` lines. Invalid UTF-8 reaches the analyzer as U+FFFD and is '
      + 'reported as such. Non-ASCII outside comments and strings cannot be tokenized: that is an input error (exit 4), not this check. '
      + 'One finding per comment or string, at its first offending character; the BOM at line 1. The catalog\'s rule says ptxas '
      + 'tolerates these; ptxas 13 rejects any non-ASCII byte, a BOM and comments included (test/checks/mutated-real.test.ts runs it on '
      + 'nvcc output with a BOM), so the rationale follows ptxas while the rule keeps the catalog\'s words.',
    examples: {
      fails: '.version 7.8\n.target sm_90\n.address_size 64\n// r\u00e9sum\u00e9\n.entry k()\n{\n\tret;\n}\n',
      passes: '.version 7.8\n.target sm_90\n.address_size 64\n// resume\n.entry k()\n{\n\tret;\n}\n',
    },
  },
  split: {
    // Comments and statements in bodies part by part; the file's start, the comments and statements outside
    // bodies once.
    part(ctx): Draft[] {
      const out: Draft[] = [];
      const bodies = ctx.functions.map((fn) => fn.decl.body!.range);
      for (const c of commentsWithin(ctx.module.comments, bodies)) scanComment(ctx, c, out);
      visitStatements(ctx, ctx.functions.map((fn) => fn.decl), true, out);
      return out;
    },
    join(ctx, parts: readonly Draft[][]) {
      const out = parts.flat();
      if (ctx.module.hasBom) {
        out.push({ message: 'the file starts with a UTF-8 byte-order mark', location: { line: 1, column: 1, endLine: 1, endColumn: 1 } });
      }
      for (const c of commentsOutsideBodies(ctx.module)) scanComment(ctx, c, out);
      visitStatements(ctx, ctx.module.statements, false, out);
      out.sort((a, b) => a.location.line - b.location.line || a.location.column - b.location.column);
      return out.length === 0 ? pass() : found(out);
    },
  },
  run: (ctx) => runWhole(F010.split!, ctx),
};

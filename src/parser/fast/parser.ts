// The fast path: a recursive-descent parser over the fast scanner that builds
// the same tree as the Chevrotain grammar (src/parser/parser.ts) for
// well-formed input, and gives up (undefined) at the first deviation of any
// kind, so that `parsePtx` falls back to the reference parser, which recovers
// and reports errors.
//
// Each rule below mirrors the reference rule of the same name: the same
// decisions (taken on the same lookahead tokens; where Chevrotain's LL(k)
// choice would commit to an alternative that then fails, this parser commits
// and fails too), the same node shapes with the same optional keys, and the
// same ranges: a node spans from the start of its first token to the end of
// the last token consumed (`rangeFrom`), or covers two nodes. Ranges keep their
// two offsets only (`compactRanges`: line and column are derived when read).
import type * as A from '../ast.js';
import type { TextOrigin } from '../offset-map.js';
import { compactRanges, rangesOver } from '../ranges.js';
import { Scanner, Tok, floatOf, intOf, isAnyDotted, isBinaryOperator, isModifierLike, matchingBrace, numOf, plainOf, type Entry } from './scanner.js';

/** Thrown to abandon the fast path; never escapes `fastParse`. */
class Bail {}
const BAIL = new Bail();

/** Deepest nesting taken on the fast path (the reference overflows its stack
 *  at a few hundred levels; real PTX nests a handful). */
const MAX_DEPTH = 64;

/** Binary operator images and precedences by token kind (C-like, as the reference). */
const OP_TEXT: string[] = [];
const OP_PREC = new Uint8Array(Tok.Caret + 1);
for (const [k, op, p] of [
  [Tok.OrOr, '||', 1], [Tok.AndAnd, '&&', 2], [Tok.Pipe, '|', 3], [Tok.Caret, '^', 4], [Tok.Amp, '&', 5],
  [Tok.EqEq, '==', 6], [Tok.NotEq, '!=', 6], [Tok.Lt, '<', 7], [Tok.Gt, '>', 7], [Tok.Le, '<=', 7], [Tok.Ge, '>=', 7],
  [Tok.Shl, '<<', 8], [Tok.Shr, '>>', 8], [Tok.Plus, '+', 9], [Tok.Minus, '-', 9],
  [Tok.Star, '*', 10], [Tok.Slash, '/', 10], [Tok.Percent, '%', 10],
] as const) {
  OP_TEXT[k] = op;
  OP_PREC[k] = p;
}
const UNARY_TEXT: A.UnaryOp[] = [];
UNARY_TEXT[Tok.Bang] = '!';
UNARY_TEXT[Tok.Tilde] = '~';
UNARY_TEXT[Tok.Plus] = '+';
UNARY_TEXT[Tok.Minus] = '-';

/** Tokens that can start an expression (`unary`). */
const EXPR_FIRST = new Uint8Array(Tok.Caret + 1);
for (const k of [Tok.Identifier, Tok.IntLit, Tok.FloatHex, Tok.FloatDec, Tok.LBracket, Tok.LCurly, Tok.Bang, Tok.Tilde, Tok.Plus, Tok.Minus, Tok.LParen]) {
  EXPR_FIRST[k] = 1;
}

/** `.x .y .z .w .r .g .b .a` (second char of a two-char dotted word). */
const COMPONENT_CHAR = new Uint8Array(128);
for (const ch of 'xyzwrgba') COMPONENT_CHAR[ch.charCodeAt(0)] = 1;


function unquote(s: string): string {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s;
}

/** `%p|%q` as an operand is a predicate pair, not a bitwise or. */
function predPair(e: A.Expression): A.Expression {
  if (e.kind === 'Binary' && e.op === '|' && e.left.kind === 'Name' && e.right.kind === 'Name') {
    return { kind: 'PredPair', first: e.left, second: e.right, range: e.range };
  }
  return e;
}

/** A shared modifier list, and the lists that extend it by one modifier. */
interface ModifierList {
  readonly list: readonly string[];
  next: Map<Entry, ModifierList> | undefined;
}

class FastParser extends Scanner {
  /** A scratch stack for list elements: each list is collected above a base
   *  index, then copied out with `slice`, so every array in the tree has its
   *  exact size (an array grown by `push` reserves 17 slots at once). */
  private readonly stk: unknown[] = [];
  /** A range from two offsets (of the original text, when the text is pieces: `at`, `atEnd`). */
  private readonly span: (offset: number, endOffset: number) => A.SourceRange;
  /** The trie of modifier lists seen so far (see `instructionRest`). */
  private readonly modifierLists: ModifierList = { list: [], next: undefined };
  private top = 0;
  /** Function bodies to leave out: the offset of a body's `{` to the offset just after its `}`; 'all': every
   *  body, found by matching braces (`skipped` lists them). */
  private readonly skipBodies: ReadonlyMap<number, number> | 'all' | undefined;
  /** The bodies left out with 'all': declaration offset, offset of `{`, offset after `}`. */
  readonly skipped: [number, number, number][] = [];
  constructor(text: string, skipBodies?: ReadonlyMap<number, number> | 'all', origin?: TextOrigin) {
    super(text, origin);
    this.span = origin === undefined ? compactRanges(text) : rangesOver(origin.lines);
    this.skipBodies = skipBodies;
  }

  /** Nesting of blocks, initializer lists, expressions and unary operators. */
  private depth = 0;

  // ------------------------------------------------------------ helpers

  private put(x: unknown): void {
    this.stk[this.top++] = x;
  }

  /** The elements put since `base`, as an exact-size array. */
  private take<T>(base: number): T[] {
    const s = this.stk as T[];
    const n = this.top - base;
    this.top = base;
    // Array literals for the common sizes: their allocation sites let V8
    // allocate long-lived arrays in old space directly (pretenuring).
    switch (n) {
      case 0: return [];
      case 1: return [s[base]!];
      case 2: return [s[base]!, s[base + 1]!];
      case 3: return [s[base]!, s[base + 1]!, s[base + 2]!];
      case 4: return [s[base]!, s[base + 1]!, s[base + 2]!, s[base + 3]!];
      default: return s.slice(base, base + n);
    }
  }

  private bail(): never {
    throw BAIL;
  }

  /** One level deeper. Deep nesting goes to the reference parser, which
   *  reports running out of stack (at a few hundred levels) as an error. */
  private enter(): void {
    if (++this.depth > MAX_DEPTH) this.bail();
  }

  /** Consumes a token of kind `k`. */
  private expect(k: Tok): void {
    if (this.tk() !== k) this.bail();
    this.advance();
  }

  /** Consumes a token of kind `k` and returns its interned image. */
  private expectEnt(k: Tok): Entry {
    const e = this.ent;
    if (this.tk() !== k || e === null) this.bail();
    this.advance();
    return e;
  }

  /** Consumes a ModifierLike token and returns its image. */
  private expectModifierLike(): string {
    const e = this.ent;
    if (!isModifierLike(this.tk()) || e === null) this.bail();
    this.advance();
    return e.str;
  }

  /** The range of the current token alone. */
  private tokRange(): A.SourceRange {
    return this.span(this.at(this.start), this.atEnd(this.end));
  }

  /** From a start position to the end of the last consumed token. */
  private rangeFrom(_line: number, _column: number, offset: number): A.SourceRange {
    return this.span(this.at(offset), this.atEnd(this.peo));
  }

  // ------------------------------------------------------------ module

  parseModule(): A.ModuleStatement[] {
    const statements: A.ModuleStatement[] = [];
    for (;;) {
      switch (this.tk()) {
        case Tok.KwVersion: statements.push(this.version()); break;
        case Tok.KwTarget: statements.push(this.target()); break;
        case Tok.KwAddressSize: statements.push(this.addressSize()); break;
        case Tok.KwFile: statements.push(this.file()); break;
        case Tok.KwSection: statements.push(this.section()); break;
        case Tok.KwAlias: statements.push(this.alias()); break;
        case Tok.KwPragma: statements.push(this.pragma()); break;
        case Tok.KwLoc: statements.push(this.loc()); break;
        case Tok.Dwarf: statements.push(this.dwarf()); break;
        case Tok.KwLinkage: case Tok.KwEntry: case Tok.KwFunc: case Tok.KwStateSpace:
          statements.push(this.declaration());
          break;
        case Tok.EOF:
          return statements;
        default:
          return this.bail();
      }
    }
  }

  private version(): A.VersionDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    if (this.tk() !== Tok.FloatDec && this.tk() !== Tok.IntLit) this.bail();
    const [maj, min] = this.image().split('.');
    this.advance();
    return { kind: 'Version', major: Number(maj), minor: Number(min ?? 0), range: this.rangeFrom(line, column, offset) };
  }

  private target(): A.TargetDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const base = this.top;
    this.put(this.expectEnt(Tok.Identifier).str);
    while (this.tk() === Tok.Comma) {
      this.advance();
      this.put(this.expectEnt(Tok.Identifier).str);
    }
    return { kind: 'Target', targets: this.take<string>(base), range: this.rangeFrom(line, column, offset) };
  }

  private addressSize(): A.AddressSizeDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const n = this.expectEnt(Tok.IntLit);
    return { kind: 'AddressSize', size: Number.parseInt(n.str, 10), range: this.rangeFrom(line, column, offset) };
  }

  private file(): A.FileDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const index = Number(intOf(this.expectEnt(Tok.IntLit)).value);
    if (this.tk() !== Tok.StringLit) this.bail();
    const path = unquote(this.image());
    this.advance();
    let timestamp: Entry | undefined;
    let size: Entry | undefined;
    let n = 0;
    while (this.tk() === Tok.Comma) {
      this.advance();
      const e = this.expectEnt(Tok.IntLit);
      if (n === 0) timestamp = e;
      else if (n === 1) size = e;
      n++;
    }
    const range = this.rangeFrom(line, column, offset);
    if (timestamp === undefined) return { kind: 'File', index, path, range };
    const ts = Number(intOf(timestamp).value);
    if (size === undefined) return { kind: 'File', index, path, timestamp: ts, range };
    return { kind: 'File', index, path, timestamp: ts, size: Number(intOf(size).value), range };
  }

  private loc(): A.LocDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const file = numOf(this.expectEnt(Tok.IntLit));
    const ln = numOf(this.expectEnt(Tok.IntLit));
    let col = 0;
    if (this.tk() === Tok.IntLit) col = numOf(this.expectEnt(Tok.IntLit));
    let functionName: A.Expression | undefined;
    let inlinedAt: { file: number; line: number; column: number } | undefined;
    while (this.tk() === Tok.Comma) {
      this.advance();
      this.expect(Tok.Identifier);
      if (this.tk() === Tok.IntLit && this.peekKind() === Tok.IntLit) {
        const f = numOf(this.expectEnt(Tok.IntLit));
        const l = numOf(this.expectEnt(Tok.IntLit));
        const c = numOf(this.expectEnt(Tok.IntLit));
        inlinedAt = { file: f, line: l, column: c };
      } else {
        functionName = this.expression();
      }
    }
    const range = this.rangeFrom(line, column, offset);
    if (functionName === undefined) {
      return inlinedAt === undefined
        ? { kind: 'Loc', file, line: ln, column: col, range }
        : { kind: 'Loc', file, line: ln, column: col, inlinedAt, range };
    }
    return inlinedAt === undefined
      ? { kind: 'Loc', file, line: ln, column: col, functionName, range }
      : { kind: 'Loc', file, line: ln, column: col, functionName, inlinedAt, range };
  }

  private pragma(): A.PragmaDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    if (this.tk() !== Tok.StringLit) this.bail();
    const values = [unquote(this.image())];
    this.advance();
    while (this.tk() === Tok.Comma) {
      this.advance();
      if (this.tk() !== Tok.StringLit) this.bail();
      values.push(unquote(this.image()));
      this.advance();
    }
    this.expect(Tok.Semi);
    return { kind: 'Pragma', values, range: this.rangeFrom(line, column, offset) };
  }

  private alias(): A.AliasDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const alias = this.expectEnt(Tok.Identifier).str;
    this.expect(Tok.Comma);
    const target = this.expectEnt(Tok.Identifier).str;
    this.expect(Tok.Semi);
    return { kind: 'Alias', alias, target, range: this.rangeFrom(line, column, offset) };
  }

  private dwarf(): A.DwarfLine {
    const range = this.tokRange();
    const text = this.image();
    this.advance();
    return { kind: 'Dwarf', text, range };
  }

  private section(): A.SectionDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const name = this.expectModifierLike();
    const items: A.SectionItem[] = [];
    this.expect(Tok.LCurly);
    for (;;) {
      const k = this.tk();
      if (k === Tok.Identifier) {
        const l = this.tline, c = this.tcol, o = this.start;
        const label = this.ent!.str;
        this.advance();
        this.expect(Tok.Colon);
        items.push({ kind: 'SectionLabel', name: label, range: this.rangeFrom(l, c, o) });
      } else if (isModifierLike(k)) {
        const l = this.tline, c = this.tcol, o = this.start;
        const type = this.ent!.str;
        this.advance();
        const base = this.top;
        this.put(this.sectionValue());
        while (this.tk() === Tok.Comma) {
          this.advance();
          this.put(this.sectionValue());
        }
        const values = this.take<A.Expression>(base);
        items.push({ kind: 'SectionData', type, values, range: this.rangeFrom(l, c, o) });
      } else if (k === Tok.Dwarf) {
        items.push(this.dwarf());
      } else {
        break;
      }
    }
    this.expect(Tok.RCurly);
    return { kind: 'Section', name, items, range: this.rangeFrom(line, column, offset) };
  }

  /** A section name with operators after it (`.debug_loc+204`, nvcc -G) folds left to right, as the
   *  reference folds it; anything else is an expression. */
  private sectionValue(): A.Expression {
    if (isModifierLike(this.tk())) {
      const range = this.tokRange();
      const name = this.ent!.str;
      this.advance();
      let result: A.Expression = { kind: 'SectionRef', name, range };
      while (isBinaryOperator(this.tk())) {
        const op = OP_TEXT[this.tk()]! as A.BinaryOp;
        this.advance();
        const right = this.unary();
        result = { kind: 'Binary', op, left: result, right, range: this.span(result.range.offset, right.range.endOffset) };
      }
      return result;
    }
    return this.expression();
  }

  // ------------------------------------------------------------ declarations

  private declaration(): A.FunctionDecl | A.VariableDecl {
    const line = this.tline, column = this.tcol, offset = this.start;
    const base = this.top;
    while (this.tk() === Tok.KwLinkage) {
      this.put(this.ent!.str);
      this.advance();
    }
    const linkage = this.take<string>(base);
    const k = this.tk();
    if (k === Tok.KwEntry || k === Tok.KwFunc) return this.functionRest(linkage, line, column, offset);
    if (k === Tok.KwStateSpace) return this.variableRest(linkage, line, column, offset);
    return this.bail();
  }

  private functionRest(linkage: string[], line: number, column: number, offset: number): A.FunctionDecl {
    const isEntry = this.tk() === Tok.KwEntry;
    this.advance();
    const returns = this.tk() === Tok.LParen ? this.paramList() : null;
    if (this.tk() !== Tok.Identifier) this.bail();
    const nameRange = this.tokRange();
    const name = this.ent!.str;
    this.advance();
    const params = this.tk() === Tok.LParen ? this.paramList() : [];
    const directives = this.functionDirectives();
    let body: A.Block | null = null;
    let skipTo: number | undefined;
    if (this.tk() === Tok.LCurly && this.skipBodies !== undefined) {
      if (this.skipBodies === 'all') {
        skipTo = matchingBrace(this.text, this.start);
        if (skipTo < 0) this.bail();
        this.skipped.push([this.at(offset), this.at(this.start), this.atEnd(skipTo)]);
      } else skipTo = this.skipBodies.get(this.start);
    }
    if (skipTo !== undefined) this.skipTo(skipTo);
    else if (this.tk() === Tok.LCurly) body = this.block();
    else this.expect(Tok.Semi);
    return {
      kind: 'Function', linkage, isEntry, name, nameRange,
      returns, params, directives, body, range: this.rangeFrom(line, column, offset),
    };
  }

  private functionDirectives(): A.FunctionDirective[] {
    const dirBase = this.top;
    while (this.tk() === Tok.KwFunctionDirective) {
      const line = this.tline, column = this.tcol, offset = this.start;
      const name = this.ent!.str;
      this.advance();
      const base = this.top;
      if (this.tk() === Tok.IntLit) {
        this.put(plainOf(this.expectEnt(Tok.IntLit)));
        while (this.tk() === Tok.Comma) {
          this.advance();
          this.put(plainOf(this.expectEnt(Tok.IntLit)));
        }
      }
      const args = this.take<number>(base);
      this.put({ kind: 'FunctionDirective', name, args, range: this.rangeFrom(line, column, offset) });
    }
    return this.take<A.FunctionDirective>(dirBase);
  }

  private paramList(): A.VariableDecl[] {
    this.expect(Tok.LParen);
    const base = this.top;
    if (this.tk() === Tok.KwStateSpace) {
      this.put(this.param());
      while (this.tk() === Tok.Comma) {
        this.advance();
        this.put(this.param());
      }
    }
    const params = this.take<A.VariableDecl>(base);
    this.expect(Tok.RParen);
    return params;
  }

  private param(): A.VariableDecl {
    if (this.tk() !== Tok.KwStateSpace) this.bail();
    const line = this.tline, column = this.tcol, offset = this.start;
    const space = this.ent!.str;
    this.advance();
    const qualifiers = this.qualifiers();
    if (this.tk() !== Tok.Identifier) this.bail();
    const nl = this.tline, nc = this.tcol, no = this.start;
    const name = this.ent!.str;
    this.advance();
    const dims = this.arrayDims();
    const decl: A.Declarator = { kind: 'Declarator', name, dims, range: this.rangeFrom(nl, nc, no) };
    return { kind: 'Variable', linkage: [], space, qualifiers, declarators: [decl], range: this.rangeFrom(line, column, offset) };
  }

  private variableRest(linkage: string[], line: number, column: number, offset: number): A.VariableDecl {
    const space = this.ent!.str;
    this.advance();
    const qualifiers = this.qualifiers();
    const base = this.top;
    this.put(this.declarator());
    while (this.tk() === Tok.Comma) {
      this.advance();
      this.put(this.declarator());
    }
    const declarators = this.take<A.Declarator>(base);
    this.expect(Tok.Semi);
    return { kind: 'Variable', linkage, space, qualifiers, declarators, range: this.rangeFrom(line, column, offset) };
  }

  private qualifiers(): A.Qualifier[] {
    const base = this.top;
    for (;;) {
      const k = this.tk();
      if (k === Tok.KwAlign) {
        const line = this.tline, column = this.tcol, offset = this.start;
        const name = this.ent!.str;
        this.advance();
        const n = plainOf(this.expectEnt(Tok.IntLit));
        this.put({ kind: 'Qualifier', name, args: [n], range: this.rangeFrom(line, column, offset) });
      } else if (k === Tok.KwAttribute) {
        const line = this.tline, column = this.tcol, offset = this.start;
        const name = this.ent!.str;
        this.advance();
        this.expect(Tok.LParen);
        const argBase = this.top;
        if (isModifierLike(this.tk())) {
          this.put(this.expectModifierLike());
          while (this.tk() === Tok.Comma) {
            this.advance();
            this.put(this.expectModifierLike());
          }
        }
        const args = this.take<string>(argBase);
        this.expect(Tok.RParen);
        this.put({ kind: 'Qualifier', name, args, range: this.rangeFrom(line, column, offset) });
      } else if (isModifierLike(k)) {
        const range = this.tokRange();
        const name = this.ent!.str;
        this.advance();
        this.put({ kind: 'Qualifier', name, args: [], range });
      } else {
        return this.take<A.Qualifier>(base);
      }
    }
  }

  private declarator(): A.Declarator {
    if (this.tk() !== Tok.Identifier) this.bail();
    const line = this.tline, column = this.tcol, offset = this.start;
    const name = this.ent!.str;
    this.advance();
    let count: number | undefined;
    if (this.tk() === Tok.Lt) {
      this.advance();
      count = plainOf(this.expectEnt(Tok.IntLit));
      this.expect(Tok.Gt);
    }
    const dims = this.tk() === Tok.LBracket ? this.arrayDims() : [];
    if (this.tk() === Tok.Equals) {
      this.advance();
      const init = this.initializer();
      const range = this.rangeFrom(line, column, offset);
      return count === undefined
        ? { kind: 'Declarator', name, dims, init, range }
        : { kind: 'Declarator', name, dims, count, init, range };
    }
    const range = this.rangeFrom(line, column, offset);
    return count === undefined
      ? { kind: 'Declarator', name, dims, range }
      : { kind: 'Declarator', name, dims, count, range };
  }

  private arrayDims(): (A.Expression | null)[] {
    const base = this.top;
    while (this.tk() === Tok.LBracket) {
      this.advance();
      let size: A.Expression | null = null;
      if (EXPR_FIRST[this.tk()] === 1) size = this.expression();
      this.expect(Tok.RBracket);
      this.put(size);
    }
    return this.take<A.Expression | null>(base);
  }

  private initializer(): A.Initializer {
    if (this.tk() !== Tok.LCurly) return this.expression();
    // A brace list here is an initializer list, not a vector operand.
    this.enter();
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const base = this.top;
    if (EXPR_FIRST[this.tk()] === 1) {
      this.put(this.initItem());
      while (this.tk() === Tok.Comma) {
        this.advance();
        this.put(this.initItem());
      }
    }
    const elements = this.take<A.Initializer>(base);
    this.expect(Tok.RCurly);
    this.depth--;
    return { kind: 'InitList', elements, range: this.rangeFrom(line, column, offset) };
  }

  private initItem(): A.Initializer {
    if (this.tk() === Tok.Identifier && this.peekKind() === Tok.Equals) {
      const line = this.tline, column = this.tcol, offset = this.start;
      const field = this.ent!.str;
      this.advance();
      this.advance();
      const value = this.expression();
      return { kind: 'FieldInit', field, value, range: this.rangeFrom(line, column, offset) };
    }
    return this.initializer();
  }

  // ------------------------------------------------------------ statements

  private block(): A.Block {
    this.enter();
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const base = this.top;
    for (;;) {
      switch (this.tk()) {
        case Tok.Identifier: {
          const l = this.tline, c = this.tcol, o = this.start;
          const name = this.ent!.str;
          this.advance();
          if (this.tk() === Tok.Colon) {
            this.advance();
            this.put({ kind: 'Label', name, range: this.rangeFrom(l, c, o) });
          } else {
            this.put(this.instructionRest(undefined, name, l, c, o));
          }
          break;
        }
        case Tok.At: this.put(this.guarded()); break;
        case Tok.KwStateSpace: this.put(this.variableRest([], this.tline, this.tcol, this.start)); break;
        case Tok.LCurly: this.put(this.block()); break;
        case Tok.KwLoc: this.put(this.loc()); break;
        case Tok.KwPragma: this.put(this.pragma()); break;
        case Tok.KwBranchTargets: case Tok.KwCallTargets: this.put(this.targetList()); break;
        case Tok.KwCallPrototype: this.put(this.callPrototype()); break;
        case Tok.Dwarf: this.put(this.dwarf()); break;
        default: {
          this.expect(Tok.RCurly);
          const statements = this.take<A.Statement>(base);
          this.depth--;
          return { kind: 'Block', statements, range: this.rangeFrom(line, column, offset) };
        }
      }
    }
  }

  private targetList(): A.TargetListDirective {
    const line = this.tline, column = this.tcol, offset = this.start;
    const kind = this.tk() === Tok.KwBranchTargets ? 'BranchTargets' : 'CallTargets';
    this.advance();
    const base = this.top;
    this.put(this.expectEnt(Tok.Identifier).str);
    while (this.tk() === Tok.Comma) {
      this.advance();
      this.put(this.expectEnt(Tok.Identifier).str);
    }
    const names = this.take<string>(base);
    this.expect(Tok.Semi);
    return { kind, names, range: this.rangeFrom(line, column, offset) };
  }

  private callPrototype(): A.CallPrototype {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    const returns = this.tk() === Tok.LParen ? this.paramList() : null;
    this.expect(Tok.Identifier);
    const params = this.tk() === Tok.LParen ? this.paramList() : [];
    const directives = this.functionDirectives();
    this.expect(Tok.Semi);
    return { kind: 'CallPrototype', returns, params, directives, range: this.rangeFrom(line, column, offset) };
  }

  /** `@!%p opcode ...;` */
  private guarded(): A.Instruction {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    let negated = false;
    if (this.tk() === Tok.Bang) {
      negated = true;
      this.advance();
    }
    const predicate = this.expectEnt(Tok.Identifier).str;
    const guard: A.Guard = { negated, predicate, range: this.rangeFrom(line, column, offset) };
    const opcode = this.expectEnt(Tok.Identifier).str;
    return this.instructionRest(guard, opcode, line, column, offset);
  }

  /** An instruction after its guard and opcode: modifiers, operands, `;`. */
  private instructionRest(guard: A.Guard | undefined, opcode: string, line: number, column: number, offset: number): A.Instruction {
    // Instructions with the same modifiers share one array (a module repeats a few hundred lists
    // over hundreds of thousands of instructions): found by walking a trie over interned entries.
    let mods = this.modifierLists;
    while (isAnyDotted(this.tk())) {
      const ent = this.ent!;
      const next = mods.next ??= new Map();
      let child = next.get(ent);
      if (child === undefined) {
        child = { list: [...mods.list, ent.str], next: undefined };
        next.set(ent, child);
      }
      mods = child;
      this.advance();
    }
    const modifiers = mods.list;
    const base = this.top;
    if (EXPR_FIRST[this.tk()] === 1) {
      this.put(predPair(this.expression()));
      while (this.tk() === Tok.Comma) {
        this.advance();
        this.put(predPair(this.expression()));
      }
    }
    const operands = this.take<A.Expression>(base);
    this.expect(Tok.Semi);
    const range = this.rangeFrom(line, column, offset);
    return guard === undefined
      ? { kind: 'Instruction', opcode, modifiers, operands, range }
      : { kind: 'Instruction', guard, opcode, modifiers, operands, range };
  }

  // ------------------------------------------------------------ expressions

  /** `a`, `a op b op c` (precedence folded), `t ? x : y`. */
  private expression(): A.Expression {
    this.enter();
    let result = this.unary();
    if (isBinaryOperator(this.tk())) result = this.binaryRest(result);
    if (this.tk() === Tok.Question) {
      this.advance();
      const then = this.expression();
      this.expect(Tok.Colon);
      const otherwise = this.expression();
      result = { kind: 'Conditional', test: result, then, otherwise, range: this.span(result.range.offset, otherwise.range.endOffset) };
    }
    this.depth--;
    return result;
  }

  /** The reference's `foldBinary`: shunting-yard over the flat operator list. */
  private binaryRest(first: A.Expression): A.Expression {
    // One operator (`%rd1+4`), the common case, needs no stacks.
    const op1 = this.tk();
    this.advance();
    const second = this.unary();
    if (!isBinaryOperator(this.tk())) {
      return { kind: 'Binary', op: OP_TEXT[op1]! as A.BinaryOp, left: first, right: second, range: this.span(first.range.offset, second.range.endOffset) };
    }
    const values: A.Expression[] = [first, second];
    const ops: Tok[] = [op1];
    while (isBinaryOperator(this.tk())) {
      const op = this.tk();
      this.advance();
      const right = this.unary();
      const p = OP_PREC[op]!;
      while (ops.length > 0 && OP_PREC[ops[ops.length - 1]!]! >= p) reduce(values, ops, this.span);
      ops.push(op);
      values.push(right);
    }
    while (ops.length > 0) reduce(values, ops, this.span);
    return values[0]!;
  }

  private unary(): A.Expression {
    switch (this.tk()) {
      case Tok.Identifier: {
        const e = this.ent!;
        if (e.str === 'generic' && this.peekKind() === Tok.LParen) {
          const line = this.tline, column = this.tcol, offset = this.start;
          this.advance();
          this.advance();
          const name = this.expectEnt(Tok.Identifier).str;
          this.expect(Tok.RParen);
          return { kind: 'Generic', name, range: this.rangeFrom(line, column, offset) };
        }
        const range = this.tokRange();
        this.advance();
        if (this.tk() === Tok.Modifier && this.end - this.start === 2) {
          const c = this.ent!.str.charCodeAt(1);
          if (c < 128 && COMPONENT_CHAR[c] === 1) {
            const component = this.ent!.str.slice(1);
            this.advance();
            return {
              kind: 'Name', name: e.str, component,
              range: this.span(range.offset, this.atEnd(this.peo)),
            };
          }
        }
        return { kind: 'Name', name: e.str, range };
      }
      case Tok.IntLit: {
        const lit = intOf(this.ent!);
        const range = this.tokRange();
        this.advance();
        return { kind: 'Int', text: lit.text, value: lit.value, unsigned: lit.unsigned, range };
      }
      case Tok.FloatHex: case Tok.FloatDec: {
        const lit = floatOf(this.ent!);
        const range = this.tokRange();
        this.advance();
        return { kind: 'Float', text: lit.text, value: lit.value, form: lit.form, range };
      }
      case Tok.LBracket: {
        const line = this.tline, column = this.tcol, offset = this.start;
        this.advance();
        const base = this.top;
        this.put(this.expression());
        while (this.tk() === Tok.Comma) {
          this.advance();
          this.put(this.expression());
        }
        const elements = this.take<A.Expression>(base);
        this.expect(Tok.RBracket);
        return { kind: 'Address', elements, range: this.rangeFrom(line, column, offset) };
      }
      case Tok.LCurly: {
        const line = this.tline, column = this.tcol, offset = this.start;
        this.advance();
        const base = this.top;
        if (EXPR_FIRST[this.tk()] === 1) {
          this.put(this.expression());
          while (this.tk() === Tok.Comma) {
            this.advance();
            this.put(this.expression());
          }
        }
        const elements = this.take<A.Expression>(base);
        this.expect(Tok.RCurly);
        return { kind: 'Vector', elements, range: this.rangeFrom(line, column, offset) };
      }
      case Tok.Bang: case Tok.Tilde: case Tok.Plus: case Tok.Minus: {
        const line = this.tline, column = this.tcol, offset = this.start;
        const op = UNARY_TEXT[this.tk()]!;
        this.advance();
        this.enter();
        const arg = this.unary();
        this.depth--;
        return { kind: 'Unary', op, arg, range: this.rangeFrom(line, column, offset) };
      }
      case Tok.LParen:
        return this.parenthesized();
      default:
        return this.bail();
    }
  }

  /** `(.s64) x` (a cast) or `(a, b)` (a list). */
  private parenthesized(): A.Expression {
    const line = this.tline, column = this.tcol, offset = this.start;
    this.advance();
    if (isModifierLike(this.tk())) {
      const type = this.ent!.str;
      this.advance();
      this.expect(Tok.RParen);
      this.enter();
      const arg = this.unary();
      this.depth--;
      return { kind: 'Cast', type, arg, range: this.rangeFrom(line, column, offset) };
    }
    const base = this.top;
    if (EXPR_FIRST[this.tk()] === 1) {
      this.put(this.expression());
      while (this.tk() === Tok.Comma) {
        this.advance();
        this.put(this.expression());
      }
    }
    const elements = this.take<A.Expression>(base);
    this.expect(Tok.RParen);
    return { kind: 'List', elements, range: this.rangeFrom(line, column, offset) };
  }
}

function reduce(values: A.Expression[], ops: Tok[], span: (offset: number, endOffset: number) => A.SourceRange): void {
  const right = values.pop()!;
  const left = values.pop()!;
  const op = OP_TEXT[ops.pop()!]! as A.BinaryOp;
  values.push({ kind: 'Binary', op, left, right, range: span(left.range.offset, right.range.endOffset) });
}

export interface FastParseResult {
  statements: A.ModuleStatement[];
  comments: A.Comment[];
  /** With `skipBodies` 'all': every function body left out (declaration offset, `{` offset, offset after `}`). */
  skipped: [number, number, number][];
}

/** Parses well-formed PTX into the reference parser's exact tree; undefined
 *  at the first lexical or syntax deviation (never throws). */
export function fastParse(text: string, skipBodies?: ReadonlyMap<number, number> | 'all', origin?: TextOrigin): FastParseResult | undefined {
  try {
    const p = new FastParser(text, skipBodies, origin);
    const statements = p.parseModule();
    return { statements, comments: p.comments, skipped: p.skipped };
  } catch {
    return undefined;
  }
}

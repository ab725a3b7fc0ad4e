// The fast-path PTX scanner: the token kinds of tokens.ts, read straight from
// char codes (no regex, no token objects). The current token lives in plain
// fields of the scanner; a parser reads them and calls `advance()`. Images that
// the tree keeps (names, modifiers, numbers) are interned in a hash table
// probed with the source characters, so a repeated image costs no allocation.
//
// Every token rule mirrors the Chevrotain lexer, which takes the FIRST pattern
// of `lexedTokens` that matches (not the longest): `0f1` is a float, `0x1.5`
// is the integer `0x1` then the modifier `.5`, `<<=` is `<<` then `=`. Where
// the reference lexer would report an error (a stray or control character, an
// unterminated string or comment) the scanner yields `Tok.Error` and the fast
// path gives up. Lines and columns are counted as Chevrotain counts them:
// `\n`, `\r\n` and a lone `\r` end a line; columns are 1-based UTF-16 units.
import type { Comment } from '../ast.js';
import { DIRECTIVES, type DirectiveRole } from '../isa/directives.js';
import { parseFloatLiteral, parseIntLiteral, type FloatLiteral, type IntLiteral } from '../literals.js';
import type { TextOrigin } from '../offset-map.js';
import { lineStartsOf } from '../ranges.js';

/** Token kinds. Ranges of related kinds are contiguous (see the predicates below). */
export const enum Tok {
  EOF = 0,
  Error,
  Identifier,
  IntLit,
  FloatHex,
  FloatDec,
  StringLit,
  Dwarf,
  // Dotted words: `Modifier`, then the keywords that are `ModifierLike`, then
  // `.align` and `.attribute`, which are only `AnyDotted`.
  Modifier,
  KwVersion,
  KwTarget,
  KwAddressSize,
  KwFile,
  KwLoc,
  KwSection,
  KwPragma,
  KwAlias,
  KwEntry,
  KwFunc,
  KwLinkage,
  KwStateSpace,
  KwFunctionDirective,
  KwBranchTargets,
  KwCallTargets,
  KwCallPrototype,
  KwAlign,
  KwAttribute,
  // Punctuation.
  LCurly,
  RCurly,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Semi,
  Colon,
  At,
  Question,
  Equals,
  // UnaryOperator: Bang .. Minus. BinaryOperator: Plus .. Caret.
  Bang,
  Tilde,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Shl,
  Shr,
  Le,
  Ge,
  EqEq,
  NotEq,
  AndAnd,
  OrOr,
  Lt,
  Gt,
  Amp,
  Pipe,
  Caret,
}

/** `ModifierLike`: a plain dotted word or any keyword but `.align`/`.attribute`. */
export const isModifierLike = (k: Tok): boolean => k >= Tok.Modifier && k <= Tok.KwCallPrototype;
/** `AnyDotted`: any dotted word at all. */
export const isAnyDotted = (k: Tok): boolean => k >= Tok.Modifier && k <= Tok.KwAttribute;
export const isUnaryOperator = (k: Tok): boolean => k >= Tok.Bang && k <= Tok.Minus;
export const isBinaryOperator = (k: Tok): boolean => k >= Tok.Plus && k <= Tok.Caret;

const ROLE_KIND: Readonly<Record<DirectiveRole, Tok>> = {
  version: Tok.KwVersion, target: Tok.KwTarget, address_size: Tok.KwAddressSize, file: Tok.KwFile,
  loc: Tok.KwLoc, section: Tok.KwSection, pragma: Tok.KwPragma, alias: Tok.KwAlias, entry: Tok.KwEntry,
  func: Tok.KwFunc, linkage: Tok.KwLinkage, state_space: Tok.KwStateSpace, align: Tok.KwAlign,
  attribute: Tok.KwAttribute, function_directive: Tok.KwFunctionDirective,
  branchtargets: Tok.KwBranchTargets, calltargets: Tok.KwCallTargets, callprototype: Tok.KwCallPrototype,
};

/** Dot-keyword image → kind, as the lexer's keyword pass re-types `Modifier` tokens. */
const KEYWORD_KINDS: ReadonlyMap<string, Tok> = new Map(DIRECTIVES.map((d) => [d.name, ROLE_KIND[d.role]]));

// Character classes of ASCII codes.
const C_IDENT = 1; // [A-Za-z0-9_$]
const C_START = 2; // [A-Za-z_$]
const C_DIGIT = 4; // [0-9]
const C_HEX = 8; // [0-9a-fA-F]
const CC = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  let f = 0;
  if (/[A-Za-z0-9_$]/.test(ch)) f |= C_IDENT;
  if (/[A-Za-z_$]/.test(ch)) f |= C_START;
  if (/[0-9]/.test(ch)) f |= C_DIGIT;
  if (/[0-9a-fA-F]/.test(ch)) f |= C_HEX;
  CC[c] = f;
}
/** `c` is in the class; false for NaN (past the end) and non-ASCII. */
const is = (c: number, cls: number): boolean => c < 128 && (CC[c]! & cls) !== 0;

/** The engine's own copy of a string, the one it keeps for its property names and literals: every `===`
 *  between it and a literal (`opcode === 'ld'`, `type === '.pred'`) then compares pointers, where a copy
 *  of the source's slice is compared character by character, by a call, in every analysis and check.
 *  Costly (about a microsecond), so only for the few distinct words the tools compare with literals. */
function internalized(s: string): string {
  return Object.keys({ [s]: 0 })[0] ?? s;
}

/** Opcodes, special registers and keywords: lowercase, short, without `_` (labels, mangled function names,
 *  parameters) and without digits after `%` (numbered registers `%r12`), so that a module's thousands of
 *  distinct names are not copied (see `internalized`). */
function isWord(s: string): boolean {
  if (s.length > 16) return false;
  const c0 = s.charCodeAt(0);
  const lower = (c: number): boolean => c >= 97 && c <= 122;
  if (!lower(c0) && !(c0 === 37 && s.length > 1 && lower(s.charCodeAt(1)))) return false;
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 95 || (c0 === 37 && c >= 48 && c <= 57)) return false;
  }
  return true;
}

/** One interned image and what has been derived from it. */
export class Entry {
  /** Cached `parseIntLiteral(str)` / `parseFloatLiteral(str)`. */
  int: IntLiteral | undefined = undefined;
  float: FloatLiteral | undefined = undefined;
  /** Cached `Number(str.replace(/U$/, ''))` and `Number(str)`. */
  plain: number | undefined = undefined;
  num: number | undefined = undefined;
  constructor(
    readonly str: string,
    readonly hash: number,
    /** Base-128 digits of the image (exact up to 7 characters). */
    readonly key: number,
    /** The kind of every token with this image (keywords are known by image). */
    readonly kind: Tok,
  ) {}
}

export class Scanner {
  protected readonly text: string;
  private readonly len: number;
  private pos = 0;
  private line = 1;
  private lineStart = 0;

  // ---- the current token
  kind: Tok = Tok.EOF;
  /** Offsets of the image, `end` exclusive. */
  start = 0;
  end = 0;
  tline = 1;
  tcol = 1;
  /** The interned image of names, dotted words and numbers; null otherwise. */
  ent: Entry | null = null;

  // ---- one token of lookahead beyond the current one
  private hasPeek = false;
  private pKind: Tok = Tok.EOF;
  private pStart = 0;
  private pEnd = 0;
  private pLine = 1;
  private pCol = 1;
  private pEnt: Entry | null = null;

  // ---- the previously consumed token's end (for `LA(0)`-style ranges)
  /** Line of the last consumed token, and its start column/offset plus its length. */
  pl = 0;
  pec = 0;
  peo = 0;

  readonly comments: Comment[] = [];

  /** Where the text's pieces came from, when it is pieces of a module (src/parser/offset-map.ts): the tree's
   *  offsets, lines and columns are the original's. */
  protected readonly origin: TextOrigin | undefined;

  // ---- the intern table (open addressing, power-of-two capacity). Each slot
  // keeps the key of its image (0: empty) beside the entry: the image's char
  // codes as base-128 digits, exact for images of up to 7 characters (all
  // codes are nonzero ASCII), so a short image is found without comparing
  // characters; a longer one is compared with the source.
  private keys: Float64Array;
  private slots: (Entry | null)[];
  private mask: number;
  private count = 0;

  constructor(text: string, origin?: TextOrigin) {
    this.text = text;
    this.origin = origin;
    this.len = text.length;
    this.mask = 4095;
    this.keys = new Float64Array(4096);
    this.slots = new Array<Entry | null>(4096).fill(null);
    this.scan();
  }

  /** The current token's kind (a call, so that TypeScript does not narrow it across `advance()`). */
  tk(): Tok {
    return this.kind;
  }

  /** Consumes the current token. */
  advance(): void {
    this.pl = this.tline;
    this.pec = this.tcol + (this.end - this.start);
    this.peo = this.end;
    if (this.hasPeek) {
      this.hasPeek = false;
      this.kind = this.pKind;
      this.start = this.pStart;
      this.end = this.pEnd;
      this.tline = this.pLine;
      this.tcol = this.pCol;
      this.ent = this.pEnt;
    } else {
      this.scan();
    }
  }

  /**
   * Passes over the text from the current token up to `end` (exclusive) as if it were whitespace, its
   * comments included (not kept); the last character before `end` counts as the last consumed token.
   * The main thread of a threaded run parses a module's declarations with it, and the body scan matches
   * braces and passes over each body (src/parser/fast/parser.ts: `skipBodies`). The line at `end` comes from
   * the text's line starts (made once per text: both ask for the same text, and counting the skipped lines
   * each time read the whole text again).
   */
  skipTo(end: number): void {
    const starts = lineStartsOf(this.text);
    const line = starts.line(end);
    const lineStart = starts.start(line);
    this.pl = line;
    this.pec = end - lineStart + 1;
    this.peo = end;
    this.line = line;
    this.lineStart = lineStart;
    this.hasPeek = false;
    this.pos = end;
    this.scan();
  }

  /** The kind of the token after the current one (`LA(2)`). */
  peekKind(): Tok {
    if (!this.hasPeek) {
      const kind = this.kind, start = this.start, end = this.end, tline = this.tline, tcol = this.tcol, ent = this.ent;
      this.scan();
      this.pKind = this.kind;
      this.pStart = this.start;
      this.pEnd = this.end;
      this.pLine = this.tline;
      this.pCol = this.tcol;
      this.pEnt = this.ent;
      this.hasPeek = true;
      this.kind = kind;
      this.start = start;
      this.end = end;
      this.tline = tline;
      this.tcol = tcol;
      this.ent = ent;
    }
    return this.pKind;
  }

  /** The current token's image (allocates for punctuation, strings, @@DWARF). */
  image(): string {
    return this.ent !== null ? this.ent.str : this.text.slice(this.start, this.end);
  }

  /** The offset in the original text of the character at `x` (itself when the text is not pieces). */
  protected at(x: number): number {
    return this.origin === undefined ? x : this.origin.map.start(x);
  }

  /** The original offset of `x` taken as an exclusive end (`OffsetMap.end`). */
  protected atEnd(x: number): number {
    return this.origin === undefined ? x : this.origin.map.end(x);
  }

  private comment(start: number, end: number, line: number, col: number): void {
    const o = this.origin;
    if (o !== undefined) {
      const from = o.map.start(start), to = o.map.end(end);
      const l = o.lines.line(from), c = o.lines.column(from);
      this.comments.push({ kind: 'Comment', text: this.text.slice(start, end), range: { line: l, column: c, offset: from, endLine: l, endColumn: c + (to - from), endOffset: to } });
      return;
    }
    this.comments.push({
      kind: 'Comment',
      text: this.text.slice(start, end),
      range: { line, column: col, offset: start, endLine: line, endColumn: col + (end - start), endOffset: end },
    });
  }

  /**
   * Skips whitespace, byte-order marks and comments from `pos`: where the next token starts, or -1 - the
   * offset of a block comment that does not end. (A function of its own: with this loop inside `scan`, V8
   * entered scan's on-stack-replaced code from the interpreter on every call once its optimized code had
   * been thrown away, and left it again at the first token kind that code had not seen: some 150
   * deoptimizations per parse of a module part, docs/performance.md.)
   */
  private space(pos: number): number {
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 32 || c === 9) {
        pos++;
      } else if (c === 10) {
        pos++;
        this.line++;
        this.lineStart = pos;
      } else if (c === 13) {
        pos++;
        if (text.charCodeAt(pos) === 10) pos++;
        this.line++;
        this.lineStart = pos;
      } else if (c === 47) {
        const d = text.charCodeAt(pos + 1);
        if (d === 47) {
          const begin = pos;
          pos += 2;
          for (;;) {
            const e = text.charCodeAt(pos);
            if (e === 10 || e === 13 || e !== e) break; // e !== e: past the end
            pos++;
          }
          this.comment(begin, pos, this.line, begin - this.lineStart + 1);
        } else if (d === 42) {
          const close = text.indexOf('*/', pos + 2);
          if (close < 0) return -1 - pos;
          const begin = pos;
          const line = this.line;
          const col = begin - this.lineStart + 1;
          const end = close + 2;
          for (pos += 2; pos < end; pos++) {
            const e = text.charCodeAt(pos);
            if (e === 10) {
              this.line++;
              this.lineStart = pos + 1;
            } else if (e === 13) {
              if (text.charCodeAt(pos + 1) === 10) pos++;
              this.line++;
              this.lineStart = pos + 1;
            }
          }
          this.comment(begin, end, line, col);
        } else {
          break;
        }
      } else if (c === 12 || c === 11 || c === 0xfeff) {
        pos++;
      } else {
        break;
      }
    }
    return pos;
  }

  /** Scans the next token into the current-token fields. */
  private scan(): void {
    const text = this.text;
    const pos = this.space(this.pos);
    if (pos < 0) return this.fail(-1 - pos);
    const c = text.charCodeAt(pos);
    this.start = pos;
    this.tline = this.line;
    this.tcol = pos - this.lineStart + 1;
    this.ent = null;
    if (pos >= this.len) {
      this.kind = Tok.EOF;
      this.end = pos;
      this.pos = pos;
      return;
    }
    let p = pos + 1;
    let k: Tok;
    switch (c) {
      // ---- names
      case 36: case 95: // $ _
      case 65: case 66: case 67: case 68: case 69: case 70: case 71: case 72: case 73: case 74: case 75: case 76: case 77:
      case 78: case 79: case 80: case 81: case 82: case 83: case 84: case 85: case 86: case 87: case 88: case 89: case 90:
      case 97: case 98: case 99: case 100: case 101: case 102: case 103: case 104: case 105: case 106: case 107: case 108: case 109:
      case 110: case 111: case 112: case 113: case 114: case 115: case 116: case 117: case 118: case 119: case 120: case 121: case 122:
        return this.word(pos, p, c, Tok.Identifier);
      case 37: // %
        if (is(text.charCodeAt(p), C_IDENT)) return this.word(pos, p, c, Tok.Identifier);
        k = Tok.Percent;
        break;
      case 46: { // .
        if (!is(text.charCodeAt(p), C_IDENT)) return this.fail(pos);
        return this.word(pos, p, c, Tok.Modifier);
      }
      // ---- numbers
      case 48: case 49: case 50: case 51: case 52: case 53: case 54: case 55: case 56: case 57:
        return this.number(pos);
      case 34: // "
        for (;;) {
          const e = text.charCodeAt(p);
          if (e === 34) { p++; break; }
          if (e === 92) {
            const f = text.charCodeAt(p + 1);
            // `\\.`: `.` matches anything but a line terminator.
            if (f !== f || f === 10 || f === 13 || f === 0x2028 || f === 0x2029) return this.fail(pos);
            p += 2;
          } else if (e === 10 || e === 13 || e !== e) {
            return this.fail(pos);
          } else {
            p++;
          }
        }
        k = Tok.StringLit;
        break;
      case 64: // @
        if (text.startsWith('@@DWARF', pos)) {
          p = pos + 7;
          for (;;) {
            const e = text.charCodeAt(p);
            if (e === 10 || e === 13 || e !== e) break;
            p++;
          }
          k = Tok.Dwarf;
        } else {
          k = Tok.At;
        }
        break;
      // ---- punctuation, in the reference's order: two-character operators first
      case 123: k = Tok.LCurly; break;
      case 125: k = Tok.RCurly; break;
      case 40: k = Tok.LParen; break;
      case 41: k = Tok.RParen; break;
      case 91: k = Tok.LBracket; break;
      case 93: k = Tok.RBracket; break;
      case 44: k = Tok.Comma; break;
      case 59: k = Tok.Semi; break;
      case 58: k = Tok.Colon; break;
      case 63: k = Tok.Question; break;
      case 60: { // <
        const d = text.charCodeAt(p);
        if (d === 60) { p++; k = Tok.Shl; } else if (d === 61) { p++; k = Tok.Le; } else k = Tok.Lt;
        break;
      }
      case 62: { // >
        const d = text.charCodeAt(p);
        if (d === 62) { p++; k = Tok.Shr; } else if (d === 61) { p++; k = Tok.Ge; } else k = Tok.Gt;
        break;
      }
      case 61: // =
        if (text.charCodeAt(p) === 61) { p++; k = Tok.EqEq; } else k = Tok.Equals;
        break;
      case 33: // !
        if (text.charCodeAt(p) === 61) { p++; k = Tok.NotEq; } else k = Tok.Bang;
        break;
      case 38: // &
        if (text.charCodeAt(p) === 38) { p++; k = Tok.AndAnd; } else k = Tok.Amp;
        break;
      case 124: // |
        if (text.charCodeAt(p) === 124) { p++; k = Tok.OrOr; } else k = Tok.Pipe;
        break;
      case 126: k = Tok.Tilde; break;
      case 43: k = Tok.Plus; break;
      case 45: k = Tok.Minus; break;
      case 42: k = Tok.Star; break;
      case 47: k = Tok.Slash; break;
      case 94: k = Tok.Caret; break;
      default:
        return this.fail(pos);
    }
    this.kind = k;
    this.end = p;
    this.pos = p;
  }

  private fail(pos: number): void {
    this.kind = Tok.Error;
    this.start = pos;
    this.end = pos;
    this.pos = pos;
  }

  /** A name (`first` is its first char) or a dotted word: `[A-Za-z0-9_$]*`,
   *  and for dotted words `(::[A-Za-z0-9_$]+)*`. */
  private word(start: number, p: number, first: number, kind: Tok): void {
    const text = this.text;
    let h = first;
    let key = first;
    for (;;) {
      const c = text.charCodeAt(p);
      if (c < 128 && (CC[c]! & C_IDENT) !== 0) {
        h = (Math.imul(h, 31) + c) | 0;
        key = key * 128 + c;
        p++;
      } else if (c === 58 && kind === Tok.Modifier && text.charCodeAt(p + 1) === 58 && is(text.charCodeAt(p + 2), C_IDENT)) {
        h = (Math.imul(h, 961) + 58 * 32) | 0;
        key = key * 16384 + 58 * 129;
        p += 2;
      } else {
        break;
      }
    }
    const ent = this.intern(start, p, h, key, kind);
    this.kind = ent.kind;
    this.ent = ent;
    this.end = p;
    this.pos = p;
  }

  /** FloatHex, then FloatDec, then IntLit, as the reference tries them. */
  private number(start: number): void {
    const text = this.text;
    const c0 = text.charCodeAt(start);
    let p = start + 1;
    let kind: Tok;
    const c1 = text.charCodeAt(p);
    if (c0 === 48 && (c1 === 102 || c1 === 70 || c1 === 100 || c1 === 68) && is(text.charCodeAt(p + 1), C_HEX)) {
      // 0[fFdD][0-9a-fA-F]+
      p += 2;
      while (is(text.charCodeAt(p), C_HEX)) p++;
      kind = Tok.FloatHex;
    } else {
      while (is(text.charCodeAt(p), C_DIGIT)) p++;
      const d = text.charCodeAt(p);
      if (d === 46) {
        // [0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?
        p++;
        while (is(text.charCodeAt(p), C_DIGIT)) p++;
        p = this.exponent(p);
        kind = Tok.FloatDec;
      } else if ((d === 101 || d === 69) && this.exponent(p) !== p) {
        // [0-9]+[eE][+-]?[0-9]+
        p = this.exponent(p);
        kind = Tok.FloatDec;
      } else {
        kind = Tok.IntLit;
        if (c0 === 48 && (c1 === 120 || c1 === 88) && is(text.charCodeAt(start + 2), C_HEX)) {
          // 0[xX][0-9a-fA-F]+U?
          p = start + 2;
          while (is(text.charCodeAt(p), C_HEX)) p++;
        } else if (c0 === 48 && (c1 === 98 || c1 === 66) && (text.charCodeAt(start + 2) === 48 || text.charCodeAt(start + 2) === 49)) {
          // 0[bB][01]+U?
          p = start + 2;
          for (;;) {
            const e = text.charCodeAt(p);
            if (e !== 48 && e !== 49) break;
            p++;
          }
        }
        // else [0-9]+U?: p is past the digits already.
        if (text.charCodeAt(p) === 85) p++;
      }
    }
    let h = 0;
    let key = 0;
    for (let i = start; i < p; i++) {
      const c = text.charCodeAt(i);
      h = (Math.imul(h, 31) + c) | 0;
      key = key * 128 + c;
    }
    const ent = this.intern(start, p, h, key, kind);
    this.kind = kind;
    this.ent = ent;
    this.end = p;
    this.pos = p;
  }

  /** Past `[eE][+-]?[0-9]+` at `p`, or `p` when there is none. */
  private exponent(p: number): number {
    const text = this.text;
    const e = text.charCodeAt(p);
    if (e !== 101 && e !== 69) return p;
    let q = p + 1;
    const s = text.charCodeAt(q);
    if (s === 43 || s === 45) q++;
    if (!is(text.charCodeAt(q), C_DIGIT)) return p;
    while (is(text.charCodeAt(q), C_DIGIT)) q++;
    return q;
  }

  /** The entry for the image `text[start, end)` with hash `h`, added if new. */
  private intern(start: number, end: number, h: number, key: number, kind: Tok): Entry {
    const n = end - start;
    const keys = this.keys;
    const mask = this.mask;
    let i = (h ^ (h >>> 13)) & mask;
    for (;;) {
      const g = keys[i]!;
      if (g === key) {
        const e = this.slots[i]!;
        if (n <= 7) return e;
        const s = e.str;
        if (s.length === n) {
          const text = this.text;
          let j = 0;
          while (j < n && s.charCodeAt(j) === text.charCodeAt(start + j)) j++;
          if (j === n) return e;
        }
      } else if (g === 0) {
        break;
      }
      i = (i + 1) & mask;
    }
    const image = this.text.slice(start, end);
    const str = kind === Tok.Modifier || (kind === Tok.Identifier && isWord(image)) ? internalized(image) : image;
    const ent = new Entry(str, h, key, kind === Tok.Modifier ? KEYWORD_KINDS.get(str) ?? Tok.Modifier : kind);
    keys[i] = key;
    this.slots[i] = ent;
    if (++this.count * 2 > mask) this.grow();
    return ent;
  }

  private grow(): void {
    const old = this.slots;
    const size = old.length * 2;
    const mask = size - 1;
    const keys = new Float64Array(size);
    const slots = new Array<Entry | null>(size).fill(null);
    for (const e of old) {
      if (e === null) continue;
      let i = (e.hash ^ (e.hash >>> 13)) & mask;
      while (keys[i] !== 0) i = (i + 1) & mask;
      keys[i] = e.key;
      slots[i] = e;
    }
    this.keys = keys;
    this.slots = slots;
    this.mask = mask;
  }
}

/** Cached literal payloads of an entry. */
export function intOf(e: Entry): IntLiteral {
  return e.int ??= parseIntLiteral(e.str);
}
export function floatOf(e: Entry): FloatLiteral {
  return e.float ??= parseFloatLiteral(e.str);
}
/** `Number(image)`, as the reference reads `.loc` numbers. */
export function numOf(e: Entry): number {
  return e.num ??= Number(e.str);
}
/** `Number(image.replace(/U$/, ''))`, as the reference reads counts and alignments. */
export function plainOf(e: Entry): number {
  if (e.plain === undefined) {
    const s = e.str;
    e.plain = Number(s.charCodeAt(s.length - 1) === 85 ? s.slice(0, -1) : s);
  }
  return e.plain;
}

/**
 * The offset just after the `}` that closes the `{` at `open`, skipping comments and string literals as
 * the scanner does; -1 when the text ends first or meets a comment or string the scanner would reject.
 * Braces inside a body (nested blocks, vector operands) come in pairs in well-formed PTX.
 */
export function matchingBrace(text: string, open: number): number {
  // The characters that matter found by a regular expression (compiled to native code): a loop over every
  // character took 23 ns each on a cold main thread, 0.37 s for the 17 MB bench module before its parts
  // could be given out.
  const scan = BRACE_CHARS;
  let depth = 0;
  scan.lastIndex = open;
  for (let m = scan.exec(text); m !== null; m = scan.exec(text)) {
    let pos = m.index;
    const c = text.charCodeAt(pos);
    if (c === 123) depth++;
    else if (c === 125) {
      if (--depth === 0) return pos + 1;
    } else if (c === 47) {
      const d = text.charCodeAt(pos + 1);
      if (d === 47) {
        LINE_END.lastIndex = pos + 2;
        const end = LINE_END.exec(text);
        if (end === null) return -1;
        pos = end.index;
      } else if (d === 42) {
        const close = text.indexOf('*/', pos + 2);
        if (close < 0) return -1;
        pos = close + 1;
      }
    } else {
      // A string literal (`"`).
      for (pos++; ; pos++) {
        const e = text.charCodeAt(pos);
        if (e === 34) break;
        if (e === 92) pos++;
        else if (e === 10 || e === 13 || e !== e) return -1;
      }
    }
    scan.lastIndex = pos + 1;
  }
  return -1;
}

/** What `matchingBrace` stops at: braces, a comment's `/`, a string's `"`. */
const BRACE_CHARS = /[{}"/]/g;
const LINE_END = /[\n\r]/g;

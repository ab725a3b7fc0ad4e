// PTX tokens. Every dot-keyword is lexed as one generic `Modifier` token and
// re-typed afterwards from the directive table (src/parser/isa/directives.ts):
// hundreds of keyword tokens starting with '.' would defeat Chevrotain's
// first-character lexer optimization (see docs/performance.md).
import { createToken, Lexer, type TokenType } from 'chevrotain';
import { DIRECTIVES, type DirectiveRole } from './isa/directives.js';

// ---- categories (never lexed directly)
/** Anything that may follow an opcode as a modifier, or qualify a declaration. */
export const ModifierLike = createToken({ name: 'ModifierLike', pattern: Lexer.NA, label: 'modifier' });
/** Any dotted word at all: what may follow an opcode (`fence.proxy.alias`, `ld.weak`). */
export const AnyDotted = createToken({ name: 'AnyDotted', pattern: Lexer.NA, label: 'modifier' });
export const BinaryOperator = createToken({ name: 'BinaryOperator', pattern: Lexer.NA });
export const UnaryOperator = createToken({ name: 'UnaryOperator', pattern: Lexer.NA });

// ---- skipped and grouped
export const WhiteSpace = createToken({ name: 'WhiteSpace', pattern: /[ \t\r\n\f\v]+/, group: Lexer.SKIPPED, line_breaks: true });
export const Bom = createToken({ name: 'Bom', pattern: /\uFEFF/, group: Lexer.SKIPPED });
export const LineComment = createToken({ name: 'LineComment', pattern: /\/\/[^\n\r]*/, group: 'comments' });
export const BlockComment = createToken({ name: 'BlockComment', pattern: /\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\//, group: 'comments', line_breaks: true });
/** An unterminated block comment: reported as an error by the lexer wrapper. */
export const UnterminatedComment = createToken({ name: 'UnterminatedComment', pattern: /\/\*[\s\S]*/, group: 'errors', line_breaks: true });
/** `@@DWARF ...` lines of older nvcc debug output, kept verbatim. */
export const Dwarf = createToken({ name: 'Dwarf', pattern: /@@DWARF[^\n\r]*/, label: '@@DWARF' });

// ---- literals and names
export const StringLit = createToken({ name: 'StringLit', pattern: /"(?:[^"\\\n\r]|\\.)*"/, label: 'string' });
export const UnterminatedString = createToken({ name: 'UnterminatedString', pattern: /"(?:[^"\\\n\r]|\\.)*/, group: 'errors' });
export const FloatHex = createToken({ name: 'FloatHex', pattern: /0[fFdD][0-9a-fA-F]+/, label: 'float literal' });
export const FloatDec = createToken({ name: 'FloatDec', pattern: /[0-9]+\.[0-9]*(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+/, label: 'float literal' });
export const IntLit = createToken({ name: 'IntLit', pattern: /0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|[0-9]+U?/, label: 'integer' });
export const Identifier = createToken({ name: 'Identifier', pattern: /[A-Za-z_$][A-Za-z0-9_$]*|%[A-Za-z0-9_$]+/, label: 'name' });
/** A dotted word (`.u32`, `.shared::cta`, `.1d`): a modifier until re-typed as a keyword. */
export const Modifier = createToken({ name: 'Modifier', pattern: /\.[A-Za-z0-9_$]+(?:::[A-Za-z0-9_$]+)*/, categories: [ModifierLike, AnyDotted], label: 'modifier' });

// ---- punctuation
const punct = (name: string, pattern: RegExp | string, label: string, categories: TokenType[] = []): TokenType =>
  createToken({ name, pattern, label: `'${label}'`, categories });
export const LCurly = punct('LCurly', '{', '{');
export const RCurly = punct('RCurly', '}', '}');
export const LParen = punct('LParen', '(', '(');
export const RParen = punct('RParen', ')', ')');
export const LBracket = punct('LBracket', '[', '[');
export const RBracket = punct('RBracket', ']', ']');
export const Comma = punct('Comma', ',', ',');
export const Semi = punct('Semi', ';', ';');
export const Colon = punct('Colon', ':', ':');
export const At = punct('At', '@', '@');
export const Question = punct('Question', '?', '?');
export const Shl = punct('Shl', '<<', '<<', [BinaryOperator]);
export const Shr = punct('Shr', '>>', '>>', [BinaryOperator]);
export const Le = punct('Le', '<=', '<=', [BinaryOperator]);
export const Ge = punct('Ge', '>=', '>=', [BinaryOperator]);
export const EqEq = punct('EqEq', '==', '==', [BinaryOperator]);
export const NotEq = punct('NotEq', '!=', '!=', [BinaryOperator]);
export const AndAnd = punct('AndAnd', '&&', '&&', [BinaryOperator]);
export const OrOr = punct('OrOr', '||', '||', [BinaryOperator]);
export const Lt = punct('Lt', '<', '<', [BinaryOperator]);
export const Gt = punct('Gt', '>', '>', [BinaryOperator]);
export const Equals = punct('Equals', '=', '=');
export const Bang = punct('Bang', '!', '!', [UnaryOperator]);
export const Tilde = punct('Tilde', '~', '~', [UnaryOperator]);
export const Plus = punct('Plus', '+', '+', [BinaryOperator, UnaryOperator]);
export const Minus = punct('Minus', '-', '-', [BinaryOperator, UnaryOperator]);
export const Star = punct('Star', '*', '*', [BinaryOperator]);
export const Slash = punct('Slash', '/', '/', [BinaryOperator]);
export const Percent = punct('Percent', '%', '%', [BinaryOperator]);
export const Amp = punct('Amp', '&', '&', [BinaryOperator]);
export const Pipe = punct('Pipe', '|', '|', [BinaryOperator]);
export const Caret = punct('Caret', '^', '^', [BinaryOperator]);

// ---- keywords: never lexed, assigned to Modifier tokens by image.
// Most keywords double as modifiers or qualifiers (`ld.shared`, `ld.weak`,
// `fence.proxy.alias`, `.ptr .global`); `.align` and `.attribute` take
// arguments in declarations, so they are only `AnyDotted`.
const keyword = (name: string, categories: TokenType[] = [ModifierLike, AnyDotted]): TokenType =>
  createToken({ name, pattern: Lexer.NA, categories, label: name });
export const KwVersion = keyword('.version');
export const KwTarget = keyword('.target');
export const KwAddressSize = keyword('.address_size');
export const KwFile = keyword('.file');
export const KwLoc = keyword('.loc');
export const KwSection = keyword('.section');
export const KwPragma = keyword('.pragma');
export const KwAlias = keyword('.alias');
export const KwEntry = keyword('.entry');
export const KwFunc = keyword('.func');
export const KwLinkage = keyword('linkage');
export const KwStateSpace = keyword('state space');
export const KwAlign = keyword('.align', [AnyDotted]);
export const KwAttribute = keyword('.attribute', [AnyDotted]);
export const KwFunctionDirective = keyword('function directive');
export const KwBranchTargets = keyword('.branchtargets');
export const KwCallTargets = keyword('.calltargets');
export const KwCallPrototype = keyword('.callprototype');

const ROLE_TOKEN: Readonly<Record<DirectiveRole, TokenType>> = {
  version: KwVersion, target: KwTarget, address_size: KwAddressSize, file: KwFile,
  loc: KwLoc, section: KwSection, pragma: KwPragma, alias: KwAlias, entry: KwEntry,
  func: KwFunc, linkage: KwLinkage, state_space: KwStateSpace, align: KwAlign,
  attribute: KwAttribute, function_directive: KwFunctionDirective,
  branchtargets: KwBranchTargets, calltargets: KwCallTargets, callprototype: KwCallPrototype,
};

/** Dot-keyword image → the token type it is re-typed to after lexing. */
export const KEYWORD_TOKENS: ReadonlyMap<string, TokenType> = new Map(
  DIRECTIVES.map((dir) => [dir.name, ROLE_TOKEN[dir.role]]),
);

/** Lexer order matters: longer and more specific patterns first. */
export const lexedTokens: TokenType[] = [
  WhiteSpace, Bom, LineComment, BlockComment, UnterminatedComment, Dwarf,
  StringLit, UnterminatedString, FloatHex, FloatDec, IntLit, Identifier, Modifier,
  LCurly, RCurly, LParen, RParen, LBracket, RBracket, Comma, Semi, Colon, At, Question,
  Shl, Shr, Le, Ge, EqEq, NotEq, AndAnd, OrOr, Lt, Gt, Equals, Bang, Tilde,
  Plus, Minus, Star, Slash, Percent, Amp, Pipe, Caret,
];

/** Every token type the parser knows: lexed ones, keywords and categories. */
export const allTokens: TokenType[] = [
  ...lexedTokens,
  KwVersion, KwTarget, KwAddressSize, KwFile, KwLoc, KwSection, KwPragma, KwAlias,
  KwEntry, KwFunc, KwLinkage, KwStateSpace, KwAlign, KwAttribute, KwFunctionDirective,
  KwBranchTargets, KwCallTargets, KwCallPrototype,
  ModifierLike, AnyDotted, BinaryOperator, UnaryOperator,
];

// The PTX grammar (Chevrotain, LL(k)). One generic instruction form: guard,
// opcode, modifiers, operands. The embedded actions only build syntax nodes
// (no meaning is decided here); building the AST directly instead of a CST
// halves allocation on large inputs (docs/performance.md).
import { EmbeddedActionsParser, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';
import * as T from './tokens.js';
import type * as A from './ast.js';
import { makeRange, spanNodes, spanTokens } from './ranges.js';
import { parseIntLiteral, parseFloatLiteral } from './literals.js';

/** Binary operator precedence, C-like: higher binds tighter. */
const PRECEDENCE: Readonly<Record<string, number>> = {
  '||': 1, '&&': 2, '|': 3, '^': 4, '&': 5, '==': 6, '!=': 6,
  '<': 7, '>': 7, '<=': 7, '>=': 7, '<<': 8, '>>': 8, '+': 9, '-': 9, '*': 10, '/': 10, '%': 10,
};

/** Components that may follow a name: `%tid.x`, `%v.r`. */
const COMPONENTS = new Set(['.x', '.y', '.z', '.w', '.r', '.g', '.b', '.a']);

function foldBinary(first: A.Expression, rest: { op: string; right: A.Expression }[]): A.Expression {
  // Shunting-yard over the flat operator list.
  const values: A.Expression[] = [first];
  const ops: string[] = [];
  const reduce = (): void => {
    const right = values.pop()!;
    const left = values.pop()!;
    const op = ops.pop()! as A.BinaryOp;
    values.push({ kind: 'Binary', op, left, right, range: spanNodes(left, right) });
  };
  for (const { op, right } of rest) {
    const p = PRECEDENCE[op] ?? 0;
    while (ops.length > 0 && (PRECEDENCE[ops[ops.length - 1]!] ?? 0) >= p) reduce();
    ops.push(op);
    values.push(right);
  }
  while (ops.length > 0) reduce();
  return values[0]!;
}

export class PtxParser extends EmbeddedActionsParser {
  constructor(errorMessageProvider?: IParserErrorMessageProvider) {
    super(T.allTokens, {
      recoveryEnabled: true,
      maxLookahead: 3,
      skipValidations: process.env['PTX_DEBUG_GRAMMAR_CHECK'] !== '1',
      ...(errorMessageProvider !== undefined ? { errorMessageProvider } : {}),
    });
    this.performSelfAnalysis();
  }

  private tokenRange(start: IToken): A.SourceRange {
    return spanTokens(start, this.LA(0));
  }

  // ------------------------------------------------------------ module

  public module = this.RULE('module', (): A.ModuleStatement[] => {
    const statements: A.ModuleStatement[] = [];
    this.MANY(() => {
      const s = this.SUBRULE(this.moduleStatement);
      this.ACTION(() => { if (s !== undefined) statements.push(s); });
    });
    return statements;
  });

  private moduleStatement = this.RULE('moduleStatement', (): A.ModuleStatement => this.OR([
    { ALT: () => this.SUBRULE(this.version) },
    { ALT: () => this.SUBRULE(this.target) },
    { ALT: () => this.SUBRULE(this.addressSize) },
    { ALT: () => this.SUBRULE(this.file) },
    { ALT: () => this.SUBRULE(this.section) },
    { ALT: () => this.SUBRULE(this.alias) },
    { ALT: () => this.SUBRULE(this.pragma) },
    { ALT: () => this.SUBRULE(this.loc) },
    { ALT: () => this.SUBRULE(this.dwarf) },
    { ALT: () => this.SUBRULE(this.declaration) },
  ]));

  private version = this.RULE('version', (): A.VersionDirective => {
    const start = this.CONSUME(T.KwVersion);
    const num = this.OR([
      { ALT: () => this.CONSUME(T.FloatDec) },
      { ALT: () => this.CONSUME(T.IntLit) },
    ]);
    return this.ACTION(() => {
      const [maj, min] = num.image.split('.');
      return { kind: 'Version', major: Number(maj), minor: Number(min ?? 0), range: spanTokens(start, num) };
    });
  });

  private target = this.RULE('target', (): A.TargetDirective => {
    const start = this.CONSUME(T.KwTarget);
    const targets = [this.CONSUME(T.Identifier).image];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      targets.push(this.CONSUME2(T.Identifier).image);
    });
    return { kind: 'Target', targets, range: this.tokenRange(start) };
  });

  private addressSize = this.RULE('addressSize', (): A.AddressSizeDirective => {
    const start = this.CONSUME(T.KwAddressSize);
    const n = this.CONSUME(T.IntLit);
    return { kind: 'AddressSize', size: Number.parseInt(n.image, 10), range: spanTokens(start, n) };
  });

  private file = this.RULE('file', (): A.FileDirective => {
    const start = this.CONSUME(T.KwFile);
    const index = this.CONSUME(T.IntLit).image;
    const path = this.CONSUME(T.StringLit).image;
    const extra: string[] = [];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      extra.push(this.CONSUME2(T.IntLit).image);
    });
    return this.ACTION(() => {
      const f: A.FileDirective = {
        kind: 'File', index: Number(parseIntLiteral(index).value), path: unquote(path),
        ...(extra[0] !== undefined ? { timestamp: Number(parseIntLiteral(extra[0]).value) } : {}),
        ...(extra[1] !== undefined ? { size: Number(parseIntLiteral(extra[1]).value) } : {}),
        range: this.tokenRange(start),
      };
      return f;
    });
  });

  private loc = this.RULE('loc', (): A.LocDirective => {
    const start = this.CONSUME(T.KwLoc);
    const file = this.CONSUME(T.IntLit).image;
    const line = this.CONSUME2(T.IntLit).image;
    let column = '0';
    this.OPTION(() => { column = this.CONSUME3(T.IntLit).image; });
    let functionName: A.Expression | undefined;
    let inlinedAt: { file: number; line: number; column: number } | undefined;
    this.MANY(() => {
      this.CONSUME(T.Comma);
      this.CONSUME(T.Identifier);
      this.OR([
        {
          ALT: () => {
            const f = this.CONSUME4(T.IntLit).image;
            const l = this.CONSUME5(T.IntLit).image;
            const c = this.CONSUME6(T.IntLit).image;
            inlinedAt = { file: Number(f), line: Number(l), column: Number(c) };
          },
        },
        { ALT: () => { functionName = this.SUBRULE(this.expression); } },
      ]);
    });
    return {
      kind: 'Loc', file: Number(file), line: Number(line), column: Number(column),
      ...(functionName !== undefined ? { functionName } : {}),
      ...(inlinedAt !== undefined ? { inlinedAt } : {}),
      range: this.tokenRange(start),
    };
  });

  private pragma = this.RULE('pragma', (): A.PragmaDirective => {
    const start = this.CONSUME(T.KwPragma);
    const values = [unquote(this.CONSUME(T.StringLit).image)];
    this.MANY(() => {
      this.CONSUME(T.Comma);
      values.push(unquote(this.CONSUME2(T.StringLit).image));
    });
    this.CONSUME(T.Semi);
    return { kind: 'Pragma', values, range: this.tokenRange(start) };
  });

  private alias = this.RULE('alias', (): A.AliasDirective => {
    const start = this.CONSUME(T.KwAlias);
    const alias = this.CONSUME(T.Identifier).image;
    this.CONSUME(T.Comma);
    const target = this.CONSUME2(T.Identifier).image;
    this.CONSUME(T.Semi);
    return { kind: 'Alias', alias, target, range: this.tokenRange(start) };
  });

  private dwarf = this.RULE('dwarf', (): A.DwarfLine => {
    const t = this.CONSUME(T.Dwarf);
    return { kind: 'Dwarf', text: t.image, range: spanTokens(t, t) };
  });

  private section = this.RULE('section', (): A.SectionDirective => {
    const start = this.CONSUME(T.KwSection);
    const name = this.CONSUME(T.ModifierLike).image;
    const items: A.SectionItem[] = [];
    this.CONSUME(T.LCurly);
    this.MANY(() => {
      const item = this.SUBRULE(this.sectionItem);
      this.ACTION(() => { if (item !== undefined) items.push(item); });
    });
    this.CONSUME(T.RCurly);
    return { kind: 'Section', name, items, range: this.tokenRange(start) };
  });

  private sectionItem = this.RULE('sectionItem', (): A.SectionItem => this.OR([
    {
      ALT: () => {
        const name = this.CONSUME(T.Identifier);
        this.CONSUME(T.Colon);
        return { kind: 'SectionLabel', name: name.image, range: this.tokenRange(name) } satisfies A.SectionLabel;
      },
    },
    {
      ALT: () => {
        const type = this.CONSUME(T.ModifierLike);
        const values = [this.SUBRULE(this.sectionValue)];
        this.MANY(() => {
          this.CONSUME(T.Comma);
          values.push(this.SUBRULE2(this.sectionValue));
        });
        return { kind: 'SectionData', type: type.image, values, range: this.tokenRange(type) } satisfies A.SectionData;
      },
    },
    { ALT: () => this.SUBRULE(this.dwarf) },
  ]));

  /** A debug-section value: an expression, or a section name with an optional
   *  offset (`.b32 .debug_loc+204` in nvcc -G output). */
  private sectionValue = this.RULE('sectionValue', (): A.Expression => this.OR([
    {
      ALT: () => {
        const t = this.CONSUME(T.ModifierLike);
        const ref: A.SectionRefExpr = { kind: 'SectionRef', name: t.image, range: spanTokens(t, t) };
        let result: A.Expression = ref;
        this.MANY(() => {
          const op = this.CONSUME(T.BinaryOperator).image as A.BinaryOp;
          const right = this.SUBRULE(this.unary);
          result = { kind: 'Binary', op, left: result, right, range: spanNodes(result, right) };
        });
        return result;
      },
    },
    { ALT: () => this.SUBRULE(this.expression) },
  ]));

  // ------------------------------------------------------------ declarations

  private declaration = this.RULE('declaration', (): A.FunctionDecl | A.VariableDecl => {
    const start = this.LA(1);
    const linkage: string[] = [];
    this.MANY(() => { linkage.push(this.CONSUME(T.KwLinkage).image); });
    return this.OR([
      { ALT: () => this.SUBRULE(this.functionRest, { ARGS: [linkage, start] }) },
      { ALT: () => this.SUBRULE(this.variableRest, { ARGS: [linkage, start] }) },
    ]);
  });

  private functionRest = this.RULE('functionRest', (linkage: string[], start: IToken): A.FunctionDecl => {
    const isEntry = this.OR([
      { ALT: () => { this.CONSUME(T.KwEntry); return true; } },
      { ALT: () => { this.CONSUME(T.KwFunc); return false; } },
    ]);
    let returns: A.VariableDecl[] | null = null;
    this.OPTION(() => { returns = this.SUBRULE(this.paramList); });
    const nameTok = this.CONSUME(T.Identifier);
    let params: A.VariableDecl[] = [];
    this.OPTION2(() => { params = this.SUBRULE2(this.paramList); });
    const directives = this.SUBRULE(this.functionDirectives);
    let body: A.Block | null = null;
    this.OR2([
      { ALT: () => { body = this.SUBRULE(this.block); } },
      { ALT: () => { this.CONSUME(T.Semi); } },
    ]);
    return {
      kind: 'Function', linkage, isEntry, name: nameTok.image, nameRange: spanTokens(nameTok, nameTok),
      returns, params, directives, body, range: this.tokenRange(start),
    };
  });

  private functionDirectives = this.RULE('functionDirectives', (): A.FunctionDirective[] => {
    const directives: A.FunctionDirective[] = [];
    this.MANY(() => {
      const kw = this.CONSUME(T.KwFunctionDirective);
      const args: number[] = [];
      this.OPTION(() => {
        args.push(Number(this.CONSUME(T.IntLit).image.replace(/U$/, '')));
        this.MANY2(() => {
          this.CONSUME(T.Comma);
          args.push(Number(this.CONSUME2(T.IntLit).image.replace(/U$/, '')));
        });
      });
      directives.push({ kind: 'FunctionDirective', name: kw.image, args, range: this.tokenRange(kw) });
    });
    return directives;
  });

  private paramList = this.RULE('paramList', (): A.VariableDecl[] => {
    const params: A.VariableDecl[] = [];
    this.CONSUME(T.LParen);
    this.MANY_SEP({
      SEP: T.Comma,
      DEF: () => { params.push(this.SUBRULE(this.param)); },
    });
    this.CONSUME(T.RParen);
    return params;
  });

  private param = this.RULE('param', (): A.VariableDecl => {
    const space = this.CONSUME(T.KwStateSpace);
    const qualifiers = this.SUBRULE(this.qualifiers);
    const name = this.CONSUME(T.Identifier);
    const dims = this.SUBRULE(this.arrayDims);
    const decl: A.Declarator = { kind: 'Declarator', name: name.image, dims, range: this.tokenRange(name) };
    return { kind: 'Variable', linkage: [], space: space.image, qualifiers, declarators: [decl], range: this.tokenRange(space) };
  });

  private variableRest = this.RULE('variableRest', (linkage: string[], start: IToken): A.VariableDecl => {
    const space = this.CONSUME(T.KwStateSpace);
    const qualifiers = this.SUBRULE(this.qualifiers);
    const declarators: A.Declarator[] = [];
    this.AT_LEAST_ONE_SEP({
      SEP: T.Comma,
      DEF: () => { declarators.push(this.SUBRULE(this.declarator)); },
    });
    this.CONSUME(T.Semi);
    return { kind: 'Variable', linkage, space: space.image, qualifiers, declarators, range: this.tokenRange(start) };
  });

  private qualifiers = this.RULE('qualifiers', (): A.Qualifier[] => {
    const out: A.Qualifier[] = [];
    this.MANY(() => {
      this.OR([
        {
          ALT: () => {
            const kw = this.CONSUME(T.KwAlign);
            const n = this.CONSUME(T.IntLit);
            out.push({ kind: 'Qualifier', name: kw.image, args: [Number(n.image.replace(/U$/, ''))], range: spanTokens(kw, n) });
          },
        },
        {
          ALT: () => {
            const kw = this.CONSUME(T.KwAttribute);
            this.CONSUME(T.LParen);
            const args: string[] = [];
            this.MANY_SEP({ SEP: T.Comma, DEF: () => { args.push(this.CONSUME(T.ModifierLike).image); } });
            this.CONSUME(T.RParen);
            out.push({ kind: 'Qualifier', name: kw.image, args, range: this.tokenRange(kw) });
          },
        },
        {
          ALT: () => {
            const m = this.CONSUME2(T.ModifierLike);
            out.push({ kind: 'Qualifier', name: m.image, args: [], range: spanTokens(m, m) });
          },
        },
      ]);
    });
    return out;
  });

  private declarator = this.RULE('declarator', (): A.Declarator => {
    const name = this.CONSUME(T.Identifier);
    let count: number | undefined;
    this.OPTION(() => {
      this.CONSUME(T.Lt);
      count = Number(this.CONSUME(T.IntLit).image.replace(/U$/, ''));
      this.CONSUME(T.Gt);
    });
    const dims = this.SUBRULE(this.arrayDims);
    let init: A.Initializer | undefined;
    this.OPTION2(() => {
      this.CONSUME(T.Equals);
      init = this.SUBRULE(this.initializer);
    });
    return {
      kind: 'Declarator', name: name.image, dims,
      ...(count !== undefined ? { count } : {}),
      ...(init !== undefined ? { init } : {}),
      range: this.tokenRange(name),
    };
  });

  private arrayDims = this.RULE('arrayDims', (): (A.Expression | null)[] => {
    const dims: (A.Expression | null)[] = [];
    this.MANY(() => {
      this.CONSUME(T.LBracket);
      let size: A.Expression | null = null;
      this.OPTION(() => { size = this.SUBRULE(this.expression); });
      this.CONSUME(T.RBracket);
      dims.push(size);
    });
    return dims;
  });

  private initializer = this.RULE('initializer', (): A.Initializer => this.OR([
    {
      // A brace list here is an initializer list, not a vector operand.
      IGNORE_AMBIGUITIES: true,
      ALT: () => {
        const open = this.CONSUME(T.LCurly);
        const elements: A.Initializer[] = [];
        this.MANY_SEP({ SEP: T.Comma, DEF: () => { elements.push(this.SUBRULE(this.initItem)); } });
        this.CONSUME(T.RCurly);
        return { kind: 'InitList', elements, range: this.tokenRange(open) } satisfies A.InitListNode;
      },
    },
    { ALT: () => this.SUBRULE(this.expression) },
  ]));

  private initItem = this.RULE('initItem', (): A.Initializer => this.OR([
    {
      ALT: () => {
        const field = this.CONSUME(T.Identifier);
        this.CONSUME(T.Equals);
        const value = this.SUBRULE(this.expression);
        return { kind: 'FieldInit', field: field.image, value, range: this.tokenRange(field) } satisfies A.FieldInitNode;
      },
    },
    { ALT: () => this.SUBRULE(this.initializer) },
  ]));

  // ------------------------------------------------------------ statements

  private block = this.RULE('block', (): A.Block => {
    const open = this.CONSUME(T.LCurly);
    const statements: A.Statement[] = [];
    this.MANY(() => {
      const s = this.SUBRULE(this.statement);
      this.ACTION(() => { if (s !== undefined) statements.push(s); });
    });
    this.CONSUME(T.RCurly);
    return { kind: 'Block', statements, range: this.tokenRange(open) };
  });

  private statement = this.RULE('statement', (): A.Statement => this.OR([
    {
      ALT: () => {
        const name = this.CONSUME(T.Identifier);
        this.CONSUME(T.Colon);
        return { kind: 'Label', name: name.image, range: this.tokenRange(name) } satisfies A.Label;
      },
    },
    { ALT: () => this.SUBRULE(this.instruction) },
    { ALT: () => this.SUBRULE(this.variableRest, { ARGS: [[], this.LA(1)] }) },
    { ALT: () => this.SUBRULE(this.block) },
    { ALT: () => this.SUBRULE(this.loc) },
    { ALT: () => this.SUBRULE(this.pragma) },
    { ALT: () => this.SUBRULE(this.targetList) },
    { ALT: () => this.SUBRULE(this.callPrototype) },
    { ALT: () => this.SUBRULE(this.dwarf) },
  ]));

  private targetList = this.RULE('targetList', (): A.TargetListDirective => {
    const kw = this.OR([
      { ALT: () => this.CONSUME(T.KwBranchTargets) },
      { ALT: () => this.CONSUME(T.KwCallTargets) },
    ]);
    const names: string[] = [];
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => { names.push(this.CONSUME(T.Identifier).image); } });
    this.CONSUME(T.Semi);
    return {
      kind: kw.tokenType === T.KwBranchTargets ? 'BranchTargets' : 'CallTargets',
      names, range: this.tokenRange(kw),
    };
  });

  private callPrototype = this.RULE('callPrototype', (): A.CallPrototype => {
    const kw = this.CONSUME(T.KwCallPrototype);
    let returns: A.VariableDecl[] | null = null;
    this.OPTION(() => { returns = this.SUBRULE(this.paramList); });
    this.CONSUME(T.Identifier);
    let params: A.VariableDecl[] = [];
    this.OPTION2(() => { params = this.SUBRULE2(this.paramList); });
    const directives = this.SUBRULE(this.functionDirectives);
    this.CONSUME(T.Semi);
    return { kind: 'CallPrototype', returns, params, directives, range: this.tokenRange(kw) };
  });

  private instruction = this.RULE('instruction', (): A.Instruction => {
    const start = this.LA(1);
    let guard: A.Guard | undefined;
    this.OPTION(() => {
      const at = this.CONSUME(T.At);
      let negated = false;
      this.OPTION2(() => { this.CONSUME(T.Bang); negated = true; });
      const p = this.CONSUME(T.Identifier);
      guard = { negated, predicate: p.image, range: spanTokens(at, p) };
    });
    const opcode = this.CONSUME2(T.Identifier).image;
    const modifiers: string[] = [];
    this.MANY(() => { modifiers.push(this.CONSUME(T.AnyDotted).image); });
    const operands: A.Expression[] = [];
    this.MANY_SEP({ SEP: T.Comma, DEF: () => { operands.push(predPair(this.SUBRULE(this.expression))); } });
    this.CONSUME(T.Semi);
    return guard === undefined
      ? { kind: 'Instruction', opcode, modifiers, operands, range: this.tokenRange(start) }
      : { kind: 'Instruction', guard, opcode, modifiers, operands, range: this.tokenRange(start) };
  });

  // ------------------------------------------------------------ expressions

  /** `a`, `a op b op c` (precedence folded afterwards), `t ? x : y`. */
  private expression = this.RULE('expression', (): A.Expression => {
    const first = this.SUBRULE(this.unary);
    let rest: { op: string; right: A.Expression }[] | undefined;
    this.MANY(() => {
      const op = this.CONSUME(T.BinaryOperator).image;
      const right = this.SUBRULE2(this.unary);
      (rest ??= []).push({ op, right });
    });
    let result = rest === undefined ? first : this.ACTION(() => foldBinary(first, rest!));
    this.OPTION(() => {
      this.CONSUME(T.Question);
      const then = this.SUBRULE(this.expression);
      this.CONSUME(T.Colon);
      const otherwise = this.SUBRULE2(this.expression);
      result = { kind: 'Conditional', test: result, then, otherwise, range: spanNodes(result, otherwise) };
    });
    return result;
  });

  /** One operand term. The alternatives are built once: Chevrotain's OR
   *  allocates nothing when handed the same array each time. */
  private unary = this.RULE('unary', (): A.Expression => this.OR(this.unaryAlts ??= [
    {
      GATE: () => this.LA(1).image === 'generic' && this.LA(2).tokenType === T.LParen,
      ALT: () => this.genericTerm(),
    },
    { ALT: () => this.nameTerm() },
    { ALT: () => this.intTerm() },
    { ALT: () => this.floatTerm() },
    { ALT: () => this.addressTerm() },
    { ALT: () => this.vectorTerm() },
    { ALT: () => this.unaryOpTerm() },
    { ALT: () => this.SUBRULE(this.parenthesized) },
  ]));
  private unaryAlts: { ALT: () => A.Expression; GATE?: () => boolean }[] | undefined;

  private nameTerm(): A.NameExpr {
    const t = this.CONSUME3(T.Identifier);
    let component: string | undefined;
    this.OPTION5({
      GATE: () => COMPONENTS.has(this.LA(1).image),
      DEF: () => { component = this.CONSUME5(T.ModifierLike).image.slice(1); },
    });
    return component === undefined
      ? { kind: 'Name', name: t.image, range: spanTokens(t, t) }
      : { kind: 'Name', name: t.image, component, range: this.tokenRange(t) };
  }

  private intTerm(): A.IntExpr {
    const t = this.CONSUME(T.IntLit);
    return this.ACTION(() => {
      const lit = parseIntLiteral(t.image);
      return { kind: 'Int', text: lit.text, value: lit.value, unsigned: lit.unsigned, range: spanTokens(t, t) };
    });
  }

  private floatTerm(): A.FloatExpr {
    const t = this.OR2([
      { ALT: () => this.CONSUME(T.FloatHex) },
      { ALT: () => this.CONSUME(T.FloatDec) },
    ]);
    return this.ACTION(() => ({ kind: 'Float', ...parseFloatLiteral(t.image), range: spanTokens(t, t) }));
  }

  private addressTerm(): A.AddressExpr {
    const open = this.CONSUME(T.LBracket);
    const elements: A.Expression[] = [];
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => { elements.push(this.SUBRULE3(this.expression)); } });
    this.CONSUME(T.RBracket);
    return { kind: 'Address', elements, range: this.tokenRange(open) };
  }

  private vectorTerm(): A.VectorExpr {
    const open = this.CONSUME(T.LCurly);
    const elements: A.Expression[] = [];
    this.MANY_SEP2({ SEP: T.Comma, DEF: () => { elements.push(this.SUBRULE4(this.expression)); } });
    this.CONSUME(T.RCurly);
    return { kind: 'Vector', elements, range: this.tokenRange(open) };
  }

  private unaryOpTerm(): A.UnaryExpr {
    const op = this.CONSUME(T.UnaryOperator);
    const arg = this.SUBRULE(this.unary);
    return { kind: 'Unary', op: op.image as A.UnaryOp, arg, range: this.tokenRange(op) };
  }

  private genericTerm(): A.GenericExpr {
    const kw = this.CONSUME4(T.Identifier);
    this.CONSUME(T.LParen);
    const name = this.CONSUME6(T.Identifier).image;
    this.CONSUME(T.RParen);
    return { kind: 'Generic', name, range: this.tokenRange(kw) };
  }

  /** `(.s64) x` (a cast) or `(a, b)` (a list; one element is a grouped expression). */
  private parenthesized = this.RULE('parenthesized', (): A.Expression => {
    const open = this.CONSUME(T.LParen);
    return this.OR([
      {
        ALT: () => {
          const type = this.CONSUME(T.ModifierLike).image;
          this.CONSUME(T.RParen);
          const arg = this.SUBRULE(this.unary);
          return { kind: 'Cast', type, arg, range: this.tokenRange(open) } satisfies A.CastExpr;
        },
      },
      {
        ALT: () => {
          const elements: A.Expression[] = [];
          this.MANY_SEP({ SEP: T.Comma, DEF: () => { elements.push(this.SUBRULE(this.expression)); } });
          this.CONSUME2(T.RParen);
          return { kind: 'List', elements, range: this.tokenRange(open) } satisfies A.ListExpr;
        },
      },
    ]);
  });
}

/** `%p|%q` as an operand is a predicate pair, not a bitwise or. */
function predPair(e: A.Expression): A.Expression {
  if (e !== undefined && e.kind === 'Binary' && e.op === '|' && e.left?.kind === 'Name' && e.right?.kind === 'Name') {
    return { kind: 'PredPair', first: e.left, second: e.right, range: e.range };
  }
  return e;
}

function unquote(s: string): string {
  return s.length >= 2 && s.startsWith('"') && s.endsWith('"') ? s.slice(1, -1) : s;
}

/** Token types by name, for error messages. */
export function tokenLabel(t: TokenType): string {
  return t.LABEL ?? t.name;
}

export { makeRange };

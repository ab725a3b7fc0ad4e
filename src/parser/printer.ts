// AST → PTX text. The output is accepted by ptxas whenever the input was, and
// parses back to the same tree (ranges and comments aside): parentheses are
// kept as the List nodes they parsed to, and binary chains are printed flat in
// the order the precedence folding built them.
import type * as A from './ast.js';

export function printExpression(e: A.Expression): string {
  switch (e.kind) {
    case 'Name': return e.component === undefined ? e.name : `${e.name}.${e.component}`;
    case 'Int': return e.text;
    case 'Float': return e.text;
    case 'Unary': return `${e.op}${printExpression(e.arg)}`;
    case 'Binary': return `${printExpression(e.left)} ${e.op} ${printExpression(e.right)}`;
    case 'Conditional': return `${printExpression(e.test)} ? ${printExpression(e.then)} : ${printExpression(e.otherwise)}`;
    case 'Cast': return `(${e.type})${printExpression(e.arg)}`;
    case 'Generic': return `generic(${e.name})`;
    case 'Vector': return `{${e.elements.map(printExpression).join(', ')}}`;
    case 'Address': return `[${e.elements.map(printExpression).join(', ')}]`;
    case 'List': return `(${e.elements.map(printExpression).join(', ')})`;
    case 'PredPair': return `${printExpression(e.first)}|${printExpression(e.second)}`;
    case 'SectionRef': return e.name;
  }
}

function printInitializer(i: A.Initializer): string {
  if (i.kind === 'InitList') return `{${i.elements.map(printInitializer).join(', ')}}`;
  if (i.kind === 'FieldInit') return `${i.field} = ${printExpression(i.value)}`;
  return printExpression(i);
}

function printQualifier(q: A.Qualifier): string {
  if (q.name === '.attribute') return `.attribute(${q.args.join(', ')})`;
  return q.args.length === 0 ? q.name : `${q.name} ${q.args.join(', ')}`;
}

function printDeclarator(d: A.Declarator): string {
  let s = d.name;
  if (d.count !== undefined) s += `<${d.count}>`;
  for (const dim of d.dims) s += dim === null ? '[]' : `[${printExpression(dim)}]`;
  if (d.init !== undefined) s += ` = ${printInitializer(d.init)}`;
  return s;
}

/** A declaration without its terminating `;` (parameters have none). */
function printDeclaration(v: A.VariableDecl): string {
  const parts = [...v.linkage, v.space, ...v.qualifiers.map(printQualifier)];
  return `${parts.join(' ')} ${v.declarators.map(printDeclarator).join(', ')}`;
}

function printParams(params: readonly A.VariableDecl[]): string {
  return `(${params.map(printDeclaration).join(', ')})`;
}

function printDirectives(ds: readonly A.FunctionDirective[]): string[] {
  return ds.map((d) => (d.args.length === 0 ? d.name : `${d.name} ${d.args.join(', ')}`));
}

function printLoc(l: A.LocDirective): string {
  let s = `.loc ${l.file} ${l.line} ${l.column}`;
  if (l.functionName !== undefined) s += `, function_name ${printExpression(l.functionName)}`;
  if (l.inlinedAt !== undefined) s += `, inlined_at ${l.inlinedAt.file} ${l.inlinedAt.line} ${l.inlinedAt.column}`;
  return s;
}

function printInstruction(i: A.Instruction): string {
  const guard = i.guard === undefined ? '' : `@${i.guard.negated ? '!' : ''}${i.guard.predicate} `;
  const ops = i.operands.length === 0 ? '' : ` ${i.operands.map(printExpression).join(', ')}`;
  return `${guard}${i.opcode}${i.modifiers.join('')}${ops};`;
}

export interface PrintOptions {
  /**
   * Give the printed PTX line information pointing at the ORIGINAL text:
   * `.file 1 "<selfLoc>"` and a `.loc 1 <line> <column>` before every
   * instruction (existing `.file`/`.loc` are dropped). Tools that report
   * source lines (compute-sanitizer) then name the original PTX lines.
   */
  readonly selfLoc?: string;
}

let current: PrintOptions = {};

function printStatement(s: A.Statement, indent: string, out: string[]): void {
  switch (s.kind) {
    case 'Instruction':
      if (current.selfLoc !== undefined) out.push(`${indent}.loc 1 ${s.range.line} ${s.range.column}`);
      out.push(indent + printInstruction(s));
      return;
    case 'Label': out.push(`${s.name}:`); return;
    case 'Variable': out.push(`${indent}${printDeclaration(s)};`); return;
    case 'Block':
      out.push(`${indent}{`);
      for (const inner of s.statements) printStatement(inner, `${indent}\t`, out);
      out.push(`${indent}}`);
      return;
    case 'Loc': if (current.selfLoc === undefined) out.push(indent + printLoc(s)); return;
    case 'Pragma': out.push(`${indent}.pragma ${s.values.map((v) => `"${v}"`).join(', ')};`); return;
    case 'BranchTargets': out.push(`${indent}.branchtargets ${s.names.join(', ')};`); return;
    case 'CallTargets': out.push(`${indent}.calltargets ${s.names.join(', ')};`); return;
    case 'CallPrototype': {
      const ret = s.returns === null ? '' : `${printParams(s.returns)} `;
      const dirs = printDirectives(s.directives).map((d) => ` ${d}`).join('');
      out.push(`${indent}.callprototype ${ret}_ ${printParams(s.params)}${dirs};`);
      return;
    }
    case 'Dwarf': out.push(indent + s.text); return;
  }
}

function printSectionItem(item: A.SectionItem, out: string[]): void {
  if (item.kind === 'SectionLabel') out.push(`${item.name}:`);
  else if (item.kind === 'SectionData') out.push(`\t${item.type} ${item.values.map(printExpression).join(', ')}`);
  else out.push(`\t${item.text}`);
}

function printFunction(f: A.FunctionDecl, out: string[]): void {
  const head = [...f.linkage, f.isEntry ? '.entry' : '.func'];
  if (f.returns !== null) head.push(printParams(f.returns));
  head.push(f.name);
  out.push(head.join(' ') + (f.params.length > 0 || f.body !== null ? printParams(f.params) : ''));
  for (const d of printDirectives(f.directives)) out.push(d);
  if (f.body === null) {
    out.push(';');
    return;
  }
  printStatement(f.body, '', out);
}

/** Prints a module as PTX, one statement per line. */
export function printModule(m: A.Module, options: PrintOptions = {}): string {
  current = options;
  try {
    return printStatements(m, options);
  } finally {
    current = {};
  }
}

function printStatements(m: A.Module, options: PrintOptions): string {
  const out: string[] = [];
  let fileDone = false;
  for (const s of m.statements) {
    if (options.selfLoc !== undefined && !fileDone && s.kind !== 'Version' && s.kind !== 'Target' && s.kind !== 'AddressSize') {
      out.push(`.file 1 "${options.selfLoc}"`, '');
      fileDone = true;
    }
    switch (s.kind) {
      case 'Version': out.push(`.version ${s.major}.${s.minor}`); break;
      case 'Target': out.push(`.target ${s.targets.join(', ')}`); break;
      case 'AddressSize': out.push(`.address_size ${s.size}`); break;
      case 'File': {
        if (options.selfLoc !== undefined) break;
        const extra = s.timestamp === undefined ? '' : `, ${s.timestamp}${s.size === undefined ? '' : `, ${s.size}`}`;
        out.push(`.file ${s.index} "${s.path}"${extra}`);
        break;
      }
      case 'Section':
        if (options.selfLoc !== undefined) break; // debug sections refer to the dropped line tables
        out.push(`.section ${s.name}`, '{');
        for (const item of s.items) printSectionItem(item, out);
        out.push('}');
        break;
      case 'Alias': out.push(`.alias ${s.alias}, ${s.target};`); break;
      case 'Pragma': out.push(`.pragma ${s.values.map((v) => `"${v}"`).join(', ')};`); break;
      case 'Loc': if (options.selfLoc === undefined) out.push(printLoc(s)); break;
      case 'Dwarf': out.push(s.text); break;
      case 'Variable': out.push(`${printDeclaration(s)};`); break;
      case 'Function': printFunction(s, out); break;
    }
    out.push('');
  }
  return out.join('\n');
}

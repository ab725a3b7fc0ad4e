// Control-flow graphs: basic blocks split at labels and after branches, `ret`,
// `exit`, `trap` and calls to `.noreturn` functions; edges for `bra` (both
// when guarded), `brx.idx` through its `.branchtargets`, fall-through, and a
// virtual exit that every `ret`/`exit`/`trap` reaches.
import type * as A from '../parser/ast.js';
import type { FlatInstruction, FunctionModel, LabelSymbol, ModuleModel } from './symbols.js';

export interface BasicBlock {
  readonly id: number;
  /** Labels that start the block. */
  readonly labels: readonly string[];
  /** Instruction indices [start, end). Empty blocks (a label at the end) have start === end. */
  readonly start: number;
  readonly end: number;
  readonly succs: number[];
  readonly preds: number[];
  /** Reachable from the entry block. */
  reachable: boolean;
}

export type EdgeKind = 'fallthrough' | 'branch' | 'exit';

export interface Cfg {
  readonly fn: FunctionModel;
  readonly blocks: readonly BasicBlock[];
  /** Virtual exit node id (== blocks.length); `ret`, `exit` and `trap` lead here. */
  readonly exit: number;
  /** Instruction index → block id. */
  readonly blockOf: Int32Array;
  /** Edge kind by `from*(exit+1)+to` key, for dot output and readers. */
  edgeKind(from: number, to: number): EdgeKind;
  /** Branch targets that resolve to no label (reported by F005, not guessed). */
  readonly unresolvedTargets: readonly FlatInstruction[];
}

const TERMINATES = new Set(['ret', 'exit', 'trap']);

/** `brx.idx`'s `.branchtargets` label list, or the targets of a direct `bra`. */
function branchTargets(fn: FunctionModel, ins: FlatInstruction): LabelSymbol[] | undefined {
  const op = ins.node.opcode;
  if (op === 'bra') {
    const t = ins.node.operands[0];
    const sym = t?.kind === 'Name' ? fn.resolve(t) : undefined;
    return sym?.kind === 'label' ? [sym] : undefined;
  }
  if (op === 'brx') {
    const t = ins.node.operands[1];
    const sym = t?.kind === 'Name' ? fn.resolve(t) : undefined;
    if (sym?.kind !== 'label' || sym.directive?.kind !== 'BranchTargets') return undefined;
    const out: LabelSymbol[] = [];
    for (const name of sym.directive.names) {
      const target = fn.labels.find((l) => l.name === name);
      if (target === undefined) return undefined;
      out.push(target);
    }
    return out;
  }
  return undefined;
}

/** The callee a `call` names directly, if any: `call (r), f, (a);` / `call f;`. */
export function directCallee(fn: FunctionModel, ins: A.Instruction): string | undefined {
  for (const o of ins.operands) {
    if (o.kind === 'List') continue;
    if (o.kind === 'Name') {
      const sym = fn.resolve(o);
      return sym?.kind === 'function' ? sym.name : undefined;
    }
    return undefined;
  }
  return undefined;
}

function isNoreturnCall(fn: FunctionModel, model: ModuleModel | undefined, ins: A.Instruction): boolean {
  if (ins.opcode !== 'call' || model === undefined) return false;
  const callee = directCallee(fn, ins);
  const decl = callee === undefined ? undefined : model.functionsByName.get(callee)?.decl;
  return decl?.directives.some((d) => d.name === '.noreturn') ?? false;
}

/** Builds the CFG of one function. */
export function buildCfg(fn: FunctionModel, model?: ModuleModel): Cfg {
  const n = fn.instructions.length;
  const leader = new Uint8Array(n + 1);
  leader[0] = 1;
  // Labels of `.branchtargets`/`.calltargets`/`.callprototype` name tables, not code.
  const codeLabels = fn.labels.filter((l) => l.directive === undefined);
  for (const l of codeLabels) leader[l.target] = 1;
  for (const ins of fn.instructions) {
    const op = ins.node.opcode;
    if (op === 'bra' || op === 'brx' || TERMINATES.has(op) || isNoreturnCall(fn, model, ins.node)) leader[ins.index + 1] = 1;
  }
  // A label at the very end starts an (empty) block only when something names it.
  const endLabels = codeLabels.filter((l) => l.target === n);
  const starts: number[] = [];
  for (let i = 0; i < n; i++) if (leader[i] === 1) starts.push(i);
  if (n === 0 || endLabels.length > 0) starts.push(n);

  const blockOf = new Int32Array(n);
  const labelsAt = new Map<number, string[]>();
  for (const l of codeLabels) {
    const list = labelsAt.get(l.target);
    if (list === undefined) labelsAt.set(l.target, [l.name]);
    else list.push(l.name);
  }
  const blocks: { -readonly [K in keyof BasicBlock]: BasicBlock[K] }[] = starts.map((start, id) => {
    const end = id + 1 < starts.length ? starts[id + 1]! : n;
    for (let i = start; i < end; i++) blockOf[i] = id;
    const labels = labelsAt.get(start) ?? [];
    return { id, labels, start, end, succs: [], preds: [], reachable: false };
  });
  const exit = blocks.length;
  const kinds = new Map<number, EdgeKind>();
  const key = (a: number, b: number): number => a * (exit + 1) + b;
  const addEdge = (from: number, to: number, kind: EdgeKind): void => {
    const b = blocks[from]!;
    if (!b.succs.includes(to)) {
      b.succs.push(to);
      if (to !== exit) blocks[to]!.preds.push(from);
      kinds.set(key(from, to), kind);
    }
  };
  const blockAt = (index: number): number => (index >= n ? blocks.length - 1 : blockOf[index]!);
  const unresolvedTargets: FlatInstruction[] = [];

  for (const b of blocks) {
    if (b.start === b.end) {
      // Empty block at the end of the body: falls off the function.
      addEdge(b.id, exit, 'exit');
      continue;
    }
    const last = fn.instructions[b.end - 1]!;
    const op = last.node.opcode;
    const guarded = last.node.guard !== undefined;
    const fallsThrough = (): void => {
      if (b.end < n || endLabels.length > 0) addEdge(b.id, blockAt(b.end), 'fallthrough');
      else addEdge(b.id, exit, 'exit'); // falls off the end (F061 judges it)
    };
    if (op === 'bra' || op === 'brx') {
      const targets = branchTargets(fn, last);
      if (targets === undefined) unresolvedTargets.push(last);
      for (const t of targets ?? []) addEdge(b.id, blockAt(t.target), 'branch');
      if (guarded || targets === undefined) fallsThrough();
    } else if (TERMINATES.has(op) || isNoreturnCall(fn, model, last.node)) {
      addEdge(b.id, exit, 'exit');
      if (guarded) fallsThrough();
    } else {
      fallsThrough();
    }
  }

  // Edge lists of their exact size: grown by `push` from empty, each held room for 17 entries, and a part
  // keeps every function's graph.
  for (const b of blocks) {
    b.succs = b.succs.slice();
    b.preds = b.preds.slice();
  }

  // Reachability from the entry.
  const stack = blocks.length > 0 ? [0] : [];
  while (stack.length > 0) {
    const id = stack.pop()!;
    const b = blocks[id]!;
    if (b.reachable) continue;
    b.reachable = true;
    for (const s of b.succs) if (s !== exit && !blocks[s]!.reachable) stack.push(s);
  }
  return {
    fn, blocks, exit, blockOf, unresolvedTargets,
    edgeKind: (from, to) => kinds.get(key(from, to)) ?? 'fallthrough',
  };
}

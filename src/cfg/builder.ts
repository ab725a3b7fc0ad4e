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

/** A block's successors while they are found (one list for every block). */
const SUCCS: number[] = [];

/** No labels: the list of a block that none starts (most blocks; one shared list, not one each). */
const NO_LABELS: readonly string[] = [];

/** Builds the CFG of one function. */
export function buildCfg(fn: FunctionModel, model?: ModuleModel): Cfg {
  const instructions = fn.instructions;
  const n = instructions.length;
  const leader = new Uint8Array(n + 1);
  leader[0] = 1;
  // Labels of `.branchtargets`/`.calltargets`/`.callprototype` name tables, not code.
  const codeLabels = fn.labels.filter((l) => l.directive === undefined);
  for (const l of codeLabels) leader[l.target] = 1;
  for (let i = 0; i < n; i++) {
    const node = instructions[i]!.node;
    const op = node.opcode;
    if (op === 'bra' || op === 'brx' || TERMINATES.has(op) || (op === 'call' && isNoreturnCall(fn, model, node))) leader[i + 1] = 1;
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
  const B = starts.length;
  const exit = B;
  // Each block's successors (at most one branch's targets and a fall-through) and the edges' kinds, found
  // first and counted, so that every edge list is made once at its size (lists grown by `push` from empty
  // each held room for 17 entries, and a part keeps every function's graph).
  const succOf: number[][] = new Array<number[]>(B);
  const predCount = new Int32Array(B);
  const exitFrom = new Uint8Array(B);
  // Edges taken by a branch, by `from*(exit+1)+to` key; an edge to the exit is an exit edge, any other a
  // fall-through.
  const branches = new Set<number>();
  const key = (a: number, b: number): number => a * (exit + 1) + b;
  const blockAt = (index: number): number => (index >= n ? B - 1 : blockOf[index]!);
  const unresolvedTargets: FlatInstruction[] = [];
  for (let id = 0; id < B; id++) {
    const end = id + 1 < B ? starts[id + 1]! : n;
    blockOf.fill(id, starts[id]!, end);
  }
  for (let id = 0; id < B; id++) {
    const start = starts[id]!;
    const end = id + 1 < B ? starts[id + 1]! : n;
    // (Collected in a scratch list, then copied at their count.)
    const succs = SUCCS;
    succs.length = 0;
    const addEdge = (to: number, branch: boolean): void => {
      if (succs.includes(to)) return;
      succs.push(to);
      if (to === exit) exitFrom[id] = 1;
      else {
        predCount[to]!++;
        if (branch) branches.add(key(id, to));
      }
    };
    if (start === end) {
      // Empty block at the end of the body: falls off the function.
      addEdge(exit, false);
      succOf[id] = succs.slice();
      continue;
    }
    const last = instructions[end - 1]!;
    const op = last.node.opcode;
    const guarded = last.node.guard !== undefined;
    // Falls through to the next block, or off the end (F061 judges it).
    const fallsThrough = (): void => addEdge(end < n || endLabels.length > 0 ? blockAt(end) : exit, false);
    if (op === 'bra' || op === 'brx') {
      const targets = branchTargets(fn, last);
      if (targets === undefined) unresolvedTargets.push(last);
      for (const t of targets ?? []) addEdge(blockAt(t.target), true);
      if (guarded || targets === undefined) fallsThrough();
    } else if (TERMINATES.has(op) || (op === 'call' && isNoreturnCall(fn, model, last.node))) {
      addEdge(exit, false);
      if (guarded) fallsThrough();
    } else {
      fallsThrough();
    }
    succOf[id] = succs.slice();
  }
  const preds: number[][] = new Array<number[]>(B);
  for (let id = 0; id < B; id++) preds[id] = new Array<number>(predCount[id]!);
  const fill = predCount.fill(0);
  const blocks = new Array<{ -readonly [K in keyof BasicBlock]: BasicBlock[K] }>(B);
  for (let id = 0; id < B; id++) {
    const succs = succOf[id]!;
    // (In order of the edges added, as the edges' `push` made them.)
    for (const to of succs) if (to !== exit) preds[to]![fill[to]!++] = id;
    const start = starts[id]!;
    blocks[id] = { id, labels: labelsAt.get(start) ?? NO_LABELS, start, end: id + 1 < B ? starts[id + 1]! : n, succs, preds: preds[id]!, reachable: false };
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
    edgeKind: (from, to) => (to === exit ? (exitFrom[from] === 1 ? 'exit' : 'fallthrough') : branches.has(key(from, to)) ? 'branch' : 'fallthrough'),
  };
}

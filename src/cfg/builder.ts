// Control-flow graphs: basic blocks split at labels and after branches, `ret`,
// `exit`, `trap` and calls to `.noreturn` functions; edges for `bra` (both
// when guarded), `brx.idx` through its `.branchtargets`, fall-through, and a
// virtual exit that every `ret`/`exit`/`trap` reaches.
import type * as A from '../parser/ast.js';
import { OP_BRA, OP_BRX, OP_CALL, OP_EXIT, OP_RET, OP_TRAP } from './opcodes.js';
import { int32Scratch, uint8Scratch } from './scratch.js';
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

/** `brx.idx`'s `.branchtargets` label list (undefined when a name in it resolves to no label). */
function brxTargets(fn: FunctionModel, ins: FlatInstruction): LabelSymbol[] | undefined {
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

/** The label a direct `bra` names, if it resolves to one. */
function braTarget(fn: FunctionModel, ins: FlatInstruction): LabelSymbol | undefined {
  const t = ins.node.operands[0];
  const sym = t?.kind === 'Name' ? fn.resolve(t) : undefined;
  return sym?.kind === 'label' ? sym : undefined;
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

/** How an instruction ends its block, by the edges it adds: none of its own (falls through), a branch's
 *  (`bra`, `brx`), or one to the exit (`ret`, `exit`, `trap`, a call to a `.noreturn` function). */
const FALLS = 0;
const BRANCH = 1;
const TERMINATES = 2;

/** Scratch kept from function to function (src/cfg/scratch.ts; nothing of it is kept by a graph): each
 *  instruction's way of ending its block and whether it starts one (LEADER), the blocks' first instructions,
 *  the reachability search's stack, and each block's predecessors counted (then the next free slot of its
 *  list). For `n` instructions: at most `n + 1` blocks, and STARTS one past them. */
const ENDS = uint8Scratch();
const LEADER = uint8Scratch();
const STARTS = int32Scratch();
const STACK = int32Scratch();
const PRED_COUNT = int32Scratch();

/** How instruction i ends its block, from its opcode's number (its node read only for a call). */
function endOf(fn: FunctionModel, model: ModuleModel | undefined, op: number, i: number): number {
  if (op === OP_BRA || op === OP_BRX) return BRANCH;
  if (op === OP_RET || op === OP_EXIT || op === OP_TRAP || (op === OP_CALL && isNoreturnCall(fn, model, fn.instructions[i]!.node))) return TERMINATES;
  return FALLS;
}

/** A block's successors while they are found: the first `succCount` items of one list for every block.
 *  (Its length is never set back to 0: that drops the list's storage, and the next push made room for 17
 *  again, 152 bytes per block.) */
const SUCCS: number[] = [];
let succCount = 0;

/** `to` added to SUCCS unless already there (a `brx` may name one label twice, a branch may go where the
 *  block falls through). */
function addSucc(to: number): void {
  for (let k = 0; k < succCount; k++) if (SUCCS[k] === to) return;
  SUCCS[succCount++] = to;
}

/** No labels: the list of a block that none starts (most blocks; one shared list, not one each). */
const NO_LABELS: readonly string[] = [];

/** A block's predecessors until their list is made (never kept). */
const NO_PREDS: number[] = [];

type MutableBlock = { -readonly [K in keyof BasicBlock]: BasicBlock[K] };

/** Builds the CFG of one function. */
export function buildCfg(fn: FunctionModel, model?: ModuleModel): Cfg {
  const instructions = fn.instructions;
  const n = instructions.length;
  const ends = ENDS.get(n);
  const leader = LEADER.get(n + 1).fill(0, 0, n + 1);
  leader[0] = 1;
  // Labels of `.branchtargets`/`.calltargets`/`.callprototype` name tables, not code.
  const labels = fn.labels;
  // A label at the very end starts an (empty) block only when something names it.
  let endLabels = false;
  for (let k = 0; k < labels.length; k++) {
    const l = labels[k]!;
    if (l.directive !== undefined) continue;
    leader[l.target] = 1;
    if (l.target === n) endLabels = true;
  }
  const { opcode: opcodes, guarded: guardedAt } = fn.effectTable;
  for (let i = 0; i < n; i++) {
    const end = endOf(fn, model, opcodes[i]!, i);
    ends[i] = end;
    if (end !== FALLS) leader[i + 1] = 1;
  }
  const starts = STARTS.get(n + 2);
  const blockOf = new Int32Array(n);
  let B = 0;
  for (let i = 0; i < n; i++) {
    if (leader[i] === 1) starts[B++] = i;
    blockOf[i] = B - 1;
  }
  if (n === 0 || endLabels) starts[B++] = n;
  starts[B] = n;
  const exit = B;
  const blockAt = (index: number): number => (index >= n ? B - 1 : blockOf[index]!);
  // Each block's successors (at most one branch's targets and a fall-through), found first and counted, so
  // that every edge list is made once at its size (lists grown by `push` from empty each held room for 17
  // entries, and a part keeps every function's graph). A block's first `branchEnd[id]` successors are its
  // branch's targets; an edge to the exit is an exit edge, any other a fall-through.
  const blocks = new Array<MutableBlock>(B);
  const predCount = PRED_COUNT.get(B).fill(0, 0, B);
  const branchEnd = new Int32Array(B);
  const unresolvedTargets: FlatInstruction[] = [];
  for (let id = 0; id < B; id++) {
    const start = starts[id]!;
    const end = starts[id + 1]!;
    succCount = 0;
    if (start === end) {
      // Empty block at the end of the body: falls off the function.
      addSucc(exit);
    } else {
      const last = instructions[end - 1]!;
      const kind = ends[end - 1]!;
      const guarded = guardedAt[end - 1] !== 0;
      let fallsThrough = true;
      if (kind === BRANCH) {
        if (opcodes[end - 1] === OP_BRA) {
          const target = braTarget(fn, last);
          if (target === undefined) unresolvedTargets.push(last);
          else {
            addSucc(blockAt(target.target));
            fallsThrough = guarded;
          }
        } else {
          const targets = brxTargets(fn, last);
          if (targets === undefined) unresolvedTargets.push(last);
          else {
            for (let k = 0; k < targets.length; k++) addSucc(blockAt(targets[k]!.target));
            fallsThrough = guarded;
          }
        }
        branchEnd[id] = succCount;
      } else if (kind === TERMINATES) {
        addSucc(exit);
        fallsThrough = guarded;
      }
      // Falls through to the next block, or off the end (F061 judges it).
      if (fallsThrough) addSucc(end < n || endLabels ? blockAt(end) : exit);
    }
    for (let k = 0; k < succCount; k++) if (SUCCS[k] !== exit) predCount[SUCCS[k]!]!++;
    // (Successors copied at their count; predecessors' lists made once all are counted.)
    blocks[id] = { id, labels: NO_LABELS, start, end, succs: SUCCS.slice(0, succCount), preds: NO_PREDS, reachable: false };
  }
  for (let id = 0; id < B; id++) blocks[id]!.preds = new Array<number>(predCount[id]!);
  // Predecessors in order of the edges added, as the edges' `push` made them.
  const fill = predCount.fill(0, 0, B);
  for (let id = 0; id < B; id++) {
    const succs = blocks[id]!.succs;
    for (let k = 0; k < succs.length; k++) {
      const to = succs[k]!;
      if (to !== exit) blocks[to]!.preds[fill[to]!++] = id;
    }
  }
  // Each code label on the block it starts, in the function's order.
  for (let k = 0; k < labels.length; k++) {
    const l = labels[k]!;
    if (l.directive !== undefined) continue;
    const b = blocks[blockAt(l.target)]!;
    if (b.labels === NO_LABELS) b.labels = [l.name];
    else (b.labels as string[]).push(l.name);
  }
  markReachable(blocks, exit);
  return {
    fn, blocks, exit, blockOf, unresolvedTargets,
    edgeKind: (from, to) => {
      const succs = from >= 0 && from < B ? blocks[from]!.succs : undefined;
      const k = succs === undefined ? -1 : succs.indexOf(to);
      if (k === -1) return 'fallthrough';
      return to === exit ? 'exit' : k < branchEnd[from]! ? 'branch' : 'fallthrough';
    },
  };
}

/** Reachability from the entry block: a search over the scratch stack, each block marked when pushed (so
 *  pushed once: the stack never holds more than the blocks). */
function markReachable(blocks: MutableBlock[], exit: number): void {
  if (blocks.length === 0) return;
  const stack = STACK.get(blocks.length);
  let top = 0;
  stack[top++] = 0;
  blocks[0]!.reachable = true;
  while (top > 0) {
    const succs = blocks[stack[--top]!]!.succs;
    for (let k = 0; k < succs.length; k++) {
      const s = succs[k]!;
      if (s === exit) continue;
      const b = blocks[s]!;
      if (!b.reachable) {
        b.reachable = true;
        stack[top++] = s;
      }
    }
  }
}

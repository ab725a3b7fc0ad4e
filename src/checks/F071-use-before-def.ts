// F071: a register is read on some path before any definition.
import type * as A from '../parser/ast.js';
import type { FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { ENTRY, reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { at, registersIn, stepAt } from './flow.js';
import { FUNCTION_SEARCH_BUDGET, undefinedReadFeasible } from './undefined-paths.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** Per register id of a function: 1 when it appears only as elements of braced vector operands (never
 *  elsewhere, nor as a guard), 0 otherwise. One walk for all registers (a walk per register took a tenth
 *  of F071 on large kernels). */
function vectorPadding(fn: FunctionModel): Uint8Array {
  const inVector = new Uint8Array(fn.registers.length);
  const elsewhere = new Uint8Array(fn.registers.length);
  const visit = (e: A.Expression, vector: boolean): void => {
    switch (e.kind) {
      case 'Name': {
        const s = fn.resolve(e);
        if (s?.kind === 'register') (vector ? inVector : elsewhere)[s.id] = 1;
        return;
      }
      case 'Vector': for (const x of e.elements) visit(x, true); return;
      case 'Address': case 'List': for (const x of e.elements) visit(x, false); return;
      case 'Unary': case 'Cast': visit(e.arg, false); return;
      case 'Binary': visit(e.left, false); visit(e.right, false); return;
      case 'PredPair': visit(e.first, false); visit(e.second, false); return;
      default: return;
    }
  };
  for (const ins of fn.instructions) {
    for (const o of ins.node.operands) visit(o, false);
    if (ins.node.guard !== undefined) {
      const g = fn.resolveGuard(ins.node.guard);
      if (g?.kind === 'register') elsewhere[g.id] = 1;
    }
  }
  for (let r = 0; r < inVector.length; r++) if (elsewhere[r] === 1) inVector[r] = 0;
  return inVector;
}

/**
 * Whether the read of a register at `use` is covered by a definition guarded
 * by the same predicate: the use has that guard too, or its block is only
 * entered through the side of a branch on that predicate where the guard holds.
 */
function guardCovers(ctx: CheckContext, fn: FunctionModel, use: number, defs: readonly number[]): boolean {
  const guards = defs.map((d) => fn.instructions[d]!.node.guard).filter((g) => g !== undefined);
  if (guards.length === 0) return false;
  const useNode = fn.instructions[use]!.node;
  if (useNode.guard !== undefined && guards.some((g) => g.predicate === useNode.guard!.predicate && g.negated === useNode.guard!.negated)) return true;
  const cfg = ctx.analysis.cfg(fn);
  const dom = ctx.analysis.dominators(fn);
  const ub = cfg.blockOf[use]!;
  // Walk the dominators of the use's block: a branch on the predicate whose
  // one side (a block entered only from the branch) dominates the use.
  for (let b = ub; b !== -1 && b !== dom.root; b = dom.idom[b]!) {
    const blk = cfg.blocks[b]!;
    if (blk.preds.length !== 1) continue;
    const d = cfg.blocks[blk.preds[0]!]!;
    if (d.end === d.start) continue;
    const br = fn.instructions[d.end - 1]!.node;
    if (br.opcode !== 'bra' || br.guard === undefined || d.succs.length !== 2) continue;
    const taken = cfg.edgeKind(d.id, b) === 'branch';
    // On this side the predicate's value is: taken ⇔ (P xor negated).
    const pTrue = taken ? !br.guard.negated : br.guard.negated;
    if (guards.some((g) => g.predicate === br.guard!.predicate && (g.negated ? !pTrue : pTrue))) return true;
  }
  return false;
}

/** Register operations an undefined value may pass through without being observed. */
const PURE = new Set([
  'add', 'sub', 'mul', 'mad', 'fma', 'min', 'max', 'and', 'or', 'xor', 'not', 'neg', 'abs', 'mov', 'cvt', 'shl', 'shr', 'selp',
  'div', 'rem', 'sqrt', 'rsqrt', 'rcp', 'ex2', 'lg2', 'sin', 'cos', 'tanh', 'copysign', 'prmt', 'bfe', 'bfi', 'popc', 'clz', 'brev',
  'setp', 'set', 'slct', 'shf', 'lop3', 'shfl', 'testp', 'cnot', 'fns', 'dp4a', 'dp2a',
]);

/** Whether a guard `@[!]q` implies `@[!]p`: the same predicate, or `q = and.pred a, b` with a or b implying it. */
function implies(ctx: CheckContext, fn: FunctionModel, ins: number, q: RegisterSymbol, qNeg: boolean, p: string, pNeg: boolean, depth = 4): boolean {
  if (q.name === p && qNeg === pNeg) return true;
  if (qNeg || depth === 0) return false;
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const defs = rd.reaching(ins, q);
  if (defs.length !== 1 || defs[0] === ENTRY) return false;
  const node = fn.instructions[defs[0]!]!.node;
  if (node.opcode !== 'and' || !node.modifiers.includes('.pred') || node.guard !== undefined) return false;
  return node.operands.slice(1).some((o) => {
    if (o.kind !== 'Name') return false;
    const r = fn.resolve(o);
    return r?.kind === 'register' && implies(ctx, fn, defs[0]!, r, false, p, pNeg, depth - 1);
  });
}

/**
 * Whether the value of a read that is undefined only when the guard `g` of
 * its definitions is false never reaches anything observable: followed
 * forward through pure register operations, every use is guarded by a
 * predicate that implies `g` (or there is none).
 */
function containedByGuard(ctx: CheckContext, fn: FunctionModel, use: number, reg: number, g: A.Guard | undefined, exchange = false): boolean {
  const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
  const t = rd.table;
  const work: [number, number][] = [[use, reg]];
  const seen = new Set<string>();
  while (work.length > 0) {
    const [i, r] = work.pop()!;
    if (seen.has(`${i}:${r}`)) continue;
    seen.add(`${i}:${r}`);
    if (seen.size > 256) return false;
    const node = fn.instructions[i]!.node;
    if (node.guard !== undefined && g !== undefined) {
      const q = fn.resolveGuard(node.guard);
      if (q?.kind === 'register' && implies(ctx, fn, i, q, node.guard.negated, g.predicate, g.negated)) continue;
    }
    if (exchange && isSharedStoreOf(fn, node, fn.registers[r]!)) continue;
    if (!PURE.has(node.opcode) || node.operands.some((o) => o.kind === 'Address')) return false;
    for (let s = t.defStart[i]!; s < t.defStart[i + 1]!; s++) {
      for (const u of rd.usesOf(i, t.defReg[s]!)) work.push([u, t.defReg[s]!]);
    }
  }
  return true;
}

/** Whether `node` is an unguarded `st.shared` that stores `reg` as data (not in its address). */
function isSharedStoreOf(fn: FunctionModel, node: A.Instruction, reg: RegisterSymbol): boolean {
  if (node.opcode !== 'st' || !node.modifiers.includes('.shared') || node.operands.length !== 2) return false;
  return !registersIn(fn, node.operands[0]!).includes(reg);
}

export const F071: Check = {
  meta: {
    id: 'F071',
    name: 'use-before-def',
    category: 'data-flow',
    severity: 'high',
    points: 3,
    description: 'A register is read on some path from the function entry on which nothing has written it.',
    rationale: 'An unwritten register holds whatever the hardware register last held: results then depend on scheduling and register '
      + 'allocation, and differ between runs, targets and ptxas versions. It usually means a missing initialization (an accumulator '
      + 'never zeroed), a value defined on one branch only, or a typo in a register name.',
    remedy: 'Initialize the register on every path before it is read (e.g. `mov.f32 %f1, 0f00000000;` before the loop), or define it on '
      + 'the branch that lacks it.',
    notes: 'Judged with reaching definitions (a guarded `@p` write, or a write of one vector component, does not kill the older value): a '
      + 'read fails when the "undefined on entry" value of its register reaches it. `.func` register parameters are defined on entry. '
      + 'Exceptions from the catalog, made precise: (1) a read covered by a definition guarded by the same predicate: the read has the '
      + 'same guard (`@p mov %r, ..` then `@p add .., %r`), or its block is entered only through the side of a `@p bra` on which that '
      + 'guard holds; (2) a read whose reaching definitions are all guarded by one predicate `@p` (so the value is undefined only in threads where `p` '
      + 'is false) and whose value, followed forward through register operations (`shfl` included), only reaches instructions '
      + 'guarded by a predicate implying `p` (`p` itself, or `and.pred q, p, x`), or nothing: the undefined lanes never reach '
      + 'memory, a branch or a call (Triton\'s `@p ld.shared` → `shfl.bfly` → `@p_and_q st.shared` reductions); (3) a register that is never written anywhere and only appears as an element of braced vector operands (LLVM\'s '
      + 'undef lanes, e.g. `st.v4.u32 [a], {%r1, %r2, %r3, %r4}` with `%r4` never set) is ignored; (4) a value that '
      + 'is never observed is not a read: followed forward through register operations it reaches nothing (a shuffled struct padding '
      + 'word), or, when the register is written on other paths, only the data operand of `st.shared` (a partial tile exchanged '
      + 'through shared memory, as CUB\'s BlockLoad does with the items past the end); (5) the undefined path must be feasible: a '
      + 'path search from the entry learns from each branch and guard which comparisons hold, so a register written when '
      + '`%r < n` is false is defined after a later `setp` of the same comparison on the same values (another predicate register, '
      + 'an operand copied by `mov`, `lt` as the negation of `ge`), and writes under `@p` and `@!p` together cover (facts are '
      + 'forgotten when an operand is rewritten; a search past its budget reports). Reads in unreachable code are '
      + 'not judged. One finding per register, at its first such read, with the definitions that reach it on other paths as the chain.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .f32 %f<3>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [out];\n\tadd.f32 %f2, %f1, 0f3F800000;\n\tst.global.f32 [%rd1], %f2;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out)\n{\n\t.reg .f32 %f<3>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [out];\n\tmov.f32 %f1, 0f00000000;\n\tadd.f32 %f2, %f1, 0f3F800000;\n\tst.global.f32 [%rd1], %f2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
      const cfg = ctx.analysis.cfg(fn);
      const t = rd.table;
      const reported = new Set<number>();
      let padding: Uint8Array | undefined;
      const budget = { left: FUNCTION_SEARCH_BUDGET };
      for (const b of cfg.blocks) {
        if (!b.reachable) continue;
        for (let i = b.start; i < b.end; i++) {
          for (let s = t.useStart[i]!; s < t.useStart[i + 1]!; s++) {
            const r = t.useReg[s]!;
            if (reported.has(r)) continue;
            const reg = fn.registers[r]!;
            if (reg.isParam) continue;
            const entry = rd.regBase[r]!;
            // (The definitions listed only for a read the entry value reaches: this runs for every read.)
            let undefinedReaches = false;
            for (let k = rd.rdStart[s]!; k < rd.rdStart[s + 1]! && !undefinedReaches; k++) undefinedReaches = rd.rdDef[k]! === entry;
            if (!undefinedReaches) continue;
            const defs: number[] = [];
            for (let k = rd.rdStart[s]!; k < rd.rdStart[s + 1]!; k++) {
              const d = rd.rdDef[k]!;
              if (d !== entry) defs.push(rd.defIns[d]!);
            }
            if (defs.length === 0 && rd.regBase[r + 1]! - entry === 1) {
              padding ??= vectorPadding(fn);
              if (padding[reg.id] === 1) continue;
            }
            if (defs.length > 0 && guardCovers(ctx, fn, i, defs)) continue;
            const g0 = defs.length > 0 ? fn.instructions[defs[0]!]!.node.guard : undefined;
            if (g0 !== undefined && defs.every((d) => {
              const g = fn.instructions[d]!.node.guard;
              return g !== undefined && g.predicate === g0.predicate && g.negated === g0.negated;
            }) && containedByGuard(ctx, fn, i, r, g0)) continue;
            if (containedByGuard(ctx, fn, i, r, undefined, defs.length > 0) || !undefinedReadFeasible(ctx, fn, i, r, budget)) continue;
            reported.add(r);
            const never = rd.regBase[r + 1]! - entry === 1;
            out.push({
              message: never
                ? `${reg.name} is read but never written in ${fn.name}`
                : `${reg.name} may be read before it is written: on some path from the entry of ${fn.name} no definition reaches this read`,
              ...at(ctx, fn, i),
              chain: [...defs.filter((d) => d !== ENTRY).map((d) => stepAt(ctx, fn, d, `${reg.name} written here on other paths`)), stepAt(ctx, fn, i, `${reg.name} read`)],
            });
          }
        }
      }
    }
    return found(out);
  },
};

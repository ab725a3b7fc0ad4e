// Def-use walks the memory-ordering checks (F044–F046) share: whether a
// register's value at an instruction derives from some instruction (a load of
// the same address, a load in a loop), or whether an instruction's result
// flows into a branch decision. Both follow register data flow through
// arithmetic, conversion and selection only (a store and reload is not
// followed), with a depth bound.
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel, RegisterSymbol } from '../cfg/symbols.js';
import { effects } from '../cfg/dataflow/effects.js';
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';

/** Opcodes whose result is a function of their register operands (followed by the walks). */
export const VALUE_OPS: ReadonlySet<string> = new Set([
  'add', 'sub', 'mul', 'mad', 'fma', 'mul24', 'mad24', 'min', 'max', 'abs', 'neg', 'and', 'or', 'xor', 'not', 'cnot',
  'shl', 'shr', 'shf', 'cvt', 'mov', 'selp', 'slct', 'bfe', 'bfi', 'prmt', 'rem', 'div', 'rcp', 'sqrt', 'rsqrt', 'ex2', 'lg2',
  'sin', 'cos', 'tanh', 'copysign', 'lop3', 'popc', 'clz', 'brev', 'bfind', 'setp', 'set', 'testp', 'addc', 'subc', 'madc', 'dp4a', 'dp2a',
]);

/** The first instruction satisfying `pred` among the definitions `reg`'s value at `at` derives from
 *  (through VALUE_OPS), or undefined. */
export function derivesFrom(ctx: AnalysisContext, fn: FunctionModel, at: number, reg: RegisterSymbol, pred: (i: number) => boolean, depth = 12): number | undefined {
  const rd = ctx.get(fn, reachingDefinitionsAnalysis);
  const seen = new Set<number>();
  const stack: [number, RegisterSymbol, number][] = [[at, reg, 0]];
  while (stack.length > 0) {
    const [i, r, d] = stack.pop()!;
    for (const def of rd.reaching(i, r)) {
      if (def < 0 || seen.has(def)) continue;
      seen.add(def);
      if (pred(def)) return def;
      const ins = fn.instructions[def]!;
      if (d >= depth || !VALUE_OPS.has(ins.node.opcode)) continue;
      const e = effects(fn, ins);
      for (const u of e.uses) stack.push([def, u, d + 1]);
    }
  }
  return undefined;
}

/** Whether the value `at` writes into `reg` reaches, through VALUE_OPS, an instruction satisfying `pred`
 *  (reported with the register it reads there). */
export function flowsTo(ctx: AnalysisContext, fn: FunctionModel, at: number, reg: RegisterSymbol, pred: (i: number, r: RegisterSymbol) => boolean, depth = 12): number | undefined {
  const rd = ctx.get(fn, reachingDefinitionsAnalysis);
  const seen = new Set<string>();
  const stack: [number, RegisterSymbol, number][] = [[at, reg, 0]];
  while (stack.length > 0) {
    const [i, r, d] = stack.pop()!;
    for (const u of rd.usesOf(i, r)) {
      const key = `${u}:${r.id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (pred(u, r)) return u;
      const ins = fn.instructions[u]!;
      if (d >= depth || !VALUE_OPS.has(ins.node.opcode)) continue;
      for (const w of effects(fn, ins).defs) stack.push([u, w, d + 1]);
    }
  }
  return undefined;
}

// The call graph: which function calls which, directly or through
// `.calltargets`, and which functions take part in recursion.
import type { ModuleModel } from './symbols.js';
import { directCallee } from './builder.js';

export interface CallSite {
  readonly caller: string;
  readonly instruction: number;
  /** Resolved callees: one for a direct call, the `.calltargets` list for an indirect one. */
  readonly callees: readonly string[];
  readonly indirect: boolean;
}

export interface CallGraph {
  readonly sites: readonly CallSite[];
  readonly callees: ReadonlyMap<string, readonly string[]>;
  /** Functions on a cycle of the call graph. */
  readonly recursive: ReadonlySet<string>;
}

export function buildCallGraph(model: ModuleModel): CallGraph {
  const sites: CallSite[] = [];
  const callees = new Map<string, string[]>();
  for (const fn of model.functions) {
    const out = new Set<string>();
    for (const ins of fn.instructions) {
      if (ins.node.opcode !== 'call') continue;
      const direct = directCallee(fn, ins.node);
      let targets: string[] = [];
      let indirect = false;
      if (direct !== undefined) targets = [direct];
      else {
        indirect = true;
        const last = ins.node.operands[ins.node.operands.length - 1];
        const sym = last?.kind === 'Name' ? fn.resolve(last) : undefined;
        if (sym?.kind === 'label' && sym.directive?.kind === 'CallTargets') targets = [...sym.directive.names];
      }
      for (const t of targets) out.add(t);
      sites.push({ caller: fn.name, instruction: ins.index, callees: targets, indirect });
    }
    callees.set(fn.name, [...out]);
  }
  // Tarjan's strongly connected components for recursion.
  const recursive = new Set<string>();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  let counter = 0;
  const strong = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of callees.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (callees.get(v) ?? []).includes(v)) for (const c of comp) recursive.add(c);
    }
  };
  for (const f of callees.keys()) if (!index.has(f)) strong(f);
  return { sites, callees, recursive };
}

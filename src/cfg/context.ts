// The analysis context checks use: the semantic model, and per function the
// CFG, dominators, loops and every dataflow analysis, each computed on first
// request and cached. Facts map back to source through `locate`.
import type * as A from '../parser/ast.js';
import { buildCfg, type Cfg } from './builder.js';
import { buildCallGraph, type CallGraph } from './callgraph.js';
import { controlDependence, dominators, postDominators, type DomTree } from './dominators.js';
import { findLoops, type LoopForest } from './loops.js';
import { buildModuleModel, type FlatInstruction, type FunctionModel, type ModuleModel } from './symbols.js';
import { forgetEffects } from './dataflow/effects.js';
import { affineAnalysis, type AffineFacts } from './dataflow/affine.js';
import { livenessAnalysis, type Liveness } from './dataflow/liveness.js';
import { provenanceAnalysis, type ProvenanceFacts } from './dataflow/provenance.js';
import { rangeAnalysis, type RangeFacts } from './dataflow/ranges.js';
import { reachingDefinitionsAnalysis, type ReachingDefinitions } from './dataflow/reaching-definitions.js';
import { taintAnalysis, type TaintFacts } from './dataflow/taint.js';
import { uniformityAnalysis, type Uniformity } from './dataflow/uniformity.js';

/** An analysis computed once per function and cached by the context. */
export interface FunctionAnalysis<T> {
  readonly name: string;
  compute(ctx: AnalysisContext, fn: FunctionModel): T;
  /** Where a function's facts keep this analysis's (`AnalysisContext.get` numbers each analysis, a
   *  module-level constant, at its first request). */
  slot?: number;
}

/** Slots given so far (`FunctionAnalysis.slot`). */
let slots = 0;
/** A function's facts: each analysis's value at its slot; NONE for a value that is undefined. */
type Facts = unknown[];
const NONE = Symbol('undefined');

export interface AnalysisOptions {
  /** Block size from `--block` or the config, used when a kernel has no `.reqntid`/`.maxntid`. */
  readonly block?: readonly [number, number, number];
}

/** Where a fact lives: the PTX position and, through `.loc`, the source position. */
export interface FactLocation {
  readonly line: number;
  readonly column: number;
  readonly source?: { readonly file: string; readonly line: number; readonly column: number };
}

/** A cached analysis failure (a work budget exceeded, or a bug): rethrown on every request. */
class Failed {
  constructor(readonly error: unknown) {}
}

const CALL_GRAPHS = new WeakMap<ModuleModel, CallGraph>();
const FUNCTIONS_BY_NAME = new WeakMap<ModuleModel, Map<string, FunctionModel>>();

/** Every per-function analysis the context serves, in the order the bench's engine computes them
 *  (bench/parse-one.js): the measuring scripts walk this list (`ctx[name](fn)`). */
export const ENGINE_ANALYSES = [
  'cfg', 'dominators', 'postDominators', 'loops', 'controlDependence', 'reachingDefinitions', 'liveness', 'uniformity', 'provenance', 'taint', 'affine', 'ranges',
] as const;

export class AnalysisContext {
  readonly model: ModuleModel;
  private readonly cache = new Map<FunctionModel, Facts>();
  private lastFn: FunctionModel | undefined;
  private lastFacts: Facts | undefined;
  private callGraphMemo: CallGraph | undefined;

  private readonly scope: readonly FunctionModel[];

  /** With `part`, a context over some functions of an already built model: the checks that look at one
   *  function at a time run on a module part by part, and each part's facts are dropped after it. */
  constructor(readonly module: A.Module, readonly options: AnalysisOptions = {}, part?: { readonly model: ModuleModel; readonly functions: readonly FunctionModel[] }) {
    this.model = part?.model ?? buildModuleModel(module);
    this.scope = part?.functions ?? this.model.functions;
  }

  /** The functions with bodies this context covers (all of the module's, or a part's). */
  get functions(): readonly FunctionModel[] {
    return this.scope;
  }

  /** The function with a body of that name (by a map made on first use: checks ask per call site and callee). */
  function(name: string): FunctionModel | undefined {
    let byName = FUNCTIONS_BY_NAME.get(this.model);
    if (byName === undefined) {
      byName = new Map();
      // (The first of a name, as a search in order finds it.)
      for (const f of this.model.functions) if (!byName.has(f.name)) byName.set(f.name, f);
      FUNCTIONS_BY_NAME.set(this.model, byName);
    }
    return byName.get(name);
  }

  /** The cached result of `analysis` on `fn`, computed on first request. */
  get<T>(fn: FunctionModel, analysis: FunctionAnalysis<T>): T {
    // Checks ask per instruction, mostly about the function they asked about last. (Facts by slot, not by
    // name in a map: a map lookup per request was 1 to 2% of a run.)
    let perFn = fn === this.lastFn ? this.lastFacts : this.cache.get(fn);
    if (perFn === undefined) {
      perFn = [];
      this.cache.set(fn, perFn);
    }
    this.lastFn = fn;
    this.lastFacts = perFn;
    const slot = analysis.slot ??= slots++;
    const hit = perFn[slot];
    if (hit !== undefined) {
      if (hit === NONE) return undefined as T;
      if (hit instanceof Failed) throw hit.error;
      return hit as T;
    }
    let value: T;
    try {
      value = analysis.compute(this, fn);
    } catch (err) {
      // Remembered: every later request fails at once instead of redoing the work.
      perFn[slot] = new Failed(err);
      throw err;
    }
    perFn[slot] = value === undefined ? NONE : value;
    return value;
  }

  /** Drops every fact about this context's functions, those kept outside it included (instruction
   *  effects are cached per function model, which outlives a part's context). */
  dispose(): void {
    this.cache.clear();
    this.lastFn = undefined;
    this.lastFacts = undefined;
    for (const fn of this.scope) forgetEffects(fn);
  }

  /** `analysis` on `fn` without keeping its facts: the cached value when there is one, else computed in a
   *  scratch context dropped after it. For module-level checks that visit every function of a module
   *  for one number each (F092's register peak); caching every function's facts would hold the whole
   *  module's at once, which checking part by part exists to avoid. */
  transient<T>(fn: FunctionModel, analysis: FunctionAnalysis<T>): T {
    const hit = analysis.slot === undefined ? undefined : this.cache.get(fn)?.[analysis.slot];
    if (hit === NONE) return undefined as T;
    if (hit !== undefined && !(hit instanceof Failed)) return hit as T;
    const scratch = new AnalysisContext(this.module, this.options, { model: this.model, functions: [fn] });
    try {
      return scratch.get(fn, analysis);
    } finally {
      scratch.dispose();
    }
  }

  cfg(fn: FunctionModel): Cfg {
    return this.get(fn, CFG);
  }

  dominators(fn: FunctionModel): DomTree {
    return this.get(fn, DOMINATORS);
  }

  postDominators(fn: FunctionModel): DomTree {
    return this.get(fn, POST_DOMINATORS);
  }

  /** For each block, the blocks whose branch decides whether it runs. */
  controlDependence(fn: FunctionModel): number[][] {
    return this.get(fn, CONTROL_DEPENDENCE);
  }

  loops(fn: FunctionModel): LoopForest {
    return this.get(fn, LOOPS);
  }

  // ---- dataflow facts, each computed on first request (see src/cfg/dataflow/)

  reachingDefinitions(fn: FunctionModel): ReachingDefinitions {
    return this.get(fn, reachingDefinitionsAnalysis);
  }

  liveness(fn: FunctionModel): Liveness {
    return this.get(fn, livenessAnalysis);
  }

  uniformity(fn: FunctionModel): Uniformity {
    return this.get(fn, uniformityAnalysis);
  }

  provenance(fn: FunctionModel): ProvenanceFacts {
    return this.get(fn, provenanceAnalysis);
  }

  taint(fn: FunctionModel): TaintFacts {
    return this.get(fn, taintAnalysis);
  }

  affine(fn: FunctionModel): AffineFacts {
    return this.get(fn, affineAnalysis);
  }

  ranges(fn: FunctionModel): RangeFacts {
    return this.get(fn, rangeAnalysis);
  }

  /** The module's call graph (one per model: a module checked part by part builds it once, not per part). */
  callGraph(): CallGraph {
    if (this.callGraphMemo === undefined) {
      this.callGraphMemo = CALL_GRAPHS.get(this.model) ?? buildCallGraph(this.model);
      CALL_GRAPHS.set(this.model, this.callGraphMemo);
    }
    return this.callGraphMemo;
  }

  /** The block size a kernel declares (`.reqntid`, else `.maxntid`), else the
   *  one from the options; undefined when unknown (never assumed). */
  blockSize(fn: FunctionModel): readonly [number, number, number] | undefined {
    for (const name of ['.reqntid', '.maxntid']) {
      const d = fn.decl.directives.find((x) => x.name === name);
      if (d !== undefined) return [d.args[0] ?? 1, d.args[1] ?? 1, d.args[2] ?? 1];
    }
    return this.options.block;
  }

  /** The PTX position of an instruction and the source line `.loc` maps it to. */
  locate(fn: FunctionModel, ins: FlatInstruction | number): FactLocation {
    const i = typeof ins === 'number' ? fn.instructions[ins]! : ins;
    const { line, column } = i.node.range;
    const source = this.sourceOf(fn, i);
    return source === undefined ? { line, column } : { line, column, source };
  }

  /** The source line `.loc` maps an instruction to, if any. */
  sourceOf(fn: FunctionModel, ins: FlatInstruction | number): FactLocation['source'] {
    const i = typeof ins === 'number' ? fn.instructions[ins]! : ins;
    if (i.loc === undefined) return undefined;
    const file = this.model.files.get(i.loc.file) ?? `file#${i.loc.file}`;
    return { file, line: i.loc.line, column: i.loc.column };
  }
}

const CFG: FunctionAnalysis<Cfg> = { name: 'cfg', compute: (ctx, fn) => buildCfg(fn, ctx.model) };
const DOMINATORS: FunctionAnalysis<DomTree> = { name: 'dominators', compute: (ctx, fn) => dominators(ctx.cfg(fn)) };
const POST_DOMINATORS: FunctionAnalysis<DomTree> = { name: 'postDominators', compute: (ctx, fn) => postDominators(ctx.cfg(fn)) };
const CONTROL_DEPENDENCE: FunctionAnalysis<number[][]> = {
  name: 'controlDependence',
  compute: (ctx, fn) => controlDependence(ctx.cfg(fn), ctx.postDominators(fn)),
};
const LOOPS: FunctionAnalysis<LoopForest> = { name: 'loops', compute: (ctx, fn) => findLoops(ctx.cfg(fn), ctx.dominators(fn)) };

// One part of a large module checked as a part thread checks it
// (src/part-worker.ts): the module parsed again without the functions the part
// does not need (src/checks/part-text.ts: the callees and the functions its
// bodies name are found here, since the parts are cut before the module is
// parsed), the part-by-part checks and the split checks' summaries run on the
// part's functions, and what the report needs of the part.
import { AnalysisContext } from '../cfg/context.js';
import { releaseCompiled } from '../cfg/keep-compiled.js';
import type { Block, Module, ModuleStatement, NameExpr } from '../parser/ast.js';
import { parsePieces, type FunctionBody } from '../parser/parse-fast.js';
import { initializerNames, namesIn } from './operands.js';
import type { PartMessage, PartWork } from './parallel.js';
import { partOutline } from './outline.js';
import { functionsText, partText, stringSource, type ModuleSource } from './part-text.js';
import { checkPart } from './run.js';
import type { Check, CheckContext } from './types.js';
import { mark } from '../timeline.js';

/**
 * The module parsed with only `functions` (declaration offsets) and the functions they name, transitively (their
 * callees, and any function a body or a module variable's initializer names otherwise, such as one whose address
 * it takes): the module without
 * the others first, then the functions its bodies name, parsed alone and added to its tree, until none is
 * missing. Also the text first parsed (the tree's positions are the module's).
 */
export function parsePart(work: PartWork, functions: readonly number[], source: ModuleSource = stringSource(work.text)): { module: Module; analysis: AnalysisContext; text: string } | undefined {
  const keep = new Set(functions);
  const named = new Map<string, FunctionBody[]>();
  for (const b of work.bodies) {
    const list = named.get(b.name);
    if (list === undefined) named.set(b.name, [b]);
    else list.push(b);
  }
  const first = partText(source, work.bodies, keep);
  const parsed = parsePieces(first.text, first.origin);
  if (parsed.errors.length > 0) return undefined;
  let module = parsed.module;
  let added: readonly ModuleStatement[] = module.statements;
  for (;;) {
    const used = new Set<string>();
    for (const s of added) {
      if (s.kind === 'Function' && s.body !== null) namesUsed(s.body, used);
      // (A module variable may hold a function's address: `.global .u64 table[2] = { f, g };`.)
      else if (s.kind === 'Variable') for (const d of s.declarators) if (d.init !== undefined) initializerNames(d.init, used);
    }
    const more: FunctionBody[] = [];
    for (const name of used) {
      for (const b of named.get(name) ?? []) {
        if (keep.has(b.decl)) continue;
        keep.add(b.decl);
        more.push(b);
      }
    }
    if (more.length === 0) break;
    const extra = functionsText(source, more);
    const p = parsePieces(extra.text, extra.origin);
    if (p.errors.length > 0) return undefined;
    module = { ...module, statements: inOrder(module.statements, p.module.statements), comments: inOrder(module.comments, p.module.comments) };
    added = p.module.statements;
  }
  return { module, analysis: new AnalysisContext(module, work.analysisOptions), text: first.text };
}

/** Two lists of nodes in text order, merged in text order. */
function inOrder<T extends { readonly range: { readonly offset: number } }>(a: readonly T[], b: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j === b.length || (i < a.length && a[i]!.range.offset <= b[j]!.range.offset)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}

/** Every name a block's statements use (operands, initializers, `.calltargets`): the functions among them are
 *  those a part needs besides its own. */
function namesUsed(block: Block, out: Set<string>, scratch: NameExpr[] = []): void {
  for (const s of block.statements) {
    switch (s.kind) {
      case 'Instruction':
        // (One list for every operand of the part's instructions, not one per operand.)
        for (const e of s.operands) {
          scratch.length = 0;
          for (const n of namesIn(e, scratch)) out.add(n.name);
        }
        break;
      case 'Variable': for (const d of s.declarators) if (d.init !== undefined) initializerNames(d.init, out); break;
      case 'CallTargets': for (const n of s.names) out.add(n); break;
      case 'Block': namesUsed(s, out, scratch); break;
      default: break;
    }
  }
}

/** Checks part `index` of `work` as a part thread does: the part-by-part checks, the split checks' summaries.
 *  `source`: the module's text as the thread holds it (default: `work.text`). */
export function checkOnePart(work: PartWork, checks: readonly Check[], split: readonly Check[], index: number, source?: ModuleSource): PartMessage {
  const part = work.parts[index]!;
  const parsed = parsePart(work, part, source);
  // The analyses' closures kept from the last part (src/cfg/keep-compiled.ts) hold its facts and tree: let go
  // of them once this part is parsed (its own analyses keep theirs as they run).
  releaseCompiled();
  if (parsed === undefined) return { part: index, error: 'the module did not parse again' };
  const { module, analysis, text } = parsed;
  const mine = new Set(part);
  const functions = analysis.functions.filter((fn) => mine.has(fn.decl.range.offset));
  if (functions.length !== part.length) return { part: index, error: 'the part\'s functions were not found again' };
  const ctx: CheckContext = {
    // (The part's text, not the module's: the checks read positions from the tree, never from the text.)
    module, text, analysis, functions,
    locate: () => { throw new Error('unused: checkPart gives the part its own locate'); },
    ...(work.resources !== undefined ? { resources: work.resources } : {}),
  };
  const outcome = checkPart(checks, ctx, functions, undefined, split);
  return {
    part: index, results: [...outcome.results], summaries: [...outcome.summaries],
    ...(work.outline ? { outline: partOutline(module, functions) } : {}),
  };
}

/** Checks parts of `work` until none is left to take (the part threads share the counter `PartWork.next` and
 *  take the parts in `PartWork.order`), posting what each gave. */
export function takeParts(work: PartWork, checks: readonly Check[], split: readonly Check[], source: ModuleSource, post: (m: PartMessage) => void): void {
  const next = new Int32Array(work.next);
  for (let i = Atomics.add(next, 0, 1); i < work.order.length; i = Atomics.add(next, 0, 1)) {
    const part = work.order[i]!;
    mark(`part ${part} start`);
    let message: PartMessage;
    try {
      message = checkOnePart(work, checks, split, part, source);
    } catch (err) {
      message = { part, error: err instanceof Error ? err.message : String(err) };
    }
    // (No forced collection between parts: V8's `gc()` also drops compiled code, and every part would
    // compile the checks again: twice the time, measured.)
    post(message);
    mark(`part ${part} end`);
  }
}

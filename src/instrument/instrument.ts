// Debug instrumentation (the catalog's debug-buffer protocol): each kernel
// gets two parameters, `debug_buf` (.u64, a pointer to u32 words) and
// `debug_cap` (.u32, records that fit), a prologue that computes the thread's
// linear id in the grid (ctaid and tid flattened x-fastest), and at each site a
// marker write:
//
//     atom.global.add.u32 k, [debug_buf], 1;      // claim record k
//     setp.lt.u32         p, k, debug_cap;        // only if it fits
//     @p st.global.u32    [debug_buf + 4 + 8k], MARKER;
//     @p st.global.u32    [debug_buf + 8 + 8k], linear thread id;
//
// Guarded stores, not branches, so the control flow, and every analysis that
// depends on it, stays what it was. Sites: the entry of every reachable basic
// block (`blocks`), of every loop header (`loops`), or every CTA barrier
// (`barriers`). The output is built as a syntax tree and printed; the marker
// map gives each marker's kernel, block and line in the output.
import type * as A from '../parser/ast.js';
import { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { parsePtx } from '../parser/parse.js';
import { printModule } from '../parser/printer.js';

export type InstrumentSites = 'blocks' | 'loops' | 'barriers';

export interface MarkerEntry {
  /** The marker constant (1, 2, ...; 0 means a claimed slot never written). */
  readonly marker: number;
  readonly kernel: string;
  /** The block's label, or `entry`/`line N` for unlabelled blocks; `barrier at line N` for barrier sites. */
  readonly block: string;
  /** Line of the marker's store in the instrumented PTX. */
  readonly line: number;
  /** Line, in the original PTX, of the instruction the marker precedes. */
  readonly sourceLine: number;
}

/** The catalog's marker-map format. */
export interface MarkerMap {
  readonly version: 1;
  readonly ptx: string;
  readonly markers: readonly MarkerEntry[];
}

export interface InstrumentResult {
  readonly text: string;
  readonly map: MarkerMap;
  /** Kernels instrumented. */
  readonly kernels: readonly string[];
}

export class InstrumentError extends Error {
  override readonly name = 'InstrumentError';
}

/** Opcodes of CTA barriers (the `barriers` sites). */
function isCtaBarrier(node: A.Instruction): boolean {
  if (node.opcode !== 'bar' && node.opcode !== 'barrier') return false;
  return !node.modifiers.includes('.warp') && !node.modifiers.includes('.cluster');
}

/** Statements parsed from PTX text inside a kernel body (their ranges are meaningless: they are printed, not located). */
function statements(text: string): A.Statement[] {
  const src = `.version 8.0\n.target sm_90\n.address_size 64\n.entry __dbg_snippet()\n{\n${text}\n}\n`;
  const parsed = parsePtx(src);
  if (parsed.errors.length > 0) throw new InstrumentError(`internal: snippet does not parse: ${parsed.errors[0]!.message}`);
  const fn = parsed.module.statements.find((s): s is A.FunctionDecl => s.kind === 'Function');
  return [...(fn?.body?.statements ?? [])];
}

function paramDecls(): A.VariableDecl[] {
  const parsed = parsePtx('.version 8.0\n.target sm_90\n.address_size 64\n.entry x(.param .u64 debug_buf, .param .u32 debug_cap)\n{\n\tret;\n}\n');
  const fn = parsed.module.statements.find((s): s is A.FunctionDecl => s.kind === 'Function')!;
  return [...fn.params];
}

/** A register prefix no name of the module starts with. */
function freePrefix(text: string): string {
  for (let i = 0; ; i++) {
    const p = i === 0 ? '%dbg_' : `%dbg${i}_`;
    if (!text.includes(p)) return p;
  }
}

/** Where markers go in one kernel: instruction index → the block name it starts. */
function sitesOf(ctx: AnalysisContext, fn: FunctionModel, at: InstrumentSites): Map<number, string> {
  const cfg = ctx.cfg(fn);
  const name = (start: number): string => {
    const b = cfg.blocks[cfg.blockOf[start]!]!;
    if (b.start === start && b.labels.length > 0) return b.labels[0]!;
    return start === 0 ? 'entry' : `line ${fn.instructions[start]!.node.range.line}`;
  };
  const out = new Map<number, string>();
  if (at === 'blocks') {
    for (const b of cfg.blocks) if (b.reachable && b.end > b.start) out.set(b.start, name(b.start));
  } else if (at === 'loops') {
    for (const l of ctx.loops(fn).loops) {
      const b = cfg.blocks[l.header]!;
      if (b.end > b.start) out.set(b.start, name(b.start));
    }
  } else {
    for (const ins of fn.instructions) {
      if (isCtaBarrier(ins.node) && cfg.blocks[cfg.blockOf[ins.index]!]!.reachable) out.set(ins.index, `barrier at line ${ins.node.range.line}`);
    }
  }
  return out;
}

/** Rebuilds a block, inserting `before.get(node)` ahead of each instruction node. */
function rebuild(block: A.Block, before: ReadonlyMap<A.Instruction, readonly A.Statement[]>): A.Block {
  const out: A.Statement[] = [];
  for (const s of block.statements) {
    if (s.kind === 'Block') out.push(rebuild(s, before));
    else {
      if (s.kind === 'Instruction') out.push(...(before.get(s) ?? []));
      out.push(s);
    }
  }
  return { ...block, statements: out };
}

/**
 * Instruments every kernel (`.entry` with a body) of a parsed module.
 * `file` is what the marker map calls the output PTX.
 */
export function instrumentModule(module: A.Module, text: string, opts: { readonly at?: InstrumentSites; readonly file: string }): InstrumentResult {
  const at = opts.at ?? 'blocks';
  const ctx = new AnalysisContext(module);
  const r = freePrefix(text);
  const reg = (n: string): string => `${r}${n}`;
  const kernels = ctx.functions.filter((f) => f.isEntry);
  if (kernels.length === 0) throw new InstrumentError('the module has no kernel (.entry with a body) to instrument');
  for (const fn of kernels) {
    if (fn.decl.params.some((p) => p.declarators.some((d) => d.name === 'debug_buf' || d.name === 'debug_cap'))) {
      throw new InstrumentError(`${fn.name} already has a debug_buf/debug_cap parameter: it is instrumented`);
    }
  }
  const declarations = [
    `.reg .b64 ${reg('raw')}, ${reg('buf')}, ${reg('off')}, ${reg('addr')};`,
    `.reg .b32 ${reg('cap')}, ${reg('k')}, ${reg('tid')}, ${reg('t')}<12>;`,
    `.reg .pred ${reg('p')};`,
  ];
  const t = (i: number): string => reg(`t${i}`);
  const prologue = [
    `ld.param.u64 ${reg('raw')}, [debug_buf];`,
    `cvta.to.global.u64 ${reg('buf')}, ${reg('raw')};`,
    `ld.param.u32 ${reg('cap')}, [debug_cap];`,
    // block linear id: (ctaid.z * nctaid.y + ctaid.y) * nctaid.x + ctaid.x
    `mov.u32 ${t(0)}, %ctaid.z;`, `mov.u32 ${t(1)}, %nctaid.y;`, `mov.u32 ${t(2)}, %ctaid.y;`,
    `mad.lo.u32 ${t(3)}, ${t(0)}, ${t(1)}, ${t(2)};`,
    `mov.u32 ${t(0)}, %nctaid.x;`, `mov.u32 ${t(2)}, %ctaid.x;`,
    `mad.lo.u32 ${t(4)}, ${t(3)}, ${t(0)}, ${t(2)};`,
    // threads per block: ntid.x * ntid.y * ntid.z
    `mov.u32 ${t(5)}, %ntid.x;`, `mov.u32 ${t(6)}, %ntid.y;`, `mov.u32 ${t(7)}, %ntid.z;`,
    `mul.lo.u32 ${t(8)}, ${t(5)}, ${t(6)};`, `mul.lo.u32 ${t(8)}, ${t(8)}, ${t(7)};`,
    // thread linear id in the block: (tid.z * ntid.y + tid.y) * ntid.x + tid.x
    `mov.u32 ${t(0)}, %tid.z;`, `mov.u32 ${t(2)}, %tid.y;`,
    `mad.lo.u32 ${t(9)}, ${t(0)}, ${t(6)}, ${t(2)};`,
    `mov.u32 ${t(2)}, %tid.x;`,
    `mad.lo.u32 ${t(10)}, ${t(9)}, ${t(5)}, ${t(2)};`,
    `mad.lo.u32 ${reg('tid')}, ${t(4)}, ${t(8)}, ${t(10)};`,
  ];
  const markerCode = (m: number): string[] => [
    `atom.global.add.u32 ${reg('k')}, [${reg('buf')}], 1;`,
    `setp.lt.u32 ${reg('p')}, ${reg('k')}, ${reg('cap')};`,
    `mul.wide.u32 ${reg('off')}, ${reg('k')}, 8;`,
    `add.s64 ${reg('addr')}, ${reg('buf')}, ${reg('off')};`,
    `@${reg('p')} st.global.u32 [${reg('addr')}+4], ${m};`,
    `@${reg('p')} st.global.u32 [${reg('addr')}+8], ${reg('tid')};`,
  ];
  const pending: Omit<MarkerEntry, 'line'>[] = [];
  let next = 1;
  const rebuilt = new Map<A.FunctionDecl, A.FunctionDecl>();
  for (const fn of kernels) {
    const body = fn.decl.body!;
    const before = new Map<A.Instruction, A.Statement[]>();
    for (const [index, block] of [...sitesOf(ctx, fn, at)].sort((a, b) => a[0] - b[0])) {
      const node = fn.instructions[index]!.node;
      const m = next++;
      before.set(node, statements(markerCode(m).join('\n')));
      pending.push({ marker: m, kernel: fn.name, block, sourceLine: node.range.line });
    }
    const inner = rebuild(body, before);
    const head = statements([...declarations, ...prologue].join('\n'));
    rebuilt.set(fn.decl, { ...fn.decl, params: [...fn.decl.params, ...paramDecls()], body: { ...inner, statements: [...head, ...inner.statements] } });
  }
  const out: A.Module = { ...module, statements: module.statements.map((s) => (s.kind === 'Function' ? rebuilt.get(s) ?? s : s)) };
  // Keep the file's leading comments: they name the producer (nvcc, LLVM, Triton), which some checks go by.
  const header: string[] = [];
  for (const line of text.split('\n')) {
    const l = line.trim();
    if (l !== '' && !l.startsWith('//')) break;
    header.push(line.replace(/\r$/, ''));
  }
  const printed = [...header, `// instrumented by ptx-debug instrument (debug-buffer protocol: ${at}); kernels take .param .u64 debug_buf, .param .u32 debug_cap`, printModule(out)].join('\n');
  // Lines of the marker stores in the output.
  const lines = new Map<number, number>();
  const esc = r.replace(/[$]/g, '\\$&');
  const store = new RegExp(`^\\s*@${esc}p st\\.global\\.u32 \\[${esc}addr\\s*\\+\\s*4\\], (\\d+);`);
  printed.split('\n').forEach((l, i) => {
    const m = store.exec(l);
    if (m !== null) lines.set(Number(m[1]), i + 1);
  });
  const markers = pending.map((p) => ({ marker: p.marker, kernel: p.kernel, block: p.block, line: lines.get(p.marker) ?? 0, sourceLine: p.sourceLine }));
  return { text: printed, map: { version: 1, ptx: opts.file, markers }, kernels: kernels.map((k) => k.name) };
}

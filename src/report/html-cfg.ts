// Each function's CFG as inline SVG for the HTML report: the blocks come from
// the analysis (src/cfg), the layout from Graphviz compiled to WebAssembly
// (@hpcc-js/wasm-graphviz, the `dot` engine). Blocks that hold findings are
// filled by their worst severity, blocks on a dataflow chain are outlined,
// and every block links to its first line in the source listing.
import { Graphviz } from '@hpcc-js/wasm-graphviz';
import { AnalysisContext } from '../cfg/context.js';
import type { Cfg } from '../cfg/builder.js';
import type { FunctionModel } from '../cfg/symbols.js';
import { SEVERITY_ORDER, type Finding, type Severity } from '../checks/types.js';
import { parsePtx } from '../parser/parse.js';

/** Past this many blocks a graph is listed but not drawn (the layout grows superlinearly). */
export const MAX_DRAWN_BLOCKS = 400;

export const SEVERITY_FILL: Readonly<Record<Severity, string>> = {
  critical: '#f4a6a6', high: '#f9c59c', medium: '#fbe39a', low: '#bfe0f7', info: '#e2e2e2',
};

export interface FunctionGraph {
  readonly name: string;
  readonly isEntry: boolean;
  readonly blocks: number;
  /** Blocks holding at least one unsuppressed finding. */
  readonly hitBlocks: number;
  /** The SVG markup (Graphviz's own output, its prolog and comments removed). */
  readonly svg?: string;
  /** Why there is no drawing. */
  readonly note?: string;
}

let graphviz: Promise<Graphviz> | undefined;

/** The Graphviz WebAssembly module, loaded once per process. */
function loadGraphviz(): Promise<Graphviz> {
  graphviz ??= Graphviz.load();
  return graphviz;
}

/** A quoted dot string; `\n` in the value becomes dot's line break. */
function q(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n')}"`;
}

function worst(a: Severity | undefined, b: Severity): Severity {
  return a === undefined || SEVERITY_ORDER.indexOf(b) < SEVERITY_ORDER.indexOf(a) ? b : a;
}

/** Instruction index by PTX line, for the lines an instruction spans. */
function instructionByLine(fn: FunctionModel): Map<number, number> {
  const byLine = new Map<number, number>();
  fn.instructions.forEach((ins, i) => {
    for (let l = ins.node.range.line; l <= ins.node.range.endLine; l++) if (!byLine.has(l)) byLine.set(l, i);
  });
  return byLine;
}

export interface BlockMarks {
  readonly severity: Map<number, Severity>;
  readonly ids: Map<number, Set<string>>;
  readonly chain: Set<number>;
}

function markBlocks(cfg: Cfg, fn: FunctionModel, findings: readonly Finding[]): BlockMarks {
  const byLine = instructionByLine(fn);
  const first = fn.decl.range.line;
  const last = fn.decl.range.endLine;
  const marks: BlockMarks = { severity: new Map(), ids: new Map(), chain: new Set() };
  const blockAt = (line: number): number | undefined => {
    const i = byLine.get(line);
    return i === undefined ? undefined : cfg.blockOf[i];
  };
  for (const f of findings) {
    if (f.function !== undefined ? f.function !== fn.name : f.location.line < first || f.location.line > last) continue;
    if (f.suppressed === undefined) {
      const b = blockAt(f.location.line);
      if (b !== undefined && b >= 0) {
        marks.severity.set(b, worst(marks.severity.get(b), f.severity));
        const ids = marks.ids.get(b) ?? new Set<string>();
        ids.add(f.id);
        marks.ids.set(b, ids);
      }
    }
    for (const step of f.chain ?? []) {
      const b = blockAt(step.location.line);
      if (b !== undefined && b >= 0) marks.chain.add(b);
    }
  }
  return marks;
}

/** The dot text of one function's CFG, styled for the report. `prefix` makes
 *  element ids unique in the page; `lineAnchor` names a listing line's id. */
export function reportDot(cfg: Cfg, marks: BlockMarks, prefix: string, lineAnchor: (line: number) => string): string {
  const name = (id: number): string => (id === cfg.exit ? 'exit' : `B${id}`);
  const lines = [
    `digraph ${q(cfg.fn.name)} {`,
    `  graph [id=${q(prefix)}, rankdir=TB, nodesep=0.3, ranksep=0.35, bgcolor="transparent"];`,
    '  node [shape=box, style="rounded,filled", fillcolor="#ffffff", color="#555555", fontname="Courier", fontsize=11, margin="0.12,0.05"];',
    '  edge [color="#555555", fontname="Courier", fontsize=9, arrowsize=0.7];',
    `  entry [id=${q(`${prefix}-entry`)}, shape=oval, style=filled, fillcolor="#eeeeee", label="entry"];`,
    `  exit [id=${q(`${prefix}-exit`)}, shape=oval, style=filled, fillcolor="#eeeeee", label="exit"];`,
  ];
  for (const b of cfg.blocks) {
    const firstLine = cfg.fn.instructions[b.start]?.node.range.line;
    const lastLine = cfg.fn.instructions[b.end - 1]?.node.range.line;
    const where = firstLine === undefined ? 'empty' : firstLine === lastLine ? `line ${firstLine}` : `lines ${firstLine}-${lastLine}`;
    const title = `B${b.id}${b.labels.length > 0 ? ` ${b.labels.join(' ')}` : ''}`;
    const sev = marks.severity.get(b.id);
    const ids = [...(marks.ids.get(b.id) ?? [])].sort();
    const label = [title, where, ...(ids.length > 0 ? [ids.join(' ')] : [])].join('\n');
    const classes = ['cfg-block', ...(sev !== undefined ? ['hit', `sev-${sev}`] : []), ...(marks.chain.has(b.id) ? ['chain'] : []), ...(b.reachable ? [] : ['unreachable'])];
    const attrs = [
      `id=${q(`${prefix}-B${b.id}`)}`,
      `label=${q(label)}`,
      `class=${q(classes.join(' '))}`,
      `tooltip=${q(`${title}: ${where}${ids.length > 0 ? `; findings ${ids.join(', ')}` : ''}`)}`,
      ...(sev !== undefined ? [`fillcolor=${q(SEVERITY_FILL[sev])}`, 'penwidth=1.6', 'color="#8b1a1a"'] : []),
      ...(marks.chain.has(b.id) ? ['penwidth=2.4', 'color="#6b3fa0"'] : []),
      ...(b.reachable ? [] : ['style="rounded,filled,dashed"']),
      ...(firstLine !== undefined ? [`href=${q(`#${lineAnchor(firstLine)}`)}`] : []),
    ];
    lines.push(`  B${b.id} [${attrs.join(', ')}];`);
  }
  let edge = 0;
  const edgeLine = (from: string, to: string, extra: string): void => {
    lines.push(`  ${from} -> ${to} [id=${q(`${prefix}-e${edge++}`)}${extra}];`);
  };
  edgeLine('entry', cfg.blocks.length > 0 ? 'B0' : 'exit', '');
  for (const b of cfg.blocks) {
    for (const s of [...b.succs].sort((x, y) => x - y)) edgeLine(`B${b.id}`, name(s), cfg.edgeKind(b.id, s) === 'branch' ? ', label="br"' : '');
  }
  lines.push('}');
  return lines.join('\n');
}

/** Graphviz's SVG without the XML prolog, DOCTYPE (it names an external DTD)
 *  and comments: only the <svg> element goes into the page. */
function inlineSvg(svg: string): string {
  const start = svg.indexOf('<svg');
  // Graphviz writes '-' as &#45; everywhere; a plain hyphen means the same in
  // HTML and keeps ids and classes readable.
  return svg.slice(start === -1 ? 0 : start).replace(/<!--[\s\S]*?-->\n?/g, '').replace(/&#45;/g, '-').trim();
}

/** Every function's CFG of a PTX text, laid out with Graphviz. */
export async function functionGraphs(text: string, findings: readonly Finding[], prefix: string, lineAnchor: (line: number) => string): Promise<FunctionGraph[]> {
  const parsed = parsePtx(text);
  if (parsed.errors.length > 0) return [];
  const ctx = new AnalysisContext(parsed.module);
  const out: FunctionGraph[] = [];
  for (const [i, fn] of ctx.functions.entries()) {
    const cfg = ctx.cfg(fn);
    const marks = markBlocks(cfg, fn, findings);
    const base = { name: fn.name, isEntry: fn.isEntry, blocks: cfg.blocks.length, hitBlocks: marks.severity.size };
    if (cfg.blocks.length > MAX_DRAWN_BLOCKS) {
      out.push({ ...base, note: `not drawn: ${cfg.blocks.length} blocks (more than ${MAX_DRAWN_BLOCKS})` });
      continue;
    }
    try {
      const gv = await loadGraphviz();
      out.push({ ...base, svg: inlineSvg(gv.dot(reportDot(cfg, marks, `${prefix}-fn${i}`, lineAnchor))) });
    } catch (err) {
      out.push({ ...base, note: `not drawn: the layout failed (${err instanceof Error ? err.message : String(err)})` });
    }
  }
  return out;
}

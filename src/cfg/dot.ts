// Graphviz dot for a function's CFG. Nodes are B<id> (with their labels and
// instruction range), `entry` and `exit`; unreachable blocks are dashed.
// The edge lines are what CFG fixtures compare against.
import type { Cfg } from './builder.js';

const nodeName = (cfg: Cfg, id: number): string => (id === cfg.exit ? 'exit' : `B${id}`);

/** `entry->B0`, `B0->B1`, ... in a stable order: the graph as a test reads it. */
export function cfgEdges(cfg: Cfg): string[] {
  const edges = cfg.blocks.length > 0 ? ['entry->B0'] : ['entry->exit'];
  for (const b of cfg.blocks) for (const s of [...b.succs].sort((x, y) => x - y)) edges.push(`${nodeName(cfg, b.id)}->${nodeName(cfg, s)}`);
  return edges;
}

function escape(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** A quoted dot string; `lines` are joined with dot's `\n` line break. */
function quote(...lines: string[]): string {
  return `"${lines.map(escape).join('\\n')}"`;
}

export function cfgToDot(cfg: Cfg): string {
  const lines = [`digraph ${quote(cfg.fn.name)} {`, '  node [shape=box, fontname="monospace"];', '  entry [shape=oval];', '  exit [shape=oval];'];
  for (const b of cfg.blocks) {
    const first = cfg.fn.instructions[b.start]?.node.range.line;
    const last = cfg.fn.instructions[b.end - 1]?.node.range.line;
    const where = first === undefined ? 'empty' : first === last ? `line ${first}` : `lines ${first}-${last}`;
    const title = `B${b.id}${b.labels.length > 0 ? ` ${b.labels.join(' ')}` : ''}`;
    lines.push(`  B${b.id} [label=${quote(title, where)}${b.reachable ? '' : ', style=dashed'}];`);
  }
  for (const e of cfgEdges(cfg)) {
    const [from, to] = e.split('->') as [string, string];
    const fromId = from === 'entry' ? -1 : Number(from.slice(1));
    const toId = to === 'exit' ? cfg.exit : Number(to.slice(1));
    const kind = fromId === -1 ? '' : cfg.edgeKind(fromId, toId);
    lines.push(`  ${from} -> ${to}${kind === 'branch' ? ' [label="br"]' : ''};`);
  }
  lines.push('}');
  return lines.join('\n');
}

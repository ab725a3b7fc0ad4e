// Inline suppressions in PTX comments:
//   // ptx-debug-disable-next-line F052 F036 -- reason
//   // ptx-debug-disable F052 -- reason   ...   // ptx-debug-enable F052
// (a bare `ptx-debug-disable` / `ptx-debug-enable` covers every check).
import type { Comment } from '../parser/ast.js';

interface Region {
  readonly ids: ReadonlySet<string> | 'all';
  readonly fromLine: number;
  readonly toLine: number;
  readonly reason?: string;
}

export interface Suppressions {
  /** The reason (possibly empty) when `id` is suppressed on `line`, else undefined. */
  lookup(id: string, line: number): { reason?: string } | undefined;
}

const DIRECTIVE = /^\s*(?:\/\/|\/\*)\s*ptx-debug-(disable-next-line|disable|enable)\b([^]*?)(?:\*\/)?\s*$/;

function parseIds(rest: string): { ids: ReadonlySet<string> | 'all'; reason?: string } {
  const [idPart, ...reasonParts] = rest.split('--');
  const ids = (idPart ?? '').split(/[\s,]+/).filter((s) => /^F\d{3}$/.test(s));
  const reason = reasonParts.join('--').trim();
  return { ids: ids.length === 0 ? 'all' : new Set(ids), ...(reason.length > 0 ? { reason } : {}) };
}

/** Whether a comment is a suppression directive (`ptx-debug-disable...`, `ptx-debug-enable`). */
export function isSuppression(c: Comment): boolean {
  return DIRECTIVE.test(c.text);
}

export function collectSuppressions(comments: readonly Comment[]): Suppressions {
  const regions: Region[] = [];
  const open = new Map<string, { fromLine: number; reason?: string }>();
  for (const c of comments) {
    const m = DIRECTIVE.exec(c.text);
    if (m === null) continue;
    const kind = m[1]!;
    const { ids, reason } = parseIds(m[2] ?? '');
    const line = c.range.line;
    if (kind === 'disable-next-line') {
      regions.push({ ids, fromLine: line + 1, toLine: line + 1, ...(reason !== undefined ? { reason } : {}) });
    } else if (kind === 'disable') {
      for (const id of ids === 'all' ? ['*'] : ids) open.set(id, { fromLine: line, ...(reason !== undefined ? { reason } : {}) });
    } else {
      for (const id of ids === 'all' ? [...open.keys()] : ids) {
        const o = open.get(id);
        if (o === undefined) continue;
        regions.push({ ids: id === '*' ? 'all' : new Set([id]), fromLine: o.fromLine, toLine: line, ...(o.reason !== undefined ? { reason: o.reason } : {}) });
        open.delete(id);
      }
    }
  }
  for (const [id, o] of open) {
    regions.push({ ids: id === '*' ? 'all' : new Set([id]), fromLine: o.fromLine, toLine: Number.MAX_SAFE_INTEGER, ...(o.reason !== undefined ? { reason: o.reason } : {}) });
  }
  return {
    lookup(id, line) {
      for (const r of regions) {
        if (line >= r.fromLine && line <= r.toLine && (r.ids === 'all' || r.ids.has(id))) return r.reason !== undefined ? { reason: r.reason } : {};
      }
      return undefined;
    },
  };
}

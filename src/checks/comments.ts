// Which comments stand inside some function bodies and which outside every
// body: a module checked part by part judges a body's comments with its part
// and the others once (src/checks/types.ts: SplitCheck).
import type { Comment, Module, SourceRange } from '../parser/ast.js';

/** The first index of `comments` (in text order) at or after `offset`. */
function firstFrom(comments: readonly Comment[], offset: number): number {
  let lo = 0;
  let hi = comments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (comments[mid]!.range.offset < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The comments (in text order) inside any of `bodies`, in text order. */
export function commentsWithin(comments: readonly Comment[], bodies: readonly SourceRange[]): Comment[] {
  const out: Comment[] = [];
  for (const b of [...bodies].sort((x, y) => x.offset - y.offset)) {
    for (let i = firstFrom(comments, b.offset); i < comments.length && comments[i]!.range.offset < b.endOffset; i++) out.push(comments[i]!);
  }
  return out;
}

/** The comments (in text order) inside none of `bodies`. */
export function commentsOutside(comments: readonly Comment[], bodies: readonly SourceRange[]): Comment[] {
  if (bodies.length === 0) return [...comments];
  const inside = new Set(commentsWithin(comments, bodies));
  return comments.filter((c) => !inside.has(c));
}

/** The comments of `module` outside every function body its tree holds (a tree of the declarations alone
 *  holds none). */
export function commentsOutsideBodies(module: Module): Comment[] {
  const bodies: SourceRange[] = [];
  for (const s of module.statements) if (s.kind === 'Function' && s.body !== null) bodies.push(s.body.range);
  return commentsOutside(module.comments, bodies);
}

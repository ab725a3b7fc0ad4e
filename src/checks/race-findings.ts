// Findings of F036/F037 from the race pairs: one per later access, located at
// it, with the earlier access as the related location and the unordered path
// as the chain; pairs that map to the same pair of source lines (unrolled
// copies of one statement) are reported once.
import type { FunctionModel } from '../cfg/symbols.js';
import { cutFreePath } from './sync-facts.js';
import { describeThreads, type SharedRaces } from './shared-races.js';
import type { CheckContext, Finding } from './types.js';

/** Whether the module declares any `.shared` variable (else the shared-memory checks are n/a). */
export function hasSharedVariables(ctx: CheckContext): boolean {
  for (const v of ctx.analysis.model.variables.values()) if (v.space === '.shared') return true;
  const seen = new Set<unknown>();
  return ctx.functions.some((fn) => fn.instructions.some((i) => {
    for (let s: typeof i.scope | undefined = i.scope; s !== undefined && !seen.has(s); s = s.parent) {
      seen.add(s);
      for (const v of s.variables.values()) if (v.space === '.shared') return true;
    }
    return false;
  }));
}

export function raceFindings(ctx: CheckContext, fn: FunctionModel, races: SharedRaces, which: 'raw' | 'war'): Omit<Finding, 'id' | 'severity'>[] {
  const out: Omit<Finding, 'id' | 'severity'>[] = [];
  const seen = new Set<string>();
  const cfg = ctx.analysis.cfg(fn);
  const pairs = which === 'raw' ? races.raw : races.war;
  // Later accesses of one block (and one source line, when `.loc` says) racing with the same earlier
  // access make one finding.
  const groupOf = (p: { earlier: number; later: number }): string => {
    const loc = fn.instructions[p.later]!.loc;
    return `${p.earlier}|${cfg.blockOf[p.later]!}|${loc === undefined ? '' : `${loc.file}:${loc.line}`}`;
  };
  const groups = new Map<string, number>();
  for (const p of pairs) groups.set(groupOf(p), (groups.get(groupOf(p)) ?? 0) + 1);
  const reported = new Set<string>();
  for (const p of pairs) {
    const group = groupOf(p);
    if (reported.has(group)) continue;
    reported.add(group);
    const more = groups.get(group)! - 1;
    const later = races.accessAt.get(p.later)!;
    const earlier = races.accessAt.get(p.earlier)!;
    const li = fn.instructions[p.later]!;
    const ei = fn.instructions[p.earlier]!;
    if (li.loc !== undefined && ei.loc !== undefined) {
      const key = `${li.loc.file}:${li.loc.line}|${ei.loc.file}:${ei.loc.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
    }
    const lLine = li.node.range.line;
    const eLine = ei.node.range.line;
    const path = cutFreePath(cfg, p.acrossWarps === true ? races.isCtaCut : races.isCut, p.earlier, p.later) ?? [p.earlier, p.later];
    const wraps = p.later <= p.earlier;
    const who = describeThreads(p.first, p.second) + (p.acrossWarps === true ? ', in different warps' : '');
    const barrier = p.acrossWarps === true ? 'no barrier but `bar.warp.sync` (which orders only the lanes of one warp)' : 'no barrier';
    const message = which === 'raw'
      ? `${later.mnemonic} at line ${lLine} may read bytes that ${earlier.mnemonic} at line ${eLine} writes in another thread (${who}), `
        + `with ${barrier} on the path ${path.map((i) => fn.instructions[i]!.node.range.line).join(' → ')}${wraps ? ' (around the loop)' : ''}: read-after-write race`
        + (more > 0 ? ` (and ${more} more read${more > 1 ? 's' : ''} of the same block)` : '')
      : `${later.mnemonic} at line ${lLine} may overwrite bytes that ${earlier.mnemonic} at line ${eLine} reads in another thread (${who}), `
        + `with ${barrier} on the path ${path.map((i) => fn.instructions[i]!.node.range.line).join(' → ')}${wraps ? ' (around the loop: the barrier at the end of the iteration is missing)' : ''}: write-after-read race`
        + (more > 0 ? ` (and ${more} more write${more > 1 ? 's' : ''} of the same block)` : '');
    out.push({
      message,
      location: ctx.locate(li.node.range, fn, p.later),
      function: fn.name,
      related: [{ location: ctx.locate(ei.node.range, fn, p.earlier), message: which === 'raw' ? `the write (${earlier.mnemonic})` : `the read (${earlier.mnemonic})` }],
      chain: path.map((i) => ({
        location: ctx.locate(fn.instructions[i]!.node.range, fn, i),
        what: i === p.earlier || i === p.later ? fn.instructions[i]!.node.opcode + fn.instructions[i]!.node.modifiers.join('') : 'unordered path',
      })),
    });
  }
  return out;
}

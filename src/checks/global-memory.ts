// Global-memory facts for F044–F046: which instructions access global memory
// (`.global`, or generic with a global address provenance), their affine
// address and its base (the kernel parameter or `.global` variable it is an
// offset of), and whether an address varies between CTAs.
import type { AnalysisContext } from '../cfg/context.js';
import type { FunctionModel } from '../cfg/symbols.js';
import type { AffineSymbol, Form } from '../cfg/dataflow/affine.js';
import { ATOM_MASK, PROV, provenanceAnalysis } from '../cfg/dataflow/provenance.js';

const GLOBAL_ATOMS = PROV.global | PROV['generic-global'];

/** Whether instruction `i`'s (first) address is in global memory. */
export function isGlobalAccess(ctx: AnalysisContext, fn: FunctionModel, i: number): boolean {
  const m = fn.instructions[i]!.node.modifiers;
  if (m.includes('.global')) return true;
  if (m.some((x) => x === '.shared' || x.startsWith('.shared::') || x === '.local' || x === '.const' || x.startsWith('.param'))) return false;
  const acc = ctx.get(fn, provenanceAnalysis).accessesAt(i)[0];
  if (acc === undefined || acc.space !== 'generic') return false;
  const atoms = acc.provenance & ATOM_MASK;
  return atoms !== 0 && (atoms & ~GLOBAL_ATOMS) === 0;
}

/** The symbol a global address is an offset of (a kernel parameter's value or a `.global` variable), as a key. */
export function baseKey(symbols: readonly AffineSymbol[], form: Form): string | undefined {
  for (const t of form.terms) {
    if (t.coef !== 1) continue;
    const s = symbols[t.sym]!;
    if (s.kind === 'param') return `param:${s.variable.name}:${s.offset}`;
    if (s.kind === 'var') return `var:${s.variable.name}`;
  }
  return undefined;
}

/** Whether a symbol's value may differ between CTAs: yes, no, or unknown. */
export function ctaDependence(symbols: readonly AffineSymbol[], s: AffineSymbol, depth = 0): 'yes' | 'no' | 'unknown' {
  if (depth > 8) return 'unknown';
  switch (s.kind) {
    case 'sreg':
      // %ctaid, %clusterid, %cluster_ctaid, %cluster_ctarank differ per CTA; %tid, %laneid and %warpid
      // take the same values in every CTA; grid constants are equal; clocks and %smid are unknown.
      if (s.variance === 'cta') return 'yes';
      if (s.variance === 'grid' || s.sreg === '%tid' || s.sreg === '%laneid' || s.sreg === '%warpid' || s.sreg.startsWith('%lanemask')) return 'no';
      return 'unknown';
    case 'var':
    case 'param':
      return 'no';
    case 'iv': {
      const a = formCtaDependence(symbols, s.init, depth + 1);
      const b = formCtaDependence(symbols, s.step, depth + 1);
      return a === 'yes' || b === 'yes' ? 'yes' : a === 'no' && b === 'no' ? 'no' : 'unknown';
    }
    case 'shr':
      return formCtaDependence(symbols, s.of, depth + 1);
    default:
      return 'unknown';
  }
}

export function formCtaDependence(symbols: readonly AffineSymbol[], f: Form, depth = 0): 'yes' | 'no' | 'unknown' {
  let out: 'yes' | 'no' | 'unknown' = 'no';
  for (const t of f.terms) {
    const d = ctaDependence(symbols, symbols[t.sym]!, depth);
    if (d === 'yes') return 'yes';
    if (d === 'unknown') out = 'unknown';
  }
  return out;
}

// F056: `ld.global.nc` reads through a pointer parameter that the kernel also
// writes through (the non-coherent path may return stale data).
import type { FunctionModel } from '../cfg/symbols.js';
import { affineAnalysis, type AffineFacts, type Form, type ParamSymbol } from '../cfg/dataflow/affine.js';
import { assumptionsAndSilencing, memoryAccesses, opText, type MemoryAccess } from './memory.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';

/** The parameters an address is based on (coefficient 1), by name and offset. */
function roots(af: AffineFacts, f: Form): ParamSymbol[] {
  const out: ParamSymbol[] = [];
  for (const t of f.terms) {
    const s = af.symbols[t.sym]!;
    if (s.kind === 'param' && t.coef === 1) out.push(s);
  }
  return out;
}

const key = (p: ParamSymbol): string => `${p.variable.name}+${p.offset}`;

function check(ctx: CheckContext, fn: FunctionModel, out: Omit<Finding, 'id' | 'severity'>[]): number {
  const accesses = memoryAccesses(ctx.analysis, fn);
  const loads = accesses.filter((a) => a.nc && a.form !== undefined);
  if (loads.length === 0) return accesses.filter((a) => a.nc).length;
  const af = ctx.analysis.get(fn, affineAnalysis);
  const writes = new Map<string, MemoryAccess[]>();
  for (const a of accesses) {
    if (a.kind === 'load' || a.form === undefined || (a.space !== 'global' && a.space !== 'generic')) continue;
    for (const r of roots(af, a.form)) {
      const list = writes.get(key(r)) ?? [];
      list.push(a);
      writes.set(key(r), list);
    }
  }
  for (const l of loads) {
    for (const r of roots(af, l.form!)) {
      const w = writes.get(key(r));
      if (w === undefined) continue;
      const first = w[0]!;
      out.push({
        message: `${opText(l.ins)} reads through parameter ${r.variable.name}${r.offset !== 0 ? `+${r.offset}` : ''}, which the kernel also writes `
          + `(${opText(first.ins)} at line ${first.ins.node.range.line}${w.length > 1 ? ` and ${w.length - 1} more` : ''}): the read-only (non-coherent) path may return stale data`,
        location: ctx.locate(l.ins.node.range, fn, l.index),
        function: fn.name,
        related: w.map((x) => ({ location: ctx.locate(x.ins.node.range, fn, x.index), message: `${opText(x.ins)} writes through ${r.variable.name}` })),
      });
      break;
    }
  }
  return loads.length;
}

export const F056: Check = {
  meta: {
    id: 'F056',
    name: 'nc-load-aliasing',
    category: 'memory',
    severity: 'medium',
    points: 1,
    description: '`ld.global.nc` reads through a pointer parameter (or a pointer derived from it) that the same function also writes through.',
    rationale: '`ld.global.nc` (`__ldg`, `const __restrict__`) goes through the read-only/texture path, which is not coherent with stores made during the kernel: data written by the kernel may be read stale. The compiler emits it only when told the buffer is read-only, so a store through the same pointer means that promise is broken.',
    remedy: 'Drop `__ldg`/`const __restrict__` for buffers the kernel writes (use a plain `ld.global`), or write the results to a separate output buffer.',
    notes: 'Precise rule: the affine address of each `ld.global.nc` is based on parameters (a `.param` value read by `ld.param`, coefficient 1, '
      + 'identified by name and offset so that two pointers of one struct parameter differ); the check fails when a `st`, `atom` or `red` whose '
      + 'state space is `.global` or generic has an address based on one of them in the same function. Aliasing between different parameters '
      + '(`in == out` passed by the host) cannot be seen statically and is not reported; addresses that are not affine (loaded pointers) are not '
      + 'judged. n/a when there is no `ld.global.nc`.'
      + assumptionsAndSilencing('F056', 'none about the block; different pointer parameters are taken not to alias.'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b64 %rd<3>;\n\t.reg .f32 %f<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tld.global.nc.f32 %f1, [%rd2];\n\tadd.f32 %f2, %f1, %f1;\n\tst.global.f32 [%rd2+4], %f2;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p, .param .u64 q)\n{\n\t.reg .b64 %rd<5>;\n\t.reg .f32 %f<3>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tld.param.u64 %rd3, [q];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tcvta.to.global.u64 %rd4, %rd3;\n\tld.global.nc.f32 %f1, [%rd2];\n'
        + '\tadd.f32 %f2, %f1, %f1;\n\tst.global.f32 [%rd4], %f2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let seen = 0;
    for (const fn of ctx.functions) seen += check(ctx, fn, out);
    if (seen === 0) return na('no ld.global.nc');
    return found(out);
  },
};

// F031: tex/tld4/txq/suld/sust/sured/suq name an undeclared or wrongly typed
// texture, sampler or surface reference.
import type { FunctionModel, VariableSymbol } from '../cfg/symbols.js';
import type * as A from '../parser/ast.js';
import { mnemonic } from './address-facts.js';
import type { Check, Finding } from './types.js';
import { found, na, runWhole } from './types.js';

type Want = '.texref' | '.samplerref' | '.surfref' | 'texture or sampler';

const REF_TYPES: ReadonlySet<string> = new Set(['.texref', '.samplerref', '.surfref']);
/** txq queries answered by a sampler. */
const SAMPLER_QUERIES: ReadonlySet<string> = new Set(['.filter_mode', '.addr_mode_0', '.addr_mode_1', '.addr_mode_2', '.force_unnormalized_coords']);

/** The handle operands of a texture or surface instruction and what each must be. */
function handles(node: A.Instruction): { expr: A.Expression; want: Want }[] {
  const addr = node.operands.find((o): o is A.AddressExpr => o.kind === 'Address');
  if (addr === undefined) return [];
  const [h, second] = addr.elements;
  if (h === undefined) return [];
  switch (node.opcode) {
    case 'tex': case 'tld4': {
      const out: { expr: A.Expression; want: Want }[] = [{ expr: h, want: '.texref' }];
      if (second !== undefined && second.kind !== 'Vector') out.push({ expr: second, want: '.samplerref' });
      return out;
    }
    case 'txq': {
      const q = node.modifiers.find((m) => SAMPLER_QUERIES.has(m));
      return [{ expr: h, want: q !== undefined ? '.samplerref' : node.modifiers.includes('.level') ? '.texref' : 'texture or sampler' }];
    }
    case 'suld': case 'sust': case 'sured': case 'suq':
      return [{ expr: h, want: '.surfref' }];
    default:
      return [];
  }
}

function variableOf(fn: FunctionModel, moduleVars: ReadonlyMap<string, VariableSymbol>, e: A.NameExpr): VariableSymbol | 'register' | 'other' | undefined {
  const s = fn.resolve(e);
  if (s?.kind === 'variable') return s;
  if (s?.kind === 'register') return 'register';
  if (s !== undefined) return 'other';
  return moduleVars.get(e.name);
}

/** One part's: handle operands judged, reference parameters, findings. */
interface Summary {
  readonly judged: number;
  readonly refParams: boolean;
  readonly findings: Omit<Finding, 'id' | 'severity'>[];
}

export const F031: Check = {
  meta: {
    id: 'F031',
    name: 'texture-surface-ref',
    category: 'address-spaces',
    severity: 'low',
    points: 1,
    description: '`tex`/`suld`/`sust`/`txq` name an undeclared or wrongly typed `.texref`/`.surfref`/`.samplerref` (n/a without them).',
    rationale: 'A texture instruction given a surface reference, or a surface instruction given a texture, is rejected by ptxas or, through '
      + 'a register handle of the wrong width, reads through a garbage descriptor. Such slips come from hand-edited or templated PTX.',
    remedy: 'Declare the reference with the right type (`.global .texref`, `.samplerref`, `.surfref`, or a kernel `.param` of that type), or '
      + 'pass a bindless handle as a 64-bit integer register (`cudaTextureObject_t` is a `.u64`).',
    notes: 'Judged: `tex` and `tld4` (the first element of the bracketed operand must be a `.texref`, the optional second one before the '
      + 'coordinates a `.samplerref`), `txq` (sampler queries such as `.filter_mode` take a `.samplerref`, `.level` queries a `.texref`, '
      + 'the others either), `suld`, `sust`, `sured`, `suq` (a `.surfref`). A handle may be a variable of that type (module scope or a '
      + 'kernel parameter) or a 64-bit integer register (bindless texture/surface objects); a register of another width, a variable of '
      + 'another type, or a name declared nowhere fails. n/a when the module has no texture or surface instruction and no reference '
      + 'declaration. An undeclared name is also reported by F006 (every unresolved name is).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.global .surfref surf;\n.visible .entry k()\n{\n\t.reg .f32 %f<6>;\n'
        + '\tmov.f32 %f1, 0f00000000;\n\ttex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [surf, {%f1}];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.global .texref tex;\n.visible .entry k()\n{\n\t.reg .f32 %f<6>;\n'
        + '\tmov.f32 %f1, 0f00000000;\n\ttex.1d.v4.f32.f32 {%f2, %f3, %f4, %f5}, [tex, {%f1}];\n\tret;\n}\n',
    },
  },
  split: {
    part(ctx): Summary {
      const vars = ctx.analysis.model.variables;
      const out: Omit<Finding, 'id' | 'severity'>[] = [];
      let judged = 0;
      for (const fn of ctx.functions) {
        for (const ins of fn.instructions) {
          const hs = handles(ins.node);
          if (hs.length === 0) continue;
          judged++;
          for (const { expr, want } of hs) {
            if (expr.kind !== 'Name') continue;
            const v = variableOf(fn, vars, expr);
            const where = () => ({ location: ctx.locate(expr.range, fn, ins.index), function: fn.name });
            const op = mnemonic(ins.node);
            if (v === undefined) {
              out.push({ message: `${op}: ${expr.name} is not declared (expected a ${want === 'texture or sampler' ? '.texref or .samplerref' : want})`, ...where() });
            } else if (v === 'register') {
              const s = fn.resolve(expr);
              const type = s?.kind === 'register' ? s.type : '';
              if (!/^\.[bus]64$/.test(type)) out.push({ message: `${op}: handle ${expr.name} is a ${type} register; texture and surface objects are 64-bit integers`, ...where() });
            } else if (v === 'other') {
              out.push({ message: `${op}: ${expr.name} is not a texture, sampler or surface reference`, ...where() });
            } else {
              const ok = want === 'texture or sampler' ? v.type === '.texref' || v.type === '.samplerref' : v.type === want;
              if (!ok) {
                const actual = REF_TYPES.has(v.type) ? v.type : `${v.space} ${v.type || 'variable'}`;
                out.push({ message: `${op}: ${expr.name} is a ${actual}, not a ${want === 'texture or sampler' ? '.texref or .samplerref' : want}`, ...where() });
              }
            }
          }
        }
      }
      const refParams = ctx.functions.some((f) => f.decl.params.some((p) => p.qualifiers.some((q) => REF_TYPES.has(q.name))));
      return { judged, refParams, findings: out };
    },
    join(ctx, parts: readonly Summary[]) {
      if (parts.every((p) => p.judged === 0)) {
        const refs = [...ctx.analysis.model.variables.values()].some((v) => REF_TYPES.has(v.type)) || parts.some((p) => p.refParams);
        if (!refs) return na('the module has no texture or surface instruction and no reference declaration');
      }
      return found(parts.flatMap((p) => p.findings));
    },
  },
  run: (ctx) => runWhole(F031.split!, ctx),
};

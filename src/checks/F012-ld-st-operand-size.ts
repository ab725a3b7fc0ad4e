// F012: an ld destination or st source register is narrower than the memory
// type it loads or stores.
import { typeIssues } from './type-issues.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F012: Check = {
  meta: {
    id: 'F012',
    name: 'ld-st-operand-size',
    category: 'types',
    severity: 'medium',
    points: 1,
    description: 'An `ld` destination is narrower than the loaded type, or an `st` source is narrower than the stored type.',
    rationale: 'ptxas rejects it ("Arguments mismatch for instruction"): a narrower register cannot hold the value, so PTX forbids it although a wider register is allowed (the value is extended or truncated).',
    remedy: 'Load into (or store from) a register at least as wide as the memory type, e.g. a `.b32` register for `ld.global.u32`; for sub-word memory use `.u8`/`.u16` types with a wider register.',
    notes: 'The ISA\'s "operand size exceeding instruction-type size" rule: the data register of `ld`, `st`, `ldu` and `ld.global.nc` may be wider than '
      + 'the type, never narrower. A braced vector is judged as a whole, with the type ptxas gives it (its elements\' shared size; see F018). '
      + 'A register that is wide enough but of the wrong kind (an `.f64` register for `ld.f32`, an `.f32` one for `ld.u8`) is F011\'s; `ld`/`st` of '
      + '`.f16` memory types are F090\'s.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b16 %h<2>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.global.u32 %h1, [%rd1];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p)\n{\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n\tld.param.u64 %rd1, [p];\n\tld.global.u8 %r1, [%rd1];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    return found(typeIssues(ctx.analysis).filter((i) => i.check === 'F012').map((i) => ({
      message: i.message, location: ctx.locate(i.at, i.fn, i.ins.index), function: i.fn.name,
    })));
  },
};

// F028: a constant offset into a non-extern `.shared` variable lies beyond its declared size.
import { isExtern, isSharedVariable, staticOutOfBounds } from './address-facts.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F028: Check = {
  meta: {
    id: 'F028',
    name: 'shared-static-oob',
    category: 'address-spaces',
    severity: 'high',
    points: 1,
    description: 'A constant offset into a non-extern `.shared` variable lies beyond its declared size.',
    rationale: 'Static shared variables are laid out back to back: an access past the end of one reads or overwrites the next (another '
      + 'tile, a reduction buffer, an mbarrier), or faults past the block\'s allocation. ptxas does not check offsets.',
    remedy: 'Size the array for every element the code touches, counting vector widths (a `.v4.f32` at offset 1020 of a 1024-byte tile '
      + 'needs 1036 bytes), or fix the constant.',
    notes: 'Judged: every memory access whose address is a non-extern `.shared` variable plus a constant, directly (`[tile+1024]`) or through '
      + 'registers: `mov` of the variable, `cvta.shared`/`cvta.to.shared`, integer `cvt`, and `add`/`sub` of constants are followed back; '
      + 'any other arithmetic makes the offset unknown and the access is not judged (thread-indexed accesses are F054\'s). It fails when '
      + 'offset < 0 or offset + bytes moved > the declared size (bytes moved: type size × vector length, the `cp.async` size; 1 for '
      + 'instructions without a data type). `.extern .shared` (dynamic) arrays have no static size and are not judged.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .align 16 .b8 tile[64];\n\t.reg .f32 %f<5>;\n'
        + '\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+56];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.shared .align 16 .b8 tile[64];\n\t.reg .f32 %f<5>;\n'
        + '\tld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [tile+48];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const hits = staticOutOfBounds(ctx, (v) => isSharedVariable(v) && !isExtern(v));
    return found(hits.map((h) => {
      const node = h.fn.instructions[h.index]!.node;
      return {
        message: `${h.width}-byte access at offset ${h.base.offset} of .shared ${h.base.symbol.name} (${h.size} bytes) is out of bounds`,
        location: ctx.locate(node.range, h.fn, h.index),
        function: h.fn.name,
        related: [{ location: ctx.locate(h.base.symbol.declarator.range), message: `${h.base.symbol.name} is declared here` }],
      };
    }));
  },
};

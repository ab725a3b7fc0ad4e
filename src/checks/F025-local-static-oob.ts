// F025: a constant offset into a `.local` variable lies beyond its declared size.
import { staticOutOfBounds } from './address-facts.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F025: Check = {
  meta: {
    id: 'F025',
    name: 'local-static-oob',
    category: 'address-spaces',
    severity: 'high',
    points: 1,
    description: 'A constant offset into a `.local` variable lies beyond its declared size.',
    rationale: 'A `.local` variable is a per-thread stack slot: an access past its end reads or overwrites the neighbouring slot (another '
      + 'array, a spilled register) of the same thread, which corrupts data silently; ptxas does not check it.',
    remedy: 'Size the variable for every element the code touches (count vector accesses: a `.v4.f32` at offset 32 needs 48 bytes), or fix '
      + 'the index arithmetic.',
    notes: 'Judged: every memory access whose address is a `.local` variable plus a constant, directly (`[buf+40]`) or through registers: '
      + '`mov` of the variable, `cvta.local`/`cvta.to.local`, integer `cvt`, and `add`/`sub` of constants are followed back; any other '
      + 'arithmetic makes the offset unknown and the access is not judged (F054-style range reasoning is not done here). It fails when '
      + 'offset < 0 or offset + bytes moved > the declared size (bytes moved: type size × vector length; 1 for instructions without a '
      + 'data type). Unsized variables are not judged.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.local .align 4 .b8 buf[16];\n\t.reg .b32 %r<2>;\n'
        + '\tmov.u32 %r1, 7;\n\tst.local.u32 [buf+16], %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.local .align 4 .b8 buf[16];\n\t.reg .b32 %r<2>;\n'
        + '\tmov.u32 %r1, 7;\n\tst.local.u32 [buf+12], %r1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const hits = staticOutOfBounds(ctx, (v) => v.space === '.local');
    return found(hits.map((h) => {
      const node = h.fn.instructions[h.index]!.node;
      return {
        message: `${h.width}-byte access at offset ${h.base.offset} of .local ${h.base.symbol.name} (${h.size} bytes) is out of bounds`,
        location: ctx.locate(node.range, h.fn, h.index),
        function: h.fn.name,
        related: [{ location: ctx.locate(h.base.symbol.declarator.range), message: `${h.base.symbol.name} is declared here` }],
      };
    }));
  },
};

// F011: a register (or literal) operand's type is incompatible with the type
// the instruction gives its position.
import { typeIssues } from './type-issues.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F011: Check = {
  meta: {
    id: 'F011',
    name: 'register-type-mismatch',
    category: 'types',
    severity: 'medium',
    points: 1,
    description: 'A register operand\'s declared type is incompatible with the instruction type under the ISA\'s type-compatibility rules (bit types match any type of equal size; signed/unsigned of equal size interchange).',
    rationale: 'ptxas rejects the instruction ("Arguments mismatch for instruction"); in hand-edited or generated PTX it usually means the wrong register was named (an `.f32` value where an integer was meant, a 64-bit register in 32-bit arithmetic).',
    remedy: 'Use a register of the instruction\'s type (or a bit-size register of its width), convert with `cvt`, or reinterpret bits with `mov.b32`/`mov.b64`.',
    notes: 'Each operand position\'s type comes from the ISA table (the form the operands fit, the type modifiers chosen; `.wide` doubles '
      + '`mul`/`mad` results). A register fits when the types are equal, either is a bit type of the same size, or both are integers of the same '
      + 'size; `ld`/`st`/`ldu`/`ld.global.nc`/`cvt` data registers may also be wider (integers, or a bit type on either side; a floating value '
      + 'never goes into a wider typed register). ptxas 13 also takes a braced vector of integer registers for a floating `ld`/`st` type of their '
      + 'size, and types a vector with a bit element as that bit type; the check follows it. Literals are judged too: `.f32`/`.f64` positions take '
      + 'only floating literals, `.f16`/`.bf16` positions no literal, integer positions no floating literal, a bit type a floating literal only '
      + 'of its own width (`0f` is 32-bit, `0d` and decimals 64-bit). Left to more specific checks: ld/st data narrower than the type (F012), '
      + 'integer width mixes in integer arithmetic (F013), all operands of `setp`/`set` and `selp`\'s selector (F014), predicates where data goes '
      + 'and data where predicates go (F017), vector element shapes (F018), special registers (F020), and ld/st of `.f16` memory types (F090).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b64 %rd<3>;\n\tadd.f32 %rd1, %rd2, %rd2;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .f32 %f<3>;\n\tadd.f32 %f1, %f2, %f2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    return found(typeIssues(ctx.analysis).filter((i) => i.check === 'F011').map((i) => ({
      message: i.message, location: ctx.locate(i.at, i.fn, i.ins.index), function: i.fn.name,
    })));
  },
};

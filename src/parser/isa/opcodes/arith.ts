// Arithmetic opcodes shared by the integer (9.7.1), floating-point (9.7.3),
// half-precision (9.7.4) and mixed-precision (9.7.5) sections. Each opcode
// name appears once in the table, so one entry carries every type the
// sections allow; per-value `since` says which types came later.
import type { OpcodeSpec } from '../types.js';
import { INT, R, RI, RND, binary, mods, op, ternary, types, unary, v } from './helpers.js';

const HALF_SINCE = {
  '.f16': v('4.2', 53),
  '.f16x2': v('4.2', 53),
  '.bf16': v('7.8', 90),
  '.bf16x2': v('7.8', 90),
  '.f32x2': v('8.6', 100),
  '.f64': v('1.0', 13),
} as const;

/** Mixed precision (9.7.5): `add.f32.f16 d, a, c` where a is .f16/.bf16. */
const MIXED_ATYPE = types('atype', ['.f16', '.bf16'], {
  required: false,
  since: { '.f16': v('8.6', 100), '.bf16': v('8.6', 100) },
});

const ADD_SUB_TYPES = [...INT, '.f16', '.f16x2', '.bf16', '.bf16x2', '.f32', '.f32x2', '.f64'];

export const ARITH_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'add',
    section: '9.7.1.1',
    since: v('1.0'),
    modifiers: [
      mods('rnd', RND),
      mods('ftz', ['.ftz']),
      mods('sat', ['.sat']),
      types('type', [...ADD_SUB_TYPES, '.u16x2', '.s16x2'], {
        since: { ...HALF_SINCE, '.u16x2': v('8.0', 90), '.s16x2': v('8.0', 90) },
      }),
      MIXED_ATYPE,
    ],
    forms: [binary(), [op('d', R, 'type'), op('a', RI, 'atype'), op('c', RI, 'type')]],
    example: 'add.s32 %r1, %r2, %r3;',
  },
  {
    opcode: 'sub',
    section: '9.7.1.2',
    since: v('1.0'),
    modifiers: [
      mods('rnd', RND),
      mods('ftz', ['.ftz']),
      mods('sat', ['.sat']),
      types('type', ADD_SUB_TYPES, { since: HALF_SINCE }),
      MIXED_ATYPE,
    ],
    forms: [binary(), [op('d', R, 'type'), op('a', RI, 'atype'), op('c', RI, 'type')]],
    example: 'sub.f32 %f1, %f2, %f3;',
  },
  {
    opcode: 'mul',
    section: '9.7.1.3',
    since: v('1.0'),
    modifiers: [
      mods('mode', ['.hi', '.lo', '.wide']),
      mods('rnd', RND),
      mods('ftz', ['.ftz']),
      mods('sat', ['.sat']),
      types('type', ADD_SUB_TYPES, { since: HALF_SINCE }),
    ],
    forms: [binary()],
    example: 'mul.wide.s32 %rd1, %r1, %r2;',
  },
  {
    opcode: 'mad',
    section: '9.7.1.4',
    since: v('1.0'),
    modifiers: [
      mods('mode', ['.hi', '.lo', '.wide']),
      // mad.cc (9.7.2.5) writes the carry flag: mad{.hi,.lo}.cc.type.
      mods('cc', ['.cc'], { since: { '.cc': v('3.0', 20) } }),
      mods('rnd', RND),
      mods('ftz', ['.ftz']),
      mods('sat', ['.sat']),
      types('type', [...INT, '.f32', '.f64']),
    ],
    forms: [ternary()],
    example: 'mad.lo.s32 %r1, %r2, %r3, %r4;',
  },
  {
    opcode: 'div',
    section: '9.7.1.8',
    since: v('1.0'),
    modifiers: [
      mods('approx', ['.approx', '.full'], { since: { '.full': v('1.4') } }),
      mods('rnd', RND),
      mods('ftz', ['.ftz']),
      types('type', [...INT, '.f32', '.f64']),
    ],
    forms: [binary()],
    example: 'div.rn.f32 %f1, %f2, %f3;',
  },
  {
    opcode: 'abs',
    section: '9.7.1.10',
    since: v('1.0'),
    modifiers: [
      mods('ftz', ['.ftz']),
      types('type', ['.s16', '.s32', '.s64', '.f16', '.f16x2', '.bf16', '.bf16x2', '.f32', '.f64'], {
        since: { '.f16': v('6.5', 53), '.f16x2': v('6.5', 53), '.bf16': v('7.0', 80), '.bf16x2': v('7.0', 80) },
      }),
    ],
    forms: [unary()],
    example: 'abs.s32 %r1, %r2;',
  },
  {
    opcode: 'neg',
    section: '9.7.1.11',
    since: v('1.0'),
    modifiers: [
      mods('ftz', ['.ftz']),
      types('type', ['.s16', '.s32', '.s64', '.f16', '.f16x2', '.bf16', '.bf16x2', '.f32', '.f64'], {
        since: { '.f16': v('6.0', 53), '.f16x2': v('6.0', 53), '.bf16': v('7.0', 80), '.bf16x2': v('7.0', 80) },
      }),
    ],
    forms: [unary()],
    example: 'neg.f32 %f1, %f2;',
  },
  ...(['min', 'max'] as const).map(
    (name): OpcodeSpec => ({
      opcode: name,
      section: name === 'min' ? '9.7.1.12' : '9.7.1.13',
      since: v('1.0'),
      modifiers: [
        mods('ftz', ['.ftz']),
        mods('nan', ['.NaN'], { since: { '.NaN': v('7.0', 80) } }),
        mods('xorsign', ['.xorsign'], { since: { '.xorsign': v('7.2', 86) } }),
        mods('abs', ['.abs'], { since: { '.abs': v('7.2', 86) } }),
        mods('relu', ['.relu'], { since: { '.relu': v('8.0', 90) } }),
        types('type', [...INT, '.u16x2', '.s16x2', '.f16', '.f16x2', '.bf16', '.bf16x2', '.f32', '.f64'], {
          since: {
            '.u16x2': v('8.0', 90),
            '.s16x2': v('8.0', 90),
            '.f16': v('7.0', 80),
            '.f16x2': v('7.0', 80),
            '.bf16': v('7.0', 80),
            '.bf16x2': v('7.0', 80),
          },
        }),
      ],
      // The three-input form (min.f32 d, a, b, c) is PTX 8.8, sm_100.
      forms: [binary(), ternary()],
      example: name === 'min' ? 'min.u32 %r1, %r2, %r3;' : 'max.f32 %f1, %f2, %f3;',
    }),
  ),
];

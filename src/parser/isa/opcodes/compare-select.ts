// Comparison and selection (PTX ISA 9.7.6) and half-precision comparison
// (9.7.7): set, setp, selp, slct.
import type { OpcodeSpec } from '../types.js';
import { P, PI, R, RI, mods, op, types, v } from './helpers.js';

const CMP = [
  '.eq', '.ne', '.lt', '.le', '.gt', '.ge',
  '.lo', '.ls', '.hi', '.hs',
  '.equ', '.neu', '.ltu', '.leu', '.gtu', '.geu', '.num', '.nan',
];
const BOOL = ['.and', '.or', '.xor'];
const CMP_TYPES = [
  '.b16', '.b32', '.b64', '.u16', '.u32', '.u64', '.s16', '.s32', '.s64',
  '.f16', '.f16x2', '.bf16', '.bf16x2', '.f32', '.f64',
];
const CMP_TYPE_SINCE = {
  '.f16': v('4.2', 53),
  '.f16x2': v('4.2', 53),
  '.bf16': v('7.8', 90),
  '.bf16x2': v('7.8', 90),
} as const;
const SEL_TYPES = ['.b16', '.b32', '.b64', '.u16', '.u32', '.u64', '.s16', '.s32', '.s64', '.f32', '.f64'];

export const COMPARE_SELECT_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'set',
    section: '9.7.6.1',
    since: v('1.0'),
    modifiers: [
      mods('cmp', CMP, { required: true }),
      mods('bool', BOOL),
      mods('ftz', ['.ftz']),
      types('dtype', ['.u32', '.s32', '.f32', '.u16', '.s16', '.f16', '.f16x2', '.bf16', '.bf16x2'], {
        since: {
          '.u16': v('6.5', 53),
          '.s16': v('6.5', 53),
          '.f16': v('4.2', 53),
          '.f16x2': v('4.2', 53),
          '.bf16': v('7.8', 90),
          '.bf16x2': v('7.8', 90),
        },
      }),
      types('stype', CMP_TYPES, { since: CMP_TYPE_SINCE }),
    ],
    forms: [
      [op('d', R, 'dtype'), op('a', RI, 'stype'), op('b', RI, 'stype')],
      [op('d', R, 'dtype'), op('a', RI, 'stype'), op('b', RI, 'stype'), op('c', PI, '.pred')],
    ],
    example: 'set.lt.u32.s32 %r1, %r2, %r3;',
  },
  {
    opcode: 'setp',
    section: '9.7.6.2',
    since: v('1.0'),
    modifiers: [
      mods('cmp', CMP, { required: true }),
      mods('bool', BOOL),
      mods('ftz', ['.ftz']),
      types('type', CMP_TYPES, { since: CMP_TYPE_SINCE }),
    ],
    forms: [
      [op('p', P, '.pred', { pairedWith: 'q' }), op('a', RI, 'type'), op('b', RI, 'type')],
      [op('p', P, '.pred', { pairedWith: 'q' }), op('a', RI, 'type'), op('b', RI, 'type'), op('c', PI, '.pred')],
    ],
    example: 'setp.lt.s32 %p1|%p2, %r1, %r2;',
  },
  {
    opcode: 'selp',
    section: '9.7.6.3',
    since: v('1.0'),
    modifiers: [types('type', SEL_TYPES)],
    forms: [[op('d', R, 'type'), op('a', RI, 'type'), op('b', RI, 'type'), op('c', P, '.pred')]],
    example: 'selp.b32 %r1, %r2, 7, %p1;',
  },
  {
    opcode: 'slct',
    section: '9.7.6.4',
    since: v('1.0'),
    modifiers: [mods('ftz', ['.ftz']), types('dtype', SEL_TYPES), types('ctype', ['.s32', '.f32'])],
    forms: [[op('d', R, 'dtype'), op('a', RI, 'dtype'), op('b', RI, 'dtype'), op('c', RI, 'ctype')]],
    example: 'slct.u32.s32 %r1, %r2, %r3, %r4;',
  },
];

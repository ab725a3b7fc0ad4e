// Video instructions (PTX ISA 9.7.18): scalar (vadd ... vset) and SIMD
// (vadd2 ... vset4). Operand byte/half selectors (a.b0, d.h1) and masks are
// operand syntax, not modifiers.
import type { OpcodeSpec } from '../types.js';
import { R, mods, op, types, v } from './helpers.js';

const US32 = ['.u32', '.s32'];
const SCALAR_SINCE = v('2.0', 20);
const SIMD_SINCE = v('3.0', 30);
const OP2 = mods('op2', ['.add', '.min', '.max']);
const CMP = mods('cmp', ['.eq', '.ne', '.lt', '.le', '.gt', '.ge'], { required: true });
const SAT = mods('sat', ['.sat']);

const D3 = [op('d', R, 'dtype'), op('a', R, 'atype'), op('b', R, 'btype')];
const D4 = [...D3, op('c', R, '.u32')];

function scalar(opcode: string, example: string): OpcodeSpec {
  return {
    opcode,
    section: '9.7.18.1.1',
    since: SCALAR_SINCE,
    modifiers: [types('dtype', US32), types('atype', US32), types('btype', US32), SAT, OP2],
    forms: [D3, D4],
    example,
  };
}

function simd(opcode: string, lanes: 2 | 4): OpcodeSpec {
  return {
    opcode,
    section: lanes === 2 ? '9.7.18.2.1' : '9.7.18.2.3',
    since: SIMD_SINCE,
    modifiers: [types('dtype', US32), types('atype', US32), types('btype', US32), SAT, mods('add', ['.add'])],
    forms: [D4],
    example: `${opcode}.u32.u32.u32 %r1, %r2, %r3, %r4;`,
  };
}

function simdSet(opcode: string, lanes: 2 | 4): OpcodeSpec {
  return {
    opcode,
    section: lanes === 2 ? '9.7.18.2.2' : '9.7.18.2.4',
    since: SIMD_SINCE,
    modifiers: [types('atype', US32), types('btype', US32), CMP, mods('add', ['.add'])],
    forms: [[op('d', R, '.u32'), op('a', R, 'atype'), op('b', R, 'btype'), op('c', R, '.u32')]],
    example: `${opcode}.s32.s32.lt %r1, %r2, %r3, %r4;`,
  };
}

export const VIDEO_OPCODES: readonly OpcodeSpec[] = [
  scalar('vadd', 'vadd.s32.s32.s32.sat %r1, %r2, %r3;'),
  scalar('vsub', 'vsub.s32.s32.s32 %r1, %r2, %r3;'),
  scalar('vabsdiff', 'vabsdiff.u32.u32.u32.add %r1, %r2, %r3, %r4;'),
  scalar('vmin', 'vmin.s32.s32.s32 %r1, %r2, %r3;'),
  scalar('vmax', 'vmax.u32.u32.u32 %r1, %r2, %r3;'),
  ...(['vshl', 'vshr'] as const).map(
    (name): OpcodeSpec => ({
      opcode: name,
      section: '9.7.18.1.2',
      since: SCALAR_SINCE,
      modifiers: [
        types('dtype', US32),
        types('atype', US32),
        types('btype', ['.u32']),
        SAT,
        mods('mode', ['.clamp', '.wrap'], { required: true }),
        OP2,
      ],
      forms: [D3, D4],
      example: `${name}.u32.u32.u32.clamp %r1, %r2, %r3;`,
    }),
  ),
  {
    opcode: 'vmad',
    section: '9.7.18.1.3',
    since: SCALAR_SINCE,
    modifiers: [
      types('dtype', US32),
      types('atype', US32),
      types('btype', US32),
      mods('po', ['.po']),
      SAT,
      mods('scale', ['.shr7', '.shr15']),
    ],
    forms: [D4],
    example: 'vmad.s32.s32.s32 %r1, %r2, %r3, %r4;',
  },
  {
    opcode: 'vset',
    section: '9.7.18.1.4',
    since: SCALAR_SINCE,
    modifiers: [types('atype', US32), types('btype', US32), CMP, OP2],
    forms: [
      [op('d', R, '.u32'), op('a', R, 'atype'), op('b', R, 'btype')],
      [op('d', R, '.u32'), op('a', R, 'atype'), op('b', R, 'btype'), op('c', R, '.u32')],
    ],
    example: 'vset.s32.s32.lt %r1, %r2, %r3;',
  },
  simd('vadd2', 2),
  simd('vsub2', 2),
  simd('vavrg2', 2),
  simd('vabsdiff2', 2),
  simd('vmin2', 2),
  simd('vmax2', 2),
  simdSet('vset2', 2),
  simd('vadd4', 4),
  simd('vsub4', 4),
  simd('vavrg4', 4),
  simd('vabsdiff4', 4),
  simd('vmin4', 4),
  simd('vmax4', 4),
  simdSet('vset4', 4),
];

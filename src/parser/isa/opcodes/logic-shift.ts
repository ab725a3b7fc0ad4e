// Logic and shift instructions (PTX ISA 9.7.8).
import type { OpcodeSpec } from '../types.js';
import { R, RI, binary, mods, op, types, unary, v } from './helpers.js';

const LOGIC_TYPES = ['.pred', '.b16', '.b32', '.b64'];

export const LOGIC_SHIFT_OPCODES: readonly OpcodeSpec[] = [
  ...(['and', 'or', 'xor'] as const).map(
    (name, i): OpcodeSpec => ({
      opcode: name,
      section: `9.7.8.${i + 1}`,
      since: v('1.0'),
      modifiers: [types('type', LOGIC_TYPES)],
      forms: [binary()],
      example: `${name}.b32 %r1, %r2, %r3;`,
    }),
  ),
  {
    opcode: 'not',
    section: '9.7.8.4',
    since: v('1.0'),
    modifiers: [types('type', LOGIC_TYPES)],
    forms: [unary()],
    example: 'not.pred %p1, %p2;',
  },
  {
    opcode: 'cnot',
    section: '9.7.8.5',
    since: v('1.0'),
    modifiers: [types('type', ['.b16', '.b32', '.b64'])],
    forms: [unary()],
    example: 'cnot.b32 %r1, %r2;',
  },
  {
    opcode: 'lop3',
    section: '9.7.8.6',
    since: v('4.3', 50),
    modifiers: [
      mods('bool', ['.or', '.and'], { since: { '.or': v('8.2', 70), '.and': v('8.2', 70) } }),
      types('type', ['.b32']),
    ],
    forms: [
      [op('d', R, 'type'), op('a', RI, 'type'), op('b', RI, 'type'), op('c', RI, 'type'), op('immLut', ['imm'])],
      [
        op('d', R, 'type', { pairedWith: 'p' }),
        op('a', RI, 'type'),
        op('b', RI, 'type'),
        op('c', RI, 'type'),
        op('immLut', ['imm']),
        op('q', ['pred', 'imm'], '.pred'),
      ],
    ],
    example: 'lop3.b32 %r1, %r2, %r3, %r4, 0x96;',
  },
  {
    opcode: 'shf',
    section: '9.7.8.7',
    since: v('3.1', 32),
    modifiers: [
      mods('dir', ['.l', '.r'], { required: true }),
      mods('mode', ['.clamp', '.wrap'], { required: true }),
      types('type', ['.b32']),
    ],
    forms: [[op('d', R, 'type'), op('a', RI, 'type'), op('b', RI, 'type'), op('c', RI, '.u32')]],
    example: 'shf.l.wrap.b32 %r1, %r2, %r3, %r4;',
  },
  {
    opcode: 'shl',
    section: '9.7.8.8',
    since: v('1.0'),
    modifiers: [types('type', ['.b16', '.b32', '.b64'])],
    forms: [[op('d', R, 'type'), op('a', RI, 'type'), op('b', RI, '.u32')]],
    example: 'shl.b64 %rd1, %rd2, 3;',
  },
  {
    opcode: 'shr',
    section: '9.7.8.9',
    since: v('1.0'),
    modifiers: [types('type', ['.b16', '.b32', '.b64', '.u16', '.u32', '.u64', '.s16', '.s32', '.s64'])],
    forms: [[op('d', R, 'type'), op('a', RI, 'type'), op('b', RI, '.u32')]],
    example: 'shr.s32 %r1, %r2, %r3;',
  },
];



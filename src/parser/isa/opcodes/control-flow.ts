// Control flow (PTX ISA 9.7.12) plus the miscellaneous instructions that
// stop or pause a thread (9.7.19: trap, brkpt, nanosleep).
import type { OpcodeSpec } from '../types.js';
import { RI, mods, op, types, v } from './helpers.js';

const UNI = mods('uni', ['.uni']);

export const CONTROL_FLOW_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'bra',
    section: '9.7.12.3',
    since: v('1.0'),
    modifiers: [UNI],
    forms: [[op('tgt', ['label'])]],
    example: 'bra.uni L1;',
  },
  {
    opcode: 'brx.idx',
    section: '9.7.12.4',
    since: v('6.0', 30),
    modifiers: [UNI],
    forms: [[op('index', RI, '.u32'), op('tlist', ['label', 'sym'])]],
    example: 'brx.idx %r1, tgts;',
  },
  {
    opcode: 'call',
    section: '9.7.12.5',
    since: v('1.0'),
    modifiers: [UNI],
    forms: [
      [op('func', ['func'])],
      [op('func', ['func']), op('params', ['list'])],
      [op('ret', ['list']), op('func', ['func'])],
      [op('ret', ['list']), op('func', ['func']), op('params', ['list'])],
      [op('func', ['func']), op('params', ['list']), op('fproto', ['sym', 'label'])],
      [op('ret', ['list']), op('func', ['func']), op('params', ['list']), op('fproto', ['sym', 'label'])],
    ],
    example: 'call.uni fn;',
  },
  {
    opcode: 'ret',
    section: '9.7.12.6',
    since: v('1.0'),
    modifiers: [UNI],
    forms: [[]],
    example: 'ret.uni;',
  },
  {
    opcode: 'exit',
    section: '9.7.12.7',
    since: v('1.0'),
    modifiers: [],
    forms: [[]],
    example: 'exit;',
  },
  {
    opcode: 'brkpt',
    section: '9.7.19.1',
    since: v('1.0', 11),
    modifiers: [],
    forms: [[]],
    example: 'brkpt;',
  },
  {
    opcode: 'nanosleep',
    section: '9.7.19.2',
    since: v('6.3', 70),
    modifiers: [types('type', ['.u32'])],
    forms: [[op('t', RI, 'type')]],
    example: 'nanosleep.u32 %r1;',
  },
  {
    opcode: 'trap',
    section: '9.7.19.4',
    since: v('1.0'),
    modifiers: [],
    forms: [[]],
    example: 'trap;',
  },
];



// Miscellaneous instructions: pmevent (PTX ISA 9.7.19.3), tensormap.replace
// (9.7.9.26) and stack manipulation (9.7.17: stacksave, stackrestore, alloca).
import type { OpcodeSpec } from '../types.js';
import { A, HOPPER_BLACKWELL_ARCH, I, R, RI, mods, op, types, v } from './helpers.js';

export const MISC_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'pmevent',
    section: '9.7.19.3',
    since: v('1.4'),
    modifiers: [mods('mask', ['.mask'], { since: { '.mask': v('3.0', 20) } })],
    forms: [[op('a', I)]],
    example: 'pmevent 1;',
  },
  {
    opcode: 'tensormap.replace',
    section: '9.7.9.26',
    since: v('8.3', 90, HOPPER_BLACKWELL_ARCH),
    modifiers: [
      mods('mode', ['.tile'], { required: true }),
      mods(
        'field',
        [
          '.global_address', '.rank',
          '.box_dim', '.global_dim', '.global_stride', '.element_stride',
          '.elemtype', '.interleave_layout', '.swizzle_mode', '.swizzle_atomicity', '.fill_mode',
        ],
        { required: true },
      ),
      mods('space', ['.global', '.shared::cta']),
      mods('size', ['.b1024'], { required: true }),
      types('type', ['.b32', '.b64']),
    ],
    forms: [
      [op('addr', A), op('new_val', RI, 'type')],
      [op('addr', A), op('ord', I, '.u32'), op('new_val', RI, 'type')],
    ],
    example: 'tensormap.replace.tile.global_address.global.b1024.b64 [%rd1], %rd2;',
  },
  {
    opcode: 'stacksave',
    section: '9.7.17.1',
    since: v('7.3', 52),
    modifiers: [types('type', ['.u32', '.u64'])],
    forms: [[op('d', R, 'type')]],
    example: 'stacksave.u64 %rd1;',
  },
  {
    opcode: 'stackrestore',
    section: '9.7.17.2',
    since: v('7.3', 52),
    modifiers: [types('type', ['.u32', '.u64'])],
    forms: [[op('a', R, 'type')]],
    example: 'stackrestore.u64 %rd1;',
  },
  {
    opcode: 'alloca',
    section: '9.7.17.3',
    since: v('7.3', 52),
    modifiers: [types('type', ['.u32', '.u64'])],
    forms: [[op('ptr', R, 'type'), op('size', RI, 'type'), op('immAlign', I, '.u32', { optional: true })]],
    example: 'alloca.u64 %rd1, %rd2;',
  },
];

// Warpgroup-level matrix multiply-accumulate (PTX ISA 9.7.15): sm_90a only.
import type { OpcodeSpec } from '../types.js';
import { I, PI, R, V, mods, op, types, v } from './helpers.js';

const WGMMA = v('8.0', 90, ['sm_90a']);
const SYNC = mods('sync', ['.sync'], { required: true });
const ALIGNED = mods('aligned', ['.aligned'], { required: true });

const N_ALL = Array.from({ length: 32 }, (_, i) => 8 * (i + 1));
// Integer and b1 shapes only allow n of 8, 16, 24 and multiples of 16 from 32 on.
const N_INT = N_ALL.filter((n) => n <= 24 || n % 16 === 0);
const DENSE_SHAPES = [
  ...N_ALL.map((n) => `.m64n${n}k16`),
  ...N_ALL.map((n) => `.m64n${n}k8`),
  ...N_ALL.map((n) => `.m64n${n}k32`),
  ...N_INT.map((n) => `.m64n${n}k256`),
];
const SPARSE_SHAPES = [
  ...N_ALL.map((n) => `.m64n${n}k32`),
  ...N_ALL.map((n) => `.m64n${n}k16`),
  ...N_ALL.map((n) => `.m64n${n}k64`),
];
const AB_TYPES = ['.f16', '.bf16', '.tf32', '.e4m3', '.e5m2', '.s8', '.u8', '.b1'];

function mmaModifiers(shapes: readonly string[]): OpcodeSpec['modifiers'] {
  return [
    SYNC,
    ALIGNED,
    mods('shape', shapes, { required: true }),
    types('dtype', ['.f16', '.f32', '.s32']),
    types('atype', AB_TYPES),
    types('btype', AB_TYPES),
    mods('satfinite', ['.satfinite']),
    mods('op', ['.and']),
    mods('popc', ['.popc']),
  ];
}

const A_OPERAND = op('a', ['reg', 'vec'], 'atype');
const B_DESC = op('b-desc', R, '.b64');
const SCALE_D = op('scale-d', PI, '.pred');

export const WGMMA_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'wgmma.mma_async',
    section: '9.7.15.5.2',
    since: WGMMA,
    modifiers: mmaModifiers(DENSE_SHAPES),
    forms: [
      // Floating point: scale-d, imm-scale-a, imm-scale-b{, imm-trans-a, imm-trans-b}.
      [
        op('d', V, 'dtype'),
        A_OPERAND,
        B_DESC,
        SCALE_D,
        op('imm-scale-a', I, '.s32'),
        op('imm-scale-b', I, '.s32'),
        op('imm-trans-a', I, '.u32', { optional: true }),
        op('imm-trans-b', I, '.u32', { optional: true }),
      ],
      // Integer and .b1: scale-d only.
      [op('d', V, 'dtype'), A_OPERAND, B_DESC, SCALE_D],
    ],
    example: 'wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;',
  },
  {
    opcode: 'wgmma.mma_async.sp',
    section: '9.7.15.6.2',
    since: v('8.2', 90, ['sm_90a']),
    modifiers: mmaModifiers(SPARSE_SHAPES),
    forms: [
      [
        op('d', V, 'dtype'),
        A_OPERAND,
        B_DESC,
        op('sp-meta', R, '.b32'),
        op('sp-sel', I, '.u32'),
        SCALE_D,
        op('imm-scale-a', I, '.s32'),
        op('imm-scale-b', I, '.s32'),
        op('imm-trans-a', I, '.u32', { optional: true }),
        op('imm-trans-b', I, '.u32', { optional: true }),
      ],
      [op('d', V, 'dtype'), A_OPERAND, B_DESC, op('sp-meta', R, '.b32'), op('sp-sel', I, '.u32'), SCALE_D],
    ],
    example:
      'wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %r1, 0, %p1, 1, 1, 0, 0;',
  },
  {
    opcode: 'wgmma.fence',
    section: '9.7.15.7.1',
    since: WGMMA,
    modifiers: [SYNC, ALIGNED],
    forms: [[]],
    example: 'wgmma.fence.sync.aligned;',
  },
  {
    opcode: 'wgmma.commit_group',
    section: '9.7.15.7.2',
    since: WGMMA,
    modifiers: [SYNC, ALIGNED],
    forms: [[]],
    example: 'wgmma.commit_group.sync.aligned;',
  },
  {
    opcode: 'wgmma.wait_group',
    section: '9.7.15.7.3',
    since: WGMMA,
    modifiers: [SYNC, ALIGNED],
    forms: [[op('N', I, '.u32')]],
    example: 'wgmma.wait_group.sync.aligned 0;',
  },
];

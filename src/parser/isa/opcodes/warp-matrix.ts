// Warp-level matrix instructions (PTX ISA 9.7.14): wmma.*, mma (dense and
// sparse), ldmatrix, stmatrix, movmatrix.
import type { OpcodeSpec } from '../types.js';
import { A, BLACKWELL_ARCH, I, R, SM120_FAMILY, V, mods, op, types, v } from './helpers.js';

const BW = v('8.6', 100, BLACKWELL_ARCH);
const SM120 = v('8.7', 120, SM120_FAMILY);

const SYNC = mods('sync', ['.sync'], { required: true });
const ALIGNED = mods('aligned', ['.aligned'], { required: true });
const WMMA_SHAPES = mods(
  'shape',
  ['.m16n16k16', '.m8n32k16', '.m32n8k16', '.m16n16k8', '.m8n8k4', '.m8n8k32', '.m8n8k128'],
  {
    required: true,
    since: {
      '.m8n32k16': v('6.1', 70),
      '.m32n8k16': v('6.1', 70),
      '.m16n16k8': v('7.0', 80),
      '.m8n8k4': v('7.0', 80),
      '.m8n8k32': v('6.3', 75),
      '.m8n8k128': v('6.3', 75),
    },
  },
);
const WMMA_SPACE = mods('space', ['.global', '.shared', '.shared::cta'], { since: { '.shared::cta': v('7.8', 70) } });
const MMA_ELEMS = ['.f16', '.bf16', '.tf32', '.f64', '.s8', '.u8', '.s4', '.u4', '.b1', '.e4m3', '.e5m2', '.e3m2', '.e2m3', '.e2m1'];
const MMA_ELEM_SINCE = {
  '.bf16': v('7.0', 80),
  '.tf32': v('7.0', 80),
  '.f64': v('7.0', 80),
  '.s8': v('6.5', 75),
  '.u8': v('6.5', 75),
  '.s4': v('6.5', 75),
  '.u4': v('6.5', 75),
  '.b1': v('7.0', 80),
  '.e4m3': v('8.4', 89),
  '.e5m2': v('8.4', 89),
  '.e3m2': SM120,
  '.e2m3': SM120,
  '.e2m1': SM120,
} as const;
const LAYOUT = ['.row', '.col'];
const F16X8 = '{%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}';
const F32X8 = '{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}';

export const WARP_MATRIX_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'wmma.load',
    section: '9.7.14.4.1',
    since: v('6.0', 70),
    modifiers: [
      mods('matrix', ['.a', '.b', '.c'], { required: true }),
      SYNC,
      mods('aligned', ['.aligned'], { since: { '.aligned': v('6.3', 70) } }),
      mods('layout', LAYOUT, { required: true }),
      WMMA_SHAPES,
      WMMA_SPACE,
      types('type', ['.f16', '.f32', '.s32', '.f64', '.bf16', '.tf32', '.s8', '.u8', '.s4', '.u4', '.b1'], {
        since: {
          '.s32': v('6.3', 72),
          '.s8': v('6.3', 72),
          '.u8': v('6.3', 72),
          '.s4': v('6.3', 75),
          '.u4': v('6.3', 75),
          '.b1': v('6.3', 75),
          '.bf16': v('7.0', 80),
          '.tf32': v('7.0', 80),
          '.f64': v('7.0', 80),
        },
      }),
    ],
    forms: [[op('r', V, 'type'), op('p', A), op('stride', ['reg', 'imm'], '.u32', { optional: true })]],
    example: `wmma.load.a.sync.aligned.row.m16n16k16.global.f16 ${F16X8}, [%rd1];`,
  },
  {
    opcode: 'wmma.store',
    section: '9.7.14.4.2',
    since: v('6.0', 70),
    modifiers: [
      mods('matrix', ['.d'], { required: true }),
      SYNC,
      mods('aligned', ['.aligned'], { since: { '.aligned': v('6.3', 70) } }),
      mods('layout', LAYOUT, { required: true }),
      WMMA_SHAPES,
      WMMA_SPACE,
      types('type', ['.f16', '.f32', '.s32', '.f64'], { since: { '.s32': v('6.3', 72), '.f64': v('7.0', 80) } }),
    ],
    forms: [[op('p', A), op('r', V, 'type'), op('stride', ['reg', 'imm'], '.u32', { optional: true })]],
    example: `wmma.store.d.sync.aligned.row.m16n16k16.global.f32 [%rd1], ${F32X8};`,
  },
  {
    opcode: 'wmma.mma',
    section: '9.7.14.4.3',
    since: v('6.0', 70),
    modifiers: [
      SYNC,
      mods('aligned', ['.aligned'], { since: { '.aligned': v('6.3', 70) } }),
      mods('alayout', LAYOUT, { required: true }),
      mods('blayout', LAYOUT, { required: true }),
      WMMA_SHAPES,
      mods('rnd', ['.rn', '.rz', '.rm', '.rp']),
      mods('op', ['.xor', '.and'], { since: { '.and': v('7.1', 80) } }),
      mods('popc', ['.popc']),
      types('dtype', ['.f16', '.f32', '.s32', '.f64']),
      types('atype', ['.s8', '.u8', '.s4', '.u4', '.b1', '.bf16', '.tf32', '.f64'], { required: false }),
      types('btype', ['.s8', '.u8', '.s4', '.u4', '.b1', '.bf16', '.tf32', '.f64'], { required: false }),
      types('ctype', ['.f16', '.f32', '.s32', '.f64']),
      mods('satfinite', ['.satfinite']),
    ],
    forms: [[op('d', V, 'dtype'), op('a', V, 'atype'), op('b', V, 'btype'), op('c', V, 'ctype')]],
    example: `wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32 ${F32X8}, ${F16X8}, ${F16X8}, ${F32X8};`,
  },
  {
    opcode: 'mma',
    section: '9.7.14.5.14',
    since: v('6.4', 70),
    modifiers: [
      // mma.sp (9.7.14.6): sparse A with metadata e and selector f.
      mods('sparse', ['.sp', '.sp::ordered_metadata'], {
        since: { '.sp': v('7.1', 80), '.sp::ordered_metadata': v('8.5', 80) },
      }),
      SYNC,
      ALIGNED,
      mods(
        'shape',
        [
          '.m8n8k4', '.m16n8k4', '.m16n8k8', '.m16n8k16', '.m16n8k32', '.m16n8k64', '.m16n8k128', '.m16n8k256',
          '.m8n8k16', '.m8n8k32', '.m8n8k128',
        ],
        {
          required: true,
          since: {
            '.m16n8k4': v('7.0', 80),
            '.m16n8k8': v('6.5', 75),
            '.m16n8k16': v('7.0', 80),
            '.m16n8k32': v('7.0', 80),
            '.m16n8k64': v('7.0', 80),
            '.m16n8k128': v('7.0', 80),
            '.m16n8k256': v('7.0', 80),
            '.m8n8k16': v('6.5', 75),
            '.m8n8k32': v('6.5', 75),
            '.m8n8k128': v('6.5', 75),
          },
        },
      ),
      mods('alayout', LAYOUT),
      mods('blayout', LAYOUT),
      mods('kind', ['.kind::f8f6f4', '.kind::mxf8f6f4', '.kind::mxf4', '.kind::mxf4nvf4'], {
        since: {
          '.kind::f8f6f4': SM120,
          '.kind::mxf8f6f4': SM120,
          '.kind::mxf4': SM120,
          '.kind::mxf4nvf4': SM120,
        },
      }),
      mods('block_scale', ['.block_scale']),
      mods('scale_vec', ['.scale_vec::1X', '.scale_vec::2X', '.scale_vec::4X']),
      mods('rnd', ['.rn', '.rz', '.rm', '.rp']),
      mods('satfinite', ['.satfinite']),
      mods('op', ['.xor', '.and'], { since: { '.and': v('7.1', 80) } }),
      mods('popc', ['.popc']),
      types('dtype', ['.f16', '.f32', '.s32', '.f64']),
      types('atype', MMA_ELEMS, { since: MMA_ELEM_SINCE }),
      types('btype', MMA_ELEMS, { since: MMA_ELEM_SINCE }),
      types('ctype', ['.f16', '.f32', '.s32', '.f64']),
      types('stype', ['.ue8m0', '.ue4m3'], { required: false }),
    ],
    forms: [
      [op('d', V, 'dtype'), op('a', V, 'atype'), op('b', V, 'btype'), op('c', V, 'ctype')],
      [
        op('d', V, 'dtype'),
        op('a', V, 'atype'),
        op('b', V, 'btype'),
        op('c', V, 'ctype'),
        op('e', R, '.b32'),
        op('f', I, '.u32'),
      ],
      [
        op('d', V, 'dtype'),
        op('a', V, 'atype'),
        op('b', V, 'btype'),
        op('c', V, 'ctype'),
        op('scale-a-data', ['reg', 'imm'], 'stype'),
        op('byte-thread-id-a', V),
        op('scale-b-data', ['reg', 'imm'], 'stype'),
        op('byte-thread-id-b', V),
      ],
    ],
    example: `mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 ${F32X8}, {%r1, %r2}, {%r3, %r4}, ${F32X8};`,
  },
  {
    opcode: 'ldmatrix',
    section: '9.7.14.5.15',
    since: v('6.5', 75),
    modifiers: [
      SYNC,
      ALIGNED,
      mods('shape', ['.m8n8', '.m16n16', '.m8n16'], {
        required: true,
        since: { '.m16n16': BW, '.m8n16': BW },
      }),
      mods('num', ['.x1', '.x2', '.x4'], { required: true }),
      mods('trans', ['.trans']),
      mods('space', ['.shared', '.shared::cta'], { since: { '.shared::cta': v('7.8', 75) } }),
      mods('dst_fmt', ['.b8x16'], { since: { '.b8x16': BW } }),
      mods('src_fmt', ['.b6x16_p32', '.b4x16_p64'], { since: { '.b6x16_p32': BW, '.b4x16_p64': BW } }),
      // Either a .type or the .dst_fmt.src_fmt pair (ldmatrix.m8n16.x1.b8x16.b6x16_p32 has no .type).
      types('type', ['.b16', '.b8'], { required: false, since: { '.b8': BW } }),
    ],
    forms: [[op('r', V, '.b32'), op('p', A)]],
    example: 'ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [smem];',
  },
  {
    opcode: 'stmatrix',
    section: '9.7.14.5.16',
    since: v('7.8', 90),
    modifiers: [
      SYNC,
      ALIGNED,
      mods('shape', ['.m8n8', '.m16n8'], { required: true, since: { '.m16n8': BW } }),
      mods('num', ['.x1', '.x2', '.x4'], { required: true }),
      mods('trans', ['.trans']),
      mods('space', ['.shared', '.shared::cta']),
      types('type', ['.b16', '.b8'], { since: { '.b8': BW } }),
    ],
    forms: [[op('p', A), op('r', V, '.b32')]],
    example: 'stmatrix.sync.aligned.m8n8.x4.shared.b16 [smem], {%r1, %r2, %r3, %r4};',
  },
  {
    opcode: 'movmatrix',
    section: '9.7.14.5.17',
    since: v('7.8', 75),
    modifiers: [
      SYNC,
      ALIGNED,
      mods('shape', ['.m8n8'], { required: true }),
      mods('trans', ['.trans'], { required: true }),
      types('type', ['.b16']),
    ],
    forms: [[op('d', R, '.b32'), op('a', R, '.b32')]],
    example: 'movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;',
  },
];

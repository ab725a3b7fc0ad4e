// TensorCore 5th generation (PTX ISA 9.7.16): tcgen05.*. Arch-specific:
// sm_100a from PTX 8.6, sm_100f/sm_103a/sm_103f from 8.8, sm_110a/sm_110f
// from 9.0. ptxas 13 rejects plain sm_100 and the sm_120 family, and no
// longer knows sm_101a (CUDA 13 renamed it sm_110a).
import type { OpcodeSpec } from '../types.js';
import { A, I, PI, R, RI, SM100_SM110, V, mods, op, types, v } from './helpers.js';

export const TCGEN05_TARGETS = SM100_SM110;
const TC = v('8.6', 100, TCGEN05_TARGETS);
const CTA_GROUP = mods('cta_group', ['.cta_group::1', '.cta_group::2'], { required: true });
const SYNC = mods('sync', ['.sync'], { required: true });
const ALIGNED = mods('aligned', ['.aligned'], { required: true });
const NUM = mods('num', ['.x1', '.x2', '.x4', '.x8', '.x16', '.x32', '.x64', '.x128'], { required: true });
const LDST_SHAPE = mods('shape', ['.16x64b', '.16x128b', '.16x256b', '.32x32b', '.16x32bx2'], { required: true });
const KIND = mods(
  'kind',
  ['.kind::tf32', '.kind::f16', '.kind::f8f6f4', '.kind::i8', '.kind::mxf8f6f4', '.kind::mxf4', '.kind::mxf4nvf4'],
  { required: true },
);
const COLLECTOR_A = mods('collector_a', [
  '.collector::a::fill',
  '.collector::a::use',
  '.collector::a::lastuse',
  '.collector::a::discard',
]);
const BLOCK_SCALE = mods('block_scale', ['.block_scale']);
const SCALE_VEC = mods('scale_vec', ['.scale_vec::1X', '.scale_vec::2X', '.scale_vec::4X', '.block16', '.block32'], {
  since: { '.block16': v('8.8', 100, TCGEN05_TARGETS), '.block32': v('8.8', 100, TCGEN05_TARGETS) },
});

const D_TMEM = op('d-tmem', A);
const A_OPND = op('a', ['reg', 'addr'], '.b64');
const B_DESC = op('b-desc', R, '.b64');
const IDESC = op('idesc', R, '.b32');
const ENABLE = op('enable-input-d', PI, '.pred');
const DISABLE = op('disable-output-lane', V, '.b32');

/** Operand lists of the dense forms: plain, with the lane mask, with the scale, block-scaled. */
function mmaForms(extra: readonly ReturnType<typeof op>[]): OpcodeSpec['forms'] {
  const head = [D_TMEM, A_OPND, B_DESC, ...extra, IDESC];
  return [
    [...head, ENABLE],
    [...head, DISABLE, ENABLE],
    [...head, ENABLE, op('scale-input-d', I, '.u32')],
    [...head, DISABLE, ENABLE, op('scale-input-d', I, '.u32')],
    [...head, op('scale-A-tmem', A), op('scale-B-tmem', A), ENABLE],
  ];
}

function simple(opcode: string, section: string, example: string, withCtaGroup: boolean): OpcodeSpec {
  return {
    opcode,
    section,
    since: TC,
    modifiers: withCtaGroup ? [CTA_GROUP, SYNC, ALIGNED] : [SYNC, ALIGNED],
    forms: [[]],
    example,
  };
}

export const TCGEN05_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'tcgen05.alloc',
    section: '9.7.16.7.1',
    since: TC,
    modifiers: [CTA_GROUP, SYNC, ALIGNED, mods('space', ['.shared::cta']), types('type', ['.b32'])],
    forms: [[op('dst', A), op('nCols', RI, '.u32')]],
    example: 'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [smem], 32;',
  },
  {
    opcode: 'tcgen05.dealloc',
    section: '9.7.16.7.1',
    since: TC,
    modifiers: [CTA_GROUP, SYNC, ALIGNED, types('type', ['.b32'])],
    forms: [[op('taddr', R, '.b32'), op('nCols', RI, '.u32')]],
    example: 'tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 32;',
  },
  simple(
    'tcgen05.relinquish_alloc_permit',
    '9.7.16.7.1',
    'tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;',
    true,
  ),
  {
    opcode: 'tcgen05.ld',
    section: '9.7.16.8.3',
    since: TC,
    modifiers: [
      SYNC,
      ALIGNED,
      LDST_SHAPE,
      NUM,
      mods('pack', ['.pack::16b']),
      types('type', ['.b32']),
    ],
    forms: [
      [op('r', V, 'type'), op('taddr', A)],
      [op('r', V, 'type'), op('taddr', A), op('immHalfSplitoff', I, '.u32')],
    ],
    example: 'tcgen05.ld.sync.aligned.32x32b.x1.b32 {%r1}, [%r2];',
  },
  {
    opcode: 'tcgen05.st',
    section: '9.7.16.8.4',
    since: TC,
    modifiers: [
      SYNC,
      ALIGNED,
      LDST_SHAPE,
      NUM,
      mods('unpack', ['.unpack::16b']),
      types('type', ['.b32']),
    ],
    forms: [
      [op('taddr', A), op('r', V, 'type')],
      [op('taddr', A), op('immHalfSplitoff', I, '.u32'), op('r', V, 'type')],
    ],
    example: 'tcgen05.st.sync.aligned.32x32b.x1.b32 [%r2], {%r1};',
  },
  simple('tcgen05.wait::ld', '9.7.16.8.5', 'tcgen05.wait::ld.sync.aligned;', false),
  simple('tcgen05.wait::st', '9.7.16.8.5', 'tcgen05.wait::st.sync.aligned;', false),
  {
    opcode: 'tcgen05.cp',
    section: '9.7.16.9.1',
    since: TC,
    modifiers: [
      CTA_GROUP,
      mods('shape', ['.128x256b', '.4x256b', '.128x128b', '.64x128b', '.32x128b'], { required: true }),
      mods('multicast', ['.warpx2::02_13', '.warpx2::01_23', '.warpx4']),
      mods('dst_fmt', ['.b8x16']),
      mods('src_fmt', ['.b6x16_p32', '.b4x16_p64']),
    ],
    forms: [[op('taddr', A), op('s-desc', R, '.b64')]],
    example: 'tcgen05.cp.cta_group::1.128x256b [%r1], %rd1;',
  },
  {
    opcode: 'tcgen05.shift',
    section: '9.7.16.9.2',
    since: TC,
    modifiers: [CTA_GROUP, mods('dir', ['.down'], { required: true })],
    forms: [[op('taddr', A)]],
    example: 'tcgen05.shift.cta_group::1.down [%r1];',
  },
  {
    opcode: 'tcgen05.mma',
    section: '9.7.16.10.9.1',
    since: TC,
    modifiers: [CTA_GROUP, KIND, BLOCK_SCALE, SCALE_VEC, COLLECTOR_A, mods('ashift', ['.ashift'])],
    forms: mmaForms([]),
    example: 'tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;',
  },
  {
    opcode: 'tcgen05.mma.sp',
    section: '9.7.16.10.9.2',
    since: TC,
    modifiers: [CTA_GROUP, KIND, BLOCK_SCALE, SCALE_VEC, COLLECTOR_A],
    forms: mmaForms([op('sp-meta-tmem', A)]),
    example: 'tcgen05.mma.sp.cta_group::1.kind::f16 [%r1], %rd1, %rd2, [%r3], %r2, %p1;',
  },
  {
    opcode: 'tcgen05.mma.ws',
    section: '9.7.16.10.9.3',
    since: TC,
    modifiers: [
      mods('cta_group', ['.cta_group::1'], { required: true }),
      KIND,
      mods('collector_b', [
        '.collector::b0::fill', '.collector::b0::use', '.collector::b0::lastuse', '.collector::b0::discard',
        '.collector::b1::fill', '.collector::b1::use', '.collector::b1::lastuse', '.collector::b1::discard',
        '.collector::b2::fill', '.collector::b2::use', '.collector::b2::lastuse', '.collector::b2::discard',
        '.collector::b3::fill', '.collector::b3::use', '.collector::b3::lastuse', '.collector::b3::discard',
      ]),
    ],
    forms: [
      [D_TMEM, A_OPND, B_DESC, IDESC, ENABLE, op('zero-column-mask-desc', R, '.b64', { optional: true })],
    ],
    example: 'tcgen05.mma.ws.cta_group::1.kind::f16 [%r1], %rd1, %rd2, %r2, %p1;',
  },
  {
    opcode: 'tcgen05.mma.ws.sp',
    section: '9.7.16.10.9.4',
    since: TC,
    modifiers: [mods('cta_group', ['.cta_group::1'], { required: true }), KIND],
    forms: [
      [
        D_TMEM,
        A_OPND,
        B_DESC,
        op('sp-meta-tmem', A),
        IDESC,
        ENABLE,
        op('zero-column-mask-desc', R, '.b64', { optional: true }),
      ],
    ],
    example: 'tcgen05.mma.ws.sp.cta_group::1.kind::f16 [%r1], %rd1, %rd2, [%r3], %r2, %p1;',
  },
  {
    opcode: 'tcgen05.commit',
    section: '9.7.16.11.1',
    since: TC,
    modifiers: [
      CTA_GROUP,
      mods('completion', ['.mbarrier::arrive::one'], { required: true }),
      mods('space', ['.shared::cluster']),
      mods('multicast', ['.multicast::cluster']),
      types('type', ['.b64']),
    ],
    forms: [[op('mbar', A), op('ctaMask', RI, '.b16', { optional: true })]],
    example: 'tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [smem];',
  },
  {
    opcode: 'tcgen05.fence::before_thread_sync',
    section: '9.7.16.6.4.1',
    since: TC,
    modifiers: [],
    forms: [[]],
    example: 'tcgen05.fence::before_thread_sync;',
  },
  {
    opcode: 'tcgen05.fence::after_thread_sync',
    section: '9.7.16.6.4.1',
    since: TC,
    modifiers: [],
    forms: [[]],
    example: 'tcgen05.fence::after_thread_sync;',
  },
];

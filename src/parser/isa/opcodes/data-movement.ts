// Data movement and conversion (PTX ISA 9.7.9): mov, shfl, prmt, ld/st and
// their variants, prefetch, cache policies, cvta/cvt, and the asynchronous
// copies (cp.async*, cp.async.bulk*, cp.reduce.async.bulk*).
import type { OpcodeSpec } from '../types.js';
import {
  A,
  ALL_LDST_TYPES,
  I,
  P,
  R,
  RI,
  RV,
  BLACKWELL_ARCH,
  SCOPES,
  SCOPE_SINCE,
  SM100_FAMILY,
  SM100_SM110,
  V,
  mods,
  op,
  types,
  v,
} from './helpers.js';

const LDST_TYPES = types('type', ALL_LDST_TYPES, { since: { '.b128': v('8.3', 70) } });
const VEC = mods('vec', ['.v2', '.v4', '.v8'], { since: { '.v8': v('8.8', 100) } });
const L1_EVICT = mods(
  'evict',
  ['.L1::evict_normal', '.L1::evict_unchanged', '.L1::evict_first', '.L1::evict_last', '.L1::no_allocate'],
  {
    since: {
      '.L1::evict_normal': v('7.4', 70),
      '.L1::evict_unchanged': v('7.4', 70),
      '.L1::evict_first': v('7.4', 70),
      '.L1::evict_last': v('7.4', 70),
      '.L1::no_allocate': v('7.4', 70),
    },
  },
);
const CACHE_HINT = mods('hint', ['.L2::cache_hint'], { since: { '.L2::cache_hint': v('7.4', 80) } });
const PREFETCH_SIZE = mods('prefetch', ['.L2::64B', '.L2::128B', '.L2::256B'], {
  since: { '.L2::64B': v('7.4', 75), '.L2::128B': v('7.4', 75), '.L2::256B': v('7.4', 80) },
});
const MEM_SCOPE = mods('scope', SCOPES, {
  since: { '.cta': v('6.0', 70), '.gpu': v('6.0', 70), '.sys': v('6.0', 70), ...SCOPE_SINCE },
});
const SHARED_SPACES = ['.shared', '.shared::cta', '.shared::cluster'];
const SHARED_SPACE_SINCE = { '.shared::cta': v('7.8'), '.shared::cluster': v('7.8', 90) } as const;
const COMPLETE_TX = '.mbarrier::complete_tx::bytes';
const BULK_SINCE = v('8.0', 90);
const TENSOR_DIMS = mods('dim', ['.1d', '.2d', '.3d', '.4d', '.5d'], { required: true });
const LOAD_MODE = mods(
  'load_mode',
  ['.tile', '.im2col', '.im2col::w', '.im2col::w::128', '.tile::gather4', '.tile::scatter4', '.im2col_no_offs'],
  {
    since: {
      '.im2col::w': v('8.6', 100),
      '.im2col::w::128': v('8.6', 100),
      '.tile::gather4': v('8.6', 100),
      '.tile::scatter4': v('8.6', 100),
      '.im2col_no_offs': v('8.6', 100),
    },
  },
);
const RED_OPS = ['.and', '.or', '.xor', '.add', '.inc', '.dec', '.min', '.max'];
const POLICY = op('cache-policy', R, '.b64', { optional: true });

export const DATA_MOVEMENT_OPCODES: readonly OpcodeSpec[] = [
  {
    opcode: 'mov',
    section: '9.7.9.3',
    since: v('1.0'),
    modifiers: [
      // `mov.v2.u32 %vu, {..}` / `mov.v4.f32` move whole vector registers (ptxas 13 accepts them).
      mods('vec', ['.v2', '.v4']),
      types(
        'type',
        ['.pred', '.b16', '.b32', '.b64', '.b128', '.u16', '.u32', '.u64', '.s16', '.s32', '.s64', '.f32', '.f64'],
        { since: { '.b128': v('8.3', 70) } },
      ),
    ],
    forms: [[op('d', RV, 'type'), op('a', ['reg', 'imm', 'sreg', 'sym', 'vec', 'func'], 'type')]],
    example: 'mov.u32 %r1, %tid.x;',
  },
  {
    opcode: 'shfl',
    section: '9.7.9.6',
    since: v('3.0', 30),
    modifiers: [
      // shfl without .sync (9.7.9.5) is deprecated and unreliable on sm_70+.
      mods('sync', ['.sync'], { since: { '.sync': v('6.0', 30) } }),
      mods('mode', ['.up', '.down', '.bfly', '.idx'], { required: true }),
      types('type', ['.b32']),
    ],
    forms: [
      [
        op('d', R, 'type', { pairedWith: 'p' }),
        op('a', RI, 'type'),
        op('b', RI, '.b32'),
        op('c', RI, '.b32'),
        op('membermask', RI, '.b32', { optional: true }),
      ],
    ],
    example: 'shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;',
  },
  {
    opcode: 'prmt',
    section: '9.7.9.7',
    since: v('2.0', 20),
    modifiers: [types('type', ['.b32']), mods('mode', ['.f4e', '.b4e', '.rc8', '.ecl', '.ecr', '.rc16'])],
    forms: [[op('d', R, 'type'), op('a', RI, 'type'), op('b', RI, 'type'), op('c', RI, 'type')]],
    example: 'prmt.b32 %r1, %r2, %r3, 0x3210;',
  },
  {
    opcode: 'ld',
    section: '9.7.9.8',
    since: v('1.0'),
    modifiers: [
      // `.mmio` combines with `.relaxed.sys`: ld.mmio.relaxed.sys.global (ptxas 13 accepts it).
      mods('mmio', ['.mmio'], { since: { '.mmio': v('8.2', 70) } }),
      mods('sem', ['.weak', '.volatile', '.relaxed', '.acquire'], {
        since: {
          '.weak': v('6.0', 70),
          '.relaxed': v('6.0', 70),
          '.acquire': v('6.0', 70),
        },
      }),
      MEM_SCOPE,
      mods(
        'space',
        ['.const', '.global', '.local', '.param', '.param::entry', '.param::func', ...SHARED_SPACES],
        { since: { ...SHARED_SPACE_SINCE, '.param::entry': v('8.3'), '.param::func': v('8.3') } },
      ),
      mods('cop', ['.ca', '.cg', '.cs', '.lu', '.cv'], {
        since: { '.ca': v('2.0'), '.cg': v('2.0'), '.cs': v('2.0'), '.lu': v('2.0'), '.cv': v('2.0') },
      }),
      L1_EVICT,
      CACHE_HINT,
      PREFETCH_SIZE,
      VEC,
      LDST_TYPES,
    ],
    forms: [[op('d', RV, 'type'), op('a', A), POLICY]],
    example: 'ld.global.u32 %r1, [%rd1];',
  },
  {
    opcode: 'ld.global.nc',
    section: '9.7.9.9',
    since: v('3.1', 32),
    modifiers: [
      mods('cop', ['.ca', '.cg', '.cs']),
      L1_EVICT,
      CACHE_HINT,
      PREFETCH_SIZE,
      VEC,
      LDST_TYPES,
    ],
    forms: [[op('d', RV, 'type'), op('a', A), POLICY]],
    example: 'ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1];',
  },
  {
    opcode: 'ldu',
    section: '9.7.9.10',
    since: v('2.0', 20),
    modifiers: [mods('space', ['.global']), mods('vec', ['.v2', '.v4']), LDST_TYPES],
    forms: [[op('d', RV, 'type'), op('a', A)]],
    example: 'ldu.global.f32 %f1, [%rd1];',
  },
  {
    opcode: 'st',
    section: '9.7.9.11',
    since: v('1.0'),
    modifiers: [
      // `.mmio` combines with `.relaxed.sys`: st.mmio.relaxed.sys.global (ptxas 13 accepts it).
      mods('mmio', ['.mmio'], { since: { '.mmio': v('8.2', 70) } }),
      mods('sem', ['.weak', '.volatile', '.relaxed', '.release'], {
        since: {
          '.weak': v('6.0', 70),
          '.relaxed': v('6.0', 70),
          '.release': v('6.0', 70),
        },
      }),
      MEM_SCOPE,
      mods('space', ['.global', '.local', '.param', '.param::func', ...SHARED_SPACES], {
        since: { ...SHARED_SPACE_SINCE, '.param::func': v('8.3') },
      }),
      mods('cop', ['.wb', '.cg', '.cs', '.wt'], {
        since: { '.wb': v('2.0'), '.cg': v('2.0'), '.cs': v('2.0'), '.wt': v('2.0') },
      }),
      L1_EVICT,
      CACHE_HINT,
      VEC,
      LDST_TYPES,
    ],
    forms: [[op('a', A), op('b', ['reg', 'imm', 'vec'], 'type'), POLICY]],
    example: 'st.global.u32 [%rd1], %r1;',
  },
  {
    opcode: 'st.async',
    section: '9.7.9.12',
    since: v('8.1', 90),
    modifiers: [
      // PTX 8.7 adds a release form to global memory (sm_100): st.async{.mmio}.release.scope.global.
      mods('mmio', ['.mmio'], { since: { '.mmio': v('8.7', 100) } }),
      mods('sem', ['.weak', '.release'], { since: { '.release': v('8.7', 100) } }),
      mods('scope', ['.cluster', '.gpu', '.sys'], { since: { '.gpu': v('8.7', 100), '.sys': v('8.7', 100) } }),
      mods('space', ['.shared::cluster', '.global'], { since: { '.global': v('8.7', 100) } }),
      mods('completion', [COMPLETE_TX]),
      mods('vec', ['.v2', '.v4']),
      types('type', ['.b32', '.b64', '.u32', '.s32', '.u64', '.s64', '.f32', '.f64']),
    ],
    forms: [[op('a', A), op('b', RV, 'type'), op('mbar', A, undefined, { optional: true })]],
    example: 'st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %r1, [%rd2];',
  },
  {
    opcode: 'st.bulk',
    section: '9.7.9.13',
    since: v('8.6', 100),
    modifiers: [mods('sem', ['.weak']), mods('space', ['.shared::cta'])],
    forms: [[op('a', A), op('size', RI, '.b64'), op('initval', I, '.b64')]],
    example: 'st.bulk.weak.shared::cta [%rd1], 64, 0;',
  },
  {
    opcode: 'multimem.ld_reduce',
    section: '9.7.9.14',
    since: v('8.1', 90),
    modifiers: [
      mods('sem', ['.weak', '.relaxed', '.acquire']),
      MEM_SCOPE,
      mods('space', ['.global']),
      mods('op', ['.min', '.max', '.add', '.and', '.or', '.xor'], { required: true }),
      mods('acc', ['.acc::f32', '.acc::f16'], { since: { '.acc::f16': v('8.6', 100) } }),
      mods('vec', ['.v2', '.v4', '.v8']),
      types('type', [
        '.b32', '.b64', '.u32', '.s32', '.u64', '.s64', '.f32', '.f64',
        '.f16', '.f16x2', '.bf16', '.bf16x2',
      ]),
    ],
    forms: [[op('d', RV, 'type'), op('a', A)]],
    example: 'multimem.ld_reduce.relaxed.gpu.global.add.u32 %r1, [%rd1];',
  },
  {
    opcode: 'multimem.st',
    section: '9.7.9.14',
    since: v('8.1', 90),
    modifiers: [
      mods('sem', ['.weak', '.relaxed', '.release']),
      MEM_SCOPE,
      mods('space', ['.global']),
      mods('vec', ['.v2', '.v4', '.v8']),
      types('type', ['.b32', '.b64', '.u32', '.s32', '.u64', '.s64', '.f32', '.f64', '.f16', '.f16x2', '.bf16', '.bf16x2']),
    ],
    forms: [[op('a', A), op('b', RV, 'type')]],
    example: 'multimem.st.relaxed.gpu.global.u32 [%rd1], %r1;',
  },
  {
    opcode: 'multimem.red',
    section: '9.7.9.14',
    since: v('8.1', 90),
    modifiers: [
      mods('sem', ['.relaxed', '.release']),
      MEM_SCOPE,
      mods('space', ['.global']),
      mods('op', ['.min', '.max', '.add', '.and', '.or', '.xor'], { required: true }),
      mods('vec', ['.v2', '.v4', '.v8']),
      types('type', ['.b32', '.b64', '.u32', '.s32', '.u64', '.s64', '.f32', '.f64', '.f16', '.f16x2', '.bf16', '.bf16x2']),
    ],
    forms: [[op('a', A), op('b', RV, 'type')]],
    example: 'multimem.red.relaxed.gpu.global.add.u32 [%rd1], %r1;',
  },
  {
    opcode: 'prefetch',
    section: '9.7.9.15',
    since: v('2.0', 20),
    modifiers: [
      mods('space', ['.global', '.local', '.const', '.param'], {
        since: { '.const': v('8.0', 90), '.param': v('8.0', 90) },
      }),
      mods('level', ['.L1', '.L2', '.L2::evict_last', '.L2::evict_normal', '.tensormap'], {
        required: true,
        since: {
          '.L2::evict_last': v('7.4', 80),
          '.L2::evict_normal': v('7.4', 80),
          '.tensormap': v('8.0', 90),
        },
      }),
    ],
    forms: [[op('a', A)]],
    example: 'prefetch.global.L2 [%rd1];',
  },
  {
    opcode: 'prefetchu',
    section: '9.7.9.15',
    since: v('2.0', 20),
    modifiers: [mods('level', ['.L1'], { required: true })],
    forms: [[op('a', A)]],
    example: 'prefetchu.L1 [%rd1];',
  },
  {
    opcode: 'applypriority',
    section: '9.7.9.16',
    since: v('7.4', 80),
    modifiers: [mods('space', ['.global']), mods('priority', ['.L2::evict_normal'], { required: true })],
    forms: [[op('a', A), op('size', I, '.u64')]],
    example: 'applypriority.global.L2::evict_normal [%rd1], 128;',
  },
  {
    opcode: 'discard',
    section: '9.7.9.17',
    since: v('7.4', 80),
    modifiers: [mods('space', ['.global']), mods('level', ['.L2'], { required: true })],
    forms: [[op('a', A), op('size', I, '.u64')]],
    example: 'discard.global.L2 [%rd1], 128;',
  },
  {
    opcode: 'createpolicy',
    section: '9.7.9.18',
    since: v('7.4', 80),
    modifiers: [
      mods('kind', ['.fractional', '.range', '.cvt'], { required: true }),
      mods('primary', ['.L2::evict_last', '.L2::evict_normal', '.L2::evict_first', '.L2::evict_unchanged']),
      mods('secondary', ['.L2::evict_first', '.L2::evict_unchanged']),
      mods('level', ['.L2']),
      types('type', ['.b64']),
    ],
    forms: [
      [op('policy', R, 'type'), op('fraction', I, '.f32', { optional: true })],
      [op('policy', R, 'type'), op('a', A), op('primary-size', RI, '.u32'), op('total-size', RI, '.u32')],
      [op('policy', R, 'type'), op('access-property', R, '.b64')],
    ],
    example: 'createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;',
  },
  {
    opcode: 'isspacep',
    section: '9.7.9.19',
    since: v('2.0', 20),
    modifiers: [
      mods(
        'space',
        ['.const', '.global', '.local', '.param', '.param::entry', ...SHARED_SPACES],
        { required: true, since: { ...SHARED_SPACE_SINCE, '.param': v('7.7'), '.param::entry': v('8.3') } },
      ),
    ],
    forms: [[op('p', P, '.pred'), op('a', R)]],
    example: 'isspacep.global %p1, %rd1;',
  },
  {
    opcode: 'cvta',
    section: '9.7.9.20',
    since: v('2.0', 20),
    modifiers: [
      mods('to', ['.to']),
      mods(
        'space',
        ['.const', '.global', '.local', '.param', '.param::entry', ...SHARED_SPACES],
        { required: true, since: { ...SHARED_SPACE_SINCE, '.param': v('7.7'), '.param::entry': v('8.3') } },
      ),
      types('type', ['.u32', '.u64']),
    ],
    forms: [[op('p', R, 'type'), op('a', ['reg', 'sym', 'imm'], 'type')]],
    example: 'cvta.to.global.u64 %rd1, %rd2;',
  },
  (() => {
    // FP4/FP6/UE8M0 conversions: every Blackwell arch-specific target.
    const ARCH_FP = v('8.6', 100, BLACKWELL_ARCH);
    // Stochastic rounding (.rs) and the x4 packings: sm_100 family only.
    const X4 = v('8.7', 100, SM100_FAMILY);
    const base = ['.u8', '.u16', '.u32', '.u64', '.s8', '.s16', '.s32', '.s64', '.f16', '.bf16', '.f32', '.f64'];
    const fp8x2 = ['.e4m3x2', '.e5m2x2', '.e2m3x2', '.e3m2x2', '.e2m1x2', '.ue8m0x2'];
    const fp8Since = {
      // sm_90 takes these from PTX 7.8, sm_89 only from 8.1.
      '.e4m3x2': v('8.1', 89),
      '.e5m2x2': v('8.1', 89),
      '.e2m3x2': ARCH_FP,
      '.e3m2x2': ARCH_FP,
      '.e2m1x2': ARCH_FP,
      '.ue8m0x2': ARCH_FP,
    };
    return {
      opcode: 'cvt',
      section: '9.7.9.21',
      since: v('1.0'),
      modifiers: [
        mods('rnd', ['.rn', '.rz', '.rm', '.rp', '.rna', '.rs', '.rni', '.rzi', '.rmi', '.rpi'], {
          since: { '.rna': v('7.0', 80), '.rs': X4 },
        }),
        mods('ftz', ['.ftz']),
        mods('sat', ['.sat']),
        mods('relu', ['.relu'], { since: { '.relu': v('7.0', 80) } }),
        mods('satfinite', ['.satfinite'], { since: { '.satfinite': v('8.1', 80) } }),
        types(
          'dtype',
          [...base, '.f16x2', '.bf16x2', '.tf32', ...fp8x2, '.e4m3x4', '.e5m2x4', '.e2m3x4', '.e3m2x4', '.e2m1x4'],
          {
            since: {
              '.bf16': v('7.0', 80),
              '.f16x2': v('7.0', 80),
              '.bf16x2': v('7.0', 80),
              '.tf32': v('7.0', 80),
              ...fp8Since,
              '.e4m3x4': X4,
              '.e5m2x4': X4,
              '.e2m3x4': X4,
              '.e3m2x4': X4,
              '.e2m1x4': X4,
            },
          },
        ),
        types('atype', [...base, '.f16x2', '.bf16x2', ...fp8x2], {
          since: { '.bf16': v('7.1', 80), '.f16x2': v('8.1', 89), '.bf16x2': ARCH_FP, ...fp8Since },
        }),
      ],
      forms: [
        [op('d', R, 'dtype'), op('a', RI, 'atype')],
        [op('d', R, 'dtype'), op('a', RI, 'atype'), op('b', RI, 'atype')],
        [op('d', R, 'dtype'), op('a', RI, 'atype'), op('b', RI, 'atype'), op('rbits', R, '.b32')],
        [op('d', R, 'dtype'), op('a', V, 'atype'), op('rbits', R, '.b32')],
      ],
      example: 'cvt.rn.f32.s32 %f1, %r1;',
    } satisfies OpcodeSpec;
  })(),
  {
    opcode: 'cvt.pack',
    section: '9.7.9.22',
    since: v('6.5', 72),
    modifiers: [
      mods('sat', ['.sat'], { required: true }),
      types('dtype', ['.u16', '.s16', '.u8', '.s8', '.u4', '.s4', '.u2', '.s2'], {
        since: {
          '.u8': v('6.5', 72), '.s8': v('6.5', 72),
          '.u4': v('6.5', 72), '.s4': v('6.5', 72), '.u2': v('6.5', 72), '.s2': v('6.5', 72),
        },
      }),
      types('atype', ['.s32']),
      types('ctype', ['.b32'], { required: false }),
    ],
    forms: [
      [op('d', R, '.b32'), op('a', RI, 'atype'), op('b', RI, 'atype')],
      [op('d', R, '.b32'), op('a', RI, 'atype'), op('b', RI, 'atype'), op('c', RI, 'ctype')],
    ],
    example: 'cvt.pack.sat.s16.s32 %r1, %r2, %r3;',
  },
  // 9.7.9.25 Asynchronous data movement.
  {
    opcode: 'cp.async',
    section: '9.7.9.25.3.1',
    since: v('7.0', 80),
    modifiers: [
      mods('cop', ['.ca', '.cg'], { required: true }),
      // ptxas takes .shared::cta here from PTX 7.0 on (ld/st need 7.8).
      mods('dst', ['.shared', '.shared::cta'], { required: true }),
      mods('src', ['.global'], { required: true }),
      CACHE_HINT,
      PREFETCH_SIZE,
    ],
    forms: [
      [
        op('dst', A),
        op('src', A),
        op('cp-size', I, '.u32'),
        op('src-size', RI, '.u32', { optional: true }),
        POLICY,
      ],
      [op('dst', A), op('src', A), op('cp-size', I, '.u32'), op('ignore-src', P, '.pred', { optional: true }), POLICY],
    ],
    example: 'cp.async.ca.shared.global [smem], [%rd1], 16;',
  },
  {
    opcode: 'cp.async.commit_group',
    section: '9.7.9.25.3.2',
    since: v('7.0', 80),
    modifiers: [],
    forms: [[]],
    example: 'cp.async.commit_group;',
  },
  {
    opcode: 'cp.async.wait_group',
    section: '9.7.9.25.3.3',
    since: v('7.0', 80),
    modifiers: [],
    forms: [[op('N', I, '.u32')]],
    example: 'cp.async.wait_group 0;',
  },
  {
    opcode: 'cp.async.wait_all',
    section: '9.7.9.25.3.3',
    since: v('7.0', 80),
    modifiers: [],
    forms: [[]],
    example: 'cp.async.wait_all;',
  },
  {
    opcode: 'cp.async.mbarrier.arrive',
    section: '9.7.13.15.14',
    since: v('7.0', 80),
    modifiers: [
      mods('noinc', ['.noinc']),
      mods('space', ['.shared', '.shared::cta'], { since: { '.shared::cta': v('7.8', 80) } }),
      types('type', ['.b64']),
    ],
    forms: [[op('addr', A)]],
    example: 'cp.async.mbarrier.arrive.shared.b64 [smem];',
  },
  {
    opcode: 'cp.async.bulk',
    section: '9.7.9.25.4.1',
    since: BULK_SINCE,
    modifiers: [
      mods('dst', ['.shared::cta', '.shared::cluster', '.global'], {
        required: true,
        since: { '.shared::cta': v('8.6', 90) },
      }),
      mods('src', ['.global', '.shared::cta'], { required: true }),
      mods('completion', [COMPLETE_TX, '.bulk_group'], { required: true }),
      mods('multicast', ['.multicast::cluster']),
      CACHE_HINT,
      mods('mask', ['.cp_mask'], { since: { '.cp_mask': v('8.6', 100) } }),
    ],
    forms: [
      [
        op('dst', A),
        op('src', A),
        op('size', RI, '.u32'),
        op('mbar', A),
        op('ctaMask', RI, '.b16', { optional: true }),
        POLICY,
      ],
      [op('dst', A), op('src', A), op('size', RI, '.u32'), POLICY, op('byteMask', RI, '.b16', { optional: true })],
    ],
    example: `cp.async.bulk.shared::cluster.global${COMPLETE_TX} [smem], [%rd1], 16, [smem+1024];`,
  },
  {
    opcode: 'cp.reduce.async.bulk',
    section: '9.7.9.25.4.2',
    since: BULK_SINCE,
    modifiers: [
      mods('dst', ['.shared::cluster', '.global'], { required: true }),
      mods('src', ['.shared::cta'], { required: true }),
      mods('completion', [COMPLETE_TX, '.bulk_group'], { required: true }),
      CACHE_HINT,
      mods('op', RED_OPS, { required: true }),
      mods('noftz', ['.noftz']),
      types('type', ['.b32', '.u32', '.s32', '.b64', '.u64', '.s64', '.f32', '.f64', '.f16', '.bf16']),
    ],
    forms: [
      [op('dst', A), op('src', A), op('size', RI, '.u32'), op('mbar', A)],
      [op('dst', A), op('src', A), op('size', RI, '.u32'), POLICY],
    ],
    example: 'cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [smem], 16;',
  },
  {
    opcode: 'cp.async.bulk.prefetch',
    section: '9.7.9.25.4.3',
    since: BULK_SINCE,
    modifiers: [mods('level', ['.L2'], { required: true }), mods('src', ['.global'], { required: true }), CACHE_HINT],
    forms: [[op('src', A), op('size', RI, '.u32'), POLICY]],
    example: 'cp.async.bulk.prefetch.L2.global [%rd1], 16;',
  },
  {
    opcode: 'cp.async.bulk.tensor',
    section: '9.7.9.25.5.1',
    since: BULK_SINCE,
    modifiers: [
      TENSOR_DIMS,
      mods('dst', ['.shared::cta', '.shared::cluster', '.global'], {
        required: true,
        since: { '.shared::cta': v('8.6', 90) },
      }),
      mods('src', ['.global', '.shared::cta'], { required: true }),
      LOAD_MODE,
      mods('completion', [COMPLETE_TX, '.bulk_group'], { required: true }),
      mods('cta_group', ['.cta_group::1', '.cta_group::2'], {
        since: {
          '.cta_group::1': v('8.6', 100, SM100_SM110),
          '.cta_group::2': v('8.6', 100, SM100_SM110),
        },
      }),
      mods('multicast', ['.multicast::cluster']),
      CACHE_HINT,
    ],
    forms: [
      [
        op('dst', A),
        op('tensor', A),
        op('mbar', A),
        op('im2colInfo', V, undefined, { optional: true }),
        op('ctaMask', RI, '.b16', { optional: true }),
        POLICY,
      ],
      [op('tensor', A), op('src', A), POLICY],
    ],
    example: `cp.async.bulk.tensor.1d.shared::cluster.global.tile${COMPLETE_TX} [smem], [%rd1, {%r1}], [smem+1024];`,
  },
  {
    opcode: 'cp.reduce.async.bulk.tensor',
    section: '9.7.9.25.5.2',
    since: BULK_SINCE,
    modifiers: [
      TENSOR_DIMS,
      mods('dst', ['.global'], { required: true }),
      mods('src', ['.shared::cta'], { required: true }),
      mods('op', ['.add', '.min', '.max', '.inc', '.dec', '.and', '.or', '.xor'], { required: true }),
      LOAD_MODE,
      mods('completion', ['.bulk_group'], { required: true }),
      CACHE_HINT,
    ],
    forms: [[op('tensor', A), op('src', A), POLICY]],
    example: 'cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.tile.bulk_group [%rd1, {%r1}], [smem];',
  },
  {
    opcode: 'cp.async.bulk.prefetch.tensor',
    section: '9.7.9.25.5.3',
    since: BULK_SINCE,
    modifiers: [
      TENSOR_DIMS,
      mods('level', ['.L2'], { required: true }),
      mods('src', ['.global'], { required: true }),
      LOAD_MODE,
      CACHE_HINT,
    ],
    forms: [[op('tensor', A), op('im2colInfo', V, undefined, { optional: true }), POLICY]],
    example: 'cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%rd1, {%r1}];',
  },
  {
    opcode: 'cp.async.bulk.commit_group',
    section: '9.7.9.25.6.1',
    since: BULK_SINCE,
    modifiers: [],
    forms: [[]],
    example: 'cp.async.bulk.commit_group;',
  },
  {
    opcode: 'cp.async.bulk.wait_group',
    section: '9.7.9.25.6.2',
    since: BULK_SINCE,
    modifiers: [mods('read', ['.read'])],
    forms: [[op('N', I, '.u32')]],
    example: 'cp.async.bulk.wait_group.read 0;',
  },
];



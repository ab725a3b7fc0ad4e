// Parallel synchronization and communication (PTX ISA 9.7.13): barriers,
// fences, atomics and reductions, warp votes/matches/reductions, mbarrier
// objects, cluster addressing, and grid dependency control.
import type { OpcodeSpec } from '../types.js';
import {
  A,
  HOPPER_BLACKWELL_ARCH,
  I,
  P,
  PI,
  R,
  RI,
  RV,
  SCOPES,
  SCOPE_SINCE,
  SM100_FAMILY,
  mods,
  op,
  types,
  v,
} from './helpers.js';

const SEM_SINCE = v('6.0', 70);
const MEM_SCOPE = mods('scope', SCOPES, {
  since: { '.cta': SEM_SINCE, '.gpu': SEM_SINCE, '.sys': SEM_SINCE, ...SCOPE_SINCE },
});
const ATOM_SPACE = mods('space', ['.global', '.shared', '.shared::cta', '.shared::cluster'], {
  since: { '.shared::cta': v('7.8'), '.shared::cluster': v('7.8', 90) },
});
const ATOM_OPS = ['.and', '.or', '.xor', '.cas', '.exch', '.add', '.inc', '.dec', '.min', '.max'];
const ATOM_TYPES = types(
  'type',
  ['.b16', '.b32', '.b64', '.b128', '.u32', '.u64', '.s32', '.s64', '.f32', '.f64', '.f16', '.f16x2', '.bf16', '.bf16x2'],
  {
    since: {
      // atom.cas.b16 (16-bit compare-and-swap): PTX 6.3, sm_70.
      '.b16': v('6.3', 70),
      '.b128': v('8.3', 90),
      '.f64': v('5.0', 60),
      '.f16': v('6.3', 70),
      '.f16x2': v('6.2', 60),
      '.bf16': v('7.8', 90),
      '.bf16x2': v('7.8', 90),
    },
  },
);
const CACHE_HINT = mods('hint', ['.L2::cache_hint'], { since: { '.L2::cache_hint': v('7.4', 80) } });
const ATOM_VEC = mods('vec', ['.v2', '.v4', '.v8'], {
  since: { '.v2': v('8.1', 90), '.v4': v('8.1', 90), '.v8': v('8.1', 90) },
});
const POLICY = op('cache-policy', R, '.b64', { optional: true });
const MBAR_SPACE = mods('space', ['.shared', '.shared::cta'], { since: { '.shared::cta': v('7.8', 80) } });
const MBAR_SPACE_CLUSTER = mods('space', ['.shared', '.shared::cta', '.shared::cluster'], {
  since: { '.shared::cta': v('7.8', 80), '.shared::cluster': v('8.0', 90) },
});
const MBAR_SCOPE = mods('scope', ['.cta', '.cluster'], { since: { '.cta': v('8.0', 90), '.cluster': v('8.0', 90) } });
const B64 = types('type', ['.b64']);
const MEMBERMASK = op('membermask', RI, '.b32');
const COMPLETE_TX = '.mbarrier::complete_tx::bytes';

function barLike(opcode: 'bar' | 'barrier', section: string, since: ReturnType<typeof v>, example: string): OpcodeSpec {
  return {
    opcode,
    section,
    since,
    modifiers: [
      mods('cta', ['.cta'], { since: { '.cta': v('7.8') } }),
      mods('mode', ['.sync', '.arrive', '.red'], { required: true }),
      mods('redop', ['.popc', '.and', '.or']),
      ...(opcode === 'barrier' ? [mods('aligned', ['.aligned'])] : []),
      types('type', ['.u32', '.pred'], { required: false }),
    ],
    forms: [
      [op('a', RI, '.u32'), op('b', RI, '.u32', { optional: true })],
      [op('d', ['reg', 'pred'], 'type'), op('a', RI, '.u32'), op('c', PI, '.pred')],
      [op('d', ['reg', 'pred'], 'type'), op('a', RI, '.u32'), op('b', RI, '.u32'), op('c', PI, '.pred')],
    ],
    example,
  };
}

export const SYNC_COMM_OPCODES: readonly OpcodeSpec[] = [
  barLike('bar', '9.7.13.1', v('1.0'), 'bar.sync 0;'),
  barLike('barrier', '9.7.13.1', v('6.0', 70), 'barrier.sync.aligned 0, 64;'),
  {
    opcode: 'bar.warp.sync',
    section: '9.7.13.2',
    since: v('6.0', 70),
    modifiers: [],
    forms: [[MEMBERMASK]],
    example: 'bar.warp.sync -1;',
  },
  {
    opcode: 'barrier.cluster',
    section: '9.7.13.3',
    since: v('7.8', 90),
    modifiers: [
      mods('mode', ['.arrive', '.wait'], { required: true }),
      mods('sem', ['.release', '.relaxed', '.acquire'], {
        since: { '.release': v('8.0', 90), '.relaxed': v('8.0', 90), '.acquire': v('8.0', 90) },
      }),
      mods('aligned', ['.aligned']),
    ],
    forms: [[]],
    example: 'barrier.cluster.arrive.aligned;',
  },
  {
    opcode: 'membar',
    section: '9.7.13.4',
    since: v('1.4'),
    modifiers: [
      mods('level', ['.cta', '.gl', '.sys'], { since: { '.sys': v('2.0', 20) } }),
      mods('proxy', ['.proxy'], { since: { '.proxy': v('7.5', 70) } }),
      mods('proxykind', ['.alias']),
    ],
    forms: [[]],
    example: 'membar.gl;',
  },
  {
    opcode: 'fence',
    section: '9.7.13.4',
    since: v('6.0', 70),
    modifiers: [
      // ptxas 13 takes fence.acquire/.release.<scope> from PTX 6.0 and fence.mbarrier_init.release
      // from 8.0; the 8.6 lightweight forms are gated by their .sync_restrict modifier.
      mods('sem', ['.sc', '.acq_rel', '.acquire', '.release']),
      mods('op_restrict', ['.mbarrier_init'], { since: { '.mbarrier_init': v('8.0', 90) } }),
      mods('sync_restrict', ['.sync_restrict::shared::cta', '.sync_restrict::shared::cluster'], {
        since: {
          '.sync_restrict::shared::cta': v('8.6', 90),
          '.sync_restrict::shared::cluster': v('8.6', 90),
        },
      }),
      MEM_SCOPE,
    ],
    forms: [[]],
    example: 'fence.acq_rel.gpu;',
  },
  {
    opcode: 'fence.proxy',
    section: '9.7.13.4',
    since: v('7.5', 70),
    modifiers: [
      mods('proxykind', ['.alias', '.async', '.tensormap::generic', '.async::generic'], {
        required: true,
        since: {
          '.async': v('8.0', 90),
          '.tensormap::generic': v('8.3', 90),
          '.async::generic': v('8.6', 90),
        },
      }),
      mods('space', ['.global', '.shared::cta', '.shared::cluster'], {
        since: { '.global': v('8.0', 90), '.shared::cta': v('8.0', 90), '.shared::cluster': v('8.0', 90) },
      }),
      mods('sem', ['.acquire', '.release']),
      mods('sync_restrict', ['.sync_restrict::shared::cta', '.sync_restrict::shared::cluster'], {
        since: {
          '.sync_restrict::shared::cta': v('8.6', 90),
          '.sync_restrict::shared::cluster': v('8.6', 90),
        },
      }),
      MEM_SCOPE,
    ],
    forms: [[], [op('addr', A), op('size', I, '.u32')]],
    example: 'fence.proxy.alias;',
  },
  {
    opcode: 'atom',
    section: '9.7.13.5',
    since: v('1.1', 11),
    modifiers: [
      mods('sem', ['.relaxed', '.acquire', '.release', '.acq_rel'], {
        since: { '.relaxed': SEM_SINCE, '.acquire': SEM_SINCE, '.release': SEM_SINCE, '.acq_rel': SEM_SINCE },
      }),
      MEM_SCOPE,
      ATOM_SPACE,
      mods('op', ATOM_OPS, { required: true }),
      CACHE_HINT,
      mods('noftz', ['.noftz']),
      ATOM_VEC,
      ATOM_TYPES,
    ],
    forms: [
      [op('d', RV, 'type'), op('a', A), op('b', ['reg', 'imm', 'vec'], 'type'), POLICY],
      [op('d', RV, 'type'), op('a', A), op('b', RI, 'type'), op('c', RI, 'type'), POLICY],
    ],
    example: 'atom.global.add.u32 %r1, [%rd1], %r2;',
  },
  {
    opcode: 'red',
    section: '9.7.13.6',
    since: v('1.2', 11),
    modifiers: [
      mods('sem', ['.relaxed', '.release'], { since: { '.relaxed': SEM_SINCE, '.release': SEM_SINCE } }),
      MEM_SCOPE,
      ATOM_SPACE,
      mods('op', ['.and', '.or', '.xor', '.add', '.inc', '.dec', '.min', '.max'], { required: true }),
      CACHE_HINT,
      mods('noftz', ['.noftz']),
      ATOM_VEC,
      ATOM_TYPES,
    ],
    forms: [[op('a', A), op('b', ['reg', 'imm', 'vec'], 'type'), POLICY]],
    example: 'red.global.add.u32 [%rd1], %r1;',
  },
  {
    opcode: 'red.async',
    section: '9.7.13.7',
    since: v('8.1', 90),
    modifiers: [
      // PTX 8.7 adds a release form to global memory (sm_100): red.async{.mmio}.release.scope.global.
      mods('mmio', ['.mmio'], { since: { '.mmio': v('8.7', 100) } }),
      mods('sem', ['.relaxed', '.release'], { required: true, since: { '.release': v('8.7', 100) } }),
      mods('scope', ['.cluster', '.gpu', '.sys'], {
        required: true,
        since: { '.gpu': v('8.7', 100), '.sys': v('8.7', 100) },
      }),
      mods('space', ['.shared::cluster', '.global'], { since: { '.global': v('8.7', 100) } }),
      mods('completion', [COMPLETE_TX]),
      mods('op', ['.inc', '.dec', '.min', '.max', '.add', '.and', '.or', '.xor'], { required: true }),
      types('type', ['.b32', '.u32', '.s32', '.b64', '.u64', '.s64']),
    ],
    forms: [[op('a', A), op('b', RI, 'type'), op('mbar', A, undefined, { optional: true })]],
    example: `red.async.relaxed.cluster.shared::cluster${COMPLETE_TX}.add.u32 [%rd1], %r1, [%rd2];`,
  },
  {
    opcode: 'vote',
    section: '9.7.13.9',
    since: v('1.2', 12),
    modifiers: [
      // vote without .sync (9.7.13.8) is deprecated and unreliable on sm_70+.
      mods('sync', ['.sync'], { since: { '.sync': v('6.0', 30) } }),
      mods('mode', ['.all', '.any', '.uni', '.ballot'], { required: true, since: { '.ballot': v('2.0', 20) } }),
      types('type', ['.pred', '.b32']),
    ],
    forms: [[op('d', ['reg', 'pred'], 'type'), op('a', PI, '.pred'), { ...MEMBERMASK, optional: true }]],
    example: 'vote.sync.ballot.b32 %r1, %p1, -1;',
  },
  {
    opcode: 'match',
    section: '9.7.13.10',
    since: v('6.0', 70),
    modifiers: [
      mods('mode', ['.any', '.all'], { required: true }),
      mods('sync', ['.sync'], { required: true }),
      types('type', ['.b32', '.b64']),
    ],
    forms: [[op('d', R, '.b32', { pairedWith: 'p' }), op('a', RI, 'type'), MEMBERMASK]],
    example: 'match.any.sync.b32 %r1, %r2, -1;',
  },
  {
    opcode: 'activemask',
    section: '9.7.13.11',
    since: v('6.2', 30),
    modifiers: [types('type', ['.b32'])],
    forms: [[op('d', R, 'type')]],
    example: 'activemask.b32 %r1;',
  },
  {
    opcode: 'redux',
    section: '9.7.13.12',
    since: v('7.0', 80),
    modifiers: [
      mods('sync', ['.sync'], { required: true }),
      mods('op', ['.add', '.min', '.max', '.and', '.or', '.xor'], { required: true }),
      // .f32 (with .abs/.NaN) is sm_100-family only.
      mods('abs', ['.abs'], { since: { '.abs': v('8.6', 100, SM100_FAMILY) } }),
      mods('nan', ['.NaN'], { since: { '.NaN': v('8.6', 100, SM100_FAMILY) } }),
      types('type', ['.u32', '.s32', '.b32', '.f32'], { since: { '.f32': v('8.6', 100, SM100_FAMILY) } }),
    ],
    forms: [[op('d', R, 'type'), op('a', R, 'type'), MEMBERMASK]],
    example: 'redux.sync.add.u32 %r1, %r2, -1;',
  },
  {
    opcode: 'griddepcontrol',
    section: '9.7.13.13',
    since: v('7.8', 90),
    modifiers: [mods('action', ['.launch_dependents', '.wait'], { required: true })],
    forms: [[]],
    example: 'griddepcontrol.launch_dependents;',
  },
  {
    opcode: 'elect',
    section: '9.7.13.14',
    since: v('8.0', 90),
    modifiers: [mods('sync', ['.sync'], { required: true })],
    forms: [[op('d', ['reg', 'sink'], '.b32', { pairedWith: 'p' }), MEMBERMASK]],
    example: 'elect.sync %r1|%p1, -1;',
  },
  // 9.7.13.15 mbarrier.
  {
    opcode: 'mbarrier.init',
    section: '9.7.13.15.9',
    since: v('7.0', 80),
    modifiers: [MBAR_SPACE, B64],
    forms: [[op('addr', A), op('count', RI, '.u32')]],
    example: 'mbarrier.init.shared.b64 [smem], 1;',
  },
  {
    opcode: 'mbarrier.inval',
    section: '9.7.13.15.10',
    since: v('7.0', 80),
    modifiers: [MBAR_SPACE, B64],
    forms: [[op('addr', A)]],
    example: 'mbarrier.inval.shared.b64 [smem];',
  },
  {
    opcode: 'mbarrier.expect_tx',
    section: '9.7.13.15.11',
    since: v('8.0', 90),
    modifiers: [mods('sem', ['.relaxed']), MBAR_SCOPE, MBAR_SPACE_CLUSTER, B64],
    forms: [[op('addr', A), op('txCount', RI, '.u32')]],
    example: 'mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [smem], 16;',
  },
  {
    opcode: 'mbarrier.complete_tx',
    section: '9.7.13.15.12',
    since: v('8.0', 90),
    modifiers: [mods('sem', ['.relaxed']), MBAR_SCOPE, MBAR_SPACE_CLUSTER, B64],
    forms: [[op('addr', A), op('txCount', RI, '.u32')]],
    example: 'mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [smem], 16;',
  },
  {
    opcode: 'mbarrier.arrive',
    section: '9.7.13.15.13',
    since: v('7.0', 80),
    modifiers: [
      mods('expect_tx', ['.expect_tx'], { since: { '.expect_tx': v('8.0', 90) } }),
      mods('noComplete', ['.noComplete']),
      mods('sem', ['.release', '.relaxed'], { since: { '.release': v('8.0', 90), '.relaxed': v('8.6', 90) } }),
      MBAR_SCOPE,
      MBAR_SPACE_CLUSTER,
      B64,
    ],
    forms: [[op('state', ['reg', 'sink'], '.b64'), op('addr', A), op('count', RI, '.u32', { optional: true })]],
    example: 'mbarrier.arrive.shared.b64 %rd1, [smem];',
  },
  {
    opcode: 'mbarrier.arrive_drop',
    section: '9.7.13.15.14',
    since: v('7.0', 80),
    modifiers: [
      mods('expect_tx', ['.expect_tx'], { since: { '.expect_tx': v('8.0', 90) } }),
      mods('noComplete', ['.noComplete']),
      mods('sem', ['.release', '.relaxed'], { since: { '.release': v('8.0', 90), '.relaxed': v('8.6', 90) } }),
      MBAR_SCOPE,
      MBAR_SPACE_CLUSTER,
      B64,
    ],
    forms: [[op('state', ['reg', 'sink'], '.b64'), op('addr', A), op('count', RI, '.u32', { optional: true })]],
    example: 'mbarrier.arrive_drop.shared.b64 %rd1, [smem];',
  },
  {
    opcode: 'mbarrier.test_wait',
    section: '9.7.13.15.16',
    since: v('7.0', 80),
    modifiers: [
      mods('parity', ['.parity'], { since: { '.parity': v('7.1', 80) } }),
      mods('sem', ['.acquire', '.relaxed'], { since: { '.acquire': v('8.0', 90), '.relaxed': v('8.6', 90) } }),
      MBAR_SCOPE,
      MBAR_SPACE,
      B64,
    ],
    forms: [[op('waitComplete', P, '.pred'), op('addr', A), op('state', RI)]],
    example: 'mbarrier.test_wait.shared.b64 %p1, [smem], %rd1;',
  },
  {
    opcode: 'mbarrier.try_wait',
    section: '9.7.13.15.16',
    since: v('7.8', 90),
    modifiers: [
      mods('parity', ['.parity']),
      mods('sem', ['.acquire', '.relaxed'], { since: { '.acquire': v('8.0', 90), '.relaxed': v('8.6', 90) } }),
      MBAR_SCOPE,
      MBAR_SPACE,
      B64,
    ],
    forms: [
      [
        op('waitComplete', P, '.pred'),
        op('addr', A),
        // The state (.b64) or, with .parity, the phase parity (.b32).
        op('state', RI),
        op('suspendTimeHint', RI, '.u32', { optional: true }),
      ],
    ],
    example: 'mbarrier.try_wait.parity.shared.b64 %p1, [smem], %r1;',
  },
  {
    opcode: 'mbarrier.pending_count',
    section: '9.7.13.15.17',
    since: v('7.0', 80),
    modifiers: [B64],
    forms: [[op('count', R, '.u32'), op('state', R, '.b64')]],
    example: 'mbarrier.pending_count.b64 %r1, %rd1;',
  },
  {
    opcode: 'tensormap.cp_fenceproxy',
    section: '9.7.13.16',
    since: v('8.3', 90),
    modifiers: [
      mods('dst', ['.global'], { required: true }),
      mods('src', ['.shared::cta'], { required: true }),
      mods('proxykind', ['.tensormap::generic'], { required: true }),
      mods('sem', ['.release'], { required: true }),
      mods('scope', ['.cta', '.cluster', '.gpu', '.sys'], { required: true }),
      mods('sync', ['.sync'], { required: true }),
      mods('aligned', ['.aligned'], { required: true }),
    ],
    forms: [[op('dst', A), op('src', A), op('size', I, '.u32')]],
    example: 'tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%rd1], [smem], 128;',
  },
  {
    opcode: 'clusterlaunchcontrol.try_cancel',
    section: '9.7.13.17',
    since: v('8.6', 100),
    modifiers: [
      mods('async', ['.async'], { required: true }),
      mods('space', ['.shared::cta']),
      mods('completion', [COMPLETE_TX], { required: true }),
      mods('multicast', ['.multicast::cluster::all']),
      types('type', ['.b128']),
    ],
    forms: [[op('addr', A), op('mbar', A)]],
    example: `clusterlaunchcontrol.try_cancel.async.shared::cta${COMPLETE_TX}.b128 [smem], [smem+1024];`,
  },
  {
    opcode: 'clusterlaunchcontrol.query_cancel',
    section: '9.7.13.18',
    since: v('8.6', 100),
    modifiers: [
      mods(
        'query',
        ['.is_canceled', '.get_first_ctaid', '.get_first_ctaid::x', '.get_first_ctaid::y', '.get_first_ctaid::z'],
        { required: true },
      ),
      mods('vec', ['.v4']),
      types('dtype', ['.pred', '.b32']),
      types('btype', ['.b128']),
    ],
    forms: [[op('d', ['pred', 'reg', 'vec'], 'dtype'), op('response', R, 'btype')]],
    example: 'clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 %p1, %q1;',
  },
  {
    opcode: 'mapa',
    section: '9.7.9.23',
    since: v('7.8', 90),
    modifiers: [mods('space', ['.shared::cluster']), types('type', ['.u32', '.u64'])],
    forms: [[op('d', R, 'type'), op('a', ['reg', 'sym'], 'type'), op('b', RI, '.u32')]],
    example: 'mapa.shared::cluster.u32 %r1, %r2, %r3;',
  },
  {
    opcode: 'getctarank',
    section: '9.7.9.24',
    since: v('7.8', 90),
    modifiers: [mods('space', ['.shared::cluster']), types('type', ['.u32', '.u64'])],
    forms: [[op('d', R, '.u32'), op('a', ['reg', 'sym'], 'type')]],
    example: 'getctarank.shared::cluster.u32 %r1, %r2;',
  },
  {
    opcode: 'setmaxnreg',
    section: '9.7.19.5',
    since: v('8.0', 90, HOPPER_BLACKWELL_ARCH),
    modifiers: [
      mods('action', ['.inc', '.dec'], { required: true }),
      mods('sync', ['.sync'], { required: true }),
      mods('aligned', ['.aligned'], { required: true }),
      types('type', ['.u32']),
    ],
    forms: [[op('imm-reg-count', I, 'type')]],
    example: 'setmaxnreg.inc.sync.aligned.u32 64;',
  },
];

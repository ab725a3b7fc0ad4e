// Per-value `since` checks: for a modifier or type value that is newer than
// its opcode, a probe instruction using it must assemble at the version and
// target the table gives, and (where the version is what binds) must fail
// one PTX version earlier.
import { beforeAll, describe, expect, it } from 'vitest';
import { lookupOpcode } from '../../../src/parser/isa/opcodes/index.js';
import type { Availability } from '../../../src/parser/isa/types.js';
import { TARGET_MIN_PTX, assembleItems, compareVersions, findPtxas } from './ptxas-harness.js';
import type { AssemblyItem } from './ptxas-harness.js';

/** PTX ISA versions ptxas 13 knows for sm_75 and later. */
const PTX_VERSIONS = [
  '6.3', '6.4', '6.5', '7.0', '7.1', '7.2', '7.3', '7.4', '7.5', '7.6', '7.7', '7.8',
  '8.0', '8.1', '8.2', '8.3', '8.4', '8.5', '8.6', '8.7', '8.8', '9.0',
];

interface Probe {
  readonly opcode: string;
  readonly group: string;
  readonly value: string;
  readonly example: string;
}

const F8 = '{%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}';
const H8 = '{%h1, %h2, %h3, %h4, %h5, %h6, %h7, %h8}';
const MMA_F32 = '{%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}';
const TX = '.mbarrier::complete_tx::bytes';

const p = (opcode: string, group: string, value: string, example: string): Probe => ({
  opcode,
  group,
  value,
  example,
});

export const PROBES: readonly Probe[] = [
  // Arithmetic.
  p('add', 'type', '.bf16', 'add.bf16 %h1, %h2, %h3;'),
  p('add', 'type', '.u16x2', 'add.u16x2 %r1, %r2, %r3;'),
  p('add', 'type', '.f32x2', 'add.f32x2 %rd1, %rd2, %rd3;'),
  p('add', 'atype', '.f16', 'add.rn.f32.f16 %f1, %h1, %f2;'),
  p('sub', 'type', '.bf16x2', 'sub.bf16x2 %r1, %r2, %r3;'),
  p('sub', 'atype', '.bf16', 'sub.rn.f32.bf16 %f1, %h1, %f2;'),
  p('mul', 'type', '.bf16', 'mul.bf16 %h1, %h2, %h3;'),
  p('mad', 'cc', '.cc', 'mad.lo.cc.u32 %r1, %r2, %r3, %r4;'),
  p('abs', 'type', '.f16', 'abs.f16 %h1, %h2;'),
  p('abs', 'type', '.bf16', 'abs.bf16 %h1, %h2;'),
  p('neg', 'type', '.bf16x2', 'neg.bf16x2 %r1, %r2;'),
  p('min', 'nan', '.NaN', 'min.NaN.f32 %f1, %f2, %f3;'),
  p('min', 'xorsign', '.xorsign', 'min.xorsign.abs.f32 %f1, %f2, %f3;'),
  p('min', 'type', '.bf16', 'min.bf16 %h1, %h2, %h3;'),
  p('max', 'relu', '.relu', 'max.relu.s32 %r1, %r2, %r3;'),
  p('max', 'type', '.s16x2', 'max.s16x2 %r1, %r2, %r3;'),
  p('fma', 'relu', '.relu', 'fma.rn.relu.f16 %h1, %h2, %h3, %h4;'),
  p('fma', 'oob', '.oob', 'fma.rn.oob.f16 %h1, %h2, %h3, %h4;'),
  p('fma', 'type', '.bf16', 'fma.rn.bf16 %h1, %h2, %h3, %h4;'),
  p('fma', 'type', '.f32x2', 'fma.rn.f32x2 %rd1, %rd2, %rd3, %rd4;'),
  p('fma', 'abtype', '.bf16', 'fma.rn.f32.bf16 %f1, %h1, %h2, %f2;'),
  p('ex2', 'type', '.f16', 'ex2.approx.f16 %h1, %h2;'),
  p('ex2', 'type', '.bf16x2', 'ex2.approx.ftz.bf16x2 %r1, %r2;'),
  p('tanh', 'type', '.bf16', 'tanh.approx.bf16 %h1, %h2;'),
  // Comparison and logic.
  p('set', 'dtype', '.u16', 'set.lt.u16.f16 %h1, %h2, %h3;'),
  p('set', 'dtype', '.bf16', 'set.lt.bf16.bf16 %h1, %h2, %h3;'),
  p('setp', 'type', '.bf16x2', 'setp.lt.bf16x2 %p1|%p2, %r1, %r2;'),
  p('lop3', 'bool', '.or', 'lop3.or.b32 %r1|%p1, %r2, %r3, %r4, 0x96, %p2;'),
  // Loads and stores.
  p('ld', 'sem', '.relaxed', 'ld.relaxed.gpu.global.u32 %r1, [%rd1];'),
  p('ld', 'mmio', '.mmio', 'ld.mmio.relaxed.sys.global.u32 %r1, [%rd1];'),
  p('ld', 'scope', '.cluster', 'ld.relaxed.cluster.global.u32 %r1, [%rd1];'),
  p('ld', 'space', '.shared::cta', 'ld.shared::cta.u32 %r1, [%rd1];'),
  p('ld', 'space', '.shared::cluster', 'ld.shared::cluster.u32 %r1, [%rd1];'),
  p('ld', 'space', '.param::entry', 'ld.param::entry.u32 %r1, [%rd1];'),
  p('ld', 'evict', '.L1::evict_last', 'ld.global.L1::evict_last.u32 %r1, [%rd1];'),
  p('ld', 'hint', '.L2::cache_hint', 'ld.global.L2::cache_hint.u32 %r1, [%rd1], %rd2;'),
  p('ld', 'prefetch', '.L2::64B', 'ld.global.L2::64B.u32 %r1, [%rd1];'),
  p('ld', 'prefetch', '.L2::256B', 'ld.global.L2::256B.u32 %r1, [%rd1];'),
  p('ld', 'vec', '.v8', `ld.global.v8.f32 ${F8}, [%rd1];`),
  p('ld', 'type', '.b128', 'ld.global.b128 %q1, [%rd1];'),
  p('ld.global.nc', 'vec', '.v8', `ld.global.nc.v8.f32 ${F8}, [%rd1];`),
  p('st', 'sem', '.release', 'st.release.gpu.global.u32 [%rd1], %r1;'),
  p('st', 'vec', '.v8', `st.global.v8.f32 [%rd1], ${F8};`),
  p('st.async', 'sem', '.release', 'st.async.release.gpu.global.u32 [%rd1], %r1;'),
  p('st.async', 'mmio', '.mmio', 'st.async.mmio.release.sys.global.u32 [%rd1], %r1;'),
  p('prefetch', 'level', '.L2::evict_last', 'prefetch.global.L2::evict_last [%rd1];'),
  p('prefetch', 'level', '.tensormap', 'prefetch.tensormap [%rd1];'),
  p('isspacep', 'space', '.param', 'isspacep.param %p1, %rd1;'),
  p('isspacep', 'space', '.shared::cluster', 'isspacep.shared::cluster %p1, %rd1;'),
  p('cvta', 'space', '.param', 'cvta.param.u64 %rd1, %rd2;'),
  p('cvta', 'space', '.param::entry', 'cvta.param::entry.u64 %rd1, %rd2;'),
  p('mov', 'type', '.b128', 'mov.b128 %q1, {%rd1, %rd2};'),
  // Conversions.
  p('cvt', 'dtype', '.bf16', 'cvt.rn.bf16.f32 %h1, %f1;'),
  p('cvt', 'atype', '.bf16', 'cvt.f32.bf16 %f1, %h1;'),
  p('cvt', 'dtype', '.tf32', 'cvt.rna.tf32.f32 %r1, %f1;'),
  p('cvt', 'rnd', '.rna', 'cvt.rna.tf32.f32 %r1, %f1;'),
  p('cvt', 'relu', '.relu', 'cvt.rn.relu.f16x2.f32 %r1, %f1, %f2;'),
  p('cvt', 'dtype', '.f16x2', 'cvt.rn.f16x2.f32 %r1, %f1, %f2;'),
  p('cvt', 'satfinite', '.satfinite', 'cvt.rna.satfinite.tf32.f32 %r1, %f1;'),
  p('cvt', 'dtype', '.e4m3x2', 'cvt.rn.satfinite.e4m3x2.f32 %rs1, %f1, %f2;'),
  p('cvt', 'atype', '.e5m2x2', 'cvt.rn.f16x2.e5m2x2 %r1, %rs1;'),
  p('cvt', 'atype', '.f16x2', 'cvt.rn.satfinite.e4m3x2.f16x2 %rs1, %r1;'),
  p('cvt', 'dtype', '.e2m3x2', 'cvt.rn.satfinite.e2m3x2.f32 %rs1, %f1, %f2;'),
  p('cvt', 'dtype', '.ue8m0x2', 'cvt.rz.satfinite.ue8m0x2.f32 %rs1, %f1, %f2;'),
  p('cvt', 'atype', '.ue8m0x2', 'cvt.rn.bf16x2.ue8m0x2 %r1, %rs1;'),
  p('cvt', 'atype', '.bf16x2', 'cvt.rz.satfinite.ue8m0x2.bf16x2 %rs1, %r1;'),
  p('cvt', 'dtype', '.e4m3x4', 'cvt.rs.satfinite.e4m3x4.f32 %r1, {%f1, %f2, %f3, %f4}, %r2;'),
  p('cvt', 'rnd', '.rs', 'cvt.rs.satfinite.relu.f16x2.f32 %r1, %f1, %f2, %r2;'),
  // Asynchronous copies.
  p('cp.async', 'hint', '.L2::cache_hint', 'cp.async.ca.shared.global.L2::cache_hint [smem], [%rd1], 16, %rd2;'),
  p('cp.async', 'prefetch', '.L2::128B', 'cp.async.ca.shared.global.L2::128B [smem], [%rd1], 16;'),
  p('cp.async.bulk', 'dst', '.shared::cta', `cp.async.bulk.shared::cta.global${TX} [smem], [%rd1], 16, [smem+1024];`),
  p('cp.async.bulk', 'mask', '.cp_mask', 'cp.async.bulk.global.shared::cta.bulk_group.cp_mask [%rd1], [smem], 16, %rs1;'),
  p(
    'cp.async.bulk.tensor',
    'dst',
    '.shared::cta',
    `cp.async.bulk.tensor.1d.shared::cta.global.tile${TX} [smem], [%rd1, {%r1}], [smem+1024];`,
  ),
  p(
    'cp.async.bulk.tensor',
    'load_mode',
    '.tile::gather4',
    `cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4${TX} [smem], [%rd1, {%r1, %r2, %r3, %r4, %r5}], [smem+1024];`,
  ),
  p(
    'cp.async.bulk.tensor',
    'cta_group',
    '.cta_group::2',
    `cp.async.bulk.tensor.1d.shared::cluster.global.tile${TX}.cta_group::2 [smem], [%rd1, {%r1}], [smem+1024];`,
  ),
  p('cp.async.mbarrier.arrive', 'space', '.shared::cta', 'cp.async.mbarrier.arrive.shared::cta.b64 [smem];'),
  // Synchronization.
  p('bar', 'cta', '.cta', 'bar.cta.sync 0;'),
  p('barrier.cluster', 'sem', '.release', 'barrier.cluster.arrive.release;'),
  p('barrier.cluster', 'sem', '.relaxed', 'barrier.cluster.arrive.relaxed;'),
  p('membar', 'proxy', '.proxy', 'membar.proxy.alias;'),
  p('fence', 'sync_restrict', '.sync_restrict::shared::cluster', 'fence.acquire.sync_restrict::shared::cluster.cluster;'),
  p('fence', 'sync_restrict', '.sync_restrict::shared::cta', 'fence.release.sync_restrict::shared::cta.cluster;'),
  p('fence', 'op_restrict', '.mbarrier_init', 'fence.mbarrier_init.release.cluster;'),
  p('fence', 'scope', '.cluster', 'fence.acq_rel.cluster;'),
  p('fence.proxy', 'proxykind', '.async', 'fence.proxy.async.shared::cta;'),
  p('fence.proxy', 'proxykind', '.tensormap::generic', 'fence.proxy.tensormap::generic.release.gpu;'),
  p(
    'fence.proxy',
    'proxykind',
    '.async::generic',
    'fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;',
  ),
  p('atom', 'type', '.b128', 'atom.global.exch.b128 %q1, [%rd1], %q2;'),
  p('atom', 'type', '.f16', 'atom.global.add.noftz.f16 %h1, [%rd1], %h2;'),
  p('atom', 'type', '.bf16x2', 'atom.global.add.noftz.bf16x2 %r1, [%rd1], %r2;'),
  p('atom', 'vec', '.v4', 'atom.global.v4.add.f32 {%f1, %f2, %f3, %f4}, [%rd1], {%f5, %f6, %f7, %f8};'),
  p('atom', 'sem', '.acq_rel', 'atom.acq_rel.gpu.global.add.u32 %r1, [%rd1], %r2;'),
  p('atom', 'space', '.shared::cluster', 'atom.shared::cluster.add.u32 %r1, [%rd1], %r2;'),
  p('atom', 'hint', '.L2::cache_hint', 'atom.global.L2::cache_hint.add.u32 %r1, [%rd1], %r2, %rd2;'),
  p('red', 'vec', '.v8', `red.global.v8.add.noftz.bf16 [%rd1], ${H8};`),
  p('red', 'sem', '.release', 'red.release.gpu.global.add.u32 [%rd1], %r1;'),
  p('red.async', 'sem', '.release', 'red.async.release.gpu.global.add.u32 [%rd1], %r1;'),
  p('red.async', 'mmio', '.mmio', 'red.async.mmio.release.sys.global.add.u32 [%rd1], %r1;'),
  p('redux', 'type', '.f32', 'redux.sync.max.abs.NaN.f32 %f1, %f2, -1;'),
  p('redux', 'abs', '.abs', 'redux.sync.max.abs.NaN.f32 %f1, %f2, -1;'),
  p('mbarrier.init', 'space', '.shared::cta', 'mbarrier.init.shared::cta.b64 [smem], 1;'),
  p('mbarrier.arrive', 'expect_tx', '.expect_tx', 'mbarrier.arrive.expect_tx.shared.b64 %rd1, [smem], 16;'),
  p('mbarrier.arrive', 'sem', '.relaxed', 'mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd1, [smem];'),
  p('mbarrier.arrive', 'space', '.shared::cluster', 'mbarrier.arrive.release.cluster.shared::cluster.b64 _, [smem];'),
  p('mbarrier.test_wait', 'parity', '.parity', 'mbarrier.test_wait.parity.shared.b64 %p1, [smem], %r1;'),
  p('mbarrier.test_wait', 'sem', '.acquire', 'mbarrier.test_wait.acquire.cta.shared.b64 %p1, [smem], %rd1;'),
  p('mbarrier.try_wait', 'sem', '.relaxed', 'mbarrier.try_wait.relaxed.cta.shared::cta.b64 %p1, [smem], %rd1;'),
  // Matrix instructions.
  p('wmma.load', 'shape', '.m16n16k8', 'wmma.load.a.sync.aligned.row.m16n16k8.global.tf32 {%r1, %r2, %r3, %r4}, [%rd1];'),
  p('wmma.load', 'type', '.b1', 'wmma.load.a.sync.aligned.row.m8n8k128.global.b1 {%r1}, [%rd1];'),
  p(
    'wmma.mma',
    'op',
    '.and',
    'wmma.mma.and.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};',
  ),
  p(
    'mma',
    'sparse',
    '.sp',
    'mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r5, %r6}, {%f5, %f6, %f7, %f8}, %r7, 0;',
  ),
  p(
    'mma',
    'sparse',
    '.sp::ordered_metadata',
    'mma.sp::ordered_metadata.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r5, %r6}, {%f5, %f6, %f7, %f8}, %r7, 0;',
  ),
  p('mma', 'shape', '.m16n8k16', `mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 ${MMA_F32};`),
  p(
    'mma',
    'shape',
    '.m16n8k8',
    'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f5, %f6, %f7, %f8};',
  ),
  p('mma', 'atype', '.e4m3', `mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 ${MMA_F32};`),
  p('mma', 'kind', '.kind::f8f6f4', `mma.sync.aligned.kind::f8f6f4.m16n8k32.row.col.f32.e2m1.e2m1.f32 ${MMA_F32};`),
  p('ldmatrix', 'shape', '.m16n16', 'ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1, %r2}, [smem];'),
  p('ldmatrix', 'src_fmt', '.b6x16_p32', 'ldmatrix.sync.aligned.m8n16.x1.shared.b8x16.b6x16_p32 {%r1}, [smem];'),
  p('ldmatrix', 'space', '.shared::cta', 'ldmatrix.sync.aligned.m8n8.x1.shared::cta.b16 {%r1}, [smem];'),
  p('stmatrix', 'shape', '.m16n8', 'stmatrix.sync.aligned.m16n8.x1.trans.shared.b8 [smem], {%r1};'),
  p('cvt.pack', 'dtype', '.u8', 'cvt.pack.sat.u8.s32.b32 %r1, %r2, %r3, %r4;'),
  p('cvt.pack', 'dtype', '.s4', 'cvt.pack.sat.s4.s32.b32 %r1, %r2, %r3, %r4;'),
  p('ldu', 'type', '.b128', 'ldu.global.b128 %q1, [%rd1];'),
  p('ld.global.nc', 'type', '.b128', 'ld.global.nc.b128 %q1, [%rd1];'),
  p('cvta', 'space', '.shared::cta', 'cvta.shared::cta.u64 %rd1, %rd2;'),
  p('lop3', 'bool', '.and', 'lop3.and.b32 %r1|%p1, %r2, %r3, %r4, 0x96, %p2;'),
  p(
    'cp.async.bulk.tensor',
    'load_mode',
    '.im2col::w',
    `cp.async.bulk.tensor.3d.shared::cta.global.im2col::w${TX} [smem], [%rd1, {%r1, %r2, %r3}], [smem+1024], {%rs1, %rs2};`,
  ),
  p('mbarrier.try_wait', 'scope', '.cluster', 'mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p1, [smem], %r1;'),
  p('mbarrier.expect_tx', 'space', '.shared::cluster', 'mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [smem], 16;'),
  p('mbarrier.arrive_drop', 'expect_tx', '.expect_tx', 'mbarrier.arrive_drop.expect_tx.shared.b64 %rd1, [smem], 16;'),
  p('fence.proxy', 'sync_restrict', '.sync_restrict::shared::cta', 'fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;'),
  p(
    'mma',
    'shape',
    '.m16n8k4',
    'mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, {%f5, %f6, %f7, %f8};',
  ),
  p('mma', 'shape', '.m8n8k16', 'mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};'),
  p(
    'mma',
    'op',
    '.and',
    'mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r0}, {%r1, %r2, %r3, %r4};',
  ),
  p(
    'mma',
    'kind',
    '.kind::mxf4',
    'mma.sync.aligned.kind::mxf4.block_scale.scale_vec::2X.m16n8k64.row.col.f32.e2m1.e2m1.f32.ue8m0 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}, %r7, {0, 0}, %r8, {0, 0};',
  ),
  // Texture and surface.
  p('tex', 'dtype', '.f16x2', 'tex.2d.v2.f16x2.f32 {%r1, %r2}, [%rd1, {%f1, %f2}];'),
  p('txq', 'level', '.level', 'txq.level.width.b32 %r1, [%rd1], %r2;'),
];

function maxVersion(a: string, b: string): string {
  return compareVersions(a, b) >= 0 ? a : b;
}

interface Planned {
  readonly probe: Probe;
  readonly availability: Availability;
  readonly version: string;
  readonly target: string;
  /** The version just below `version`, when the version is what binds. */
  readonly earlier?: string;
}

function plan(probe: Probe): Planned {
  const spec = lookupOpcode(probe.opcode);
  if (spec === undefined) throw new Error(`probe names unknown opcode ${probe.opcode}`);
  const group = spec.modifiers.find((g) => g.name === probe.group);
  if (group === undefined) throw new Error(`${probe.opcode}: no group ${probe.group}`);
  if (!group.values.includes(probe.value)) throw new Error(`${probe.opcode}.${probe.group}: no ${probe.value}`);
  const availability = group.since?.[probe.value];
  if (availability === undefined) throw new Error(`${probe.opcode}.${probe.group}${probe.value}: no since`);
  const sm = Math.max(75, availability.sm ?? 0, spec.since.sm ?? 0);
  const target = availability.targets?.[0] ?? spec.since.targets?.[0] ?? `sm_${sm}`;
  const min = TARGET_MIN_PTX[target];
  if (min === undefined) throw new Error(`unknown target ${target}`);
  const needed = maxVersion(availability.ptx, spec.since.ptx);
  const version = maxVersion(needed, min);
  const i = PTX_VERSIONS.indexOf(version);
  const before = i > 0 ? PTX_VERSIONS[i - 1] : undefined;
  const earlier =
    compareVersions(needed, min) > 0 && before !== undefined && compareVersions(before, min) >= 0 ? before : undefined;
  return { probe, availability, version, target, ...(earlier === undefined ? {} : { earlier }) };
}

const probeId = (q: Probe): string => `${q.opcode} ${q.group}${q.value}`;
const ptxas = findPtxas();

describe('modifier probes name real table values', () => {
  it.each(PROBES.map((q) => [probeId(q), q] as const))('%s', (_id, q) => {
    expect(() => plan(q)).not.toThrow();
    expect(q.example.startsWith(q.opcode)).toBe(true);
    expect(q.example).toContain(q.value);
  });
});

describe.skipIf(ptxas === undefined)('per-value since agrees with ptxas', () => {
  // Probes that do not plan fail in the suite above; leave them out here.
  const planned = PROBES.flatMap((q) => {
    try {
      return [plan(q)];
    } catch {
      return [];
    }
  });
  let results = new Map<string, string>();

  beforeAll(async () => {
    const items: AssemblyItem[] = [];
    for (const pl of planned) {
      const id = probeId(pl.probe);
      items.push({ id: `ok ${id}`, version: pl.version, target: pl.target, example: pl.probe.example });
      if (pl.earlier !== undefined) {
        items.push({
          id: `early ${id}`,
          version: pl.earlier,
          target: pl.target,
          example: pl.probe.example,
          isolate: true,
        });
      }
    }
    if (ptxas !== undefined) results = await assembleItems(ptxas, items, 2);
  }, 120_000);

  it.each(planned.map((pl) => [probeId(pl.probe), pl] as const))('%s', (id, pl) => {
    const ok = results.get(`ok ${id}`);
    expect(ok, `.version ${pl.version} .target ${pl.target}: ${pl.probe.example}\n${ok}`).toBe('');
    if (pl.earlier !== undefined) {
      const early = results.get(`early ${id}`);
      expect(early, `.version ${pl.earlier} .target ${pl.target} should reject: ${pl.probe.example}`).not.toBe('');
    }
  });
});

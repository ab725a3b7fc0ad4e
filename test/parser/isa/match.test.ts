// The shared instruction matcher: opcode + modifiers → table entry, the value
// chosen from each modifier group, unknown modifiers, missing required groups.
import { describe, expect, it } from 'vitest';
import { isKnownCombination, matchInstruction } from '../../../src/parser/isa/match.js';

const m = (text: string) => {
  const [opcode, ...rest] = text.split('.');
  return matchInstruction({ opcode: opcode!, modifiers: rest.map((x) => `.${x}`) });
};

describe('matchInstruction', () => {
  it('matches a plain instruction and names the chosen values', () => {
    const r = m('ld.global.v4.f32')!;
    expect(r.spec.opcode).toBe('ld');
    expect(Object.fromEntries(r.groups)).toEqual({ space: '.global', vec: '.v4', type: '.f32' });
    expect(r.unknown).toEqual([]);
    expect(r.missing).toEqual([]);
    expect(r.opcodeParts).toEqual([]);
  });

  it('takes the longest dotted opcode the table spells', () => {
    expect(m('ld.global.nc.v4.f32')!.spec.opcode).toBe('ld.global.nc');
    const t = m('cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes')!;
    expect(t.spec.opcode).toBe('cp.async.bulk.tensor');
    expect(t.opcodeParts).toEqual(['.async', '.bulk', '.tensor']);
    expect(isKnownCombination(t)).toBe(true);
    expect(m('mbarrier.try_wait.parity.shared::cta.b64')!.spec.opcode).toBe('mbarrier.try_wait');
    expect(m('fence.proxy.async.shared::cta')!.spec.opcode).toBe('fence.proxy');
  });

  it('assigns repeated value sets in written order (cvt dtype/atype, mma layouts)', () => {
    expect(Object.fromEntries(m('cvt.rn.f32.s32')!.groups)).toEqual({ rnd: '.rn', dtype: '.f32', atype: '.s32' });
    const mma = m('mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32')!;
    expect(mma.groups.get('alayout')).toBe('.row');
    expect(mma.groups.get('blayout')).toBe('.col');
    expect([mma.groups.get('dtype'), mma.groups.get('atype'), mma.groups.get('btype'), mma.groups.get('ctype')]).toEqual(['.f32', '.bf16', '.bf16', '.f32']);
    const bulk = m('cp.async.bulk.global.shared::cta.bulk_group')!;
    expect([bulk.groups.get('dst'), bulk.groups.get('src')]).toEqual(['.global', '.shared::cta']);
  });

  it('reports unknown modifiers, repeated groups and missing required groups', () => {
    expect(m('ld.shraed.u32')!.unknown).toEqual(['.shraed']);
    expect(m('st.global.global.u32')!.unknown).toEqual(['.global']);
    expect(m('setp.u32')!.missing).toEqual(['cmp']);
    expect(isKnownCombination(m('setp.u32'))).toBe(false);
  });

  it('is undefined for an unknown opcode', () => {
    expect(m('fadd.f32')).toBeUndefined();
    expect(isKnownCombination(undefined)).toBe(false);
  });
});

// Every OpcodeSpec example must be accepted by ptxas at the version and
// target its `since` names; the table's structure must be sound.
import { beforeAll, describe, expect, it } from 'vitest';
import { ISA_TABLE_VERSION, OPCODES, lookupOpcode } from '../../../src/parser/isa/opcodes/index.js';
import type { Availability, OpcodeSpec } from '../../../src/parser/isa/types.js';
import { TARGET_MIN_PTX, assembleExamples, compareVersions, exampleTarget, findPtxas } from './ptxas-harness.js';

const VERSION_RE = /^\d+\.\d+$/;

function availabilities(spec: OpcodeSpec): { where: string; a: Availability }[] {
  const out = [{ where: 'since', a: spec.since }];
  for (const g of spec.modifiers) {
    for (const [value, a] of Object.entries(g.since ?? {})) {
      out.push({ where: `${g.name}${value}`, a });
    }
  }
  return out;
}

describe('ISA opcode table structure', () => {
  it('has many opcodes, sorted and unique', () => {
    expect(OPCODES.length).toBeGreaterThanOrEqual(150);
    const names = OPCODES.map((s) => s.opcode);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
    expect(VERSION_RE.test(ISA_TABLE_VERSION)).toBe(true);
  });

  it('looks opcodes up by name', () => {
    for (const spec of OPCODES) expect(lookupOpcode(spec.opcode)).toBe(spec);
    expect(lookupOpcode('no.such.opcode')).toBeUndefined();
  });

  it.each(OPCODES.map((s) => [s.opcode, s] as const))('%s is well formed', (_name, spec) => {
    // The example starts with the opcode, then a modifier, an operand or ';'.
    const ex = spec.example.replace(/^@!?%p\d+\s+/, '');
    expect(ex.startsWith(spec.opcode)).toBe(true);
    expect(/^[.\s;:]/.test(ex.slice(spec.opcode.length)) || ex.length === spec.opcode.length).toBe(true);
    expect(spec.example.trim().endsWith(';')).toBe(true);
    expect(spec.section).toMatch(/^\d+(\.\d+)*$/);
    for (const { where, a } of availabilities(spec)) {
      expect(VERSION_RE.test(a.ptx), `${where}: ${a.ptx}`).toBe(true);
      expect(compareVersions(a.ptx, ISA_TABLE_VERSION), where).toBeLessThanOrEqual(0);
      for (const t of a.targets ?? []) {
        expect(TARGET_MIN_PTX[t], `${where}: unknown target ${t}`).toBeDefined();
      }
    }
    // Modifier groups: unique names, values written with a leading dot.
    const groups = spec.modifiers.map((g) => g.name);
    expect(new Set(groups).size).toBe(groups.length);
    for (const g of spec.modifiers) {
      expect(g.values.length).toBeGreaterThan(0);
      for (const value of g.values) expect(value.startsWith('.'), `${g.name}: ${value}`).toBe(true);
      for (const value of Object.keys(g.since ?? {})) expect(g.values).toContain(value);
    }
    // Operand type references name a type group of the opcode, or a literal type.
    const typeGroups = new Set(spec.modifiers.filter((g) => g.kind === 'type').map((g) => g.name));
    expect(spec.forms.length).toBeGreaterThan(0);
    for (const form of spec.forms) {
      const names = form.map((o) => o.name);
      for (const o of form) {
        if (o.type !== undefined && !o.type.startsWith('.')) {
          expect(typeGroups.has(o.type), `${spec.opcode} operand ${o.name}: ${o.type}`).toBe(true);
        }
        if (o.pairedWith !== undefined) expect(names).not.toContain(o.pairedWith);
        expect(o.kinds.length).toBeGreaterThan(0);
      }
      // Optional operands only trail.
      const firstOptional = form.findIndex((o) => o.optional === true);
      if (firstOptional >= 0) expect(form.slice(firstOptional).every((o) => o.optional === true)).toBe(true);
    }
  });
});

const ptxas = findPtxas();

describe.skipIf(ptxas === undefined)('ISA opcode examples assemble with ptxas', () => {
  let byOpcode = new Map<string, string>();

  beforeAll(async () => {
    if (ptxas !== undefined) byOpcode = await assembleExamples(ptxas, OPCODES, 2);
  }, 120_000);

  it.each(OPCODES.map((s) => [s.opcode, s] as const))('%s', (_name, spec) => {
    const { version, target } = exampleTarget(spec);
    const err = byOpcode.get(spec.opcode);
    expect(err, `${spec.opcode} was not assembled`).toBeDefined();
    expect(err, `.version ${version} .target ${target}: ${spec.example}\n${err}`).toBe('');
  });
});

if (ptxas === undefined) {
  console.warn('ptxas not found on PATH: skipping the ptxas example checks');
}

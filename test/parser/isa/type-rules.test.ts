// Type compatibility as the ISA states it, one rule per line.
import { describe, expect, it } from 'vitest';
import { TYPES, typeCompatible, wideRegisterAllowed } from '../../../src/parser/isa/type-rules.js';
import { pool, ptxasRejects, toolMissing, PTXAS } from '../../helpers/toolchain.js';

describe('type compatibility', () => {
  it.each([
    ['.u32', '.u32', true], ['.u32', '.b32', true], ['.b32', '.f32', true], ['.s32', '.u32', true],
    ['.u32', '.u64', false], ['.f32', '.s32', false], ['.f32', '.f64', false], ['.f16', '.b16', true],
    ['.f16x2', '.b32', true], ['.pred', '.b32', false], ['.b32', '.pred', false], ['.u64', '.s64', true],
  ])('%s with a %s register: %s', (instr, reg, ok) => {
    expect(typeCompatible(instr, reg)).toBe(ok);
  });

  it.each([
    ['.u8', '.u32', true], ['.s8', '.b16', true], ['.b16', '.u64', true], ['.u32', '.u16', false],
    ['.f32', '.f64', false], ['.b16', '.f32', true], ['.u32', '.f64', false], ['.b32', '.b64', true],
    ['.f32', '.b64', true], ['.f32', '.u64', false], ['.u8', '.f32', false],
  ])('ld/st of %s with a %s register: %s', (instr, reg, ok) => {
    expect(wideRegisterAllowed(instr, reg)).toBe(ok);
  });
});

// ptxas is the judge: each rule above must agree with what ptxas 13 accepts.

const ptxasMissing = toolMissing(PTXAS);
const kernel = (reg: string, body: string): string =>
  `.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg ${reg} %x;\n.reg ${reg} %y;\n.reg .b64 %rd1;\nld.param.u64 %rd1, [p];\n${body}\n}\n`;
const scalar = [...TYPES.keys()].filter((t) => ['.b16', '.b32', '.b64', '.u16', '.u32', '.u64', '.s32', '.s64', '.f32', '.f64', '.f16', '.pred'].includes(t));

describe.skipIf(ptxasMissing !== undefined)('type rules agree with ptxas', () => {
  it('for mov between registers of every pair of scalar types', async () => {
    // mov has no .f16 type (an opcode fact, not a type rule).
    const cases = scalar.filter((t) => t !== '.pred' && t !== '.f16').flatMap((instr) => scalar.filter((r) => r !== '.pred').map((reg) => ({ instr, reg })));
    const wrong = (await pool(cases, async ({ instr, reg }) => {
      const accepted = (await ptxasRejects(kernel(reg, `mov${instr} %x, %y;`), 'sm_90')) === undefined;
      return accepted === typeCompatible(instr, reg) ? undefined : `mov${instr} with ${reg}: ptxas ${accepted ? 'accepts' : 'rejects'}`;
    })).filter((x) => x !== undefined);
    expect(wrong).toEqual([]);
  }, 120_000);

  it('for ld.global destinations wider than the type', async () => {
    const instrs = ['.u8', '.s8', '.b16', '.u32', '.f32', '.b64']; // ld has no .f16 type
    const regs = ['.b16', '.b32', '.b64', '.u64', '.f32', '.f64'];
    const cases = instrs.flatMap((instr) => regs.map((reg) => ({ instr, reg })));
    const wrong = (await pool(cases, async ({ instr, reg }) => {
      const accepted = (await ptxasRejects(kernel(reg, `ld.global${instr} %x, [%rd1];`), 'sm_90')) === undefined;
      return accepted === wideRegisterAllowed(instr, reg) ? undefined : `ld.global${instr} into ${reg}: ptxas ${accepted ? 'accepts' : 'rejects'}`;
    })).filter((x) => x !== undefined);
    expect(wrong).toEqual([]);
  }, 120_000);
});

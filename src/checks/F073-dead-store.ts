// F073: a register is written and the value is never read.
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import { at, mnemonic } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Opcodes whose execution matters even when their register result is unused. */
const EFFECTFUL = new Set([
  'atom', 'call', 'mbarrier', 'bar', 'barrier', 'cp', 'tcgen05', 'wgmma', 'setmaxnreg', 'clusterlaunchcontrol', 'alloca',
  'stacksave', 'nanosleep', 'suld', 'sured', 'multimem', 'elect', 'vote', 'match', 'redux', 'shfl', 'activemask', 'getctarank',
  'ldmatrix', 'wmma', 'mma', 'st', 'red', 'tex', 'tld4', 'txq', 'suq', 'istypep', 'mapa', 'fence', 'membar', 'griddepcontrol',
]);

export const F073: Check = {
  meta: {
    id: 'F073',
    name: 'dead-store',
    category: 'data-flow',
    severity: 'info',
    points: 0,
    description: 'An instruction whose only effect is to write registers, none of whose values is ever read.',
    rationale: 'Dead computations waste issue slots and registers, and often mark a mistake: a result written to the wrong register, '
      + 'or an update that was meant to feed a later instruction (F074 names the lost loop update).',
    remedy: 'Remove the instruction, or use its result where it was meant to go.',
    notes: 'Judged with def-use chains over reachable code: an instruction is reported when it writes at least one register and no read '
      + 'anywhere sees any of the values it writes (a vector load of which some lanes are used is live; `_` sinks are not writes). '
      + 'Instructions with effects beyond their registers are not judged (atomics, calls, barriers, `mbarrier`, async copies, '
      + 'collectives such as `shfl`/`vote`, matrix operations, `ld.volatile` and ordered loads, texture/surface operations), nor '
      + 'writes to a `.func`\'s parameter and return registers.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tmov.u32 %r1, %tid.x;\n\tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd1], %r1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a)\n{\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n'
        + '\tld.param.u64 %rd1, [a];\n\tmov.u32 %r1, %tid.x;\n\tadd.u32 %r2, %r1, 1;\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
      const cfg = ctx.analysis.cfg(fn);
      const t = rd.table;
      for (const b of cfg.blocks) {
        if (!b.reachable) continue;
        for (let i = b.start; i < b.end; i++) {
          if (t.defStart[i] === t.defStart[i + 1]) continue;
          const node = fn.instructions[i]!.node;
          if (EFFECTFUL.has(node.opcode)) continue;
          if (node.opcode === 'ld' && node.modifiers.some((m) => m === '.volatile' || m === '.acquire' || m === '.relaxed' || m === '.mmio')) continue;
          let live = false;
          const regs: string[] = [];
          for (let s = t.defStart[i]!; s < t.defStart[i + 1]! && !live; s++) {
            const reg = fn.registers[t.defReg[s]!]!;
            if (reg.isParam) { live = true; break; }
            regs.push(reg.name);
            const d = rd.defIdOfSlot[s]!;
            if (rd.duStart[d + 1]! > rd.duStart[d]!) live = true;
          }
          if (live) continue;
          out.push({ message: `${mnemonic(node)} writes ${regs.join(', ')}, and nothing reads ${regs.length === 1 ? 'it' : 'them'}`, ...at(ctx, fn, i) });
        }
      }
    }
    return found(out);
  },
};

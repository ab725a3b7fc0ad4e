// F083: `cvta.shared` executes inside a loop (the seeds' LoopCvtaShared: hoistable).
import { valueFlowAnalysis } from '../cfg/dataflow/provenance.js';
import { isDebugBuild, mnemonic } from './address-facts.js';
import { isCvtaShared } from './F021-generic-shared-address.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F083: Check = {
  meta: {
    id: 'F083',
    name: 'cvta-shared-in-loop',
    category: 'known-patterns',
    severity: 'info',
    points: 0,
    description: '`cvta.shared` executes inside a loop.',
    rationale: 'Converting a shared address to a generic one costs an instruction and keeps a 64-bit register live; inside a loop it is '
      + 'repeated every iteration although the base address does not change. The seeds also suspected it of register-pressure and '
      + 'scheduling trouble (LoopCvtaShared) and hoisted it.',
    remedy: 'Convert the base once before the loop (`cvta.shared.u64 %rd_base, smem;`) and add per-iteration offsets to the generic base, or '
      + 'better, use `ld/st.shared` with 32-bit offsets and no conversion at all (F021).',
    notes: 'Judged: every `cvta.shared` and `cvta.shared::cta` (not `cvta.to.shared`, not the cluster forms) in a block that belongs to a '
      + 'natural loop of its function, nested loops included, unless every use of its result is a `mapa` (distributed shared memory: '
      + 'CUDA\'s `cluster.map_shared_rank(smem, rank)` converts and maps on every call, and nvcc -O3 keeps the pair in the loop; the '
      + 'conversion belongs to the mapping, whose rank changes per iteration). One finding per instruction, naming the loop header\'s line. Departure: a '
      + 'module compiled for debugging (`.target sm_XY, debug`, nvcc -G) is n/a: unoptimized code rematerializes every shared address where '
      + 'it is used, and hoisting is exactly what the optimizing build does.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tmov.u32 %r1, 0;\nLOOP:\n\tcvta.shared.u64 %rd1, smem;\n\tst.u32 [%rd1], %r1;\n'
        + '\tadd.u32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, 8;\n\t@%p1 bra LOOP;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<3>;\n'
        + '\t.shared .align 4 .b8 smem[128];\n\tmov.u32 %r1, 0;\n\tcvta.shared.u64 %rd1, smem;\nLOOP:\n\tst.u32 [%rd1], %r1;\n'
        + '\tadd.u32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, 8;\n\t@%p1 bra LOOP;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    if (isDebugBuild(ctx.module)) return na('a debug build (.target ..., debug): unoptimized code converts shared addresses where it uses them');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const sites = fn.instructions.filter((ins) => isCvtaShared(ins.node));
      if (sites.length === 0) continue;
      const cfg = ctx.analysis.cfg(fn);
      const loops = ctx.analysis.loops(fn);
      const flow = ctx.analysis.get(fn, valueFlowAnalysis);
      /** Every use of the conversion's result is a `mapa` (cluster.map_shared_rank's idiom). */
      const onlyMapped = (i: number): boolean => {
        let uses = 0;
        for (let s = flow.insDefStart[i]!; s < flow.insDefStart[i + 1]!; s++) {
          const d = flow.slotDef[s]!;
          for (let k = flow.defUseStart[d]!; k < flow.defUseStart[d + 1]!; k++) {
            uses++;
            if (fn.instructions[flow.useIns[flow.defUses[k]!]!]!.node.opcode !== 'mapa') return false;
          }
        }
        return uses > 0;
      };
      for (const ins of sites) {
        const l = loops.loopOf[cfg.blockOf[ins.index]!]!;
        if (l < 0 || onlyMapped(ins.index)) continue;
        const header = cfg.blocks[loops.loops[l]!.header]!;
        const headerIns = fn.instructions[header.start];
        const headerLine = headerIns === undefined ? undefined : headerIns.node.range.line;
        out.push({
          message: `${mnemonic(ins.node)} runs on every iteration of the loop${headerLine === undefined ? '' : ` at line ${headerLine}`}: convert the base once before it`,
          location: ctx.locate(ins.node.range, fn, ins.index),
          function: fn.name,
        });
      }
    }
    return found(out);
  },
};

// F095: byte-wide global loads or stores in a loop that walks consecutive
// bytes (one thread a byte per iteration, or a warp 32 consecutive bytes).
import { affineAnalysis, type IvSymbol } from '../cfg/dataflow/affine.js';
import { assumptionsAndSilencing, LANE_ASSUMPTION, laneView, memoryAccesses, opText } from './memory.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F095: Check = {
  meta: {
    id: 'F095',
    name: 'narrow-global-loop',
    category: 'performance',
    severity: 'low',
    points: 1,
    description: 'A loop loads or stores global memory one byte at a time over consecutive bytes (vectorizable).',
    rationale: 'Each byte access is a full memory instruction: copying a buffer with `ld.global.u8` moves 1 byte per thread per instruction where `ld.global.v4.u32` moves 16, so a byte loop runs up to ~32× slower than the vectorized one (the "u8-only" workaround for unaligned data).',
    remedy: 'Load 4 or 16 bytes at a time (`uint32_t`/`uint4`, `ld.global.v4.u32`) over the aligned middle of the buffer and handle the unaligned head and tail bytewise; or let each thread take a whole word and split it into bytes in registers.',
    notes: 'Precise rule: a 1-byte `ld`/`ldu`/`st` (`.u8`/`.s8`/`.b8`) whose state space is `.global` (named, or generic with global-only provenance), '
      + 'in a loop, whose affine address contains a loop counter of a loop around it, and either (a) advances by ±1 byte per iteration of that loop '
      + '(coefficient × constant step = ±1: one thread walks consecutive bytes), or (b) has adjacent lanes 1 byte apart (the warp covers 32 '
      + 'consecutive bytes per step; lanes mapped to %tid as in F052). Byte accesses at strides (a byte of each struct) or outside loops are not '
      + 'reported.'
      + assumptionsAndSilencing('F095', LANE_ASSUMPTION),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b16 %h<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r2, [n];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, 0;\n$loop:\n\tcvt.u64.u32 %rd3, %r1;\n\tadd.s64 %rd4, %rd2, %rd3;\n'
        + '\tld.global.u8 %h1, [%rd4];\n\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, %r2;\n\t@%p1 bra $loop;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 p, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n\t.reg .b16 %h<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<5>;\n'
        + '\tld.param.u64 %rd1, [p];\n\tld.param.u32 %r2, [n];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, 0;\n$loop:\n\tmul.wide.u32 %rd3, %r1, 16;\n\tadd.s64 %rd4, %rd2, %rd3;\n'
        + '\tld.global.u8 %h1, [%rd4];\n\tadd.s32 %r1, %r1, 1;\n\tsetp.lt.u32 %p1, %r1, %r2;\n\t@%p1 bra $loop;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let seen = 0;
    for (const fn of ctx.functions) {
      const loops = ctx.analysis.loops(fn);
      const cfg = ctx.analysis.cfg(fn);
      for (const a of memoryAccesses(ctx.analysis, fn)) {
        if (a.kind === 'atomic' || a.space !== 'global' || a.bytes !== 1) continue;
        const block = cfg.blockOf[a.index]!;
        if (loops.loopOf[block]! < 0) continue;
        seen++;
        if (a.form === undefined) continue;
        const af = ctx.analysis.get(fn, affineAnalysis);
        const around = a.form.terms
          .map((t) => ({ t, s: af.symbols[t.sym]! }))
          .filter((x): x is { t: typeof x.t; s: IvSymbol } => x.s.kind === 'iv' && loops.loops[x.s.loop]!.blocks.includes(block));
        if (around.length === 0) continue;
        const perThread = around.find((x) => x.s.constStep !== undefined && Math.abs(x.t.coef * x.s.constStep) === 1);
        let how: string | undefined;
        if (perThread !== undefined) how = `each iteration moves it to the next byte (${perThread.s.name} steps by ${perThread.s.constStep})`;
        else {
          const view = laneView(ctx.analysis, fn, af, a.form);
          if (view.ok && Math.abs(view.lanes.stride) === 1) how = 'adjacent lanes touch adjacent bytes, so the warp walks the buffer 32 bytes per iteration';
        }
        if (how === undefined) continue;
        out.push({
          message: `${opText(a.ins)} in a loop accesses global memory one byte at a time at ${af.format(a.form)}: ${how}; `
            + 'load or store 4 or 16 bytes per access instead',
          location: ctx.locate(a.ins.node.range, fn, a.index),
          function: fn.name,
        });
      }
    }
    if (seen === 0) return na('no byte-wide global accesses in loops');
    return found(out);
  },
};

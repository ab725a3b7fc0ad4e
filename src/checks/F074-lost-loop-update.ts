// F074: a register live into a loop and read after it is "updated" in the
// loop only into another register that never flows back: the accumulation is
// lost (NonInPlaceLoopAccumulator).
import { reachingDefinitionsAnalysis } from '../cfg/dataflow/reaching-definitions.js';
import type { RegisterSymbol } from '../cfg/symbols.js';
import { at, mnemonic, registersIn, stepAt } from './flow.js';
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

/** Operations that accumulate (`acc op x`). */
const ACCUMULATE = new Set(['add', 'sub', 'mul', 'mad', 'fma', 'min', 'max', 'and', 'or', 'xor']);
/** Pure register operations the lost value may pass through. */
const PURE = new Set([
  'add', 'sub', 'mul', 'mad', 'fma', 'min', 'max', 'and', 'or', 'xor', 'not', 'neg', 'abs', 'mov', 'cvt', 'shl', 'shr', 'selp',
  'div', 'rem', 'sqrt', 'rsqrt', 'rcp', 'ex2', 'lg2', 'sin', 'cos', 'tanh', 'copysign', 'prmt', 'bfe', 'bfi', 'popc', 'clz', 'brev',
  'cnot', 'testp', 'setp', 'set', 'slct', 'mul24', 'mad24', 'sad', 'dp4a', 'dp2a', 'fns', 'lop3', 'shf',
]);

export const F074: Check = {
  meta: {
    id: 'F074',
    name: 'lost-loop-update',
    category: 'data-flow',
    severity: 'high',
    points: 1,
    description: 'Inside a loop, a value from before the loop is combined into a new register (`add %f3, %f1, %f2`) whose result is '
      + 'then lost, while the old register (`%f1`) is read after the loop: the accumulation never reaches the result.',
    rationale: 'This is the NonInPlaceLoopAccumulator bug: `sum + x[i]` is computed every iteration but written to a fresh register '
      + 'instead of back into `sum`, so after the loop `sum` still holds its initial value and the kernel stores that.',
    remedy: 'Write the update back into the accumulator (`add.f32 %f1, %f1, %f2;`), or move the new value into it at the end of the '
      + 'body.',
    notes: 'Judged per natural loop. An instruction I in the loop fails when: it is an accumulating operation (`add`, `sub`, `mul`, `mad`, '
      + '`fma`, `min`, `max`, `and`, `or`, `xor`); one of its operands, register r, is written nowhere in the loop, and r is read after '
      + 'the loop (at an instruction outside it that the loop header dominates or that an exit of the loop leads to without entering '
      + 'it again: a loop behind nvcc\'s zero-trip guard meets the guard\'s other path before the read); and I\'s result is lost: following its def-use '
      + 'chains through pure register operations, it reaches no memory access, store, call, branch, no read after the loop, and no '
      + 'register that is carried around the loop (live at the header along the back edge). A value that flows into a store or an '
      + 'address (`base + i*4`) is not a lost update. Compilers remove such dead code, so correct compiler output never has the shape '
      + '(a discarded `asm volatile` result keeps it: fixtures/checks/F074).',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n'
        + '\t.reg .b32 %r<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n'
        + '\tmov.f32 %f1, 0f00000000;\n\tmov.u32 %r2, 0;\n\tmov.u64 %rd2, %rd1;\nLOOP:\n\tld.global.f32 %f2, [%rd2];\n'
        + '\tadd.f32 %f3, %f1, %f2;\n\tadd.u64 %rd2, %rd2, 4;\n\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n'
        + '\tst.global.f32 [%rd1], %f1;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .pred %p<2>;\n'
        + '\t.reg .b32 %r<4>;\n\t.reg .f32 %f<4>;\n\t.reg .b64 %rd<4>;\n\tld.param.u64 %rd1, [a];\n\tld.param.u32 %r1, [n];\n'
        + '\tmov.f32 %f1, 0f00000000;\n\tmov.u32 %r2, 0;\n\tmov.u64 %rd2, %rd1;\nLOOP:\n\tld.global.f32 %f2, [%rd2];\n'
        + '\tadd.f32 %f1, %f1, %f2;\n\tadd.u64 %rd2, %rd2, 4;\n\tadd.u32 %r2, %r2, 1;\n\tsetp.lt.u32 %p1, %r2, %r1;\n\t@%p1 bra LOOP;\n'
        + '\tst.global.f32 [%rd1], %f1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (ctx.functions.length === 0) return na('the module has no function bodies');
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let loops = 0;
    for (const fn of ctx.functions) {
      const forest = ctx.analysis.loops(fn);
      if (forest.loops.length === 0) continue;
      loops += forest.loops.length;
      const cfg = ctx.analysis.cfg(fn);
      const dom = ctx.analysis.dominators(fn);
      const rd = ctx.analysis.get(fn, reachingDefinitionsAnalysis);
      const t = rd.table;
      const reported = new Set<number>();
      for (const loop of forest.loops) {
        const inLoop = new Set(loop.blocks);
        const insideIns = (i: number): boolean => inLoop.has(cfg.blockOf[i]!);
        // The registers the loop writes, from its own instructions (not by every definition of each register
        // in the function: a long function of many loops made that quadratic).
        const writtenHere = new Set<number>();
        for (const b of loop.blocks) {
          const blk = cfg.blocks[b]!;
          for (let i = blk.start; i < blk.end; i++) for (let s = t.defStart[i]!; s < t.defStart[i + 1]!; s++) writtenHere.add(t.defReg[s]!);
        }
        const writtenInLoop = (r: RegisterSymbol): boolean => writtenHere.has(r.id);
        // The blocks after the loop: reached from its exits without entering it again (computed when first asked).
        let beyond: Uint8Array | undefined;
        const afterLoop = (b: number): boolean => {
          if (dom.dominates(loop.header, b)) return true;
          if (beyond === undefined) {
            beyond = new Uint8Array(cfg.blocks.length);
            const work = loop.exits.map(([, to]) => to);
            for (const to of work) beyond[to] = 1;
            while (work.length > 0) {
              for (const s of cfg.blocks[work.pop()!]!.succs) {
                if (beyond[s] === 0 && s !== loop.header) {
                  beyond[s] = 1;
                  work.push(s);
                }
              }
            }
          }
          return beyond[b] === 1;
        };
        /** A read of `r` after the loop: outside it, where the header dominates it or an exit of the loop leads
         *  (a loop behind a zero-trip guard meets the guard's other path before the read). */
        const readAfter = (r: RegisterSymbol): number | undefined => {
          for (const d of rd.definitionsOf(r)) {
            for (const u of d >= 0 ? rd.usesOf(d, r) : []) {
              const b = cfg.blockOf[u]!;
              if (!inLoop.has(b) && cfg.blocks[b]!.reachable && afterLoop(b)) return u;
            }
          }
          return undefined;
        };
        /** Whether the value `reg` written at `ins` escapes (see the notes); bounded. */
        const escapes = (ins: number, reg: RegisterSymbol): boolean => {
          const work: [number, RegisterSymbol][] = [[ins, reg]];
          const seen = new Set<string>();
          let budget = 200;
          while (work.length > 0) {
            if (budget-- <= 0) return true;
            const [i, r] = work.pop()!;
            const key = `${i}:${r.id}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const d = rd.defIdOfSlot[t.defSlot(i, r.id)]!;
            if (rd.reachesBlockStart(d, loop.header) === true) return true; // carried around the loop
            for (const u of rd.usesOf(i, r)) {
              if (!insideIns(u)) return true;
              const node = fn.instructions[u]!.node;
              if (!PURE.has(node.opcode) || node.operands.some((o) => o.kind === 'Address')) return true;
              for (let s = t.defStart[u]!; s < t.defStart[u + 1]!; s++) work.push([u, fn.registers[t.defReg[s]!]!]);
            }
          }
          return false;
        };
        for (const b of loop.blocks) {
          const blk = cfg.blocks[b]!;
          if (!blk.reachable) continue;
          for (let i = blk.start; i < blk.end; i++) {
            if (reported.has(i)) continue;
            const node = fn.instructions[i]!.node;
            if (!ACCUMULATE.has(node.opcode) || node.operands.length < 3) continue;
            if (t.defStart[i + 1]! - t.defStart[i]! !== 1) continue;
            const dest = fn.registers[t.defReg[t.defStart[i]!]!]!;
            const sources = node.operands.slice(1).flatMap((o) => registersIn(fn, o)).filter((r) => r !== dest);
            // Whether the result escapes does not depend on the source: asked once, before the reads after the
            // loop are looked for (each looks through every definition of its register).
            let escaping: boolean | undefined;
            for (const r of sources) {
              if (r.type === '.pred' || writtenInLoop(r)) continue;
              escaping ??= escapes(i, dest);
              if (escaping) break;
              const after = readAfter(r);
              if (after === undefined) continue;
              reported.add(i);
              out.push({
                message: `${mnemonic(node)} combines ${r.name} into ${dest.name}, which never flows back: ${r.name} is not updated in the loop, so its read after the loop (line ${fn.instructions[after]!.node.range.line}) sees its value from before the loop`,
                ...at(ctx, fn, i),
                chain: [stepAt(ctx, fn, i, `${r.name} combined into ${dest.name}`), stepAt(ctx, fn, after, `${r.name} read after the loop`)],
              });
              break;
            }
          }
        }
      }
    }
    if (loops === 0) return na('no loops');
    return found(out);
  },
};

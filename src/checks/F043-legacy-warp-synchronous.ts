// F043: pre-Volta warp-synchronous code: `shfl`/`vote` without `.sync` (no
// member mask, lockstep assumed).
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';

export const F043: Check = {
  meta: {
    id: 'F043',
    name: 'legacy-warp-synchronous',
    category: 'synchronization',
    severity: 'high',
    points: 1,
    description: 'A non-`.sync` `shfl`/`vote` is used, or lanes exchange data through (volatile) shared memory without `bar.warp.sync` or a barrier (pre-Volta warp-synchronous code).',
    rationale: 'Since Volta, the lanes of a warp are scheduled independently: code that assumes they run in lockstep (shuffles and votes '
      + 'without a member mask, volatile shared-memory reductions without `__syncwarp`) reads values from lanes that have not written them yet. '
      + 'ptxas 13 rejects non-`.sync` `shfl`/`vote` for sm_70+ from PTX 6.4.',
    remedy: 'Use the `.sync` forms with a member mask (`__shfl_xor_sync(0xffffffff, v, 16)`, `__ballot_sync`), and put `__syncwarp()` '
      + 'between the steps of a shared-memory warp reduction.',
    notes: 'Reports every `shfl` and `vote` without `.sync` (`shfl.bfly.b32`, `vote.any.pred`), in any function. The shared-memory form '
      + '(lanes exchanging through shared memory with no `bar.warp.sync` or barrier between the write and the read) is exactly a pair '
      + 'F036 (read after write) or F037 (write after read) reports, and the catalog gives those precedence for the same access pair, '
      + 'so F043 does not report it again. F043 reports before F087 (deprecated instruction) for non-`.sync` warp operations.',
    examples: {
      fails: '.version 6.0\n.target sm_60\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %laneid;\n\tshfl.bfly.b32 %r2, %r1, 16, 31;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n\t.reg .b32 %r<3>;\n\tmov.u32 %r1, %laneid;\n\tshfl.sync.bfly.b32 %r2, %r1, 16, 31, -1;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    let warpOps = 0;
    for (const fn of ctx.functions) {
      for (const i of fn.instructions) {
        const n = i.node;
        if (n.opcode !== 'shfl' && n.opcode !== 'vote') continue;
        warpOps++;
        if (n.modifiers.includes('.sync')) continue;
        out.push({
          message: `${n.opcode}${n.modifiers.join('')} at line ${n.range.line} has no .sync and no member mask: it assumes the lanes of the warp run in lockstep, which independent thread scheduling (sm_70+) does not guarantee`,
          location: ctx.locate(n.range, fn, i.index), function: fn.name,
        });
      }
    }
    if (warpOps === 0) return na('no shfl or vote in the module (shared-memory warp exchanges are reported by F036/F037)');
    return found(out);
  },
};

// F037: a shared-memory load reaches a shared-memory store with no barrier on
// some path (typically around a loop's back edge), and the two may touch the
// same bytes from different threads: a write-after-read race (the missing
// trailing barrier of a tiled loop).
import { sharedRacesAnalysis } from './shared-races.js';
import { hasSharedVariables, raceFindings } from './race-findings.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F037: Check = {
  meta: {
    id: 'F037',
    name: 'missing-barrier-war',
    category: 'synchronization',
    severity: 'critical',
    points: 3,
    description: 'A `ld.shared` reaches a `st.shared` on some path (typically around a loop back edge) with no barrier between them, and the two may touch the same bytes from different threads (write-after-read race).',
    rationale: 'In a tiled loop, a fast thread that starts the next iteration overwrites the tile while slower threads still read the previous one: '
      + 'the results are wrong at random, and no hang or error shows it without racecheck.',
    remedy: 'Put `__syncthreads()` at the end of the loop body (after the last read of the tile, before the next iteration\'s writes), '
      + 'or double-buffer the tile so that reads and writes of one iteration use different halves.',
    notes: 'The same accesses, cuts and overlap test as F036 (see there), with the roles swapped: the earlier access is a read, the later '
      + 'one a write (`st`, `atom`/`red`, `stmatrix`, or a `cp.async` destination). A path that wraps around a back edge gives each '
      + 'induction variable of that loop its own value for the two accesses (the read is in one iteration, the write in the next). '
      + 'One finding per write (the first racing read), located at the write, with the read as related location. F037 reports before '
      + 'F043 for the same pair.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u32 n)\n.reqntid 64, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<9>;\n\t.shared .align 4 .b8 tile[256];\n'
        + '\tld.param.u32 %r7, [n];\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, tile;\n\tadd.s32 %r4, %r3, %r2;\n\tmov.u32 %r6, 0;\n$LOOP:\n'
        + '\tst.shared.u32 [%r4], %r6;\n\tbar.sync 0;\n\tld.shared.u32 %r5, [tile];\n\tadd.s32 %r6, %r6, %r5;\n\tsetp.lt.u32 %p1, %r6, %r7;\n\t@%p1 bra $LOOP;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u32 n)\n.reqntid 64, 1, 1\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<9>;\n\t.shared .align 4 .b8 tile[256];\n'
        + '\tld.param.u32 %r7, [n];\n\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, tile;\n\tadd.s32 %r4, %r3, %r2;\n\tmov.u32 %r6, 0;\n$LOOP:\n'
        + '\tst.shared.u32 [%r4], %r6;\n\tbar.sync 0;\n\tld.shared.u32 %r5, [tile];\n\tadd.s32 %r6, %r6, %r5;\n\tbar.sync 0;\n\tsetp.lt.u32 %p1, %r6, %r7;\n\t@%p1 bra $LOOP;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (!hasSharedVariables(ctx)) return na('no .shared variable is declared');
    const findings = ctx.functions.flatMap((fn) => raceFindings(ctx, fn, ctx.analysis.get(fn, sharedRacesAnalysis), 'war'));
    return found(findings);
  },
};

// F036: a shared-memory store reaches a shared-memory load with no barrier on
// some path, and the two may touch the same bytes from different threads: a
// read-after-write race (the load may see the old value).
import { sharedRacesAnalysis } from './shared-races.js';
import { hasSharedVariables, raceFindings } from './race-findings.js';
import type { Check } from './types.js';
import { found, na } from './types.js';

export const F036: Check = {
  meta: {
    id: 'F036',
    name: 'missing-barrier-raw',
    category: 'synchronization',
    severity: 'critical',
    points: 3,
    description: 'A `st.shared` reaches a `ld.shared` on some path with no barrier between them, and the two may touch the same bytes from different threads (read-after-write race).',
    rationale: 'Threads of a CTA run in no fixed order: without a barrier between a write and another thread\'s read of the same shared bytes, the read sees the old or the new value at random. '
      + 'On an H200 the race-raw fixture completes with wrong values and only racecheck reports it ("Race reported between Read access ... and Write access ...").',
    remedy: 'Put `__syncthreads()` (`bar.sync 0`) between the writes and the reads of other threads\' elements; within one warp, `__syncwarp()`. '
      + 'If each thread only reads what it wrote, index both accesses the same way.',
    notes: 'Accesses: `ld`/`st` (`.shared` or generic through a `cvta.shared` pointer), `atom`/`red` (as writes; two atomics never race), '
      + '`ldmatrix`/`stmatrix`, and `cp.async` destinations (as writes), whose affine address is a `.shared` variable plus an offset; every '
      + '`.extern .shared` array is one region. A path is unordered when it passes none of: `bar.sync`/`barrier.sync`/`bar.red`/`barrier.red` '
      + '(any id or count: a named barrier is assumed to include both threads), `bar.arrive`/`mbarrier.arrive` (a producer–consumer '
      + 'protocol: the thread that waits on the matching barrier is ordered after the arriving one; F040 checks the pairing), '
      + '`mbarrier.try_wait`/`test_wait`, `barrier.cluster.wait`, and `bar.warp.sync` for two threads of one warp. A path that passes '
      + 'only warp syncs is unordered for two threads of different warps: it is reported when one of the two addresses is a per-warp '
      + 'slot (equal across the lanes of a warp, `part[warp]`: `__syncwarp` where `__syncthreads` was meant); lane-indexed exchanges '
      + 'across a warp sync are assumed to stay within the warp or the `tiled_partition` tile (departure: a tile\'s `thread_rank()` '
      + 'guard is not modelled). '
      + 'Two accesses may touch the same bytes from different threads when the thread-overlap test finds two distinct threads whose '
      + 'byte ranges overlap: the thread indices are split into bit fields so that `%tid.x >> 6`, `%tid.x & 63` and `%laneid` are '
      + 'exact; each access\'s threads are bounded by the `%tid` comparisons of the branches and guard it runs under (code only '
      + '`%tid.x == 0` runs does not race with itself); accesses are assumed in bounds of their variable, which rules out threads whose '
      + 'address would fall outside it, and an access every thread runs bounds the block\'s extent when it is not declared. With no '
      + 'block size, %tid.y/%tid.z count as one thread wide unless a shared address uses them. The linear thread index '
      + '(cooperative groups\' `thread_rank()`) is %tid.x + X·%tid.y + X·Y·%tid.z with the declared block size, else %tid.x. Induction variables count as one value '
      + 'for both accesses unless threads may run out of step (the loop has a cycle with no cut, or the path wraps around the back '
      + 'edge): then each access has its own value within the ranges analysis\'s bounds. A loaded value in an address (`h[key]`) '
      + 'differs per thread within its range; with no range, an address made of it and no thread index may be any element. '
      + 'Departure: any other symbol that does not cancel between the two addresses and has no bounded range makes the pair unknown, '
      + 'which is not reported (no guessing). Known misses: a loop variable that is not an induction variable (`for (s = blockDim.x / 2; '
      + 's > 0; s >>= 1)`) has no range, so a halving reduction with its barrier after the loop is not reported, and an index that '
      + 'wraps (`s[(t + 32) % 256]`) is not affine. One finding per load and earlier store (and, with `.loc`, per source line), located at '
      + 'the load, the store as related location, the unordered path as the chain. F036 reports before F043 for the same pair.',
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 out)\n.reqntid 256, 1, 1\n{\n\t.reg .b32 %r<6>;\n\t.shared .align 4 .b8 tile[1028];\n'
        + '\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, tile;\n\tadd.s32 %r4, %r3, %r2;\n\tst.shared.u32 [%r4], %r1;\n\tld.shared.u32 %r5, [%r4+4];\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.entry k(.param .u64 out)\n.reqntid 256, 1, 1\n{\n\t.reg .b32 %r<6>;\n\t.shared .align 4 .b8 tile[1028];\n'
        + '\tmov.u32 %r1, %tid.x;\n\tshl.b32 %r2, %r1, 2;\n\tmov.u32 %r3, tile;\n\tadd.s32 %r4, %r3, %r2;\n\tst.shared.u32 [%r4], %r1;\n\tbar.sync 0;\n\tld.shared.u32 %r5, [%r4+4];\n\tret;\n}\n',
    },
  },
  run(ctx) {
    if (!hasSharedVariables(ctx)) return na('no .shared variable is declared');
    const findings = ctx.functions.flatMap((fn) => {
      const races = ctx.analysis.get(fn, sharedRacesAnalysis);
      return raceFindings(ctx, fn, races, 'raw');
    });
    return found(findings);
  },
};

// F092: a kernel's estimated occupancy (active warps per SM over the most the
// SM holds) is below 25 %, from its registers, static shared memory and block size.
import type { FunctionModel } from '../cfg/symbols.js';
import { pressurePeaks } from '../cfg/dataflow/liveness.js';
import { moduleTarget } from './header.js';
import { occupancy, smLimits, staticShared, type Occupancy, type SmLimits } from './occupancy.js';
import type { Check, CheckContext, Finding } from './types.js';
import { found, na } from './types.js';
import { assumptionsAndSilencing } from './memory.js';

const THRESHOLD = 0.25;
/** Without ptxas, registers are taken as this share of the PTX's peak of live 32-bit values: ptxas
 *  usually needs fewer (it rebuilds 64-bit addresses from a base and offsets, packs 16-bit values,
 *  rematerializes constants), so a finding on the estimate stays one ptxas would confirm. */
export const ESTIMATE_FACTOR = 0.7;

/** Registers per thread: ptxas's count, else the peak of live 32-bit values, capped as ptxas would cap them. */
function registers(ctx: CheckContext, fn: FunctionModel, l: SmLimits): { regs: number; source: string } {
  const r = ctx.resources;
  const reported = r?.status === 'ok' ? r.functions[fn.name]?.registers : undefined;
  if (reported !== undefined) return { regs: reported, source: `${reported} registers per thread (ptxas -v)` };
  const live = pressurePeaks(ctx.analysis, fn).slots32.count;
  let regs = Math.max(1, Math.min(l.maxRegsPerThread, Math.floor(live * ESTIMATE_FACTOR)));
  const caps: string[] = [];
  const maxnreg = fn.decl.directives.find((d) => d.name === '.maxnreg')?.args[0];
  if (maxnreg !== undefined && maxnreg < regs) {
    regs = maxnreg;
    caps.push(`.maxnreg ${maxnreg}`);
  }
  const minBlocks = fn.decl.directives.find((d) => d.name === '.minnctapersm')?.args[0];
  const maxntid = fn.decl.directives.find((d) => d.name === '.maxntid');
  if (minBlocks !== undefined && maxntid !== undefined) {
    const threads = maxntid.args.reduce((a, b) => a * b, 1);
    const cap = Math.floor(l.registers / (minBlocks * Math.ceil(threads / 32) * 32) / 8) * 8;
    if (cap > 0 && cap < regs) {
      regs = cap;
      caps.push(`.minnctapersm ${minBlocks}`);
    }
  }
  const why = r === undefined ? 'not ptxas: run with --ptxas for its count' : r.status === 'ok' ? 'ptxas reported none for it' : `ptxas was unavailable: ${r.reason}`;
  return {
    regs,
    source: `≈${regs} registers per thread estimated from PTX liveness (70 % of a peak of ${live} live 32-bit values${caps.length > 0 ? `, capped by ${caps.join(' and ')}` : ''}; ${why})`,
  };
}

function remedy(o: Occupancy): string {
  switch (o.limiter) {
    case 'registers': return 'cap the registers (`__launch_bounds__(threads, minBlocks)`, `-maxrregcount`) or shrink the per-thread working set';
    case 'shared memory': return 'use smaller shared tiles, or fewer buffers per block';
    case 'warps': case 'blocks': return 'use larger blocks';
    default: return 'the block does not fit on an SM: reduce its registers or shared memory';
  }
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

export const F092: Check = {
  meta: {
    id: 'F092',
    name: 'low-occupancy',
    category: 'performance',
    severity: 'low',
    points: 1,
    description: 'A kernel\'s estimated occupancy (warps an SM holds at once over its maximum), from its registers per thread, static shared memory and block size, is below 25 %.',
    rationale: 'Below a quarter of the SM\'s warps there are too few warps to hide memory latency: unless the kernel has a lot of instruction-level parallelism, it stalls on every load.',
    remedy: 'Reduce what limits the blocks per SM: registers (`__launch_bounds__`, `-maxrregcount`, a smaller register tile), shared memory per block (smaller tiles), or a block too small to fill the SM\'s warp slots.',
    notes: 'Precise rule: for each `.entry`, with the limits of its `.target` (warps, blocks, registers and shared memory per SM, the largest '
      + 'shared-memory carveout, 1 KB reserved per block from sm_80, register allocation per warp in units of 256, shared allocation in units of '
      + '128 bytes, 256 on sm_75; from the CUDA programming guide\'s table per compute capability): blocks per SM = the least of the register, '
      + 'shared-memory, warp and block limits; occupancy = blocks × warps per block ÷ warps per SM. Registers: ptxas\'s count with `--ptxas`, '
      + 'else 70 % of the liveness analysis\'s peak of live 32-bit values (ptxas usually needs fewer registers than the PTX keeps live: it '
      + 'rebuilds 64-bit addresses from bases and offsets and packs 16-bit values; Triton\'s matmul keeps 136 values live and gets 96 registers), '
      + 'capped at 255, at `.maxnreg`, and at what `.maxntid` with `.minnctapersm` allows; the finding says which. Shared memory: ptxas\'s static figure, else the sizes of the non-extern `.shared` variables the '
      + 'kernel and its callees name; dynamic shared memory is unknown and not counted. Block: `.reqntid`, `.maxntid` or `--block` (their '
      + 'product); with none, the best block size (a multiple of 32 up to 1024) is taken, so the kernel fails only when no block size reaches 25 %. '
      + 'Targets missing from the table take the nearest older one\'s limits (said in the finding).'
      + assumptionsAndSilencing('F092', 'without `.reqntid`/`.maxntid`/`--block` the best block size is taken, so the finding holds for every block size; without `--ptxas` registers are estimated.'),
    examples: {
      fails: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .b8 big[200000];\n.entry k(.param .u64 p)\n.reqntid 64, 1, 1\n{\n\t.reg .b32 %r<3>;\n'
        + '\t.reg .b64 %rd<2>;\n\tmov.u32 %r1, big;\n\tld.shared.u32 %r2, [%r1];\n\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n',
      passes: '.version 8.0\n.target sm_90\n.address_size 64\n.shared .align 4 .b8 big[4096];\n.entry k(.param .u64 p)\n.reqntid 256, 1, 1\n{\n\t.reg .b32 %r<3>;\n'
        + '\t.reg .b64 %rd<2>;\n\tmov.u32 %r1, big;\n\tld.shared.u32 %r2, [%r1];\n\tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], %r2;\n\tret;\n}\n',
    },
  },
  run(ctx) {
    const kernels = ctx.functions.filter((f) => f.isEntry);
    if (kernels.length === 0) return na('no kernels (.entry)');
    const target = moduleTarget(ctx.module)?.name;
    const sm = smLimits(target);
    if (sm === undefined) return na(`no occupancy limits for the target ${target ?? '(none)'}`);
    const l = sm.limits;
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of kernels) {
      const { regs, source } = registers(ctx, fn, l);
      const r = ctx.resources;
      const ptxShared = r?.status === 'ok' ? r.functions[fn.name]?.sharedBytes : undefined;
      const shared = ptxShared ?? staticShared(ctx.analysis, fn);
      const block = ctx.analysis.blockSize(fn);
      let o: Occupancy;
      let threads: number;
      let blockText: string;
      if (block !== undefined) {
        threads = block[0] * block[1] * block[2];
        o = occupancy(l, threads, regs, shared);
        blockText = `with ${threads} threads per block`;
      } else {
        threads = 32;
        o = occupancy(l, 32, regs, shared);
        for (let t = 64; t <= 1024; t += 32) {
          const x = occupancy(l, t, regs, shared);
          if (x.fraction > o.fraction) {
            o = x;
            threads = t;
          }
        }
        blockText = `even at its best block size (${threads} threads; the block size is unknown)`;
      }
      if (o.fraction >= THRESHOLD) continue;
      const what = o.limiter === 'launch'
        ? `a block of ${threads} threads does not fit on an ${l.name} SM`
        : `estimated occupancy ${pct(o.fraction)} (${o.warps} of ${l.maxWarps} warps per SM on ${l.name}, ${o.blocks} block${o.blocks === 1 ? '' : 's'}) ${blockText}, limited by ${o.limiter}`;
      out.push({
        message: `${what}: ${source}; ${shared} bytes of static shared memory per block${ptxShared !== undefined ? ' (ptxas -v)' : ''}`
          + `${sm.note !== undefined ? ` (${sm.note})` : ''}. Fix: ${remedy(o)}`,
        location: ctx.locate(fn.decl.nameRange),
        function: fn.name,
      });
    }
    return found(out);
  },
};

// F091: ptxas reports spill stores or loads (only with `--ptxas`).
import type { Check, Finding } from './types.js';
import { found, na } from './types.js';
import { assumptionsAndSilencing } from './memory.js';

/** A kernel with 24 values live at once under `.maxnreg 16` (ptxas raises the cap to 24 and spills), or without the cap. */
function example(capped: boolean): string {
  const n = 24;
  const body: string[] = ['\tld.param.u64 %rd1, [p];'];
  for (let i = 0; i < n; i++) body.push(`\tld.volatile.global.f32 %f${i}, [%rd1+${4 * i}];`);
  body.push(`\tmul.f32 %f${n}, %f${n - 1}, %f0;`);
  for (let i = 1; i < n; i++) body.push(`\tfma.rn.f32 %f${n + i}, %f${n - 1 - i}, %f${i}, %f${n + i - 1};`);
  body.push(`\tst.global.f32 [%rd1], %f${2 * n - 1};`);
  return ['.version 8.0', '.target sm_90', '.address_size 64', '.entry k(.param .u64 p)', ...(capped ? ['.maxnreg 16'] : []), '{',
    `\t.reg .f32 %f<${2 * n}>;`, '\t.reg .b64 %rd<2>;', ...body, '\tret;', '}', ''].join('\n');
}

export const F091: Check = {
  meta: {
    id: 'F091',
    name: 'register-spills',
    category: 'performance',
    severity: 'medium',
    points: 1,
    description: '`ptxas -v` (run only with `--ptxas`) reports spill stores or spill loads for a function of the module.',
    rationale: 'A spill moves a register to local memory and back: every spilled value costs a store and loads through L1/L2 in the hot path. Spills usually come from a register cap (`__launch_bounds__` with a minimum of blocks, `-maxrregcount`, `.maxnreg`) below what the code needs, or from large per-thread arrays.',
    remedy: 'Relax the register cap (fewer minimum blocks per SM in `__launch_bounds__`, a higher `-maxrregcount`), shrink the per-thread working set (smaller unroll or register tile), or move large per-thread arrays to shared memory.',
    notes: 'Precise rule: with `--ptxas`, ptxas is run once per module (`ptxas -v -arch=<the module\'s first sm_ target>`, cached by the hash '
      + 'of ptxas, target and text) and its "N bytes spill stores, M bytes spill loads" line for each function is read; a function with N or M '
      + 'above 0 fails, located at its name, with the figures exactly as ptxas printed them (and the stack frame and registers). n/a without '
      + '`--ptxas` (an analysis never compiles unless asked), and n/a with the reason when ptxas is missing or rejects the module.'
      + assumptionsAndSilencing('F091', 'none about the block; the figures are ptxas\'s for the module\'s first `sm_` target.'),
    examples: {
      fails: example(true),
      passes: example(false),
    },
  },
  run(ctx) {
    const r = ctx.resources;
    if (r === undefined) return na('ptxas resource usage was not requested (run with --ptxas)');
    if (r.status !== 'ok') return na(r.reason);
    const out: Omit<Finding, 'id' | 'severity'>[] = [];
    for (const fn of ctx.functions) {
      const f = r.functions[fn.name];
      if (f === undefined || (f.spillStores === 0 && f.spillLoads === 0)) continue;
      out.push({
        message: `ptxas -v (${r.arch}) reports ${f.spillStores} bytes spill stores, ${f.spillLoads} bytes spill loads for ${fn.name} `
          + `(${f.stackFrame} bytes stack frame${f.registers !== undefined ? `, ${f.registers} registers` : ''})`,
        location: ctx.locate(fn.decl.nameRange),
        function: fn.name,
      });
    }
    return found(out);
  },
};

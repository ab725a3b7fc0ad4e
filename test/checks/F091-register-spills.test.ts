import { describe, expect, it } from 'vitest';
import { F091 } from '../../src/checks/F091-register-spills.js';
import type { ResourceUsage } from '../../src/checks/types.js';
import { ptxasResources } from '../../src/gpu/ptxas.js';
import { PTXAS, toolMissing } from '../helpers/toolchain.js';
import { checkCases, outcomeOf } from './harness.js';
import { module } from './memory-kernel.js';

/** ptxas 13.0 -v -arch=sm_90 on F091's own examples (recorded), so that the cases run without ptxas. */
const RECORDED: ReadonlyMap<string, ResourceUsage> = new Map([
  [F091.meta.examples.fails, { status: 'ok', arch: 'sm_90', tool: 'ptxas', functions: { k: { name: 'k', kind: 'entry', registers: 24, spillStores: 32, spillLoads: 44, stackFrame: 32, barriers: 0, sharedBytes: 0 } } }],
  [F091.meta.examples.passes, { status: 'ok', arch: 'sm_90', tool: 'ptxas', functions: { k: { name: 'k', kind: 'entry', registers: 32, spillStores: 0, spillLoads: 0, stackFrame: 0, barriers: 0, sharedBytes: 0 } } }],
]);

const usage = (functions: Record<string, { spillStores: number; spillLoads: number; stackFrame?: number; kind?: 'entry' | 'function' }>): ResourceUsage => ({
  status: 'ok', arch: 'sm_90', tool: 'ptxas',
  functions: Object.fromEntries(Object.entries(functions).map(([name, f]) => [name, { name, kind: f.kind ?? 'entry', stackFrame: f.stackFrame ?? 0, spillStores: f.spillStores, spillLoads: f.spillLoads }])),
});

const twoKernels = `${module(['ld.param.u64 %rd1, [p];'], { name: 'a' })}${module(['ld.param.u64 %rd1, [p];'], { name: 'b' }).split('\n').slice(3).join('\n')}`;
const withFunc = module(['call f;'], { decls: ['.func f()\n{\n\tret;\n}'] });

checkCases(F091, {
  exampleOptions: (ptx) => ({ resources: RECORDED.get(ptx)! }),
  fails: [
    { name: 'the recorded spill of the example', ptx: F091.meta.examples.fails, lines: [4], options: { resources: RECORDED.get(F091.meta.examples.fails)! } },
    { name: 'spill loads only, in the second of two kernels', ptx: twoKernels, lines: [twoKernels.split('\n').findIndex((l) => l.includes('.entry b(')) + 1], options: { resources: usage({ a: { spillStores: 0, spillLoads: 0 }, b: { spillStores: 0, spillLoads: 8 } }) } },
    { name: 'a device function that spills', ptx: withFunc, lines: [4], options: { resources: usage({ k: { spillStores: 0, spillLoads: 0 }, f: { spillStores: 16, spillLoads: 16, stackFrame: 16, kind: 'function' } }) } },
  ],
  passes: [
    { name: 'no spills', ptx: F091.meta.examples.passes, options: { resources: RECORDED.get(F091.meta.examples.passes)! } },
    { name: 'a stack frame without spills (a local array)', ptx: withFunc, options: { resources: usage({ k: { spillStores: 0, spillLoads: 0, stackFrame: 64 } }) } },
    { name: 'ptxas reported nothing for the module\'s functions', ptx: withFunc, options: { resources: usage({}) } },
    { name: 'without --ptxas', ptx: F091.meta.examples.fails, na: true },
    { name: 'ptxas unavailable', ptx: F091.meta.examples.fails, options: { resources: { status: 'unavailable', reason: 'ptxas was not found' } }, na: true },
  ],
});

describe('F091 with ptxas', () => {
  it('says why it is n/a', () => {
    expect(outcomeOf(F091, F091.meta.examples.fails).reason).toBe('ptxas resource usage was not requested (run with --ptxas)');
    expect(outcomeOf(F091, F091.meta.examples.fails, { resources: { status: 'unavailable', reason: 'ptxas was not found' } }).reason).toBe('ptxas was not found');
  });

  it.skipIf(toolMissing(PTXAS) !== undefined)('reports exactly what ptxas prints for its example', () => {
    const r = ptxasResources(F091.meta.examples.fails, 'sm_90');
    const o = outcomeOf(F091, F091.meta.examples.fails, { resources: r });
    expect(o.status).toBe('fail');
    const k = r.status === 'ok' ? r.functions['k']! : undefined;
    expect(o.findings[0]!.message).toBe(`ptxas -v (sm_90) reports ${k!.spillStores} bytes spill stores, ${k!.spillLoads} bytes spill loads for k (${k!.stackFrame} bytes stack frame, ${k!.registers!} registers)`);
    expect(outcomeOf(F091, F091.meta.examples.passes, { resources: ptxasResources(F091.meta.examples.passes, 'sm_90') }).status).toBe('pass');
  });
});

// relu: y[i] = max(x[i], 0) with a predicated select instead of a branch.
import { ARCHS } from '../builder/index.js';
import type { KernelDef } from '../kernel.js';
import { ceilDiv } from '../numeric.js';
import { elemAddr, f32In, globalIndexX, input, launchSpec, output, scalar, size, startModule } from './common.js';

const BLOCK = 256;

export const relu: KernelDef = {
  name: 'relu',
  summary: 'y = max(x, 0) over n f32 elements, branch-free (setp + selp)',
  notes: 'Block of 256 threads, grid ceil(n/256); threads past n exit before any access (no barrier follows). '
    + 'The select keeps the body free of divergent branches (NaN inputs give 0, as the reference does).',
  sizes: [{ name: 'n', description: 'elements', default: 1 << 20, min: 1 }],
  defects: [],
  archs: ARCHS,
  testSizes: [{ n: 777 }, { n: 100_003 }],
  build(opts) {
    const { m } = startModule('relu', opts, []);
    m.kernel('relu', { x: 'u64', y: 'u64', n: 'u32' }, { reqntid: [BLOCK, 1, 1] }, (k, p) => {
      const i = globalIndexX(k);
      const n = k.ldParam(p.n);
      const out = k.newLabel('done');
      k.braIf(k.setp('ge', 'u32', i, n), out);
      const x = k.globalPtr(p.x);
      const y = k.globalPtr(p.y);
      const v = k.ld('global', 'f32', elemAddr(k, x, i, 4), 0, { nc: true });
      const positive = k.setp('gt', 'f32', v, 0);
      k.st('global', 'f32', elemAddr(k, y, i, 4), k.selp('f32', v, 0, positive));
      k.place(out);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const n = size(sizes, 'n');
    return launchSpec({
      kernel: 'relu', sizes, grid: [ceilDiv(n, BLOCK), 1, 1], block: [BLOCK, 1, 1],
      args: [input('x', 'f32', n), output('y', 'f32', n), scalar('n', 'u32', n)],
      tolerance: { rel: 0, abs: 0 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    const n = size(sizes, 'n');
    const x = f32In(inputs, 'x');
    const y = new Float32Array(n);
    for (let i = 0; i < n; i++) y[i] = x[i]! > 0 ? x[i]! : 0;
    return { y };
  },
};

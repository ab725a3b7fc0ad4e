// vector_add: c[i] = a[i] + b[i], one thread per element.
import { ARCHS } from '../builder/index.js';
import type { KernelDef } from '../kernel.js';
import { toF32, ceilDiv } from '../numeric.js';
import { elemAddr, f32In, globalIndexX, input, launchSpec, output, scalar, size, startModule } from './common.js';

const BLOCK = 256;

export const vectorAdd: KernelDef = {
  name: 'vector_add',
  summary: 'c = a + b over n f32 elements, one thread each',
  notes: 'Block of 256 threads (`.reqntid`), grid ceil(n/256). Threads past n exit before any memory access; '
    + 'the kernel has no barrier, so the early exit is safe. Offsets use `mul.wide.u32`.',
  sizes: [{ name: 'n', description: 'elements', default: 1 << 20, min: 1 }],
  defects: [],
  archs: ARCHS,
  testSizes: [{ n: 1000 }, { n: 65536 + 17 }],
  build(opts) {
    const { m } = startModule('vector_add', opts, []);
    m.kernel('vector_add', { a: 'u64', b: 'u64', c: 'u64', n: 'u32' }, { reqntid: [BLOCK, 1, 1] }, (k, p) => {
      const i = globalIndexX(k);
      const n = k.ldParam(p.n);
      const out = k.newLabel('done');
      k.braIf(k.setp('ge', 'u32', i, n), out);
      const a = k.globalPtr(p.a);
      const b = k.globalPtr(p.b);
      const c = k.globalPtr(p.c);
      const x = k.ld('global', 'f32', elemAddr(k, a, i, 4), 0, { nc: true });
      const y = k.ld('global', 'f32', elemAddr(k, b, i, 4), 0, { nc: true });
      k.st('global', 'f32', elemAddr(k, c, i, 4), k.add('f32', x, y));
      k.place(out);
      k.ret();
    });
    return m.emit();
  },
  launch(sizes, seed) {
    const n = size(sizes, 'n');
    return launchSpec({
      kernel: 'vector_add', sizes, grid: [ceilDiv(n, BLOCK), 1, 1], block: [BLOCK, 1, 1],
      args: [input('a', 'f32', n), input('b', 'f32', n), output('c', 'f32', n), scalar('n', 'u32', n)],
      tolerance: { rel: 0, abs: 0 }, ...(seed !== undefined ? { seed } : {}),
    });
  },
  reference(sizes, inputs) {
    const n = size(sizes, 'n');
    const a = f32In(inputs, 'a');
    const b = f32In(inputs, 'b');
    const c = new Float32Array(n);
    for (let i = 0; i < n; i++) c[i] = toF32(a[i]! + b[i]!);
    return { c };
  },
};

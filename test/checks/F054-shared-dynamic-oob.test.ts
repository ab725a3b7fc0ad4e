import { describe, expect, it } from 'vitest';
import { F054 } from '../../src/checks/F054-shared-dynamic-oob.js';
import { findKernel } from '../../src/kernels/library/index.js';
import { checkCases, outcomeOf } from './harness.js';
import { marked, module, REAL } from './memory-kernel.js';

const S128 = '.shared .align 4 .f32 s[128];';
const S256 = '.shared .align 4 .f32 s[256];';
/** %r5 = &s + 4·tid.x */
const ADDR = ['mov.u32 %r1, %tid.x;', 'mov.u32 %r4, s;', 'shl.b32 %r6, %r1, 2;', 'add.s32 %r5, %r4, %r6;'];

const tooSmall = module([...ADDR, 'ld.shared.f32 %f1, [%r5]; // !'], { decls: [S128], directives: '.reqntid 256, 1, 1' });
const twoD = module([
  'mov.u32 %r1, %tid.x;', 'mov.u32 %r2, %tid.y;', 'mov.u32 %r4, s;', 'shl.b32 %r6, %r2, 5;', 'add.s32 %r7, %r6, %r1;', 'shl.b32 %r8, %r7, 2;', 'add.s32 %r5, %r4, %r8;',
  'st.shared.f32 [%r5], %f1; // !',
], { decls: [S256], directives: '.maxntid 32, 16, 1' });
const looseGuard = module([...ADDR, 'setp.ge.u32 %p1, %r1, 200;', '@%p1 bra $skip;', 'st.shared.f32 [%r5], %f1; // !', '$skip:'], { decls: [S128], directives: '.reqntid 256, 1, 1' });
const minusOne = module([...ADDR, 'ld.shared.f32 %f1, [%r5+-4]; // !'], { decls: [S256], directives: '.reqntid 256, 1, 1' });
const reduction = module([...ADDR, 'setp.ge.u32 %p1, %r1, 128;', '@%p1 bra $skip;', 'ld.shared.f32 %f1, [%r5];', 'ld.shared.f32 %f2, [%r5+512]; // !', '$skip:'], { decls: [S128], directives: '.reqntid 256, 1, 1' });
const guarded = module([...ADDR, 'setp.lt.u32 %p1, %r1, 160;', '@%p1 st.shared.f32 [%r5], %f1; // !'], { decls: [S128], directives: '.reqntid 256, 1, 1' });
const blockOption = module([...ADDR, 'ld.shared.f32 %f1, [%r5]; // !'], { decls: [S128] });

/** The tree reduction `for (stride = 128; stride > 0; stride >>= 1) if (tid < stride) s[tid] += s[tid + stride];` over `decl`. */
const tree = (decl: string, mark = ''): string => module([
  ...ADDR, 'mov.u32 %r9, 128;', '$loop:', 'setp.ge.u32 %p1, %r1, %r9;', '@%p1 bra $skip;', 'shl.b32 %r10, %r9, 2;', 'add.s32 %r11, %r5, %r10;',
  'ld.shared.f32 %f1, [%r5];', `ld.shared.f32 %f2, [%r11];${mark}`, 'add.f32 %f1, %f1, %f2;', 'st.shared.f32 [%r5], %f1;', '$skip:', 'bar.sync 0;',
  'shr.u32 %r9, %r9, 1;', 'setp.ne.u32 %p2, %r9, 0;', '@%p2 bra $loop;',
], { decls: [decl], directives: '.reqntid 256, 1, 1' });
const treeTooSmall = tree(S128, ' // !');

checkCases(F054, {
  fails: [
    { name: 's[tid] with s sized for 128 threads and a block of 256', ptx: tooSmall, lines: marked(tooSmall) },
    { name: 's[ty·32 + tx] of 256 floats with .maxntid 32, 16', ptx: twoD, lines: marked(twoD) },
    { name: 'a guard that lets threads up to 199 through to s[128]', ptx: looseGuard, lines: marked(looseGuard) },
    { name: 's[tid − 1] reaches below the array for thread 0', ptx: minusOne, lines: marked(minusOne) },
    { name: 'a reduction step reading s[tid + 128] of s[128]', ptx: reduction, lines: marked(reduction) },
    { name: 'a guard predicate that lets threads up to 159 store', ptx: guarded, lines: marked(guarded) },
    { name: 'the block size from --block', ptx: blockOption, lines: marked(blockOption), options: { block: [256, 1, 1] } },
    { name: 'a tree reduction over s[128] with 256 threads (s[tid + 128] for stride 128)', ptx: treeTooSmall, lines: marked(treeTooSmall) },
  ],
  passes: [
    { name: 'a guard `tid < 128` around s[tid] of s[128] (address computed before the branch)', ptx: module([...ADDR, 'setp.ge.u32 %p1, %r1, 128;', '@%p1 bra $skip;', 'st.shared.f32 [%r5], %f1;', '$skip:'], { decls: [S128], directives: '.reqntid 256, 1, 1' }) },
    { name: 'a guarded store `@p` with p = tid < 128', ptx: module([...ADDR, 'setp.lt.u32 %p1, %r1, 128;', '@%p1 st.shared.f32 [%r5], %f1;'], { decls: [S128], directives: '.reqntid 256, 1, 1' }) },
    { name: 'a reduction step s[tid] += s[tid + 64] under tid < 64', ptx: module([...ADDR, 'setp.gt.u32 %p1, %r1, 63;', '@%p1 bra $skip;', 'ld.shared.f32 %f1, [%r5];', 'ld.shared.f32 %f2, [%r5+256];', '$skip:'], { decls: [S128], directives: '.reqntid 256, 1, 1' }) },
    { name: 'a tree reduction over s[256] with 256 threads (`tid < stride` couples the thread and the stride)', ptx: tree(S256) },
    { name: 's[tid] with s sized for the block', ptx: module([...ADDR, 'ld.shared.f32 %f1, [%r5];'], { decls: [S256], directives: '.reqntid 256, 1, 1' }) },
    {
      name: 'a loop counter in the index is taken at its lowest (not this check\'s)',
      ptx: module([...ADDR, 'mov.u32 %r9, 0;', '$loop:', 'shl.b32 %r10, %r9, 7;', 'add.s32 %r11, %r5, %r10;', 'ld.shared.f32 %f1, [%r11];', 'add.s32 %r9, %r9, 1;', 'setp.lt.u32 %p1, %r9, 4;', '@%p1 bra $loop;'], { decls: [S128], directives: '.reqntid 32, 1, 1' }),
    },
    { name: 'no block size known', ptx: module([...ADDR, 'ld.shared.f32 %f1, [%r5];'], { decls: [S128] }), na: true },
    { name: 'dynamic (extern) shared memory has no size', ptx: module([...ADDR, 'ld.shared.f32 %f1, [%r5];'], { decls: ['.extern .shared .align 4 .b8 s[];'], directives: '.reqntid 256, 1, 1' }), na: true },
    { name: 'nvcc output (block-reduce), block size from --block', ptx: REAL('examples/block-reduce.ptx'), options: { block: [128, 1, 1] } },
    { name: 'emitter softmax_shared (unrolled tree reduction)', ptx: findKernel('softmax_shared')!.build({ arch: 'sm_90' }) },
    { name: 'emitter flash_attention', ptx: findKernel('flash_attention')!.build({ arch: 'sm_90' }) },
    { name: 'emitter gemm_tiled_padded', ptx: findKernel('gemm_tiled_padded')!.build({ arch: 'sm_90' }) },
  ],
});

describe('F054 messages', () => {
  it('name a thread that reaches past the variable', () => {
    expect(outcomeOf(F054, tooSmall).findings[0]!.message).toContain('thread (128, 0, 0) reaches bytes 512..515 (128 threads in all; thread (255, 0, 0) reaches bytes 1020..1023) within the block 256×1×1');
    expect(outcomeOf(F054, twoD).findings[0]!.message).toContain('thread (0, 8, 0) reaches bytes 1024..1027');
    expect(outcomeOf(F054, minusOne).findings[0]!.message).toContain('thread (0, 0, 0) reaches byte -4');
    expect(outcomeOf(F054, looseGuard).findings[0]!.message).toContain('thread (128, 0, 0)');
  });
});

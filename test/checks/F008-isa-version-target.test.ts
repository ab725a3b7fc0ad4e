import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { F008 } from '../../src/checks/F008-isa-version-target.js';
import { availabilityProblem, parseTarget, targetAllowed } from '../../src/parser/isa/targets.js';
import { checkCases } from './harness.js';

const mod = (version: string, target: string, body: string, directives = ''): string =>
  `.version ${version}\n.target ${target}\n.address_size 64\n.entry k(.param .u64 p)${directives}\n{\n\t.reg .pred %p<3>;\n\t.reg .b32 %r<9>;\n\t.reg .b64 %rd<5>;\n`
  + `\t.shared .align 8 .b8 smem[64];\n${body}\tret;\n}\n`;
// body starts at line 10

checkCases(F008, {
  fails: [
    { name: 'wgmma on sm_90 (needs sm_90a)', ptx: mod('8.0', 'sm_90', '\twgmma.fence.sync.aligned;\n'), lines: [10] },
    { name: 'cp.async on sm_75 (needs sm_80)', ptx: mod('7.8', 'sm_75', '\tcp.async.ca.shared.global [smem], [%rd1], 16;\n'), lines: [10] },
    { name: 'mbarrier.try_wait needs PTX 7.8 and sm_90', ptx: mod('7.0', 'sm_80', '\tmbarrier.try_wait.shared.b64 %p1, [smem], %rd1;\n'), lines: [10] },
    { name: 'mbarrier.expect_tx needs PTX 8.0', ptx: mod('7.8', 'sm_90', '\tmbarrier.expect_tx.shared.b64 [smem], 16;\n'), lines: [10] },
    { name: 'tcgen05 on plain sm_100', ptx: mod('8.6', 'sm_100', '\ttcgen05.fence::before_thread_sync;\n'), lines: [10] },
    { name: 'tcgen05 on sm_120a', ptx: mod('8.7', 'sm_120a', '\ttcgen05.fence::before_thread_sync;\n'), lines: [10] },
    { name: 'a modifier newer than its opcode: .cluster scope on sm_80', ptx: mod('7.8', 'sm_80', '\tld.relaxed.cluster.global.u32 %r1, [%rd1];\n'), lines: [10] },
    { name: 'a type newer than its opcode: add.bf16 on sm_80', ptx: mod('7.8', 'sm_80', '\t.reg .b16 %h<3>;\n\tadd.bf16 %h1, %h2, %h2;\n'), lines: [11] },
    { name: 'a directive: .reqnctapercluster on sm_86', ptx: mod('7.1', 'sm_86', '', '\n.reqnctapercluster 2, 1, 1'), lines: [5] },
    { name: 'setmaxnreg on sm_90 (arch-specific)', ptx: mod('8.0', 'sm_90', '\tsetmaxnreg.inc.sync.aligned.u32 232;\n'), lines: [10] },
  ],
  passes: [
    { name: 'nvcc output', ptx: readFileSync('examples/block-reduce.ptx', 'utf8') },
    { name: 'wgmma on sm_90a', ptx: readFileSync('fixtures/corpus/handwritten/wgmma_sm90a.ptx', 'utf8') },
    { name: 'tcgen05 on sm_100a', ptx: readFileSync('fixtures/corpus/handwritten/tcgen05_sm100a.ptx', 'utf8') },
    { name: 'tcgen05 on sm_103f (family target)', ptx: mod('8.8', 'sm_103f', '\ttcgen05.fence::before_thread_sync;\n') },
    { name: 'mbarrier forms on sm_90', ptx: readFileSync('fixtures/corpus/handwritten/mbarrier_sm90.ptx', 'utf8') },
    { name: 'cp.async at exactly PTX 7.0 / sm_80', ptx: mod('7.0', 'sm_80', '\tcp.async.ca.shared.global [smem], [%rd1], 16;\n') },
    { name: 'no .version: n/a (F002 reports it)', ptx: '.target sm_90\n.address_size 64\n.entry k()\n{\n\tret;\n}\n', na: true },
  ],
});

describe('target rules (src/parser/isa/targets.ts)', () => {
  const t = (name: string) => parseTarget(name)!;
  it('an a-target admits exactly itself', () => {
    expect(targetAllowed(t('sm_90a'), ['sm_90a'])).toBe(true);
    expect(targetAllowed(t('sm_90'), ['sm_90a'])).toBe(false);
    expect(targetAllowed(t('sm_100a'), ['sm_90a'])).toBe(false);
  });
  it('an f-target admits the a/f targets of its family from its number on', () => {
    expect(targetAllowed(t('sm_103a'), ['sm_100f'])).toBe(true);
    expect(targetAllowed(t('sm_103f'), ['sm_100f'])).toBe(true);
    expect(targetAllowed(t('sm_100'), ['sm_100f'])).toBe(false);
    expect(targetAllowed(t('sm_110a'), ['sm_100f'])).toBe(false);
    expect(targetAllowed(t('sm_121f'), ['sm_120f'])).toBe(true);
  });
  it('a plain target admits later targets of any suffix', () => {
    expect(targetAllowed(t('sm_90a'), ['sm_80'])).toBe(true);
    expect(targetAllowed(t('sm_75'), ['sm_80'])).toBe(false);
  });
  it('reports version and target problems together', () => {
    expect(availabilityProblem({ ptx: '7.8', sm: 90 }, '7.1', t('sm_86'))).toBe(
      'needs .version 7.8 (the module has 7.1) and needs sm_90 or later (the module targets sm_86)',
    );
    expect(availabilityProblem({ ptx: '7.0', sm: 80 }, '7.0', t('sm_80'))).toBeUndefined();
  });
});

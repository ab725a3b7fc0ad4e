// A large module is checked part by part. When a check's analysis gives up on
// one part (a work budget exceeded), the check still judges the other parts,
// and its outcome says that part was not analyzed; checked whole, the same
// check is n/a for the module with the same reason.
import { describe, expect, it } from 'vitest';
import { runChecks } from '../../src/checks/run.js';
import { parsePtx } from '../../src/parser/parse.js';

// `big`: 3,000 guarded updates of one register in a loop; every definition reaches every use, 9 million
// definition-use pairs, past the reaching-definitions budget. `k`: reads %r3, which nothing writes (F071).
const updates = Array.from({ length: 3000 }, () => '\t@%p1 add.s32 %r1, %r1, 1;').join('\n');
const text = `.version 8.0
.target sm_90
.address_size 64
.visible .func big()
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<2>;
\tmov.u32 %r1, %tid.x;
\tsetp.lt.u32 %p1, %r1, 7;
$L_loop:
${updates}
\tsetp.lt.s32 %p1, %r1, 100000;
\t@%p1 bra $L_loop;
\tret;
}
.visible .entry k(.param .u64 out)
{
\t.reg .b32 %r<4>;
\t.reg .b64 %rd<2>;
\tld.param.u64 %rd1, [out];
\tadd.s32 %r2, %r3, 1;
\tst.global.u32 [%rd1], %r2;
\tret;
}
`;

describe('a check whose analysis gives up on one part of a module', () => {
  const parsed = parsePtx(text);

  it('judges the other parts and says which part it could not analyze', () => {
    expect(parsed.errors).toEqual([]);
    const report = runChecks(parsed.module, text, { chunkBytes: 1, only: ['F071'] });
    const f071 = report.outcomes.find((o) => o.id === 'F071')!;
    expect(f071.status).toBe('fail');
    expect(f071.findings.map((f) => f.location.line)).toEqual([text.split('\n').findIndex((l) => l.includes('%r3, 1')) + 1]);
    expect(f071.reason).toMatch(/^judged on the parts of the module that could be analyzed; 1 part\(s\) not analyzed: reaching definitions: .* in big;/);
  });

  it('is n/a for the module when checked whole', () => {
    const report = runChecks(parsed.module, text, { chunkBytes: Infinity, only: ['F071'] });
    const f071 = report.outcomes.find((o) => o.id === 'F071')!;
    expect(f071.status).toBe('na');
    expect(f071.reason).toMatch(/^not analyzed: reaching definitions: .* in big;/);
  });
});

// The HTML report as text: self-contained (no URL to fetch, a CSP that
// forbids requests), every piece of input text escaped (a PTX file whose
// comments, `.file` path and suppression reason carry markup renders it as
// text), the parts the issue lists present, and one file or many.
// test/report/browser.test.ts opens the same pages in Chromium.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeFiles, analyzeText } from '../../src/analyze.js';
import { renderCheckDoc } from '../../src/checks/docs.js';
import { CHECKS } from '../../src/checks/index.js';
import { formatHtml, markdownToHtml } from '../../src/report/html.js';
import { FIXTURES, HEADER, RACE_FINDING, raceResult, resultOf } from './helpers.js';

const options = { version: '0.1.0' };
const hostileText = readFileSync(join(FIXTURES, 'hostile.ptx'), 'utf8');

describe('HTML report escaping', () => {
  it('renders markup from comments, .file paths, suppression reasons and file names as text', async () => {
    const html = await formatHtml(resultOf(analyzeText(hostileText, 'dir/<script>alert(1)</script>&.ptx')), options);
    // Our own script is the only one; no element the input spelled out exists.
    expect(html.match(/<script/gi)).toHaveLength(1);
    expect(html).not.toMatch(/<img|<b>bold|<i>|<\/textarea>/i);
    expect(html.match(/<\/style>/gi)).toHaveLength(1);
    expect(html.match(/<!--/g)).toBeNull();
    // The text is there, escaped.
    expect(html).toContain('&lt;script&gt;window.__pwned &#x3D; 1;&lt;/script&gt;');
    expect(html).toContain('&lt;/textarea&gt;&lt;/style&gt;&lt;/title&gt;&lt;!-- --&gt; ]]&gt; &amp; &amp;amp; &quot;double&quot; &#x27;single&#x27;');
    expect(html).toContain('/tmp/&lt;img src&#x3D;x onerror&#x3D;window.__pwned&#x3D;2&gt;&amp;&lt;b&gt;.cu:3');
    expect(html).toContain('suppressed by comment: &lt;/script&gt;&lt;script&gt;window.__pwned &#x3D; 4;&lt;/script&gt; &amp; &lt;i&gt;]]&gt;');
    expect(html).toContain('dir/&lt;script&gt;alert(1)&lt;/script&gt;&amp;.ptx');
  });

  it('check docs become HTML with every input character escaped', () => {
    expect(markdownToHtml('# T <b>\n\ntext `a<b>` & more\n\n```ptx\n.reg .b32 %r<2>;\n```\n')).toBe(
      '<h4>T &lt;b&gt;</h4>\n<p>text <code>a&lt;b&gt;</code> &amp; more</p>\n<pre><code>.reg .b32 %r&lt;2&gt;;</code></pre>');
    for (const c of CHECKS) {
      const html = markdownToHtml(renderCheckDoc(c.meta));
      expect(html.replace(/<\/?(h4|h5|p|pre|code)>/g, '')).not.toMatch(/[<>]/);
      expect(html).toContain(`<h4>${c.meta.id} ${c.meta.name}</h4>`);
    }
  });
});

describe('HTML report content', () => {
  it('is self-contained: inline style and script, nothing to fetch', async () => {
    const html = await formatHtml(raceResult(), options);
    expect(html).toContain('Content-Security-Policy');
    expect(html).toContain("default-src 'none'");
    expect(html).not.toMatch(/<link|<img|<iframe|src=|url\(|@import/i);
    expect(html).not.toMatch(/href="(?!#)/);
    expect(html).not.toMatch(/xlink:href="(?!#)/);
  });

  it('shows the score, band, exit reason, scorecard, findings with chains, listing and CFG', async () => {
    const html = await formatHtml(raceResult(), options);
    expect(html).toMatch(/class="band band-(pass|warn|block|critical)"/);
    expect(html).toContain('exit ');
    expect(html).toContain('Scorecard');
    expect(html).toContain('<div class="cat-head"><span>Module</span>');
    expect(html).toContain(RACE_FINDING.message);
    expect(html).toContain('Why it matters');
    expect(html).toContain('<code>st.shared.f32</code> at <a href="#f0-L16">line 16</a> <span class="muted">(src/race.cu:10)</span>');
    // The synthetic race's chain has three steps (real checks add chains of their own).
    const chains = [...html.matchAll(/<ol class="chain">[\s\S]*?<\/ol>/g)].map((m) => m[0]);
    expect(chains.some((c) => c.includes('src/race.cu:10') && c.match(/<li>/g)?.length === 3)).toBe(true);
    // The listing: every line, the finding's line marked with its id.
    expect(html).toContain('<tr id="f0-L18" class="hit hit-critical on-chain">');
    expect(html).toMatch(/<tr id="f0-L16" class="[^"]*on-chain">/);
    // The CFG: one SVG, the finding's block highlighted and on the chain.
    expect(html.match(/<figure class="cfg">/g)).toHaveLength(1);
    expect(html.match(/<svg[^>]*viewBox/g)!.length).toBeGreaterThanOrEqual(1);
    expect(html).toMatch(/<g id="f0-fn0-B0" class="node cfg-block hit sev-critical chain">/);
  });

  it('handles many files, one of them unparsable', async () => {
    const broken = analyzeText(`${HEADER}.entry k()\n{\n\tmov.u32 %r1 %r2; // <b>x</b>\n}\n`, 'broken.ptx');
    const real = await analyzeFiles([join(FIXTURES, 'block-reduce-defects.ptx'), 'examples/block-reduce.ptx']);
    const html = await formatHtml(resultOf(...real.files, broken), options);
    expect(html).toContain('3 files: lowest score');
    expect(html.match(/<section class="file"/g)).toHaveLength(3);
    expect(html).toContain('exit 4: 1 syntax error(s)');
    expect(html).toContain('// &lt;b&gt;x&lt;/b&gt;');
    // block-reduce has three kernels: three graphs per analyzed file.
    expect(html.match(/<figure class="cfg">/g)).toHaveLength(6);
    expect(html).toMatch(/class="node cfg-block hit sev-high/);
    // Element ids are unique across the page.
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

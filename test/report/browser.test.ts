// The HTML report in a real browser: Debian's Chromium, headless, driven by
// playwright-core. Each page must render the score, the findings and the CFG
// SVGs with no console error and no request beyond the page itself, and input
// that spells script must stay text. The report of a real kernel with
// findings is saved as docs/report-screenshot.png for the README.
// Skipped, with the reason printed, where no Chromium is installed
// (`.ci/run` installs it; CHROMIUM overrides the path).
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeFiles, analyzeText, type AnalysisResult } from '../../src/analyze.js';
import { formatScore } from '../../src/checks/score.js';
import { formatHtml } from '../../src/report/html.js';
import { FIXTURES, HEADER, raceResult, resultOf } from './helpers.js';

const CHROMIUM = process.env['CHROMIUM'] ?? '/usr/bin/chromium';
const missing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM)`;
if (missing !== undefined) console.warn(`skipping the browser tests of the HTML report: ${missing}`);

const SCREENSHOT = join('docs', 'report-screenshot.png');
const dir = mkdtempSync(join(tmpdir(), 'ptx-debug-html-'));

interface Visit {
  readonly page: Page;
  readonly requests: string[];
  readonly errors: string[];
  readonly url: string;
}

describe.skipIf(missing !== undefined)('HTML report in headless Chromium', () => {
  let browser: Browser;
  const visits: Visit[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    for (const v of visits) await v.page.close();
    await browser?.close();
  });

  async function open(name: string, result: AnalysisResult): Promise<Visit> {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, await formatHtml(result, { version: '0.1.0' }));
    const url = pathToFileURL(file).href;
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const requests: string[] = [];
    const errors: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
    await page.goto(url, { waitUntil: 'load' });
    const visit = { page, requests, errors, url };
    visits.push(visit);
    return visit;
  }

  function expectQuiet(v: Visit): void {
    expect(v.errors).toEqual([]);
    expect(v.requests).toEqual([v.url]);
  }

  it('renders a real kernel with findings: score, findings, CFG with highlighted blocks', async () => {
    const result = await analyzeFiles([relative(process.cwd(), join(FIXTURES, 'block-reduce-defects.ptx'))]);
    const report = result.files[0]!.report!;
    expect(report.findings.length).toBeGreaterThan(0);
    const v = await open('defects', result);
    const { page } = v;
    await expect.poll(() => page.locator('.verdict').innerText()).toContain(`score ${formatScore(report.score.score)}`);
    expect(await page.locator('.gauge svg text').textContent()).toBe(formatScore(report.score.score));
    expect(await page.locator('.exit-reason').first().innerText()).toMatch(/^exit \d: /);
    expect(await page.locator('.finding').count()).toBe(report.findings.length);
    for (const f of report.findings) await expect.poll(() => page.locator('.finding').getByText(f.message).count()).toBeGreaterThan(0);
    expect(await page.locator('figure.cfg svg').count()).toBe(report.kernels.length);
    expect(await page.locator('figure.cfg g.cfg-block.hit').count()).toBeGreaterThan(0);
    // The SVG is laid out: the highlighted block has a real size on screen.
    const box = await page.locator('figure.cfg g.cfg-block.hit').first().boundingBox();
    expect(box!.width).toBeGreaterThan(20);
    expect(await page.locator('table.src tr.hit').count()).toBeGreaterThan(0);
    await page.screenshot({ path: SCREENSHOT, fullPage: true, clip: { x: 0, y: 0, width: 1400, height: 1560 } });
    expect(readFileSync(SCREENSHOT).subarray(1, 4).toString()).toBe('PNG');
    // Links inside the page work without leaving it, and the script runs.
    await page.locator('figure.cfg g.cfg-block.hit a').first().click();
    expect(page.url()).toMatch(/#f0-L\d+$/);
    await page.locator('input[data-only-failing]').check();
    expect(await page.locator('.scorecard tr.row-pass').first().isVisible()).toBe(false);
    expect(await page.locator('.scorecard tr.row-fail').first().isVisible()).toBe(true);
    expectQuiet(v);
  });

  it('renders input that spells markup as text, and runs none of it', async () => {
    const hostile = analyzeText(readFileSync(join(FIXTURES, 'hostile.ptx'), 'utf8'), 'dir/<script>window.__pwned=5</script>.ptx');
    const v = await open('hostile', resultOf(hostile));
    const { page } = v;
    expect(await page.evaluate(() => (globalThis as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('img, b:text("bold"), i, textarea').count()).toBe(0);
    expect(await page.locator('script').count()).toBe(1);
    const listing = await page.locator('table.src').innerText();
    expect(listing).toContain('// Text that is markup in HTML and XML: <script>window.__pwned = 1;</script>');
    expect(listing).toContain('// a comment with </textarea><script>window.__pwned = 3;</script>');
    expect(await page.locator('h2').first().innerText()).toBe('dir/<script>window.__pwned=5</script>.ptx');
    expect(await page.locator('.finding .where').first().innerText()).toContain('/tmp/<img src=x onerror=window.__pwned=2>&<b>.cu:3');
    expectQuiet(v);
  });

  it('renders many files, a dataflow chain, and a file that could not be parsed', async () => {
    const race = raceResult().files[0]!;
    const broken = analyzeText(`${HEADER}.entry k()\n{\n\tmov.u32 %r1 %r2;\n}\n`, 'broken.ptx');
    const real = await analyzeFiles(['examples/block-reduce.ptx']);
    const v = await open('many', resultOf(race, ...real.files, broken));
    const { page } = v;
    expect(await page.locator('section.file').count()).toBe(3);
    expect(await page.locator('.files-summary tbody tr').count()).toBe(3);
    expect(await page.locator('ol.chain li').count()).toBeGreaterThanOrEqual(3);
    expect(await page.locator('figure.cfg svg').count()).toBe(1 + real.files[0]!.report!.kernels.length);
    expect(await page.locator('section.file').nth(2).innerText()).toContain('exit 4: 1 syntax error(s)');
    expectQuiet(v);
  });
});

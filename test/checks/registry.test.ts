// The registry is the catalog: built checks plus the not-built list are
// exactly F001..F100; every built check has a matching file name, a test, up
// to date docs, and meta that agrees with CATALOG.md.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOG, CATALOG_BY_ID } from '../../src/checks/catalog.js';
import { renderCheckDoc } from '../../src/checks/docs.js';
import { CHECKS, NOT_BUILT } from '../../src/checks/index.js';

const ALL = Array.from({ length: 100 }, (_, i) => `F${String(i + 1).padStart(3, '0')}`);
const files = readdirSync('src/checks').filter((f) => /^F\d{3}-/.test(f));

describe('check registry', () => {
  it('built and not-built ids are exactly F001..F100, sorted, without overlap', () => {
    const built = CHECKS.map((c) => c.meta.id);
    expect(built).toEqual([...built].sort());
    expect([...built, ...NOT_BUILT].sort()).toEqual(ALL);
    expect(new Set([...built, ...NOT_BUILT]).size).toBe(100);
  });

  it('the catalog has 100 checks whose points sum to 100', () => {
    expect(CATALOG.map((e) => e.id)).toEqual(ALL);
    expect(CATALOG.reduce((n, e) => n + e.points, 0)).toBe(100);
  });

  it('every check module is registered (or listed as not built yet), and its file name matches its id and name', () => {
    const registered = new Set(CHECKS.map((c) => c.meta.id as string));
    for (const f of files) {
      const id = f.slice(0, 4);
      expect(registered.has(id) || NOT_BUILT.includes(id), `${f} is neither registered nor listed in NOT_BUILT`).toBe(true);
    }
    for (const c of CHECKS) {
      expect(files, `src/checks/${c.meta.id}-${c.meta.name}.ts`).toContain(`${c.meta.id}-${c.meta.name}.ts`);
    }
  });

  it.each(CHECKS.map((c) => [c.meta.id, c] as const))('%s agrees with the catalog, has a test and current docs', (id, c) => {
    const entry = CATALOG_BY_ID.get(id)!;
    expect({ name: c.meta.name, category: c.meta.category, severity: c.meta.severity, points: c.meta.points })
      .toEqual({ name: entry.name, category: entry.category, severity: entry.severity, points: entry.points });
    const testFile = `test/checks/${id}-${c.meta.name}.test.ts`;
    expect(existsSync(testFile), `missing ${testFile}`).toBe(true);
    const doc = `docs/checks/${id}.md`;
    expect(existsSync(doc), `missing ${doc}: run npm run docs`).toBe(true);
    expect(readFileSync(doc, 'utf8'), `${doc} is out of date: run npm run docs`).toBe(renderCheckDoc(c.meta));
  });
});

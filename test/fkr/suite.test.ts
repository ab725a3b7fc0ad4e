// The committed FKR suite (test/fkr-suite/) is what the generator writes
// today: the bundled kernels as the emitter emits them, and their FKR files as
// gen-fkr writes them. A difference means a kernel, a check or the generator
// changed: rerun the script and review the diff.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fkrSuite, SUITE_DIR, SUITE_REGENERATE } from '../../src/fkr/suite.js';
import { ROOT } from './helpers.js';

const HINT = `regenerate the suite with \`${SUITE_REGENERATE}\` and review the diff`;

describe('the committed FKR suite', () => {
  const files = fkrSuite(ROOT);

  it('covers every bundled kernel and defect variant', () => {
    const tests = files.filter((f) => f.path.endsWith('.fkr.test.ts'));
    expect(tests.length).toBe(files.length / 2);
    expect(tests.map((f) => f.path)).toContain(`${SUITE_DIR}/vector_add.fkr.test.ts`);
    expect(tests.map((f) => f.path)).toContain(`${SUITE_DIR}/gemm_tiled.no-barrier.fkr.test.ts`);
  });

  it('is up to date', () => {
    const stale = files.filter((f) => {
      const path = join(ROOT, f.path);
      return !existsSync(path) || readFileSync(path, 'utf8') !== f.content;
    }).map((f) => f.path);
    expect(stale, `out of date: ${HINT}`).toEqual([]);
  });

  it('holds no files the generator no longer writes', () => {
    const wanted = new Set(files.map((f) => f.path));
    const present = [SUITE_DIR, `${SUITE_DIR}/kernels`].flatMap((dir) => (existsSync(join(ROOT, dir)) ? readdirSync(join(ROOT, dir)) : [])
      .filter((n) => n.endsWith('.fkr.test.ts') || n.endsWith('.ptx'))
      .map((n) => `${dir}/${n}`));
    expect(present.filter((p) => !wanted.has(p)), `left over: ${HINT}`).toEqual([]);
  });
});

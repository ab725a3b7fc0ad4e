// The labelled CUDA corpus part of docs/accuracy.md: every `.cu` under
// fixtures/checks marks the findings it must produce on their source lines
// (`// expect: F0xx`); it is compiled by nvcc (-lineinfo, sm_90 unless its
// `// archs:` line excludes it), analyzed with its `// analyze: --block` size,
// and each finding of the checks it is about (the families of its marks and of
// its directory) is matched, through `.loc`, against the marks: a matched mark
// is found, an unmatched one missed, an unmarked finding a false alarm. Each
// kernel (the lines from one `__global__` to the next) is classified exactly
// when its findings equal its marks.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { analyzeText } from './analyze.js';
import { familyOf } from './checks/families.js';
import type * as A from './parser/ast.js';
import { parsePtx } from './parser/parse.js';

export interface CheckTally { marks: number; found: number; missed: string[]; falseAlarms: string[] }

export interface LabelledCudaResult {
  readonly files: number;
  readonly kernels: { buggy: number; correct: number; exact: number; wrong: string[] };
  readonly perCheck: Map<string, CheckTally>;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).sort().flatMap((e) => {
    const p = join(dir, e);
    return statSync(p).isDirectory() ? walk(p) : e.endsWith('.cu') ? [p] : [];
  });
}

/** Every `// expect: F0xx [F0yy]` mark of a fixture source, as sorted `F0xx:line` strings. */
export function expectedMarks(source: string): string[] {
  return source.split('\n').flatMap((text, i) => {
    const m = /\/\/\s*expect:\s*((?:F\d{3}\s*)+)$/.exec(text.trim());
    return m === null ? [] : m[1]!.trim().split(/\s+/).map((id) => `${id}:${i + 1}`);
  }).sort();
}

/** Every `// known-miss: F0xx reason` mark: a labelled bug the check is known not to find, with why (the
 *  reason ends at an `// expect:` mark that follows it on the line, for a bug another check finds there). */
export function knownMisses(source: string): { id: string; line: number; reason: string }[] {
  return source.split('\n').flatMap((text, i) => {
    const m = /\/\/\s*known-miss:\s*(F\d{3})\s+(.+?)(?:\s*\/\/\s*expect:.*)?$/.exec(text.trim());
    return m === null ? [] : [{ id: m[1]!, line: i + 1, reason: m[2]!.trim() }];
  });
}

/** The targets a fixture compiles for: `// archs: sm_XX ...` exactly, else its `// arch: sm_XX` minimum
 *  (default sm_75) and sm_90. */
export function fixtureArchs(source: string): string[] {
  const only = /^\/\/\s*archs:\s*((?:sm_\w+\s*)+)$/m.exec(source);
  if (only !== null) return only[1]!.trim().split(/\s+/);
  const m = /^\/\/\s*arch:\s*(sm_\d+)/m.exec(source);
  return [...new Set([m?.[1] ?? 'sm_75', 'sm_90'])];
}

/** The analysis options a fixture's `// analyze:` line gives (`--block X,Y,Z`, `--ptxas`). */
export function fixtureOptions(source: string): { block?: [number, number, number]; ptxas?: boolean } {
  const line = /^\/\/\s*analyze:(.*)$/m.exec(source)?.[1] ?? '';
  const block = /--block (\d+),(\d+),(\d+)/.exec(line);
  return { ...(block !== null ? { block: [Number(block[1]), Number(block[2]), Number(block[3])] } : {}), ...(line.includes('--ptxas') ? { ptxas: true } : {}) };
}

/**
 * The findings of the checks `only` on a fixture's PTX, by `F0xx:line` of the `.cu` source (through
 * `cudaLines`; a kernel-level finding, which no instruction maps, at its kernel's `__global__` line; one
 * that maps nowhere at minus its PTX line), with each one's message. The fixture's `// analyze:` options apply.
 */
export function fixtureFindings(ptx: string, file: string, source: string, only: readonly string[]): Map<string, string> {
  const r = analyzeText(ptx, file, { only, ...fixtureOptions(source) });
  if (r.report === undefined) throw new Error(`${file}: ${r.error?.message ?? 'not analyzed'}: ${(r.error?.diagnostics ?? []).join('; ')}`);
  const map = cudaLines(parsePtx(ptx).module, file);
  const sourceLines = source.split('\n');
  const got = new Map<string, string>();
  for (const f of r.report.findings) {
    const decl = f.function === undefined ? 0
      : sourceLines.findIndex((l) => l.includes('__global__') && new RegExp(`\\b${f.function}\\s*\\(`).test(l)) + 1;
    const line = map.get(f.location.line) ?? (decl > 0 ? decl : -f.location.line);
    if (!got.has(`${f.id}:${line}`)) got.set(`${f.id}:${line}`, f.message);
  }
  return got;
}

const CACHE = existsSync('node_modules') ? join('node_modules', '.cache', 'ptx-debug-tests') : join(tmpdir(), 'ptx-debug-tests');

/** `nvcc -ptx -lineinfo` of a fixture, cached by path and content (the same cache and key as the tests' compiler
 *  helper; the path counts because the PTX's `.file` names it). */
function compile(file: string, source: string, arch: string, nvcc: string): string {
  mkdirSync(CACHE, { recursive: true });
  const out = join(CACHE, `${createHash('sha256').update(`nvcc|${arch}|-lineinfo|${file}|${source}`).digest('hex').slice(0, 24)}.ptx`);
  if (!existsSync(out)) {
    const tmp = `${out}.${process.pid}.acc.tmp.ptx`;
    execFileSync(nvcc, ['-ptx', '-lineinfo', `-arch=${arch}`, file, '-o', tmp], { stdio: 'ignore' });
    renameSync(tmp, out);
  }
  return readFileSync(out, 'utf8');
}

/** PTX line → line of the `.cu` file, through `.loc`: an instruction inlined from a device function or a
 *  header (`__shfl_sync`, `atomicAdd`) maps to the call site its `inlined_at` names (which tells the kernels
 *  that share a helper apart), following the chain of call sites (`.loc 6 60 3 ... inlined_at 13 215 7`, where
 *  the last `.loc` of 13:215:7 was itself inlined at the `.cu` file's line 86) up to the `.cu` file; `.loc`s
 *  that lead nowhere in the `.cu` file leave the last line. */
export function cudaLines(module: A.Module, file: string): Map<number, number> {
  const files = new Set<number>();
  for (const s of module.statements) if (s.kind === 'File' && basename(s.path) === basename(file)) files.add(s.index);
  const out = new Map<number, number>();
  /** file:line:column of a position → the `.cu` line its latest `.loc` resolved to. */
  const resolved = new Map<string, number>();
  let line = -1;
  const walk = (b: A.Block): void => {
    for (const s of b.statements) {
      if (s.kind === 'Loc') {
        let at: number | undefined;
        if (s.inlinedAt !== undefined) {
          at = files.has(s.inlinedAt.file) ? s.inlinedAt.line : resolved.get(`${s.inlinedAt.file}:${s.inlinedAt.line}:${s.inlinedAt.column}`);
        } else if (files.has(s.file)) at = s.line;
        if (at !== undefined) {
          line = at;
          resolved.set(`${s.file}:${s.line}:${s.column}`, at);
        }
      } else if (s.kind === 'Instruction') {
        if (line > 0) out.set(s.range.line, line);
      } else if (s.kind === 'Block') walk(s);
    }
  };
  for (const s of module.statements) if (s.kind === 'Function' && s.body !== null) { line = -1; resolved.clear(); walk(s.body); }
  return out;
}

/** The kernel a `.cu` line belongs to: the last `__global__` at or above it (0 before the first). */
function kernelStarts(source: string): number[] {
  return source.split('\n').flatMap((l, i) => (l.includes('__global__') ? [i + 1] : []));
}

export function labelledCuda(root = join('fixtures', 'checks'), nvcc = 'nvcc'): LabelledCudaResult {
  const perCheck = new Map<string, CheckTally>();
  const tally = (id: string): CheckTally => {
    let t = perCheck.get(id);
    if (t === undefined) perCheck.set(id, t = { marks: 0, found: 0, missed: [], falseAlarms: [] });
    return t;
  };
  const kernels = { buggy: 0, correct: 0, exact: 0, wrong: [] as string[] };
  const files = walk(root);
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    const expected = new Set(expectedMarks(source));
    const dirId = /^F\d{3}$/.exec(basename(join(file, '..', '..')))?.[0];
    const scope = [...new Set([...(dirId !== undefined ? [dirId] : []), ...[...expected].map((m) => m.split(':')[0]!)].flatMap((id) => familyOf(id)))];
    const archs = fixtureArchs(source);
    const got = fixtureFindings(compile(file, source, archs.includes('sm_90') ? 'sm_90' : archs[0]!, nvcc), file, source, scope);
    for (const m of expected) {
      const [id, line] = m.split(':');
      const t = tally(id!);
      t.marks++;
      if (got.has(m)) t.found++;
      else t.missed.push(`${file}:${line}`);
    }
    const misses = knownMisses(source).map((x) => ({ mark: `${x.id}:${x.line}`, reason: x.reason }));
    for (const { mark, reason } of misses) {
      const [id, line] = mark.split(':');
      const t = tally(id!);
      t.marks++;
      if (got.has(mark)) t.found++;
      else t.missed.push(`${file}:${line} (known: ${reason})`);
    }
    const starts = kernelStarts(source);
    const kernelOf = (line: number): number => (line < 0 ? -1 : starts.filter((s) => s <= line).length);
    for (let k = 1; k <= starts.length; k++) {
      const want = [...expected].filter((m) => kernelOf(Number(m.split(':')[1])) === k).sort();
      const have = [...got.keys()].filter((m) => kernelOf(Number(m.split(':')[1])) === k).sort();
      const missed = misses.filter((x) => kernelOf(Number(x.mark.split(':')[1])) === k);
      if (missed.length > 0) {
        kernels.buggy++;
        kernels.wrong.push(`${file}:${starts[k - 1]!} known miss [${missed.map((x) => `${x.mark}: ${x.reason}`).join('; ')}]`);
        continue;
      }
      if (want.length > 0) kernels.buggy++;
      else kernels.correct++;
      if (want.join() === have.join()) kernels.exact++;
      else kernels.wrong.push(`${file}:${starts[k - 1]!} expected [${want.join(' ')}], found [${have.join(' ')}]`);
    }
  }
  return { files: files.length, kernels, perCheck };
}

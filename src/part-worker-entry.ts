// The part worker's entry in the build (scripts/bundle-workers.js bundles it
// as dist/bundle/part-worker.js): it runs the part worker's code, bundled as
// dist/bundle/part-worker.cjs, from V8's code cache of it when there is one.
// Every part thread otherwise parses and compiles the same megabyte of code
// again as it first runs each function (0.17 s of lazy parsing and bytecode
// generation per isolate on the development machine, by V8's function events;
// on the bench host, with the cache, the 2.8 and 7.4 MB modules ran 2 to 5%
// faster; docs/performance.md).
//
// V8 takes a cache only from the same Node and the same V8 flags (heap sizes
// included; those the command sets at run time stay set for the threads'
// whole lives, src/analyze.ts), so the cache is made at run time: the first
// part thread of a run that found none for this Node, this bundle and this
// process's flags makes one after its parts, in the user's cache folder
// (`codeCacheDir`: ~/.cache/ptx-debug), and later runs use it. A cache is
// code: one another user could have written is never read. A cache V8
// rejects, one that cannot be written, or PTX_DEBUG_CODE_CACHE=0 cost the
// compilation and nothing else.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type { PartWorkerData } from './checks/parallel.js';
import { mark } from './timeline.js';

/** Whether a part worker ran from a cache ('used'), found one V8 rejected, or found none. */
export type CacheUse = 'used' | 'rejected' | 'none' | 'off';

/** The user's cache folder for ptx-debug: PTX_DEBUG_CODE_CACHE_DIR, else $XDG_CACHE_HOME/ptx-debug, else
 *  ~/.cache/ptx-debug; undefined without a home. */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PTX_DEBUG_CODE_CACHE_DIR !== undefined && env.PTX_DEBUG_CODE_CACHE_DIR !== '') return env.PTX_DEBUG_CODE_CACHE_DIR;
  if (env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '') return join(env.XDG_CACHE_HOME, 'ptx-debug');
  try {
    const home = homedir();
    return home === '' ? undefined : join(home, '.cache', 'ptx-debug');
  } catch {
    return undefined;
  }
}

/** Where the code cache of `body` is kept for this process's Node and flags (in `dir`): its command-line
 *  flags, NODE_OPTIONS, and `flagsNote`, those it set at run time (src/heap.ts, given by the main thread). */
export function codeCacheFile(body: string, dir: string, env: NodeJS.ProcessEnv = process.env, flagsNote = ''): string {
  const { size, mtimeMs } = statSync(body);
  const key = createHash('sha256')
    .update([process.version, process.arch, body, size, mtimeMs, process.execArgv.join(' '), env.NODE_OPTIONS ?? '', flagsNote].join('\u0000'))
    .digest('hex').slice(0, 24);
  return join(dir, `part-worker-${key}.cache`);
}

/**
 * Whether `path` is this user's alone: a code cache is run as code, so one that another user could have
 * written is never read (owned by this user, writable by no one else; where the system has no user ids,
 * any).
 */
export function ownedPrivately(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  const st = statSync(path);
  return st.uid === uid && (st.mode & 0o022) === 0;
}

/**
 * Runs the CommonJS bundle `body` (its `module.exports` returned) from the code cache `cacheFile` when V8
 * takes it; `script` is what a cache is made from once the code has run.
 */
export function runBody(body: string, cacheFile: string | undefined): { exports: Record<string, unknown>; script: Script; cache: CacheUse } {
  const source = readFileSync(body, 'utf8');
  let cachedData: Buffer | undefined;
  try {
    if (cacheFile !== undefined && existsSync(cacheFile) && ownedPrivately(dirname(cacheFile)) && ownedPrivately(cacheFile)) cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: body, ...(cachedData !== undefined ? { cachedData } : {}),
  });
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(body), module, body, dirname(body));
  const cache: CacheUse = cacheFile === undefined ? 'off' : cachedData === undefined ? 'none' : script.cachedDataRejected === true ? 'rejected' : 'used';
  return { exports: module.exports, script, cache };
}

/** A partial cache older than this was left by a thread that stopped: another may take it over. */
const STALE_MS = 60_000;

/**
 * Writes `script`'s code cache to `cacheFile`, unless another thread is writing it (the first to create the
 * partial file writes; the others go on) or has written it since `since` (ms). Failures are ignored: the cache
 * only saves time.
 */
export function writeCodeCache(script: Script, cacheFile: string, since = 0): boolean {
  const partial = `${cacheFile}.partial`;
  try {
    // (Another thread of this run has written it.)
    if (existsSync(cacheFile) && statSync(cacheFile).mtimeMs >= since) return false;
    mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
    if (!ownedPrivately(dirname(cacheFile))) return false;
    let fd: number;
    try {
      fd = openSync(partial, 'wx', 0o600);
    } catch {
      if (Date.now() - statSync(partial).mtimeMs < STALE_MS) return false;
      unlinkSync(partial);
      fd = openSync(partial, 'wx', 0o600);
    }
    try {
      writeSync(fd, script.createCachedData());
    } finally {
      closeSync(fd);
    }
    renameSync(partial, cacheFile);
    pruneCodeCaches(dirname(cacheFile));
    return true;
  } catch {
    return false;
  }
}

/** Caches kept in the folder: each build, Node and set of flags makes its own (one file of about 1.4 MB). */
export const KEPT_CODE_CACHES = 8;

/** Removes all but the KEPT_CODE_CACHES most recently written part-worker caches of `dir`. */
export function pruneCodeCaches(dir: string): void {
  const caches = readdirSync(dir).filter((f) => f.startsWith('part-worker-') && f.endsWith('.cache'))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs })).sort((x, y) => y.at - x.at);
  for (const { f } of caches.slice(KEPT_CODE_CACHES)) unlinkSync(join(dir, f));
}

const BODY = fileURLToPath(new URL('./part-worker.cjs', import.meta.url));

if (parentPort !== null && existsSync(BODY)) {
  const started = Date.now();
  const dir = process.env.PTX_DEBUG_CODE_CACHE === '0' ? undefined : codeCacheDir();
  const { flagsNote } = (workerData ?? {}) as Partial<PartWorkerData>;
  const cacheFile = dir === undefined ? undefined : codeCacheFile(BODY, dir, process.env, flagsNote ?? '');
  const { script, cache } = runBody(BODY, cacheFile);
  mark(`code cache ${cache}`);
  if (cacheFile !== undefined && cache !== 'used') {
    // After the body's handler (listeners run in order): the thread has run its parts, so the functions they
    // need are compiled and go into the cache.
    parentPort.once('message', (work: unknown) => {
      if (work !== null) mark(`code cache ${writeCodeCache(script, cacheFile, started) ? 'written' : 'not written'}`);
    });
  }
}

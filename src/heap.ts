// How the heap grows while a module is checked. V8 lets the old generation grow
// to several times what a full collection left alive before collecting again.
// While checking a large module that holds a syntax tree of a few hundred MB and
// makes and drops each part's facts in turn, that roughly doubles peak memory
// for no gain; a 15% growth factor collects more often (docs/performance.md has
// the cost). Not while parsing: the tree only grows then, and frequent
// collections would re-mark it again and again. The command asks for it
// (`compactHeap`); the library leaves an embedding program's heap policy alone.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { mark } from './timeline.js';

export const HEAP_GROWING_PERCENT = 15;

function compact(): void {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  // The next collection's threshold was set by the last one, under the old factor (after parsing, often
  // twice the live heap): one full collection now makes the new factor apply from here on.
  fullCollection();
  mark('compacted');
}

function restore(): void {
  // 0 is V8's default: the factor chosen from collection speed. V8 flags are per process (each file is
  // analyzed in a process of its own; a module's part threads share their file's setting).
  setFlagsFromString('--heap-growing-percent=0');
}

/** Runs `f` with the heap growing by at most HEAP_GROWING_PERCENT between collections. */
export function withCompactHeap<T>(f: () => T): T {
  compact();
  try {
    return f();
  } finally {
    restore();
  }
}

/**
 * `withCompactHeap` for asynchronous work (a module whose parts are checked by worker threads), without the
 * full collection that makes the factor apply at once: this thread's collections are on the threaded run's
 * critical path, and its peak is the part threads'. On the bench host (docs/performance.md, session 8,
 * interleaved twice), with neither this collection nor the one after the module-level checks, the five
 * corpus modules took 20.3 and 18.9 s against 20.9 and 19.3 s, the 17 MB module peaking at 2.36 to 2.39 GB
 * against 2.43 to 2.45 GB.
 */
export async function withCompactHeapAsync<T>(f: () => Promise<T>): Promise<T> {
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  try {
    return await f();
  } finally {
    restore();
  }
}

let gc: (() => void) | undefined;

/** A full collection now (the command's worker runs one after a file, before its result is copied out). */
export function fullCollection(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

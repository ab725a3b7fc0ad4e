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

/** Runs with the compact growth factor under way (nested runs share one setting). */
let compacting = 0;
let exposedGc = false;

/**
 * The V8 flags this module has set in this process, as text. V8 takes a code cache only under the flags it was
 * made under (src/part-worker-entry.ts): part threads name their cache by this too.
 */
export function heapFlagsNote(): string {
  return `growing=${compacting > 0 ? HEAP_GROWING_PERCENT : 0}${exposedGc ? ' expose-gc' : ''}`;
}

/** The compact growth factor from now until the matching `leaveCompactHeap`. */
export function enterCompactHeap(): void {
  if (compacting++ === 0) setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}

export function leaveCompactHeap(): void {
  // 0 is V8's default: the factor chosen from collection speed. V8 flags are per process (each file is
  // analyzed in a process of its own; a module's part threads share their file's setting).
  if (--compacting === 0) setFlagsFromString('--heap-growing-percent=0');
}

/** Runs `f` with the heap growing by at most HEAP_GROWING_PERCENT between collections. */
export function withCompactHeap<T>(f: () => T): T {
  enterCompactHeap();
  // The next collection's threshold was set by the last one, under the old factor (after parsing, often
  // twice the live heap): one full collection now makes the new factor apply from here on.
  fullCollection();
  mark('compacted');
  try {
    return f();
  } finally {
    leaveCompactHeap();
  }
}

let gc: (() => void) | undefined;

/** Makes `fullCollection` available (a V8 flag: an analysis process sets it before its first file, so that
 *  its flags stay the same from file to file, `heapFlagsNote`). */
export function exposeCollector(): () => void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    exposedGc = true;
    gc = runInNewContext('gc') as () => void;
  }
  return gc;
}

/** A full collection now (the command's worker runs one after a file, before its result is copied out). */
export function fullCollection(): void {
  exposeCollector()();
}

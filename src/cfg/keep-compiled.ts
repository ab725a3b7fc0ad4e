// Keeping the optimized code of the analyses' inner functions across garbage
// collections. The analyses are written as functions with inner closures
// (a solver's `transfer`, uniformity's `evaluate`), created anew for every
// function analyzed. V8 compiles a closure's code once for all closures of its
// literal, but holds that code only while some closure uses it: once a part's
// facts are dropped, a full collection takes the code with the closures, and
// the next function runs unoptimized until V8 compiles it again. On the 17 MB
// bench module, one thread checking every part (heap growth 15%, as the command
// runs) compiled 7,272 times (3,648 functions, 187 of them four times or
// more), for 34 s of compiler time; keeping them, 17.5 s, and the thread
// 20.7 → 17.5 s on the two-core development machine. On the 16-core bench host
// it changed nothing measurable: its idle cores compile meanwhile
// (docs/performance.md, session 9).
//
// `keepCompiled` keeps the closures of the last call of each site alive, and
// with them what they capture (that call's facts): `releaseCompiled` lets go
// of them once a module is done, so that they never hold a module's tree after
// its analysis.
const kept = new Map<string, readonly unknown[]>();

/** Keeps `closures`, the inner functions of the latest call of `site`, alive until the next call or `releaseCompiled`. */
export function keepCompiled(site: string, ...closures: unknown[]): void {
  kept.set(site, closures);
}

/** Lets go of every kept closure (and what they capture). */
export function releaseCompiled(): void {
  kept.clear();
}

/** How many sites hold closures (tests). */
export function keptSites(): number {
  return kept.size;
}

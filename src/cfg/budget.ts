// Work limits of the engine on pathological input. An analysis whose facts
// would grow beyond what ordinary code ever needs (a function with 100,000
// blocks where one register's definitions all reach every later block: a
// quadratic number of definition-use pairs) stops with this error instead of
// running for minutes; the context caches the failure, and the checks that
// need the analysis report "n/a" with its message.
export class AnalysisBudgetExceeded extends Error {
  constructor(readonly analysis: string, detail: string) {
    super(`${analysis}: ${detail}; the function is too large to analyze precisely`);
    this.name = 'AnalysisBudgetExceeded';
  }
}

/** Definition-use pairs of one function before reaching definitions give up (ordinary code: a few per use). */
export const MAX_DEF_USE_PAIRS = 8_000_000;

/** Words of the per-block bit sets of one bit-vector analysis before it gives up (256 MB of sets). */
export const MAX_BITSET_WORDS = 64 * 1024 * 1024;

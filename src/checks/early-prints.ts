// Fingerprints made while the part threads still work. The main thread is
// idle until the last part comes back, and the report after it took 0.77 s of
// the 17 MB bench module's 5.9 s (assembly 0.47 s, fingerprints the most of
// it; docs/performance.md). A fingerprint counts repeats of its key, and the
// key names the finding's function: a function's findings of one check all
// come from the part that owns the function, so its prints can be made as
// soon as that part comes back, in the order the report sorts them (a stable
// sort by position of the part's list, as the report's sort of the parts'
// lists joined in part order leaves them). What stands on a finding's line is
// read from the part's instructions: the same as the module's when no other
// function's body shares the line. A function whose findings do not all
// qualify is left to the report, whole (`fingerprints` in fingerprint.ts).
import type { FunctionBody } from '../parser/parse-fast.js';
import { lineStartsOf } from '../parser/ranges.js';
import { byPosition, instructionsOnLines, keyedPrints } from './fingerprint.js';
import type { PartMessage } from './parallel.js';
import type { Finding } from './types.js';

type Located = Pick<Finding, 'location' | 'function'>;

/** Where a function's findings may stand for the part's instructions to tell what is on their lines: between
 *  the end of the body before it and the start of the body after it. */
interface Span {
  readonly lo: number;
  readonly hi: number;
}

export class EarlyPrints {
  private readonly prints = new Map<Located, string>();
  /** Functions with a body, by declaration offset, whose name no other body has. */
  private readonly spans = new Map<number, Span & { readonly name: string }>();

  constructor(private readonly text: string, private readonly file: string, bodies: readonly FunctionBody[],
    private readonly sourceLine?: (file: string, line: number) => string | undefined) {
    const count = new Map<string, number>();
    for (const b of bodies) count.set(b.name, (count.get(b.name) ?? 0) + 1);
    for (const [k, b] of bodies.entries()) {
      if (count.get(b.name) !== 1) continue;
      this.spans.set(b.decl, { name: b.name, lo: k > 0 ? bodies[k - 1]!.close : 0, hi: k + 1 < bodies.length ? bodies[k + 1]!.open : text.length });
    }
  }

  /** Makes the prints of what part `m` gave; `part`, its functions' declaration offsets. */
  add(m: PartMessage, part: readonly number[]): void {
    if (m.results === undefined || m.outline === undefined) return;
    const own = new Map<string, Span>();
    for (const d of part) {
      const s = this.spans.get(d);
      if (s !== undefined) own.set(s.name, s);
    }
    const groups: { id: string; findings: Located[] }[] = [];
    const wanted = new Set<number>();
    for (const [id, r] of m.results) {
      if (r.status !== 'ran') continue;
      const byFunction = new Map<string, Located[] | null>();
      for (const f of r.findings) {
        const name = f.function;
        const span = name === undefined ? undefined : own.get(name);
        if (span === undefined) continue;
        const list = byFunction.get(name!);
        if (list === null) continue;
        if (!this.within(f.location.line, span)) byFunction.set(name!, null);
        else if (list === undefined) byFunction.set(name!, [f]);
        else list.push(f);
      }
      for (const list of byFunction.values()) {
        if (list === null) continue;
        groups.push({ id, findings: list });
        for (const f of list) wanted.add(f.location.line);
      }
    }
    if (groups.length === 0) return;
    const byLine = instructionsOnLines(m.outline.index, this.text, wanted);
    for (const g of groups) {
      const sorted = g.findings.sort(byPosition);
      const prints = keyedPrints(this.file, g.id, this.text, byLine, sorted, this.sourceLine);
      for (const [i, f] of sorted.entries()) this.prints.set(f, prints[i]!);
    }
  }

  /** How many prints were made. */
  get made(): number {
    return this.prints.size;
  }

  /** The print made for finding `f`, if one was. */
  get(f: Located): string | undefined {
    return this.prints.get(f);
  }

  /** Whether 1-based `line` lies wholly within `span`. */
  private within(line: number, span: Span): boolean {
    const starts = lineStartsOf(this.text);
    const start = starts.start(line);
    const next = starts.start(line + 1);
    return start !== -1 && start >= span.lo && (next === -1 ? this.text.length : next) <= span.hi;
  }
}

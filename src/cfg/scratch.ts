// Transient typed arrays kept from function to function. Each allocation is a backing store (~1 us) that the
// scavenger also counts as external memory pressure, and the analyses need a dozen per function. Each role has
// its own holder; `get` gives storage of at least n items, NOT cleared. Above SCRATCH_CAP items a fresh one,
// not kept, so that the holders never keep more than a few MB (the largest function of the bench modules needs
// 52,095 words of gen/kill, radix_sort's; 10,614 definitions). Two `get`s of one holder give the same storage
// only up to the cap: take it once per use.

const SCRATCH_CAP = 1 << 16;

export class Scratch<T extends Int32Array | Uint32Array | Uint8Array> {
  private a: T;
  constructor(private readonly make: (n: number) => T) {
    this.a = make(1024);
  }

  get(n: number): T {
    if (n <= this.a.length) return this.a;
    const a = this.make(Math.max(n, Math.min(2 * this.a.length, SCRATCH_CAP)));
    if (n <= SCRATCH_CAP) this.a = a;
    return a;
  }
}

export const int32Scratch = (): Scratch<Int32Array> => new Scratch((n) => new Int32Array(n));
export const uint32Scratch = (): Scratch<Uint32Array> => new Scratch((n) => new Uint32Array(n));
export const uint8Scratch = (): Scratch<Uint8Array> => new Scratch((n) => new Uint8Array(n));

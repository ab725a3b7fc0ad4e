// A growable list of 32-bit integers that analyses keep from function to function: reset by a count, so
// filling it allocates nothing once it has grown to a function's size.

/** A growable Int32 buffer, reused from function to function (no per-item allocation). */
export class IntBuffer {
  data = new Int32Array(1024);
  length = 0;
  reset(): this {
    this.length = 0;
    return this;
  }
  push(x: number): void {
    if (this.length === this.data.length) this.reserve(1);
    this.data[this.length++] = x;
  }
  /** Room for `extra` more items: the storage to write them into from `length` (then set `length`), without
   *  a call and a bound check per item. */
  reserve(extra: number): Int32Array {
    if (this.length + extra > this.data.length) {
      const bigger = new Int32Array(Math.max(this.data.length * 2, this.length + extra));
      bigger.set(this.data);
      this.data = bigger;
    }
    return this.data;
  }
  take(): Int32Array {
    return this.data.slice(0, this.length);
  }
  /** The items as bytes (small codes: the model's operand kinds), a copy at their count. */
  takeBytes(): Uint8Array {
    return new Uint8Array(this.data.subarray(0, this.length));
  }
}

/** Whether `data[from, to)` holds `x` (a few items: those written so far into storage from `reserve`). */
export function holds(data: Int32Array, from: number, to: number, x: number): boolean {
  for (let k = from; k < to; k++) if (data[k] === x) return true;
  return false;
}

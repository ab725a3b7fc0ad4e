// Ascending sorts of the short number lists the analyses keep (a register's definitions, a value's uses,
// widening thresholds).

/** Sorts numbers ascending in place and returns the list: by insertion while it is short (most are one to a
 *  few items, often in order already), else through a typed array. (`sort` with a comparator copies the list
 *  into a work array per call: 2 MB of a range pass over scan_reduce.ptx.) */
export function sortAscending(list: number[]): number[] {
  const n = list.length;
  if (n > 48) {
    const sorted = Float64Array.from(list).sort();
    for (let j = 0; j < n; j++) list[j] = sorted[j]!;
    return list;
  }
  for (let k = 1; k < n; k++) {
    const x = list[k]!;
    let j = k - 1;
    while (j >= 0 && list[j]! > x) {
      list[j + 1] = list[j]!;
      j--;
    }
    list[j + 1] = x;
  }
  return list;
}

/** Scratch for `radixSortPairs`, allocated once for up to `capacity` entries. */
export interface RadixScratch {
  readonly keys: Uint32Array;
  readonly values: Int32Array;
  readonly counts: Uint32Array;
}

export function createRadixScratch(capacity: number): RadixScratch {
  return { keys: new Uint32Array(capacity), values: new Int32Array(capacity), counts: new Uint32Array(2048) };
}

/**
 * Stable LSD radix sort of the first `n` (key, value) pairs by unsigned 32-bit key, ascending, in
 * three passes of 11 bits through `scratch` (no allocation, O(n)). Equal keys keep their order.
 */
export function radixSortPairs(keys: Uint32Array, values: Int32Array, n: number, scratch: RadixScratch): void {
  let srcK = keys, srcV = values, dstK = scratch.keys, dstV = scratch.values;
  const counts = scratch.counts;
  for (let shift = 0; shift < 33; shift += 11) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(srcK[i]! >>> shift) & 2047]!++;
    let sum = 0;
    for (let d = 0; d < 2048; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = srcK[i]!;
      const p = counts[(k >>> shift) & 2047]!++;
      dstK[p] = k;
      dstV[p] = srcV[i]!;
    }
    const tk = srcK; srcK = dstK; dstK = tk;
    const tv = srcV; srcV = dstV; dstV = tv;
  }
  // Three passes leave the result in the scratch arrays: copy it back.
  for (let i = 0; i < n; i++) {
    keys[i] = srcK[i]!;
    values[i] = srcV[i]!;
  }
}

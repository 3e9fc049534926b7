/** How many keys a forward search steps through linearly before falling back to binary search. */
const LINEAR_STEPS = 4;

/**
 * The segment k with times[k] ≤ time < times[k + 1], for n = times.length ≥ 2 and
 * times[0] ≤ time < times[n − 1] (the caller handles times outside the keys). `hint` is the segment
 * found last time (a cursor): forward playback moves it by a key or two, so the search is O(1)
 * amortised; a backward jump or a jump of more than a few keys falls back to binary search, O(log n).
 */
export function findKey(times: Float32Array, time: number, hint: number): number {
  const last = times.length - 2;
  let k = hint < 0 ? 0 : hint > last ? last : hint;
  if (times[k]! <= time) {
    for (let i = 0; i < LINEAR_STEPS; i++) {
      if (time < times[k + 1]!) return k;
      if (k === last) return k;
      k++;
    }
    return binarySearch(times, time, k, last);
  }
  return binarySearch(times, time, 0, k - 1);
}

/** Largest k in [lo, hi] with times[k] ≤ time (times[lo] ≤ time is guaranteed by the callers). */
function binarySearch(times: Float32Array, time: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (times[mid]! <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

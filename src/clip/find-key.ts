import { expectInteger, expectNumber, expectTypedArray } from "../errors/check-argument.ts";

/** How many keys a forward search steps through linearly before falling back to binary search. */
const LINEAR_STEPS = 4;

/**
 * The segment k with times[k] ≤ time < times[k + 1], for n = times.length ≥ 2 and
 * times[0] ≤ time < times[n − 1] (the caller handles times outside the keys). `hint` is the segment
 * found last time (a cursor): forward playback moves it by a key or two, so the search is O(1)
 * amortised; a backward jump or a jump of more than a few keys falls back to binary search, O(log n).
 */
export function findKey(times: Float32Array, time: number, hint: number): number {
  expectTypedArray("findKey", "times", times, Float32Array, 2);
  expectNumber("findKey", "time", time);
  expectInteger("findKey", "hint", hint, Number.MIN_SAFE_INTEGER); // clamped to the segments below
  arg[0] = time;
  return findKeyAt(times, arg, 0, hint);
}
const arg = new Float64Array(1);

/**
 * `findKey` for time = ts[ti]: the per-frame form, which takes the time from memory because a double
 * passed to a call V8 does not inline is a heap allocation (src/math/quat.ts explains).
 */
export function findKeyAt(times: Float32Array, ts: Float64Array, ti: number, hint: number): number {
  const time = ts[ti]!;
  const last = times.length - 2;
  let k = hint < 0 ? 0 : hint > last ? last : hint;
  let lo: number, hi: number;
  if (times[k]! <= time) {
    for (let i = 0; i < LINEAR_STEPS; i++) {
      if (time < times[k + 1]!) return k;
      if (k === last) return k;
      k++;
    }
    lo = k;
    hi = last;
  } else {
    lo = 0;
    hi = k - 1;
  }
  // Binary search for the largest k in [lo, hi] with times[k] ≤ time (times[lo] ≤ time holds). Inline,
  // not a helper: it runs only at loops and seeks, and a helper called that rarely would stay in V8's
  // interpreter, which boxes every double it loads.
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (times[mid]! <= time) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * 1D blend-tree weights: children anchored at positions `c_i` on one parameter axis (speed in m/s,
 * turn angle, …), a parameter `p`, one weight per child written into a caller-owned array.
 *
 * Both functions are pure, allocate nothing and run in O(n) for n children (one scan; positions need
 * not be sorted). `out` must not alias `positions`. Weights are a partition of unity: non-negative,
 * summing to 1.
 */

import { argumentError, expectNumber, expectNumberArray, rangeError } from "../errors/check-argument.ts";

/** A writable array of weights: a typed float array owned by the caller. */
export type WeightArray = Float32Array | Float64Array;

function checkSizes(out: WeightArray, positions: ArrayLike<number>, what: string): void {
  // Programmer errors: sizes are fixed when the blend tree is built, never per frame.
  if (positions.length === 0) throw rangeError(what, "positions", "at least one child position", positions);
  if (out.length < positions.length) throw rangeError(what, "out", `a Float32Array or Float64Array of at least ${positions.length} weights`, out);
}

/** The public functions' checks: the types, then the sizes (a few tests, no allocation). */
function checkArguments(fn: string, out: unknown, positions: unknown, p: unknown): void {
  if (!(out instanceof Float32Array || out instanceof Float64Array)) throw argumentError(fn, "out", "a Float32Array or Float64Array", out);
  expectNumberArray(fn, "positions", positions);
  expectNumber(fn, "p", p);
  checkSizes(out, positions, fn);
}

/**
 * Piecewise-linear weights (what game engines use): only the two children whose anchors bracket `p`
 * get weight, linearly by distance; every other child gets 0.
 *
 *   c_a = max{c_i ≤ p}, c_b = min{c_i ≥ p}, t = (p − c_a) / (c_b − c_a), ŵ_a = 1 − t, ŵ_b = t.
 *
 * Outside [min c, max c] the end child gets weight 1 (clamped). When several children share an anchor,
 * the lowest index wins and the others get 0. A non-finite `p` is treated as the lowest anchor
 * (NaN never reaches a pose). Writes `positions.length` weights into `out` and returns it.
 */
export function blend1DLinearWeights<T extends WeightArray>(out: T, positions: ArrayLike<number>, p: number): T {
  checkArguments("blend1DLinearWeights", out, positions, p);
  arg[0] = p;
  return blend1DLinearWeightsAt(out, positions, arg, 0);
}
const arg = new Float64Array(1);

/**
 * `blend1DLinearWeights` at p = values[slot] (a parameter slot): the per-frame form, since a double passed
 * to a call V8 does not inline is a heap allocation (src/math/quat.ts explains).
 */
export function blend1DLinearWeightsAt<T extends WeightArray>(out: T, positions: ArrayLike<number>, values: Float64Array, slot: number): T {
  const p = values[slot]!;
  checkSizes(out, positions, "blend1DLinearWeights");
  const n = positions.length;
  let below = -1; // index of the largest anchor ≤ p
  let above = -1; // index of the smallest anchor ≥ p
  let lowest = 0;
  for (let i = 0; i < n; i++) {
    const c = positions[i]!;
    out[i] = 0;
    if (c < positions[lowest]!) lowest = i;
    if (c <= p && (below < 0 || c > positions[below]!)) below = i;
    if (c >= p && (above < 0 || c < positions[above]!)) above = i;
  }
  if (below < 0 && above < 0) {
    out[lowest] = 1; // p is NaN
  } else if (below < 0) {
    out[above] = 1; // p below the range: clamp to the lowest child
  } else if (above < 0) {
    out[below] = 1; // p above the range: clamp to the highest child
  } else if (below === above || positions[below] === positions[above]) {
    out[below] = 1; // p exactly on an anchor
  } else {
    const ca = positions[below]!;
    const t = (p - ca) / (positions[above]! - ca);
    out[below] = 1 - t;
    out[above] = t;
  }
  return out;
}

/**
 * The inverse-distance weighting of the design notes ("混合树"): every child contributes, nearer ones
 * more, then the weights are normalised:
 *
 *   w_i = 1 / (1 + |p − c_i|),  ŵ_i = w_i / Σ_j w_j.
 *
 * Note it is never exact at an anchor when there are several children (at p = c_i, w_i = 1 but the
 * others are still positive), and it does not clamp: far outside the range all weights tend to 1/n.
 * A non-finite `p` gives equal weights 1/n. Writes `positions.length` weights into `out` and returns it.
 */
export function blend1DInverseDistanceWeights<T extends WeightArray>(out: T, positions: ArrayLike<number>, p: number): T {
  checkArguments("blend1DInverseDistanceWeights", out, positions, p);
  arg[0] = p;
  return blend1DInverseDistanceWeightsAt(out, positions, arg, 0);
}

/** `blend1DInverseDistanceWeights` at p = values[slot] (the per-frame form, as `blend1DLinearWeightsAt`). */
export function blend1DInverseDistanceWeightsAt<T extends WeightArray>(out: T, positions: ArrayLike<number>, values: Float64Array, slot: number): T {
  const p = values[slot]!;
  checkSizes(out, positions, "blend1DInverseDistanceWeights");
  const n = positions.length;
  if (!Number.isFinite(p)) {
    for (let i = 0; i < n; i++) out[i] = 1 / n;
    return out;
  }
  // Accumulate in a local double: `out` may be a Float32Array.
  let sum = 0;
  for (let i = 0; i < n; i++) sum += 1 / (1 + Math.abs(p - positions[i]!));
  for (let i = 0; i < n; i++) out[i] = 1 / (1 + Math.abs(p - positions[i]!)) / sum;
  return out;
}

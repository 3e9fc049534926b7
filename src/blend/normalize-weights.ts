import { expectNumber, expectNumberArray } from "../errors/check-argument.ts";

/** Total weight below which a blend has no input and falls back to the rest pose. */
export const DEFAULT_WEIGHT_THRESHOLD = 1e-6;

/**
 * Normalised weights ŵ_i = w_i / Σ w_j over the contributing weights (finite and > 0; negative, zero
 * and NaN weights contribute nothing and get ŵ = 0), written into `out` (may alias `weights`).
 * Returns the raw total Σ w_j; when it is below `threshold` every ŵ_i is 0 (no input: callers use the
 * rest pose). No allocation.
 */
export function normalizeWeights(out: Float32Array | Float64Array | number[], weights: ArrayLike<number>, threshold = DEFAULT_WEIGHT_THRESHOLD): number {
  expectNumberArray("normalizeWeights", "weights", weights);
  expectNumberArray("normalizeWeights", "out", out, weights.length);
  expectNumber("normalizeWeights", "threshold", threshold);
  const total = contributingTotal(weights);
  const inv = total >= threshold ? 1 / total : 0;
  for (let i = 0; i < weights.length; i++) out[i] = contributes(weights[i]!) ? weights[i]! * inv : 0;
  return total;
}

/** Whether a weight takes part in a blend: finite and strictly positive. */
export function contributes(w: number): boolean {
  return w > 0 && w < Infinity;
}

/** Σ of the contributing weights. */
export function contributingTotal(weights: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    const w = weights[i]!;
    if (contributes(w)) total += w;
  }
  return total;
}

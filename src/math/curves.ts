// Named easing curves for crossfade weights: w = f(s), s = (t − t0)/d clamped to [0, 1]. Every curve maps
// 0 → 0 and 1 → 1 exactly and is monotonic (up to float rounding near s = 1), so a crossfade always
// starts and ends on its inputs.

/** The curve names a spec may use. */
export type Curve = "linear" | "smoothstep" | "smootherstep" | "easeIn" | "easeOut";

/** All curve names, in documentation order (for validation and `--help`). */
export const CURVE_NAMES: readonly Curve[] = Object.freeze(["linear", "smoothstep", "smootherstep", "easeIn", "easeOut"]);

/** Whether `name` is a known curve. */
export function isCurve(name: string): name is Curve {
  return (CURVE_NAMES as readonly string[]).includes(name);
}

/**
 * Evaluates a curve at s (clamped to [0, 1]; NaN counts as 0):
 * - `linear`: w = s
 * - `smoothstep` (the seed's): w = s²(3 − 2s)
 * - `smootherstep` (Perlin): w = s³(6s² − 15s + 10)
 * - `easeIn`: w = s²
 * - `easeOut`: w = 1 − (1 − s)² = s(2 − s)
 */
export function evaluateCurve(name: Curve, s: number): number {
  const v = arg;
  v[0] = s;
  evaluateCurveAt(name, v, 0);
  return v[0]!;
}
const arg = new Float64Array(1);

/**
 * `evaluateCurve` in place: v[i] ← curve(v[i]). The per-frame form: a double passed to or returned from
 * a call V8 does not inline is a heap allocation (src/math/quat.ts explains), a Float64Array slot is not.
 */
export function evaluateCurveAt(name: Curve, v: Float64Array, i: number): void {
  const s = v[i]!;
  // w starts as a number (linear) so that no path leaves it undefined: a merge of numbers with
  // undefined is stored tagged, which boxes every computed weight.
  let w = s;
  if (!(s > 0)) w = 0;
  else if (s >= 1) w = 1;
  else {
    switch (name) {
      case "linear":
        break;
      case "smoothstep":
        w = s * s * (3 - 2 * s);
        break;
      case "smootherstep": {
        // Evaluated from the nearer end (the curve is point-symmetric about s = ½): the direct
        // polynomial rounds to above 1 just below s = 1 and stops being monotonic there.
        if (s <= 0.5) w = s * s * s * (s * (6 * s - 15) + 10);
        else {
          const u = 1 - s;
          w = 1 - u * u * u * (u * (6 * u - 15) + 10);
        }
        break;
      }
      case "easeIn":
        w = s * s;
        break;
      case "easeOut":
        w = s * (2 - s);
        break;
    }
  }
  v[i] = w;
}

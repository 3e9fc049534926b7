/**
 * atan2(y, x) from + − × ÷ √ alone, so results are bit-identical on every IEEE-754 JavaScript engine
 * (Math.atan2 is not specified to the last bit and differs between engines). Range reduction:
 * z = min(|x|, |y|) / max(|x|, |y|) ∈ [0, 1], then one half-angle step u = z / (1 + √(1 + z²)) so that
 * |u| ≤ tan(π/8) ≈ 0.4142, then the Taylor series of atan to u¹⁹ (truncation error below 1e-8 rad),
 * atan z = 2·atan u, and the octant and quadrant fixed with exact constants. Within 1e-8 rad of
 * Math.atan2 everywhere; atan2Poly(0, 0) = 0.
 */
export function atan2Poly(y: number, x: number): number {
  const v = args;
  v[0] = y;
  v[1] = x;
  atan2PolyAt(v, 0);
  return v[0]!;
}
const args = new Float64Array(2);

/**
 * `atan2Poly` in memory: reads y = yx[i] and x = yx[i + 1], writes the angle to yx[i]. For the
 * per-frame path, where a double passed to or returned from a call that is not inlined costs a heap
 * allocation (src/math/quat.ts explains).
 */
export function atan2PolyAt(yx: Float64Array, i: number): void {
  const y = yx[i]!, x = yx[i + 1]!;
  const ax = x < 0 ? -x : x;
  const ay = y < 0 ? -y : y;
  if (ax === 0 && ay === 0) {
    yx[i] = 0;
    return;
  }
  const swap = ay > ax;
  const z = swap ? ax / ay : ay / ax;
  const u = z / (1 + Math.sqrt(1 + z * z));
  const u2 = u * u;
  // Horner form of u − u³/3 + u⁵/5 − … − u¹⁹/19.
  let p = -1 / 19;
  p = p * u2 + 1 / 17;
  p = p * u2 - 1 / 15;
  p = p * u2 + 1 / 13;
  p = p * u2 - 1 / 11;
  p = p * u2 + 1 / 9;
  p = p * u2 - 1 / 7;
  p = p * u2 + 1 / 5;
  p = p * u2 - 1 / 3;
  p = p * u2 + 1;
  let a = 2 * u * p;
  if (swap) a = HALF_PI - a;
  if (x < 0) a = PI - a;
  yx[i] = y < 0 ? -a : a;
}

const PI = 3.141592653589793;
const HALF_PI = 1.5707963267948966;

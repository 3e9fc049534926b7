/**
 * atan2(y, x) from + − × ÷ √ alone, so results are bit-identical on every IEEE-754 JavaScript engine
 * (Math.atan2 is not specified to the last bit and differs between engines). Range reduction:
 * z = min(|x|, |y|) / max(|x|, |y|) ∈ [0, 1], then one half-angle step u = z / (1 + √(1 + z²)) so that
 * |u| ≤ tan(π/8) ≈ 0.4142, then the Taylor series of atan to u¹⁹ (truncation error below 1e-8 rad),
 * atan z = 2·atan u, and the octant and quadrant fixed with exact constants. Within 1e-8 rad of
 * Math.atan2 everywhere; atan2Poly(0, 0) = 0.
 */
export function atan2Poly(y: number, x: number): number {
  const ax = x < 0 ? -x : x;
  const ay = y < 0 ? -y : y;
  if (ax === 0 && ay === 0) return 0;
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
  return y < 0 ? -a : a;
}

const PI = 3.141592653589793;
const HALF_PI = 1.5707963267948966;

import { rangeError } from "../errors/check-argument.ts";
import { expectBigInt, expectBigIntPoints, expectPermilleAxis } from "./check-blend-check-arguments.ts";

/**
 * The deterministic integer bilinear weights of a four-corner 2D blend space, in per-mille, exactly as
 * the Python reference (`sim/blend_check.py`) computes them: every division is a floor division on
 * arbitrary-precision integers, so both tiers agree bit for bit for any axis span (10^30 and beyond).
 *
 *   tx = ⌊(qx − x.min) · 1000 / (x.max − x.min)⌋        ty likewise
 *   w(s) = ⌊(s.x = x.max ? tx : 1000 − tx) · (s.y = y.max ? ty : 1000 − ty) / 1000⌋
 *
 * The weights are not normalised: flooring can leave the sum a little under 1000 (166+500+83+249 = 998),
 * and a query outside the axis ranges gives factors outside 0..1000 (weights may be negative or above
 * 1000). Callers that print weights keep only w > 0.
 */

/** One axis of the blend space: integer bounds with `max > min`. */
export interface PermilleAxis {
  readonly min: bigint;
  readonly max: bigint;
}

/** A sample position on the grid (a corner when the blend space is well formed). */
export interface PermilleSample {
  readonly x: bigint;
  readonly y: bigint;
}

/** Python's `a // b`: the quotient rounded toward −∞ (also for negative numerators). `b` must not be 0. */
export function floorDiv(a: bigint, b: bigint): bigint {
  expectBigInt("floorDiv", "a", a);
  expectBigInt("floorDiv", "b", b);
  if (b === 0n) throw rangeError("floorDiv", "b", "a non-zero bigint (the divisor)", b);
  return floorDivUnchecked(a, b);
}

/** floorDiv for the callers below, whose divisors are non-zero by construction (max > min, 1000). */
function floorDivUnchecked(a: bigint, b: bigint): bigint {
  const q = a / b; // truncates toward zero
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q;
}

/** Per-mille position of `q` along an axis: ⌊(q − min) · 1000 / (max − min)⌋ (outside 0..1000 when q is out of range). */
export function axisPermille(q: bigint, axis: PermilleAxis): bigint {
  expectBigInt("axisPermille", "q", q);
  expectPermilleAxis("axisPermille", "axis", axis);
  return axisPermilleUnchecked(q, axis);
}

function axisPermilleUnchecked(q: bigint, axis: PermilleAxis): bigint {
  return floorDivUnchecked((q - axis.min) * 1000n, axis.max - axis.min);
}

/**
 * The weight of every sample, in sample order, for the query (qx, qy). A sample whose x equals
 * `x.max` takes the factor tx, any other sample 1000 − tx (likewise on y), as the reference does; so
 * samples off the corners still get a weight. Allocates the returned array (not a per-frame path).
 */
export function bilinearPermille(
  samples: readonly PermilleSample[],
  x: PermilleAxis,
  y: PermilleAxis,
  qx: bigint,
  qy: bigint,
): bigint[] {
  const fn = "bilinearPermille";
  expectBigIntPoints(fn, "samples", samples);
  expectPermilleAxis(fn, "x", x);
  expectPermilleAxis(fn, "y", y);
  expectBigInt(fn, "qx", qx);
  expectBigInt(fn, "qy", qy);
  const tx = axisPermilleUnchecked(qx, x);
  const ty = axisPermilleUnchecked(qy, y);
  return samples.map((s) => floorDivUnchecked((s.x === x.max ? tx : 1000n - tx) * (s.y === y.max ? ty : 1000n - ty), 1000n));
}

import { argumentError, expectNumber, rangeError } from "../errors/check-argument.ts";
import type { WeightArray } from "./blend-1d.ts";
import type { CompiledBlendSpace2D } from "./compile-blend-space-2d.ts";

/**
 * Barycentric coordinates below this (in weight units) still count as inside a triangle, so points on
 * a shared edge are found in either triangle despite rounding; the tiny negative part is clipped.
 */
const INSIDE_EPSILON = 1e-12;

/**
 * Weights of a compiled freeform 2D blend space at parameter (x, y), one per input sample, written into
 * `out` (length ≥ `compiled.sampleCount`); returns `out`. Pure and allocation-free.
 *
 * - `triangles`: inside the convex hull, the barycentric coordinates (λ_a, λ_b, λ_c) of the Delaunay
 *   triangle holding (x, y); outside, (x, y) is projected onto the nearest hull edge [a, b] at
 *   t = clamp(((p − a)·(b − a)) / |b − a|², 0, 1) and a gets 1 − t, b gets t.
 * - `line`: (x, y) is projected onto the line (s = (p − o)·d) and blended piecewise-linearly between the
 *   two samples bracketing s, clamped at the ends.
 * - `point`: the one usable sample gets 1.
 *
 * Dropped samples (duplicates, non-finite) always get 0. A non-finite (x, y) yields the first hull
 * sample's weight 1 so NaN never reaches a pose. Cost O(T + H) for T triangles and H hull edges
 * (T ≤ 2n): a linear scan, which beats a walk or a search structure at blend-space sizes (n ≲ 50).
 * `out` must not alias the compiled arrays.
 */
export function blendSpace2DWeights<T extends WeightArray>(out: T, compiled: CompiledBlendSpace2D, x: number, y: number): T {
  const fn = "blendSpace2DWeights";
  const c = compiled as Partial<CompiledBlendSpace2D> | null;
  if (typeof c !== "object" || c === null || typeof c.sampleCount !== "number" || typeof c.kind !== "string"
    || !(c.hull instanceof Uint32Array) || !(c.coords instanceof Float64Array) || !(c.triangles instanceof Uint32Array)) {
    throw argumentError(fn, "compiled", "a CompiledBlendSpace2D (the `compiled` of compileBlendSpace2D's result)", compiled);
  }
  if (!(out instanceof Float32Array || out instanceof Float64Array)) throw argumentError(fn, "out", "a Float32Array or Float64Array", out);
  if (out.length < c.sampleCount) throw rangeError(fn, "out", `a weight array of at least ${c.sampleCount} weights`, out);
  expectNumber(fn, "x", x);
  expectNumber(fn, "y", y);
  args[0] = x;
  args[1] = y;
  return blendSpace2DWeightsAt(out, compiled, args, 0, 1);
}
const args = new Float64Array(2);

/**
 * `blendSpace2DWeights` at x = values[xi], y = values[yi] (parameter slots): the per-frame form, since
 * a double passed to a call V8 does not inline is a heap allocation (src/math/quat.ts explains).
 */
export function blendSpace2DWeightsAt<T extends WeightArray>(out: T, compiled: CompiledBlendSpace2D, values: Float64Array, xi: number, yi: number): T {
  const x = values[xi]!, y = values[yi]!;
  const n = compiled.sampleCount;
  if (out.length < n) throw new RangeError(`blendSpace2DWeights: out holds ${out.length} weights, need ${n}`);
  out.fill(0, 0, n);
  const hull = compiled.hull;
  if (compiled.kind === "point" || !Number.isFinite(x) || !Number.isFinite(y)) {
    out[hull[0]!] = 1;
    return out;
  }
  const c = compiled.coords;
  if (compiled.kind === "line") {
    const line = compiled.line;
    const ox = line[0]!, oy = line[1]!, dx = line[2]!, dy = line[3]!;
    const s = (x - ox) * dx + (y - oy) * dy;
    const params = compiled.lineParams;
    const last = params.length - 1;
    if (s <= params[0]!) {
      out[hull[0]!] = 1;
    } else if (s >= params[last]!) {
      out[hull[last]!] = 1;
    } else {
      let k = 0;
      while (s > params[k + 1]!) k++;
      const t = (s - params[k]!) / (params[k + 1]! - params[k]!);
      out[hull[k]!] = 1 - t;
      out[hull[k + 1]!] = t;
    }
    return out;
  }
  const tris = compiled.triangles;
  for (let k = 0; k < tris.length; k += 3) {
    const a = tris[k]!;
    const b = tris[k + 1]!;
    const d = tris[k + 2]!;
    const ax = c[2 * a]!, ay = c[2 * a + 1]!;
    const bx = c[2 * b]!, by = c[2 * b + 1]!;
    const dxx = c[2 * d]!, dyy = c[2 * d + 1]!;
    const det = (by - dyy) * (ax - dxx) + (dxx - bx) * (ay - dyy);
    if (det === 0) continue; // a sliver Delaunator left on (nearly) collinear samples: its edges belong to neighbours
    let la = ((by - dyy) * (x - dxx) + (dxx - bx) * (y - dyy)) / det;
    let lb = ((dyy - ay) * (x - dxx) + (ax - dxx) * (y - dyy)) / det;
    let ld = 1 - la - lb;
    if (la >= -INSIDE_EPSILON && lb >= -INSIDE_EPSILON && ld >= -INSIDE_EPSILON) {
      la = la > 0 ? la : 0;
      lb = lb > 0 ? lb : 0;
      ld = ld > 0 ? ld : 0;
      const sum = la + lb + ld;
      out[a] = la / sum;
      out[b] = lb / sum;
      out[d] = ld / sum;
      return out;
    }
  }
  // Outside the hull (or within rounding of it): nearest point on the hull boundary. An edge whose
  // perpendicular foot lies on it beats a neighbour's clamped end point when the two squared distances
  // agree to rounding (a few ulps): next to a corner they can, and taking the corner would drop a
  // weight that is small but real.
  let bestA = hull[0]!;
  let bestB = hull[0]!;
  let bestT = 0;
  let bestD = Infinity;
  let bestClamped = true;
  for (let k = 0; k < hull.length; k++) {
    const a = hull[k]!;
    const b = hull[k + 1 < hull.length ? k + 1 : 0]!;
    const ax = c[2 * a]!, ay = c[2 * a + 1]!;
    const ex = c[2 * b]! - ax, ey = c[2 * b + 1]! - ay;
    const foot = ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey);
    const clamped = !(foot > 0 && foot < 1);
    const t = foot > 0 ? (foot < 1 ? foot : 1) : 0;
    const px = ax + t * ex - x, py = ay + t * ey - y;
    const dist = px * px + py * py;
    const tie = Math.abs(dist - bestD) <= 4 * Number.EPSILON * dist;
    if (tie ? bestClamped && !clamped : dist < bestD) {
      bestD = dist;
      bestA = a;
      bestB = b;
      bestT = t;
      bestClamped = clamped;
    }
  }
  out[bestA] = 1 - bestT;
  out[bestB] = out[bestB]! + bestT;
  return out;
}

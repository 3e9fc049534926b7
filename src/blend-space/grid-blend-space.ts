import { expectNumber, expectNumberArray, expectObject, invalidValue } from "../errors/check-argument.ts";
import type { WeightArray } from "./blend-1d.ts";

/**
 * A 2D blend space whose samples sit on a rectangular grid: `xs.length × ys.length` samples, sample
 * `(ix, iy)` at `(xs[ix], ys[iy])` with index `iy * xs.length + ix` (row-major, x fastest).
 */
export interface BlendGrid {
  /** Column positions on the x parameter axis, strictly increasing, at least one. */
  readonly xs: ArrayLike<number>;
  /** Row positions on the y parameter axis, strictly increasing, at least one. */
  readonly ys: ArrayLike<number>;
}

/**
 * The cell of a strictly increasing axis that holds v = values[vi] after clamping: the index `i` of its
 * left edge, 0 ≤ i ≤ n − 2 (0 for a one-position axis). O(n) scan: grids are small.
 */
function cellOf(axis: ArrayLike<number>, values: Float64Array, vi: number): number {
  const v = values[vi]!;
  const last = axis.length - 2;
  let i = 0;
  while (i < last && v >= axis[i + 1]!) i++;
  return i;
}

/**
 * Writes to out[o] the position of clamped v = values[vi] inside cell `i` of `axis`, in [0, 1]; 0 for
 * a one-position axis or NaN.
 */
function fractionIn(out: Float64Array, o: number, axis: ArrayLike<number>, i: number, values: Float64Array, vi: number): void {
  if (axis.length < 2) {
    out[o] = 0;
    return;
  }
  const a = axis[i]!;
  const b = axis[i + 1]!;
  const t = (values[vi]! - a) / (b - a);
  out[o] = t > 0 ? (t < 1 ? t : 1) : 0; // also maps NaN to 0
}

/**
 * Bilinear weights on a grid blend space: the four samples of the cell holding (x, y) get
 *
 *   u = (x − x_i) / (x_{i+1} − x_i), v = (y − y_j) / (y_{j+1} − y_j),
 *   w_{i,j} = (1−u)(1−v), w_{i+1,j} = u(1−v), w_{i,j+1} = (1−u)v, w_{i+1,j+1} = uv,
 *
 * every other sample 0. (x, y) outside the grid is clamped to it (the nearest point of the rectangle).
 * Allocation-free, O(nx + ny + nx·ny) (the zeroing dominates). Writes `xs.length * ys.length` weights
 * into `out` and returns it. The integer per-mille variant for deterministic replays lives in
 * `src/blend-check/bilinear-permille.ts`.
 */
export function gridBlendWeights<T extends WeightArray>(out: T, grid: BlendGrid, x: number, y: number): T {
  const fn = "gridBlendWeights";
  expectObject(fn, "grid", grid);
  expectNumberArray(fn, "grid.xs", grid.xs, 1);
  expectNumberArray(fn, "grid.ys", grid.ys, 1);
  expectNumberArray(fn, "out", out, grid.xs.length * grid.ys.length);
  expectNumber(fn, "x", x);
  expectNumber(fn, "y", y);
  args[0] = x;
  args[1] = y;
  return gridBlendWeightsAt(out, grid, args, 0, 1);
}
const args = new Float64Array(2);
/** u and v of the cell: doubles stay in memory between the helpers (src/math/quat.ts explains why). */
const uv = new Float64Array(2);

/**
 * `gridBlendWeights` at x = values[xi], y = values[yi] (parameter slots): the per-frame form, since a
 * double passed to or returned from a call V8 does not inline is a heap allocation.
 */
export function gridBlendWeightsAt<T extends WeightArray>(out: T, grid: BlendGrid, values: Float64Array, xi: number, yi: number): T {
  const nx = grid.xs.length;
  const ny = grid.ys.length;
  if (nx === 0 || ny === 0) throw new RangeError("gridBlendWeights: a grid needs at least one column and one row");
  if (out.length < nx * ny) throw new RangeError(`gridBlendWeights: out holds ${out.length} weights, need ${nx * ny}`);
  out.fill(0, 0, nx * ny);
  const i = cellOf(grid.xs, values, xi);
  const j = cellOf(grid.ys, values, yi);
  fractionIn(uv, 0, grid.xs, i, values, xi);
  fractionIn(uv, 1, grid.ys, j, values, yi);
  const u = uv[0]!;
  const v = uv[1]!;
  const i1 = nx > 1 ? i + 1 : i;
  const j1 = ny > 1 ? j + 1 : j;
  // Accumulate (+=) so one-position axes, where i1 === i, still sum to 1.
  out[j * nx + i] = out[j * nx + i]! + (1 - u) * (1 - v);
  out[j * nx + i1] = out[j * nx + i1]! + u * (1 - v);
  out[j1 * nx + i] = out[j1 * nx + i]! + (1 - u) * v;
  out[j1 * nx + i1] = out[j1 * nx + i1]! + u * v;
  return out;
}

/**
 * Checks a grid's axes: throws AnimgraphError (a programmer error: grids come from validated assets)
 * unless both axes are non-empty, finite and strictly increasing.
 */
export function assertBlendGrid(grid: BlendGrid): void {
  const fn = "assertBlendGrid";
  expectObject(fn, "grid", grid);
  expectNumberArray(fn, "grid.xs", grid.xs);
  expectNumberArray(fn, "grid.ys", grid.ys);
  for (const [name, axis] of [["grid.xs", grid.xs], ["grid.ys", grid.ys]] as const) {
    if (axis.length === 0) throw invalidValue(fn, name, "is empty; an axis needs at least one position");
    for (let i = 0; i < axis.length; i++) {
      const a = axis[i]!;
      if (!Number.isFinite(a)) throw invalidValue(fn, `${name}[${i}]`, `is not finite (${String(a)})`);
      if (i > 0 && !(a > axis[i - 1]!)) throw invalidValue(fn, name, `is not strictly increasing at ${i}`);
    }
  }
}

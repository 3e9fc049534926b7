import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { assertBlendGrid, gridBlendWeights } from "../../src/blend-space/index.ts";

function assertClose(actual: ArrayLike<number>, expected: readonly number[], tol = 1e-12): void {
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i]! - expected[i]!) <= tol, `weight ${i}: ${Array.from(actual).join(", ")} ≠ ${expected.join(", ")}`);
  }
}

// A 3×2 grid: forward speed x ∈ {0, 2, 5}, turn y ∈ {-1, 1}. Index = iy * 3 + ix.
const GRID = { xs: [0, 2, 5], ys: [-1, 1] };

test("bilinear golden values", () => {
  const out = new Float64Array(6);
  // x = 1 → u = 0.5 in cell [0, 2]; y = 0 → v = 0.5: four corners get 0.25.
  assertClose(gridBlendWeights(out, GRID, 1, 0), [0.25, 0.25, 0, 0.25, 0.25, 0]);
  // x = 3 → cell [2, 5], u = 1/3; y = 0.5 → v = 0.75.
  assertClose(gridBlendWeights(out, GRID, 3, 0.5), [0, (2 / 3) * 0.25, (1 / 3) * 0.25, 0, (2 / 3) * 0.75, (1 / 3) * 0.75]);
  // On a sample: weight 1.
  assertClose(gridBlendWeights(out, GRID, 2, 1), [0, 0, 0, 0, 1, 0]);
  // Outside: clamped to the rectangle (x = 9 → 5, y = -4 → -1).
  assertClose(gridBlendWeights(out, GRID, 9, -4), [0, 0, 1, 0, 0, 0]);
  assertClose(gridBlendWeights(out, GRID, Number.NaN, 0), [0.5, 0, 0, 0.5, 0, 0]);
});

test("degenerate grids: one row, one column, one sample", () => {
  assertClose(gridBlendWeights(new Float64Array(3), { xs: [0, 2, 5], ys: [7] }, 3.5, 100), [0, 0.5, 0.5]);
  assertClose(gridBlendWeights(new Float64Array(2), { xs: [1], ys: [0, 4] }, -3, 1), [0.75, 0.25]);
  assertClose(gridBlendWeights(new Float32Array(1), { xs: [1], ys: [1] }, 5, 5), [1]);
});

test("grid validation and size errors", () => {
  assert.doesNotThrow(() => assertBlendGrid(GRID));
  assert.throws(() => assertBlendGrid({ xs: [0, 0], ys: [1] }), /strictly increasing/);
  assert.throws(() => assertBlendGrid({ xs: [], ys: [1] }), /empty/);
  assert.throws(() => assertBlendGrid({ xs: [0, Infinity], ys: [1] }), /not finite/);
  assert.throws(() => gridBlendWeights(new Float64Array(5), GRID, 0, 0), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE" });
});

const axisArb = fc.uniqueArray(fc.integer({ min: -50, max: 50 }), { minLength: 1, maxLength: 5 }).map((a) => a.sort((p, q) => p - q));

test("property: partition of unity, exact at samples", () => {
  fc.assert(
    fc.property(axisArb, axisArb, fc.double({ min: -80, max: 80, noNaN: true }), fc.double({ min: -80, max: 80, noNaN: true }), (xs, ys, x, y) => {
      const grid = { xs, ys };
      const out = gridBlendWeights(new Float64Array(xs.length * ys.length), grid, x, y);
      let sum = 0;
      for (const w of out) {
        assert.ok(w >= 0);
        sum += w;
      }
      assert.ok(Math.abs(sum - 1) <= 1e-9);
      for (let iy = 0; iy < ys.length; iy++) {
        for (let ix = 0; ix < xs.length; ix++) {
          const at = gridBlendWeights(new Float64Array(xs.length * ys.length), grid, xs[ix]!, ys[iy]!);
          assert.ok(Math.abs(at[iy * xs.length + ix]! - 1) <= 1e-12);
        }
      }
    }),
    { numRuns: 200 },
  );
});

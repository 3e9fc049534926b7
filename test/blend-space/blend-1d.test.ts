import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { blend1DInverseDistanceWeights, blend1DLinearWeights } from "../../src/blend-space/index.ts";

// The design notes' example axis: idle at 0 m/s, walk at 2 m/s, run at 5 m/s.
const ANCHORS = [0, 2, 5];

function assertClose(actual: ArrayLike<number>, expected: readonly number[], tol = 1e-12): void {
  assert.equal(actual.length, expected.length);
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i]! - expected[i]!) <= tol, `weight ${i}: ${actual[i]} ≠ ${expected[i]} (all: ${Array.from(actual).join(", ")})`);
  }
}

test("inverse distance: golden values from w_i = 1/(1+|p-c_i|), normalised", () => {
  const out = new Float64Array(3);
  // p = 1: w = 1/2, 1/2, 1/5; Σ = 6/5 → 5/12, 5/12, 1/6.
  assertClose(blend1DInverseDistanceWeights(out, ANCHORS, 1), [5 / 12, 5 / 12, 1 / 6]);
  // p = 2 (on walk): w = 1/3, 1, 1/4; Σ = 19/12 → 4/19, 12/19, 3/19 — not exact at the anchor.
  assertClose(blend1DInverseDistanceWeights(out, ANCHORS, 2), [4 / 19, 12 / 19, 3 / 19]);
  // p = 3.5: w = 2/9, 2/5, 2/5; Σ = 46/45 → 5/23, 9/23, 9/23.
  assertClose(blend1DInverseDistanceWeights(out, ANCHORS, 3.5), [5 / 23, 9 / 23, 9 / 23]);
  // p = 0 (idle): w = 1, 1/3, 1/6; Σ = 3/2 → 2/3, 2/9, 1/9.
  assertClose(blend1DInverseDistanceWeights(out, ANCHORS, 0), [2 / 3, 2 / 9, 1 / 9]);
  // p = 8, past run (no clamping): w = 1/9, 1/7, 1/4 = 28/252, 36/252, 63/252 → 28/127, 36/127, 63/127.
  assertClose(blend1DInverseDistanceWeights(out, ANCHORS, 8), [28 / 127, 36 / 127, 63 / 127]);
});

test("inverse distance: Float32 output, one child, non-finite parameter", () => {
  const out32 = new Float32Array(3);
  assertClose(blend1DInverseDistanceWeights(out32, ANCHORS, 1), [5 / 12, 5 / 12, 1 / 6], 1e-7);
  assertClose(blend1DInverseDistanceWeights(new Float64Array(1), [3], -40), [1]);
  assertClose(blend1DInverseDistanceWeights(new Float64Array(3), ANCHORS, Number.NaN), [1 / 3, 1 / 3, 1 / 3]);
});

test("piecewise linear: golden values on idle/walk/run, clamped outside", () => {
  const out = new Float64Array(3);
  assertClose(blend1DLinearWeights(out, ANCHORS, 1), [0.5, 0.5, 0]);
  assertClose(blend1DLinearWeights(out, ANCHORS, 2), [0, 1, 0]);
  assertClose(blend1DLinearWeights(out, ANCHORS, 3.5), [0, 0.5, 0.5]);
  assertClose(blend1DLinearWeights(out, ANCHORS, 4), [0, 1 / 3, 2 / 3]);
  assertClose(blend1DLinearWeights(out, ANCHORS, 0), [1, 0, 0]);
  assertClose(blend1DLinearWeights(out, ANCHORS, 5), [0, 0, 1]);
  assertClose(blend1DLinearWeights(out, ANCHORS, -1), [1, 0, 0]);
  assertClose(blend1DLinearWeights(out, ANCHORS, 7), [0, 0, 1]);
  assertClose(blend1DLinearWeights(out, ANCHORS, Number.NaN), [1, 0, 0]);
});

test("piecewise linear: unsorted anchors, shared anchors (lowest index wins), larger out array", () => {
  assertClose(blend1DLinearWeights(new Float64Array(3), [5, 0, 2], 1), [0, 0.5, 0.5]);
  assertClose(blend1DLinearWeights(new Float64Array(4), [0, 2, 2, 5], 2), [0, 1, 0, 0]);
  assertClose(blend1DLinearWeights(new Float64Array(4), [0, 2, 2, 5], 3), [0, 2 / 3, 0, 1 / 3]);
  const big = new Float32Array(5).fill(9);
  blend1DLinearWeights(big, ANCHORS, 1);
  assertClose(big, [0.5, 0.5, 0, 9, 9]); // only the first positions.length entries are written
});

test("programmer errors throw", () => {
  assert.throws(() => blend1DLinearWeights(new Float64Array(2), ANCHORS, 1), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE", argument: "out" });
  assert.throws(() => blend1DInverseDistanceWeights(new Float64Array(0), [], 1), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE", argument: "positions" });
});

const anchorsArb = fc.uniqueArray(fc.integer({ min: -1000, max: 1000 }), { minLength: 1, maxLength: 12 }).map((a) => a.map((v) => v / 10));
const paramArb = fc.double({ min: -150, max: 150, noNaN: true });

test("property: both weightings are a partition of unity", () => {
  fc.assert(
    fc.property(anchorsArb, paramArb, (anchors, p) => {
      for (const fn of [blend1DLinearWeights, blend1DInverseDistanceWeights]) {
        const w = fn(new Float64Array(anchors.length), anchors, p);
        let sum = 0;
        for (const v of w) {
          assert.ok(v >= 0);
          sum += v;
        }
        assert.ok(Math.abs(sum - 1) <= 1e-9, `sum ${sum}`);
      }
    }),
    { numRuns: 300 },
  );
});

test("property: piecewise linear is exact at anchors and continuous", () => {
  fc.assert(
    fc.property(anchorsArb, paramArb, (anchors, p) => {
      anchors.forEach((c, i) => {
        const w = blend1DLinearWeights(new Float64Array(anchors.length), anchors, c);
        assert.ok(Math.abs(w[i]! - 1) <= 1e-12);
      });
      // Anchors are ≥ 0.1 apart, so the slope is ≤ 10 per unit: a 1e-9 step moves weights ≤ 1e-8.
      const a = blend1DLinearWeights(new Float64Array(anchors.length), anchors, p);
      const b = blend1DLinearWeights(new Float64Array(anchors.length), anchors, p + 1e-9);
      for (let i = 0; i < anchors.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= 1e-7);
    }),
    { numRuns: 200 },
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { CURVE_NAMES, evaluateCurve, isCurve } from "../../src/math/curves.ts";

test("every curve maps 0 → 0 and 1 → 1 exactly and clamps outside [0, 1]", () => {
  for (const name of CURVE_NAMES) {
    assert.equal(evaluateCurve(name, 0), 0, name);
    assert.equal(evaluateCurve(name, 1), 1, name);
    assert.equal(evaluateCurve(name, -3), 0, name);
    assert.equal(evaluateCurve(name, 7), 1, name);
    assert.equal(evaluateCurve(name, Number.NaN), 0, name);
  }
});

test("smoothstep is the seed's w = s²(3 − 2s)", () => {
  for (const s of [0.1, 0.25, 0.5, 0.8]) assert.equal(evaluateCurve("smoothstep", s), s * s * (3 - 2 * s));
  assert.equal(evaluateCurve("smoothstep", 0.5), 0.5);
  assert.equal(evaluateCurve("linear", 0.3), 0.3);
  assert.ok(Math.abs(evaluateCurve("smootherstep", 0.5) - 0.5) < 1e-15);
  assert.equal(evaluateCurve("easeIn", 0.5), 0.25);
  assert.equal(evaluateCurve("easeOut", 0.5), 0.75);
});

test("curves are monotonic on [0, 1] (to float rounding: 1e-15)", () => {
  fc.assert(
    fc.property(fc.constantFrom(...CURVE_NAMES), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (name, a, b) => {
      const [lo, hi] = a <= b ? [a, b] : [b, a];
      assert.ok(evaluateCurve(name, lo) <= evaluateCurve(name, hi) + 1e-15);
    }),
  );
});

test("isCurve accepts exactly the listed names", () => {
  assert.ok(isCurve("smoothstep"));
  assert.ok(!isCurve("cubic"));
});

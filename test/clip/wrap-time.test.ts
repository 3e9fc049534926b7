import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { loopIndex, wrapTime } from "../../src/clip/wrap-time.ts";

test("loop: t mod d in [0, d); the end maps to 0; negative times wrap backwards", () => {
  assert.equal(wrapTime(0, 2, "loop"), 0);
  assert.equal(wrapTime(2, 2, "loop"), 0);
  assert.equal(wrapTime(2.5, 2, "loop"), 0.5);
  assert.equal(wrapTime(-0.5, 2, "loop"), 1.5);
  assert.equal(wrapTime(-1e-20, 2, "loop"), 0); // −ε + d rounds to d → 0, never d
  assert.equal(loopIndex(5, 2), 2);
  assert.equal(loopIndex(-0.5, 2), -1);
});

test("clamp and pingpong", () => {
  assert.equal(wrapTime(-1, 2, "clamp"), 0);
  assert.equal(wrapTime(3, 2, "clamp"), 2);
  assert.equal(wrapTime(1.5, 2, "clamp"), 1.5);
  assert.equal(wrapTime(2, 2, "pingpong"), 2);
  assert.equal(wrapTime(2.5, 2, "pingpong"), 1.5);
  assert.equal(wrapTime(4, 2, "pingpong"), 0);
  assert.equal(wrapTime(5, 2, "pingpong"), 1);
});

test("degenerate inputs give 0", () => {
  assert.equal(wrapTime(1, 0, "loop"), 0);
  assert.equal(wrapTime(Number.NaN, 2, "loop"), 0);
  assert.equal(wrapTime(Infinity, 2, "loop"), 0);
});

test("properties: range, periodicity, t = loopIndex·d + wrap", () => {
  fc.assert(
    fc.property(fc.double({ min: -1e4, max: 1e4, noNaN: true }), fc.double({ min: 0.01, max: 100, noNaN: true }), (t, d) => {
      const w = wrapTime(t, d, "loop");
      assert.ok(w >= 0 && w < d);
      const p = wrapTime(t, d, "pingpong");
      assert.ok(p >= 0 && p <= d);
      assert.ok(Math.abs(loopIndex(t, d) * d + w - t) <= 1e-9 * Math.max(1, Math.abs(t)));
      const w2 = wrapTime(t + d, d, "loop");
      // Same phase up to the rounding of t + d (or across the seam: w ≈ 0 and w2 ≈ d or vice versa).
      const diff = Math.abs(w2 - w);
      assert.ok(diff <= 1e-9 * Math.max(1, Math.abs(t)) || Math.abs(diff - d) <= 1e-9 * Math.max(1, Math.abs(t)));
    }),
  );
});

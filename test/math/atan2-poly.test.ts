import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { atan2Poly } from "../../src/math/atan2-poly.ts";

test("atan2Poly is within 1e-8 rad of Math.atan2 everywhere", () => {
  fc.assert(
    fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (y, x) => {
      const d = Math.abs(atan2Poly(y, x) - Math.atan2(y, x));
      return (y === 0 && x === 0) || d < 1e-8 || Math.abs(d - 2 * Math.PI) < 1e-8;
    }),
    { numRuns: 20_000 },
  );
  // A dense sweep of the unit circle, including the octant boundaries.
  let worst = 0;
  for (let k = 0; k <= 100_000; k++) {
    const t = -Math.PI + (2 * Math.PI * k) / 100_000;
    const d = Math.abs(atan2Poly(Math.sin(t), Math.cos(t)) - Math.atan2(Math.sin(t), Math.cos(t)));
    worst = Math.max(worst, d > Math.PI ? 2 * Math.PI - d : d);
  }
  assert.ok(worst < 1e-8, `worst error ${worst}`);
});

test("atan2Poly: axes, quadrants and the origin", () => {
  assert.equal(atan2Poly(0, 0), 0);
  assert.equal(atan2Poly(0, 1), 0);
  assert.equal(atan2Poly(1, 0), Math.PI / 2);
  assert.equal(atan2Poly(-1, 0), -Math.PI / 2);
  assert.equal(atan2Poly(0, -1), Math.PI);
  assert.ok(Math.abs(atan2Poly(1, 1) - Math.PI / 4) < 1e-9, "45°");
  assert.ok(Math.abs(atan2Poly(-1, -1) + (3 * Math.PI) / 4) < 1e-9, "−135°");
});

import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { axisPermille, bilinearPermille, floorDiv } from "../../src/blend-check/bilinear-permille.ts";

const X = { min: 0n, max: 300n };
const Y = { min: -100n, max: 100n };
// The seed's sample order: idle_l (0,-100), idle_r (0,100), run_l (300,-100), run_r (300,100).
const SAMPLES = [{ x: 0n, y: -100n }, { x: 0n, y: 100n }, { x: 300n, y: -100n }, { x: 300n, y: 100n }];

test("floorDiv rounds toward −∞ like Python's //", () => {
  const cases: [bigint, bigint, bigint][] = [
    [7n, 2n, 3n], [-7n, 2n, -4n], [7n, -2n, -4n], [-7n, -2n, 3n], [-6n, 3n, -2n], [0n, 5n, 0n], [-1n, 1000n, -1n],
    [-(10n ** 40n) - 1n, 10n ** 20n, -(10n ** 20n) - 1n],
  ];
  for (const [a, b, q] of cases) assert.equal(floorDiv(a, b), q, `${a} // ${b}`);
  assert.throws(() => floorDiv(1n, 0n), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE", argument: "b" });
});

test("floorDiv agrees with Math.floor on small integers", () => {
  fc.assert(
    fc.property(fc.integer({ min: -1e6, max: 1e6 }), fc.integer({ min: -1000, max: 1000 }).filter((b) => b !== 0), (a, b) => {
      assert.equal(floorDiv(BigInt(a), BigInt(b)), BigInt(Math.floor(a / b)));
    }),
  );
});

test("(speed 100, lean 50) weighs 166/500/83/249: the sum is 998, flooring is not normalised", () => {
  const w = bilinearPermille(SAMPLES, X, Y, 100n, 50n);
  assert.deepEqual(w, [166n, 500n, 83n, 249n]);
  assert.equal(w.reduce((a, b) => a + b, 0n), 998n);
  assert.deepEqual(bilinearPermille(SAMPLES, X, Y, 150n, 0n), [250n, 250n, 250n, 250n]);
});

test("a query on a corner weighs 1000 there and 0 elsewhere", () => {
  SAMPLES.forEach((corner, i) => {
    const w = bilinearPermille(SAMPLES, X, Y, corner.x, corner.y);
    assert.deepEqual(w, SAMPLES.map((_, j) => (j === i ? 1000n : 0n)));
  });
});

test("huge spans stay exact (10^30 and 2^200 wide axes, far below −2^53)", () => {
  const big = 10n ** 30n;
  const x = { min: -big, max: big };
  const y = { min: -(2n ** 200n), max: 2n ** 200n };
  const s = [{ x: x.min, y: y.min }, { x: x.min, y: y.max }, { x: x.max, y: y.min }, { x: x.max, y: y.max }];
  // One unit right of the middle: tx = ⌊(10^30 + 1) · 1000 / (2 · 10^30)⌋ = 500; a double would lose the +1.
  assert.equal(axisPermille(1n, x), 500n);
  assert.equal(axisPermille(-1n, x), 499n);
  assert.deepEqual(bilinearPermille(s, x, y, -1n, 0n), [250n, 250n, 249n, 249n]);
  // A third of the way: 333, exactly as (q − min) · 1000 // span on integers.
  const third = -big + (2n * big) / 3n;
  assert.equal(axisPermille(third, x), 333n);
  assert.deepEqual(bilinearPermille(s, x, y, x.max, y.max), [0n, 0n, 0n, 1000n]);
});

test("queries outside the axes extrapolate (factors outside 0..1000, negative weights), as the reference does", () => {
  // tx = (600 − 0) · 1000 // 300 = 2000, ty = (−300 + 100) · 1000 // 200 = −1000.
  assert.deepEqual(bilinearPermille(SAMPLES, X, Y, 600n, -300n), [-2000n, 1000n, 4000n, -2000n]);
  // −1 · 1000 // 300 = −4 (floor), not −3 (truncation).
  assert.equal(axisPermille(-1n, X), -4n);
});

test("in range, four corner weights are ≥ 0 and sum to 997..1000; samples off the corners are weighed too", () => {
  fc.assert(
    fc.property(
      fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
      fc.bigInt({ min: 1n, max: 10n ** 30n }),
      fc.bigInt({ min: -(10n ** 6n), max: 10n ** 6n }),
      fc.bigInt({ min: 1n, max: 10n ** 6n }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      (x0, sx, y0, sy, fx, fy) => {
        const x = { min: x0, max: x0 + sx };
        const y = { min: y0, max: y0 + sy };
        const qx = x0 + (sx * BigInt(Math.round(fx * 1e6))) / 1_000_000n;
        const qy = y0 + (sy * BigInt(Math.round(fy * 1e6))) / 1_000_000n;
        const s = [{ x: x.min, y: y.min }, { x: x.min, y: y.max }, { x: x.max, y: y.min }, { x: x.max, y: y.max }];
        const w = bilinearPermille(s, x, y, qx, qy);
        const sum = w.reduce((a, b) => a + b, 0n);
        assert.ok(w.every((v) => v >= 0n && v <= 1000n), String(w));
        assert.ok(sum >= 997n && sum <= 1000n, String(sum));
        // A fifth sample off the corners takes the factors of the corner on its "side" of each axis
        // (x = max → tx, else 1000 − tx), as the reference does.
        const mid = bilinearPermille([...s, { x: qx, y: qy }], x, y, qx, qy);
        assert.equal(mid[4], w[(qx === x.max ? 2 : 0) + (qy === y.max ? 1 : 0)]);
      },
    ),
    { numRuns: 300 },
  );
});

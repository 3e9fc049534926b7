import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { blendSpace2DWeights, compileBlendSpace2D, gridBlendWeights, type CompiledBlendSpace2D } from "../../src/blend-space/index.ts";

function compiledOf(samples: readonly { x: number; y: number }[]): CompiledBlendSpace2D {
  const { compiled } = compileBlendSpace2D(samples);
  assert.ok(compiled);
  return compiled;
}

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, tol = 1e-12): void {
  for (let i = 0; i < expected.length; i++) {
    assert.ok(Math.abs(actual[i]! - expected[i]!) <= tol, `weight ${i}: [${Array.from(actual).join(", ")}] ≠ [${Array.from(expected).join(", ")}]`);
  }
}

function assertPartition(w: ArrayLike<number>): void {
  let sum = 0;
  for (let i = 0; i < w.length; i++) {
    assert.ok(w[i]! >= 0, `negative weight ${w[i]}`);
    sum += w[i]!;
  }
  assert.ok(Math.abs(sum - 1) <= 1e-9, `weights sum to ${sum}`);
}

// Locomotion space: idle at the origin, walk/run forward, strafes left and right.
const LOCO = [
  { x: 0, y: 0 }, // 0 idle
  { x: 0, y: 2 }, // 1 walk forward
  { x: 0, y: 5 }, // 2 run forward
  { x: -2, y: 0 }, // 3 strafe left
  { x: 2, y: 0 }, // 4 strafe right
];

test("compile: triangulates, hull in Delaunator order (clockwise with y up), no diagnostics", () => {
  const { compiled, diagnostics } = compileBlendSpace2D(LOCO);
  assert.deepEqual(diagnostics, []);
  assert.ok(compiled);
  assert.equal(compiled.kind, "triangles");
  assert.equal(compiled.triangles.length % 3, 0);
  assert.ok(compiled.triangles.length >= 9);
  // Walk (0, 2) is interior; idle (0, 0) lies on the hull edge between the strafes and is kept on it.
  assert.deepEqual([...compiled.hull].sort(), [0, 2, 3, 4]);
  let twiceArea = 0;
  for (let k = 0; k < compiled.hull.length; k++) {
    const a = compiled.hull[k]!;
    const b = compiled.hull[(k + 1) % compiled.hull.length]!;
    twiceArea += compiled.coords[2 * a]! * compiled.coords[2 * b + 1]! - compiled.coords[2 * b]! * compiled.coords[2 * a + 1]!;
  }
  // Delaunator's "counter-clockwise" assumes y pointing down (screen); with y up it is clockwise.
  assert.ok(twiceArea < 0, "hull is clockwise with y up");
  // (1, 1) is on the edge walk–strafe right: halfway between them.
  assertClose(blendSpace2DWeights(new Float64Array(5), compiled, 1, 1), [0, 0.5, 0, 0, 0.5]);
  // (0, 3.5) is on the edge walk–run.
  assertClose(blendSpace2DWeights(new Float64Array(5), compiled, 0, 3.5), [0, 0.5, 0.5, 0, 0]);
});

test("barycentric golden value inside a triangle and hull projection outside", () => {
  // A single triangle: a = (0,0), b = (4,0), c = (0,4).
  const tri = compiledOf([{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 0, y: 4 }]);
  const out = new Float64Array(3);
  // (1, 1): λ_b = x/4 = 0.25, λ_c = y/4 = 0.25, λ_a = 0.5.
  assertClose(blendSpace2DWeights(out, tri, 1, 1), [0.5, 0.25, 0.25]);
  // (3, 3) lies outside the hypotenuse; its nearest point (2, 2) is halfway from b to c.
  assertClose(blendSpace2DWeights(out, tri, 3, 3), [0, 0.5, 0.5]);
  // (-5, -1): nearest hull point is the corner a.
  assertClose(blendSpace2DWeights(out, tri, -5, -1), [1, 0, 0]);
  // (2, -3): projects onto the edge a–b at x = 2.
  assertClose(blendSpace2DWeights(out, tri, 2, -3), [0.5, 0.5, 0]);
});

test("diagnostics: duplicates, non-finite, collinear, empty; pointers name the sample", () => {
  const dup = compileBlendSpace2D([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 0, y: 1 }, { x: 1, y: -0 }], { file: "ta09_blend.json", pointer: "/states/move/samples" });
  assert.equal(dup.diagnostics.length, 1);
  assert.equal(dup.diagnostics[0]!.code, "E_BLEND_DUPLICATE_SAMPLE");
  assert.equal(dup.diagnostics[0]!.severity, "error");
  assert.equal(dup.diagnostics[0]!.file, "ta09_blend.json");
  assert.equal(dup.diagnostics[0]!.pointer, "/states/move/samples/3");
  assert.match(dup.diagnostics[0]!.message, /duplicates sample 1/);
  assert.ok(dup.compiled);
  assert.equal(dup.compiled.usable[3], 0);
  const w = blendSpace2DWeights(new Float64Array(4), dup.compiled, 1, 0);
  assertClose(w, [0, 1, 0, 0]); // the first sample at a position takes it

  const nan = compileBlendSpace2D([{ x: 0, y: Number.NaN }, { x: 1, y: 1 }]);
  assert.deepEqual(nan.diagnostics.map((d) => [d.code, d.pointer]), [["E_BLEND_SAMPLE_NOT_FINITE", "/0"]]);
  assert.equal(nan.compiled?.kind, "point");
  assertClose(blendSpace2DWeights(new Float64Array(2), nan.compiled!, 9, 9), [0, 1]);

  const line = compileBlendSpace2D([{ x: 0, y: 0 }, { x: 2, y: 1 }, { x: 4, y: 2 }, { x: -2, y: -1 }]);
  assert.deepEqual(line.diagnostics.map((d) => [d.code, d.severity, d.pointer]), [["E_BLEND_COLLINEAR", "warning", ""]]);
  assert.equal(line.compiled?.kind, "line");

  const none = compileBlendSpace2D([]);
  assert.equal(none.compiled, null);
  assert.deepEqual(none.diagnostics.map((d) => d.code), ["E_BLEND_EMPTY"]);
});

test("degenerate spaces: one sample, two samples, collinear fall back to 1D along the line", () => {
  const one = compiledOf([{ x: 3, y: 4 }]);
  assertClose(blendSpace2DWeights(new Float32Array(1), one, -100, 7), [1]);

  const two = compiledOf([{ x: 0, y: 0 }, { x: 4, y: 0 }]);
  assert.equal(two.kind, "line");
  const out = new Float64Array(2);
  assertClose(blendSpace2DWeights(out, two, 1, 5), [0.75, 0.25]); // projected onto the x axis
  assertClose(blendSpace2DWeights(out, two, -3, -3), [1, 0]); // clamped
  assertClose(blendSpace2DWeights(out, two, 10, 0), [0, 1]);

  // Collinear along y = x / 2, given out of order: (4,2) (0,0) (-2,-1) (2,1).
  const line = compiledOf([{ x: 4, y: 2 }, { x: 0, y: 0 }, { x: -2, y: -1 }, { x: 2, y: 1 }]);
  const w = new Float64Array(4);
  // (1, 0.5) is halfway between (0,0) and (2,1).
  assertClose(blendSpace2DWeights(w, line, 1, 0.5), [0, 0.5, 0, 0.5]);
  // (3, 1.5) + a perpendicular offset (−0.5, 1) projects to the same point, halfway from (2,1) to (4,2).
  assertClose(blendSpace2DWeights(w, line, 2.5, 2.5), [0.5, 0, 0, 0.5], 1e-12);
  assertClose(blendSpace2DWeights(w, line, -9, -9), [0, 0, 1, 0]);
});

test("non-finite parameter gives a valid partition", () => {
  const c = compiledOf(LOCO);
  assertPartition(blendSpace2DWeights(new Float64Array(5), c, Number.NaN, 0));
});

const pointsArb = fc.uniqueArray(
  fc.record({ x: fc.integer({ min: -10, max: 10 }), y: fc.integer({ min: -10, max: 10 }) }),
  { minLength: 1, maxLength: 14, selector: (p) => `${p.x},${p.y}` },
);
const coordArb = fc.double({ min: -20, max: 20, noNaN: true });

test("property: partition of unity everywhere, weight 1 at every sample", () => {
  fc.assert(
    fc.property(pointsArb, coordArb, coordArb, (points, x, y) => {
      const c = compiledOf(points);
      const out = new Float64Array(points.length);
      assertPartition(blendSpace2DWeights(out, c, x, y));
      points.forEach((p, i) => {
        blendSpace2DWeights(out, c, p.x, p.y);
        assert.ok(Math.abs(out[i]! - 1) <= 1e-9, `sample ${i} at (${p.x}, ${p.y}) gets ${out[i]} (${c.kind})`);
      });
    }),
    { numRuns: 300 },
  );
});

test("property: continuous across every triangle edge and the hull boundary", () => {
  fc.assert(
    fc.property(pointsArb, fc.double({ min: 0, max: 1, noNaN: true }), (points, s) => {
      const c = compiledOf(points);
      if (c.kind !== "triangles") return;
      const n = points.length;
      const on = new Float64Array(n);
      const left = new Float64Array(n);
      const right = new Float64Array(n);
      const eps = 1e-7;
      for (let k = 0; k < c.triangles.length; k++) {
        const a = c.triangles[k]!;
        const b = c.triangles[k % 3 === 2 ? k - 2 : k + 1]!;
        const ax = c.coords[2 * a]!, ay = c.coords[2 * a + 1]!;
        const ex = c.coords[2 * b]! - ax, ey = c.coords[2 * b + 1]! - ay;
        const len = Math.hypot(ex, ey);
        const mx = ax + s * ex, my = ay + s * ey;
        const nx = -ey / len, ny = ex / len;
        blendSpace2DWeights(on, c, mx, my);
        // On the edge, only its endpoints blend, linearly.
        const expected = new Float64Array(n);
        expected[a] = 1 - s;
        expected[b] = expected[b]! + s;
        assertClose(on, expected, 1e-9);
        // Integer samples in [-10, 10]²: triangle heights ≥ 1/29, so weights change ≤ 29 per unit.
        blendSpace2DWeights(left, c, mx + eps * nx, my + eps * ny);
        blendSpace2DWeights(right, c, mx - eps * nx, my - eps * ny);
        assertClose(left, on, 30 * eps + 1e-9);
        assertClose(right, on, 30 * eps + 1e-9);
      }
    }),
    { numRuns: 150 },
  );
});

test("outside the hull next to a corner, the edge's perpendicular foot wins a rounding tie with the corner", () => {
  // Found by the property below (CI seed 1715262968): |p − corner|² and |p − foot|² round to the same
  // double, and taking the corner dropped sample 2's weight of 1e-9.
  const c = compiledOf([{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 0, y: 1 }, { x: 1, y: 1 }]);
  const y = 1.0000000000000003e-9;
  const free = blendSpace2DWeights(new Float64Array(4), c, -0.125, y);
  assertClose(free, [1 - y, 0, y, 0], 1e-15);
});

test("property: a 2×2 grid's bilinear weights match the freeform space along the edges and outside", () => {
  fc.assert(
    fc.property(
      fc.integer({ min: -10, max: 9 }), fc.integer({ min: 1, max: 10 }), fc.integer({ min: -10, max: 9 }), fc.integer({ min: 1, max: 10 }),
      fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 3 }), fc.double({ min: 0, max: 5, noNaN: true }),
      (x0, wx, y0, wy, s, side, outward) => {
        const xs = [x0, x0 + wx];
        const ys = [y0, y0 + wy];
        // Freeform samples in the grid's index order (iy * 2 + ix).
        const c = compiledOf([{ x: xs[0]!, y: ys[0]! }, { x: xs[1]!, y: ys[0]! }, { x: xs[0]!, y: ys[1]! }, { x: xs[1]!, y: ys[1]! }]);
        const x = side === 0 ? x0 + s * wx : side === 1 ? x0 + s * wx : side === 2 ? x0 - outward : x0 + wx + outward;
        const y = side === 0 ? y0 - outward : side === 1 ? y0 + wy + outward : y0 + s * wy;
        // Points on the edge (outward = 0) and beyond it: clamping to the rectangle is the nearest-point projection.
        const grid = gridBlendWeights(new Float64Array(4), { xs, ys }, x, y);
        const free = blendSpace2DWeights(new Float64Array(4), c, x, y);
        assertClose(free, grid, 1e-9);
      },
    ),
    { numRuns: 300 },
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  mat4Decompose, mat4FromTRS, mat4Identity, mat4Invert, mat4MaxDifference, mat4Multiply,
} from "../../src/math/mat4.ts";

/** Reference product with explicit row/column indexing (column-major: element (r, c) at 4c + r). */
function naiveMultiply(a: ArrayLike<number>, b: ArrayLike<number>): number[] {
  const out = new Array<number>(16).fill(0);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) {
    let sum = 0;
    for (let k = 0; k < 4; k++) sum += a[4 * k + r]! * b[4 * c + k]!;
    out[4 * c + r] = sum;
  }
  return out;
}

const finite = fc.double({ min: -10, max: 10, noNaN: true });
const quat = fc.tuple(finite, finite, finite, finite)
  .filter(([x, y, z, w]) => Math.hypot(x, y, z, w) > 0.1)
  .map(([x, y, z, w]) => {
    const l = Math.hypot(x, y, z, w);
    return [x / l, y / l, z / l, w / l];
  });
const scale = fc.tuple(
  fc.double({ min: 0.2, max: 5, noNaN: true }),
  fc.double({ min: 0.2, max: 5, noNaN: true }),
  fc.double({ min: 0.2, max: 5, noNaN: true }),
);
const trs = fc.record({ t: fc.tuple(finite, finite, finite), r: quat, s: scale });
const matrix = fc.array(finite, { minLength: 16, maxLength: 16 });

test("fromTRS: known rotation (90° about Z) and glTF's T × R × S order", () => {
  const m = mat4FromTRS(new Float64Array(16), 0, [1, 2, 3], 0, [0, 0, Math.SQRT1_2, Math.SQRT1_2], 0, [2, 3, 4], 0);
  // Column 0 is R·(2, 0, 0) = (0, 2, 0); column 1 is R·(0, 3, 0) = (-3, 0, 0); column 2 is (0, 0, 4).
  const expected = [0, 2, 0, 0, -3, 0, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1];
  assert.ok(mat4MaxDifference(m, 0, expected, 0) < 1e-12);
});

test("multiply matches the naive product, and out may alias a or b", () => {
  fc.assert(fc.property(matrix, matrix, (a, b) => {
    const expected = naiveMultiply(a, b);
    const out = mat4Multiply(new Float64Array(16), 0, a, 0, b, 0);
    assert.ok(mat4MaxDifference(out, 0, expected, 0) < 1e-9);
    const aliasA = Float64Array.from(a);
    mat4Multiply(aliasA, 0, aliasA, 0, b, 0);
    assert.ok(mat4MaxDifference(aliasA, 0, expected, 0) < 1e-9);
    const aliasB = Float64Array.from(b);
    mat4Multiply(aliasB, 0, a, 0, aliasB, 0);
    assert.ok(mat4MaxDifference(aliasB, 0, expected, 0) < 1e-9);
  }));
});

test("offsets address matrices inside one flat array", () => {
  const flat = new Float64Array(48);
  mat4FromTRS(flat, 16, [1, 0, 0], 0, [0, 0, 0, 1], 0, [1, 1, 1], 0);
  mat4FromTRS(flat, 32, [0, 5, 0], 0, [0, 0, 0, 1], 0, [2, 2, 2], 0);
  mat4Multiply(flat, 0, flat, 16, flat, 32);
  assert.deepEqual(Array.from(flat.subarray(0, 16)), [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 1, 5, 0, 1]);
});

test("invert: a × a⁻¹ = identity for TRS matrices; singular and NaN matrices are refused", () => {
  fc.assert(fc.property(trs, ({ t, r, s }) => {
    const m = mat4FromTRS(new Float64Array(16), 0, t, 0, r, 0, s, 0);
    const inv = new Float64Array(16);
    assert.equal(mat4Invert(inv, 0, m, 0), true);
    const product = mat4Multiply(new Float64Array(16), 0, m, 0, inv, 0);
    assert.ok(mat4MaxDifference(product, 0, mat4Identity(new Float64Array(16)), 0) < 1e-9);
    // In place gives the same result.
    const inPlace = Float64Array.from(m);
    mat4Invert(inPlace, 0, inPlace, 0);
    assert.ok(mat4MaxDifference(inPlace, 0, inv, 0) < 1e-12);
  }));
  const out = mat4Identity(new Float64Array(16));
  assert.equal(mat4Invert(out, 0, new Float64Array(16), 0), false);
  assert.equal(mat4Invert(out, 0, [NaN, ...new Array<number>(15).fill(1)], 0), false);
  assert.deepEqual(Array.from(out), Array.from(mat4Identity(new Float64Array(16))), "out untouched on failure");
});

test("decompose inverts fromTRS (rotation up to sign), including mirrored scales", () => {
  fc.assert(fc.property(trs, fc.boolean(), ({ t, r, s }, mirror) => {
    const sx = mirror ? -s[0] : s[0];
    const m = mat4FromTRS(new Float64Array(16), 0, t, 0, r, 0, [sx, s[1], s[2]], 0);
    const t2 = new Float64Array(3), r2 = new Float64Array(4), s2 = new Float64Array(3);
    assert.equal(mat4Decompose(t2, 0, r2, 0, s2, 0, m, 0), true);
    assert.ok(Math.abs(Math.hypot(...r2) - 1) < 1e-9);
    const back = mat4FromTRS(new Float64Array(16), 0, t2, 0, r2, 0, s2, 0);
    assert.ok(mat4MaxDifference(back, 0, m, 0) < 1e-8);
    if (!mirror) {
      for (let i = 0; i < 3; i++) assert.ok(Math.abs(s2[i]! - s[i]!) < 1e-8);
      const dot = r2[0]! * r[0]! + r2[1]! * r[1]! + r2[2]! * r[2]! + r2[3]! * r[3]!;
      assert.ok(Math.abs(Math.abs(dot) - 1) < 1e-8);
    }
  }));
});

test("decompose refuses a zero scale and non-finite input, writing nothing", () => {
  const t = [7, 7, 7], r = [7, 7, 7, 7], s = [7, 7, 7];
  const zeroScale = mat4FromTRS(new Float64Array(16), 0, [1, 2, 3], 0, [0, 0, 0, 1], 0, [1, 0, 1], 0);
  assert.equal(mat4Decompose(t, 0, r, 0, s, 0, zeroScale, 0), false);
  const nan = mat4Identity(new Float64Array(16));
  nan[13] = NaN;
  assert.equal(mat4Decompose(t, 0, r, 0, s, 0, nan, 0), false);
  assert.deepEqual([t, r, s], [[7, 7, 7], [7, 7, 7, 7], [7, 7, 7]]);
});

test("maxDifference reports NaN as NaN, not as 0", () => {
  const a = mat4Identity(new Float64Array(16));
  const b = mat4Identity(new Float64Array(16));
  b[3] = NaN;
  assert.ok(Number.isNaN(mat4MaxDifference(a, 0, b, 0)));
  b[3] = 0;
  b[15] = 3;
  assert.equal(mat4MaxDifference(a, 0, b, 0), 2);
});

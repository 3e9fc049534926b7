import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { aimIk } from "../../src/ik/aim-ik.ts";
import { quatFromAxisAngle, quatRotateVec3 } from "../../src/math/quat.ts";

const Z = [0, 0, 1];
const angleBetween = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  const d = (a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!) / (Math.hypot(a[0]!, a[1]!, a[2]!) * Math.hypot(b[0]!, b[1]!, b[2]!));
  return Math.acos(Math.min(1, Math.max(-1, d)));
};

test("aimIk, closed form: a head looking along +Z turns 90° to look at a target on +X; a 30° limit stops it at 30°", () => {
  const out = new Float64Array(4);
  const left = aimIk(out, 0, [0, 0, 0, 1], 0, [0, 1.6, 0], 0, Z, 0, [5, 1.6, 0], 0, Math.PI, 1);
  assert.ok(Math.abs(left) < 1e-12);
  const aimed = quatRotateVec3(new Float64Array(3), 0, out, 0, Z, 0);
  assert.ok(Math.abs(aimed[0]! - 1) < 1e-12 && Math.abs(aimed[2]!) < 1e-12, Array.from(aimed).join(","));
  // Closed form: a rotation of 90° about +Y.
  const expected = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, Math.PI / 2);
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(out[c]! - expected[c]!) < 1e-12);
  const limited = new Float64Array(4);
  const rest = aimIk(limited, 0, [0, 0, 0, 1], 0, [0, 1.6, 0], 0, Z, 0, [5, 1.6, 0], 0, Math.PI / 6, 1);
  assert.ok(Math.abs(rest - Math.PI / 3) < 1e-12);
  const half = quatRotateVec3(new Float64Array(3), 0, limited, 0, Z, 0);
  assert.ok(Math.abs(angleBetween(half, Z) - Math.PI / 6) < 1e-12);
});

test("aimIk: weight 0 and a target at the joint change nothing; out may be the input", () => {
  const q = quatFromAxisAngle(new Float64Array(4), 0, 1, 2, 3, 0.7);
  const out = new Float64Array(4);
  aimIk(out, 0, q, 0, [0, 0, 0], 0, Z, 0, [1, 1, 1], 0, 1, 0);
  for (let c = 0; c < 4; c++) assert.ok(Math.abs(out[c]! - q[c]!) < 1e-12);
  aimIk(out, 0, q, 0, [1, 1, 1], 0, Z, 0, [1, 1, 1], 0, 1, 1);
  for (let c = 0; c < 4; c++) assert.equal(out[c], q[c]);
  const inPlace = Float64Array.from(q);
  aimIk(out, 0, q, 0, [0, 0, 0], 0, Z, 0, [3, -1, 2], 0, 2, 1);
  aimIk(inPlace, 0, inPlace, 0, [0, 0, 0], 0, Z, 0, [3, -1, 2], 0, 2, 1);
  assert.deepEqual(Array.from(inPlace), Array.from(out));
});

test("aimIk properties: unit rotation out, aimed exactly within the limit, never turned more than the limit", () => {
  const v3 = fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }));
  fc.assert(
    fc.property(v3, v3, fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }), fc.double({ min: 0, max: Math.PI, noNaN: true }), (axisOfQ, target, angle, limit) => {
      fc.pre(Math.hypot(...target) > 1e-3 && Math.hypot(...axisOfQ) > 1e-3);
      const q = quatFromAxisAngle(new Float64Array(4), 0, axisOfQ[0], axisOfQ[1], axisOfQ[2], angle);
      const out = new Float64Array(4);
      const left = aimIk(out, 0, q, 0, [0, 0, 0], 0, Z, 0, target, 0, limit, 1);
      assert.ok(Math.abs(Math.hypot(out[0]!, out[1]!, out[2]!, out[3]!) - 1) < 1e-9);
      const before = quatRotateVec3(new Float64Array(3), 0, q, 0, Z, 0);
      const after = quatRotateVec3(new Float64Array(3), 0, out, 0, Z, 0);
      const needed = angleBetween(before, target);
      assert.ok(angleBetween(before, after) <= limit + 1e-6); // acos near 1 resolves ~1e-8 only
      if (needed <= limit) assert.ok(angleBetween(after, target) < 1e-6, `${angleBetween(after, target)}`);
      assert.ok(Math.abs(left - Math.max(0, needed - limit)) < 1e-6);
    }),
  );
});

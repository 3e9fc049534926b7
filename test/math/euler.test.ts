import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { quatToEuler } from "../../src/math/euler.ts";
import { quatFromEuler, type EulerOrder } from "../../src/math/quat.ts";

const ORDERS: readonly EulerOrder[] = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"];
const unitQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter((v) => Math.hypot(...v) > 1e-3).map((v) => v.map((c) => c / Math.hypot(...v)));

/** quatFromEuler of angles listed in `order`'s sequence. */
function fromListed(angles: Float64Array, order: EulerOrder): Float64Array {
  const xyz = [0, 0, 0];
  for (let k = 0; k < 3; k++) xyz[order.charCodeAt(k) - 88] = angles[k]!;
  return quatFromEuler(new Float64Array(4), 0, xyz[0]!, xyz[1]!, xyz[2]!, order);
}

test("property: quatToEuler inverts quatFromEuler for every order (the same rotation, up to sign)", () => {
  fc.assert(fc.property(unitQuat, fc.constantFrom(...ORDERS), (q, order) => {
    const e = new Float64Array(3);
    quatToEuler(e, 0, q, 0, order);
    assert.ok(Math.abs(e[1]!) <= Math.PI / 2 + 1e-12);
    const r = fromListed(e, order);
    const dot = Math.abs(q[0]! * r[0]! + q[1]! * r[1]! + q[2]! * r[2]! + q[3]! * r[3]!);
    assert.ok(1 - dot < 1e-12, `${order}: ${1 - dot}`);
  }));
});

test("property: at gimbal lock (middle angle ±90°) the rotation is still reproduced", () => {
  fc.assert(fc.property(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.boolean(), fc.constantFrom(...ORDERS), (a, c, up, order) => {
    const q = fromListed(Float64Array.of(a, up ? Math.PI / 2 : -Math.PI / 2, c), order);
    const e = new Float64Array(3);
    quatToEuler(e, 0, q, 0, order);
    const r = fromListed(e, order);
    assert.ok(1 - Math.abs(q[0]! * r[0]! + q[1]! * r[1]! + q[2]! * r[2]! + q[3]! * r[3]!) < 1e-12);
  }));
});

test("quatToEuler gives the angles quatFromEuler was given, away from the lock", () => {
  const e = new Float64Array(3);
  quatToEuler(e, 0, fromListed(Float64Array.of(0.3, -0.4, 1.2), "ZXY"), 0, "ZXY");
  assert.deepEqual(Array.from(e, (v) => Number(v.toFixed(12))), [0.3, -0.4, 1.2]);
});

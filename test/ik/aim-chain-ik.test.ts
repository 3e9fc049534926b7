import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { aimChainIk } from "../../src/ik/aim-chain-ik.ts";
import { quatFromAxisAngle, quatInvert, quatMultiply, quatRotateVec3 } from "../../src/math/quat.ts";

const Z = [0, 0, 1];
const angleOf = (q: ArrayLike<number>, o = 0): number => 2 * Math.acos(Math.min(1, Math.abs(q[o + 3]!)));

/** A spine → neck → head chain standing up the Y axis, all model rotations identity (faces +Z). */
function chain(): { q: Float64Array; p: Float64Array } {
  const q = new Float64Array(12);
  for (let j = 0; j < 3; j++) q[4 * j + 3] = 1;
  return { q, p: new Float64Array([0, 1, 0, 0, 1.4, 0, 0, 1.6, 0]) };
}

test("aimChainIk, closed form: a head on a neck and spine turns to look at a target 90° to its side, the turn shared out by the weights", () => {
  const { q, p } = chain();
  const left = aimChainIk(q, p, [0, 1, 2], [0.25, 1 / 3, 1], [Math.PI, Math.PI, Math.PI], Z, 0, [100, 1.6, 0], 0, 1);
  assert.ok(left < 1e-9, String(left));
  // The head's forward points at the target (far away along +X, so +X); each joint turned about Y only.
  const f = quatRotateVec3(new Float64Array(3), 0, q, 8, Z, 0);
  assert.ok(Math.abs(f[0]! - 1) < 1e-6, Array.from(f).join(","));
  // The spine took a quarter of 90°, the neck a third of the rest, the head the remainder.
  assert.ok(Math.abs(angleOf(q, 0) - Math.PI / 8) < 1e-3, `${angleOf(q, 0)}`);
  assert.ok(Math.abs(angleOf(q, 4) - Math.PI / 4) < 1e-3, `${angleOf(q, 4)}`);
});

test("aimChainIk: weight 0 changes nothing; a 10° limit per joint stops a three-joint chain at 30°", () => {
  const { q, p } = chain();
  aimChainIk(q, p, [0, 1, 2], [1, 1, 1], [1, 1, 1], Z, 0, [5, 1.6, 0], 0, 0);
  assert.deepEqual(Array.from(q), Array.from(chain().q));
  const lim = (10 * Math.PI) / 180;
  const left = aimChainIk(q, p, [0, 1, 2], [1, 1, 1], [lim, lim, lim], Z, 0, [100, 1.6, 0], 0, 1);
  assert.ok(Math.abs(angleOf(q, 8) - 3 * lim) < 1e-9, `${angleOf(q, 8)}`);
  assert.ok(Math.abs(left - (Math.PI / 2 - 3 * lim)) < 1e-3, `${left}`);
});

test("aimChainIk properties: the tip aims exactly when its own weight is 1 and nothing limits it; no joint turns past its limit; rotations stay unit", () => {
  const v3 = fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }));
  const w = fc.double({ min: 0, max: 1, noNaN: true });
  fc.assert(
    fc.property(v3, v3, fc.double({ min: -3, max: 3, noNaN: true }), w, w, fc.double({ min: 0, max: Math.PI, noNaN: true }), fc.boolean(), (target, axisOfQ, angle, w0, w1, limit, free) => {
      const { q, p } = chain();
      fc.pre(Math.hypot(target[0], target[1] - 1.6, target[2]) > 0.5 && Math.hypot(...axisOfQ) > 1e-3);
      for (let j = 0; j < 3; j++) quatFromAxisAngle(q, 4 * j, axisOfQ[0], axisOfQ[1], axisOfQ[2], angle * (j + 1) / 3);
      const before = Float64Array.from(q);
      const limits = free ? [Math.PI, Math.PI, Math.PI] : [limit, limit, limit];
      const left = aimChainIk(q, p, [0, 1, 2], [w0, w1, 1], limits, Z, 0, target, 0, 1);
      assert.ok(Number.isFinite(left));
      for (let j = 0; j < 3; j++) assert.ok(Math.abs(Math.hypot(q[4 * j]!, q[4 * j + 1]!, q[4 * j + 2]!, q[4 * j + 3]!) - 1) < 1e-9);
      if (free) assert.ok(left < 1e-6, String(left));
      // Each joint's own turn: total(j) · total(j − 1)⁻¹, where total(j) = new(j) · old(j)⁻¹.
      const total = new Float64Array(12), inv = new Float64Array(4), own = new Float64Array(4);
      for (let j = 0; j < 3; j++) {
        quatInvert(inv, 0, before, 4 * j);
        quatMultiply(total, 4 * j, q, 4 * j, inv, 0);
        if (j === 0) own.set(total.subarray(0, 4));
        else {
          quatInvert(inv, 0, total, 4 * (j - 1));
          quatMultiply(own, 0, total, 4 * j, inv, 0);
        }
        assert.ok(angleOf(own) <= limits[j]! + 1e-6, `joint ${j}: ${angleOf(own)} > ${limits[j]}`);
      }
    }),
  );
});

import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { twoBoneIk } from "../../src/ik/two-bone-ik.ts";
import { quatFromAxisAngle, quatInvert, quatMultiply, quatRotateVec3 } from "../../src/math/quat.ts";

/** Positions of hip, knee, ankle after applying the solved model rotations (relative to the old ones). */
function solvedChain(pos: Float64Array, rot: Float64Array, out: Float64Array): Float64Array {
  const p = new Float64Array(9);
  p.set(pos.subarray(0, 3));
  const rel = new Float64Array(4), inv = new Float64Array(4), v = new Float64Array(3);
  quatInvert(inv, 0, rot, 0);
  quatMultiply(rel, 0, out, 0, inv, 0);
  for (let c = 0; c < 3; c++) v[c] = pos[3 + c]! - pos[c]!;
  quatRotateVec3(v, 0, rel, 0, v, 0);
  for (let c = 0; c < 3; c++) p[3 + c] = p[c]! + v[c]!;
  quatInvert(inv, 0, rot, 4);
  quatMultiply(rel, 0, out, 4, inv, 0);
  for (let c = 0; c < 3; c++) v[c] = pos[6 + c]! - pos[3 + c]!;
  quatRotateVec3(v, 0, rel, 0, v, 0);
  for (let c = 0; c < 3; c++) p[6 + c] = p[3 + c]! + v[c]!;
  return p;
}

const identities = (): Float64Array => new Float64Array([0, 0, 0, 1, 0, 0, 0, 1]);

test("twoBoneIk, closed form: a straight unit leg reaching 1.6 down bends its knee 0.6 towards the pole", () => {
  const pos = new Float64Array([0, 0, 0, 0, -1, 0, 0, -2, 0]);
  const rot = identities();
  const out = new Float64Array(8);
  const left = twoBoneIk(out, 0, pos, 0, 3, 6, rot, 0, 4, [0, -1.6, 0], 0, [0, 0, 1], 0, 1);
  assert.ok(left < 1e-12, String(left));
  const p = solvedChain(pos, rot, out);
  // cos α = (1 + 1.6² − 1) / (2 · 1.6) = 0.8: the knee at (0, −0.8, +0.6), the ankle at the target.
  for (const [c, want] of [[3, 0], [4, -0.8], [5, 0.6], [6, 0], [7, -1.6], [8, 0]] as const) assert.ok(Math.abs(p[c]! - want) < 1e-12, `${c}: ${p[c]}`);
});

test("twoBoneIk, closed form: an unreachable target straightens the chain towards it; weight 0 changes nothing", () => {
  const pos = new Float64Array([0, 0, 0, 0.6, -0.8, 0, 0, -1.6, 0]);
  const rot = identities();
  const out = new Float64Array(8);
  const left = twoBoneIk(out, 0, pos, 0, 3, 6, rot, 0, 4, [3, 0, 0], 0, [0, 0, 1], 0, 1);
  assert.ok(Math.abs(left - 1) < 1e-6, String(left));
  const p = solvedChain(pos, rot, out);
  assert.ok(Math.abs(p[6]! - 2) < 1e-6 && Math.abs(p[7]!) < 1e-6, Array.from(p).join(","));
  twoBoneIk(out, 0, pos, 0, 3, 6, rot, 0, 4, [3, 0, 0], 0, [0, 0, 1], 0, 0);
  for (let c = 0; c < 8; c++) assert.ok(Math.abs(out[c]! - rot[c]!) < 1e-12);
});

test("twoBoneIk keeps the current bend plane (the knee keeps pointing where it did) and may write over its input", () => {
  const pos = new Float64Array([0, 0, 0, 0, -1, 0.2, 0, -1.9, 0]);
  const rot = new Float64Array(8);
  quatFromAxisAngle(rot, 0, 0, 1, 0, 0.3);
  quatFromAxisAngle(rot, 4, 1, 0, 0, -0.2);
  const expected = new Float64Array(8);
  twoBoneIk(expected, 0, pos, 0, 3, 6, rot, 0, 4, [0, -1.5, 0], 0, [0, 0, -1], 0, 1);
  const p = solvedChain(pos, rot, expected);
  assert.ok(p[5]! > 0.1, "the knee stays in front (z > 0) although the pole points back");
  assert.ok(Math.abs(p[3]!) < 1e-12, "…and in the plane x = 0");
  const inPlace = Float64Array.from(rot);
  twoBoneIk(inPlace, 0, pos, 0, 3, 6, inPlace, 0, 4, [0, -1.5, 0], 0, [0, 0, -1], 0, 1);
  assert.deepEqual(Array.from(inPlace), Array.from(expected));
});

test("twoBoneIk properties: bone lengths kept, unit rotations, a reachable target reached", () => {
  const v3 = fc.tuple(fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }), fc.double({ min: -2, max: 2, noNaN: true }));
  fc.assert(
    fc.property(v3, v3, v3, fc.double({ min: 0.05, max: 0.95, noNaN: true }), (knee, end, dir, reach) => {
      const pos = new Float64Array([0, 0, 0, ...knee, ...end]);
      const l1 = Math.hypot(...knee), l2 = Math.hypot(end[0] - knee[0], end[1] - knee[1], end[2] - knee[2]);
      const dl = Math.hypot(...dir);
      fc.pre(l1 > 0.1 && l2 > 0.1 && dl > 0.1);
      // A target at a reachable distance between |l1 − l2| and l1 + l2.
      const lo = Math.abs(l1 - l2), hi = l1 + l2;
      const d = lo + (hi - lo) * reach;
      const target = dir.map((x) => (x / dl) * d);
      const rot = identities();
      const out = new Float64Array(8);
      const left = twoBoneIk(out, 0, pos, 0, 3, 6, rot, 0, 4, target, 0, [0, 0, 1], 0, 1);
      const p = solvedChain(pos, rot, out);
      for (const o of [0, 4]) assert.ok(Math.abs(Math.hypot(out[o]!, out[o + 1]!, out[o + 2]!, out[o + 3]!) - 1) < 1e-9);
      assert.ok(Math.abs(Math.hypot(p[3]!, p[4]!, p[5]!) - l1) < 1e-9 * (1 + l1));
      assert.ok(Math.abs(Math.hypot(p[6]! - p[3]!, p[7]! - p[4]!, p[8]! - p[5]!) - l2) < 1e-9 * (1 + l2));
      assert.ok(left < 1e-7 * hi, String(left));
    }),
  );
});

const v3 = (r: number): fc.Arbitrary<[number, number, number]> =>
  fc.tuple(fc.double({ min: -r, max: r, noNaN: true }), fc.double({ min: -r, max: r, noNaN: true }), fc.double({ min: -r, max: r, noNaN: true }));

test("twoBoneIk reaches reachable targets within 1e-4 of the limb length, with any pole weight", () => {
  fc.assert(
    fc.property(v3(2), v3(2), v3(2), v3(1), fc.double({ min: 0.02, max: 0.98, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (knee, end, dir, pole, reach, poleWeight) => {
      const pos = new Float64Array([0, 0, 0, ...knee, ...end]);
      const l1 = Math.hypot(...knee), l2 = Math.hypot(end[0] - knee[0], end[1] - knee[1], end[2] - knee[2]);
      fc.pre(l1 > 0.1 && l2 > 0.1 && Math.hypot(...dir) > 0.1);
      const lo = Math.abs(l1 - l2), hi = l1 + l2;
      const d = lo + (hi - lo) * reach;
      const target = dir.map((x) => (x / Math.hypot(...dir)) * d);
      const out = new Float64Array(8);
      const rot = identities();
      const left = twoBoneIk(out, 0, pos, 0, 3, 6, rot, 0, 4, target, 0, pole, 0, 1, { poleWeight });
      const p = solvedChain(pos, rot, out);
      assert.ok(Math.hypot(p[6]! - target[0]!, p[7]! - target[1]!, p[8]! - target[2]!) < 1e-4 * hi);
      assert.ok(left < 1e-4 * hi);
      assert.ok(Math.abs(Math.hypot(p[3]!, p[4]!, p[5]!) - l1) < 1e-9 * (1 + l1));
    }),
  );
});

test("twoBoneIk clamps unreachable targets without NaN: the chain points at the target as far as it reaches", () => {
  fc.assert(
    fc.property(v3(2), v3(2), v3(3), v3(1), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 0.5, noNaN: true }), (knee, end, target, pole, poleWeight, softness) => {
      const pos = new Float64Array([0, 0, 0, ...knee, ...end]);
      const out = new Float64Array(8);
      const left = twoBoneIk(out, 0, pos, 0, 3, 6, identities(), 0, 4, target, 0, pole, 0, 1, { poleWeight, softness });
      assert.ok(out.every(Number.isFinite) && Number.isFinite(left), Array.from(out).join(","));
      for (const o of [0, 4]) assert.ok(Math.abs(Math.hypot(out[o]!, out[o + 1]!, out[o + 2]!, out[o + 3]!) - 1) < 1e-9);
      const l1 = Math.hypot(...knee), l2 = Math.hypot(end[0] - knee[0], end[1] - knee[1], end[2] - knee[2]);
      const d = Math.hypot(...target);
      if (l1 > 0.1 && l2 > 0.1 && d > l1 + l2) {
        const p = solvedChain(pos, identities(), out);
        const reach = Math.hypot(p[6]!, p[7]!, p[8]!);
        assert.ok(reach <= l1 + l2 + 1e-9, `${reach}`);
        if (softness === 0) assert.ok(Math.abs(left - (d - (l1 + l2))) < 1e-6 * d, `${left}`);
      }
    }),
  );
});

test("twoBoneIk pole weight 1: the knee swings into the plane of the hip, the target and the pole, on the pole's side", () => {
  // A leg bent sideways (knee towards +X) reaching straight down; the pole says forward (+Z).
  const pos = new Float64Array([0, 0, 0, 0.6, -0.8, 0, 0, -1.6, 0]);
  const out = new Float64Array(8);
  twoBoneIk(out, 0, pos, 0, 3, 6, identities(), 0, 4, [0, -1.6, 0], 0, [0, 0, 1], 0, 1, { poleWeight: 1 });
  const p = solvedChain(pos, identities(), out);
  for (const [c, want] of [[3, 0], [4, -0.8], [5, 0.6], [6, 0], [7, -1.6], [8, 0]] as const) assert.ok(Math.abs(p[c]! - want) < 1e-12, `${c}: ${p[c]}`);
  // Half the weight: half the swing (45° of 90° about the vertical).
  twoBoneIk(out, 0, pos, 0, 3, 6, identities(), 0, 4, [0, -1.6, 0], 0, [0, 0, 1], 0, 1, { poleWeight: 0.5 });
  const h = solvedChain(pos, identities(), out);
  assert.ok(Math.abs(Math.atan2(h[5]!, h[3]!) - Math.PI / 4) < 1e-12, `${h[3]}, ${h[5]}`);
});

test("twoBoneIk soft limit: the knee straightens smoothly as the target passes full reach (no pop), and is exact below the soft zone", () => {
  const pos = new Float64Array([0, 0, 0, 0.6, -0.8, 0, 0, -1.6, 0]);
  const out = new Float64Array(8);
  const kneeAngle = (target: number, softness: number): number => {
    twoBoneIk(out, 0, pos, 0, 3, 6, identities(), 0, 4, [0, -target, 0], 0, [0, 0, 1], 0, 1, { softness });
    const p = solvedChain(pos, identities(), out);
    const a = [p[3]!, p[4]!, p[5]!], b = [p[6]! - p[3]!, p[7]! - p[4]!, p[8]! - p[5]!];
    return Math.acos(Math.min(1, (a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]!) / (Math.hypot(...a) * Math.hypot(...b))));
  };
  // The target moves down at constant speed from 1.8 to 2.2 (full reach 2): the largest change of the knee
  // angle per step, hard against soft.
  const steps = 400;
  let hardJump = 0, softJump = 0;
  let prevHard = kneeAngle(1.8, 0), prevSoft = kneeAngle(1.8, 0.1);
  for (let i = 1; i <= steps; i++) {
    const t = 1.8 + (0.4 * i) / steps;
    const hard = kneeAngle(t, 0), soft = kneeAngle(t, 0.1);
    hardJump = Math.max(hardJump, Math.abs(hard - prevHard));
    softJump = Math.max(softJump, Math.abs(soft - prevSoft));
    prevHard = hard;
    prevSoft = soft;
  }
  // Hard IK's knee angle goes as √(L − d) near full reach: its last step is its biggest, several times the soft one's.
  assert.ok(softJump < hardJump / 3, `soft ${softJump} hard ${hardJump}`);
  // Below (1 − s)·L the soft limit changes nothing.
  const left = twoBoneIk(out, 0, pos, 0, 3, 6, identities(), 0, 4, [0, -1.7, 0], 0, [0, 0, 1], 0, 1, { softness: 0.1 });
  assert.ok(left < 1e-9, String(left));
});

import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { footPlacement, type GroundFunction } from "../../src/ik/foot-placement.ts";
import { CHANGED_POSITION, CHANGED_ROTATION, writeModelPose } from "../../src/ik/write-model-pose.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { quatRotateVec3 } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { modelFrames } from "../../src/retarget/model-frames.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

/** A plane through the origin rising `slope` per unit of x: height slope·x, normal (−slope, 1, 0)/‖·‖. */
function slopeGround(slope: number): GroundFunction {
  const n = Math.hypot(slope, 1);
  return (out, o, p, po) => {
    out[o] = slope * p[po]!;
    out[o + 1] = -slope / n;
    out[o + 2] = 1 / n;
    out[o + 3] = 0;
  };
}

/** Pelvis 0, then per side hip, knee, ankle (joints 1–3 left at x = +0.1, 4–6 right at x = −0.1). */
function biped(): { q: Float64Array; p: Float64Array; legs: number[] } {
  const q = new Float64Array(28);
  for (let j = 0; j < 7; j++) q[4 * j + 3] = 1;
  const p = new Float64Array([0, 1, 0, 0.1, 1, 0, 0.1, 0.55, 0.05, 0.1, 0.1, 0, -0.1, 1, 0, -0.1, 0.55, 0.05, -0.1, 0.1, 0]);
  return { q, p, legs: [1, 2, 3, 4, 5, 6] };
}

const dist = (p: Float64Array, a: number, b: number): number => Math.hypot(p[3 * a]! - p[3 * b]!, p[3 * a + 1]! - p[3 * b + 1]!, p[3 * a + 2]! - p[3 * b + 2]!);

test("footPlacement, closed form: on a slope of 0.5 the pelvis drops by the downhill foot's 5 cm, each ankle is lifted by its ground, bones keep their lengths", () => {
  const { q, p, legs } = biped();
  const before = Float64Array.from(p);
  const drop = footPlacement(q, p, 0, legs, slopeGround(0.5), 1, { softness: 0 });
  assert.ok(Math.abs(drop + 0.05) < 1e-12, String(drop));
  assert.ok(Math.abs(p[1]! - 0.95) < 1e-12);
  assert.ok(Math.abs(p[3 * 3 + 1]! - 0.15) < 1e-9 && Math.abs(p[3 * 6 + 1]! - 0.05) < 1e-9, `${p[10]} ${p[19]}`);
  for (const [a, b] of [[1, 2], [2, 3], [4, 5], [5, 6]]) assert.ok(Math.abs(dist(p, a!, b!) - dist(before, a!, b!)) < 1e-9);
  // The feet tilt onto the ground normal: their up axis is (−0.5, 1, 0)/‖·‖.
  const up = quatRotateVec3(new Float64Array(3), 0, q, 4 * 3, [0, 1, 0], 0);
  assert.ok(Math.abs(up[0]! + 0.5 / Math.hypot(0.5, 1)) < 1e-12 && Math.abs(up[1]! - 1 / Math.hypot(0.5, 1)) < 1e-12);
});

test("footPlacement: flat ground at the floor and weight 0 change nothing; maxPelvisDrop bounds the drop", () => {
  const { q, p, legs } = biped();
  const q0 = Float64Array.from(q), p0 = Float64Array.from(p);
  assert.equal(footPlacement(q, p, 0, legs, slopeGround(0), 1), 0);
  for (let i = 0; i < p.length; i++) assert.ok(Math.abs(p[i]! - p0[i]!) < 1e-12, `p[${i}] ${p[i]} ${p0[i]}`);
  for (let i = 0; i < q.length; i++) assert.ok(Math.abs(q[i]! - q0[i]!) < 1e-12, `q[${i}] ${q[i]} ${q0[i]}`);
  const p1 = Float64Array.from(p);
  assert.equal(footPlacement(q, p, 0, legs, slopeGround(0.5), 0), 0);
  assert.deepEqual(Array.from(p), Array.from(p1));
  assert.equal(footPlacement(q, p, 0, legs, slopeGround(0.5), 1, { maxPelvisDrop: 0.01 }), -0.01);
});

test("footPlacement with a ground absurdly far away (a trace that missed, a parameter at ±1e308, ±Infinity, NaN): finite unit rotations, positions within float32, bone lengths kept", () => {
  const flat = (height: number): GroundFunction => (out, o) => {
    out[o] = height;
    out[o + 1] = 0;
    out[o + 2] = 1;
    out[o + 3] = 0;
  };
  // Before the clamp a ground 1e100 below put the pelvis at −1e100, which the float32 pose stores as −Infinity.
  for (const height of [-1e308, -1e200, -1e155, -1e39, -1e9, 1e9, 1e39, 1e155, 1e308, -Infinity, Infinity, NaN]) {
    const { q, p, legs } = biped();
    const before = Float64Array.from(p);
    const drop = footPlacement(q, p, 0, legs, flat(height), 1);
    const leg = dist(before, 1, 2) + dist(before, 2, 3);
    assert.ok(Number.isFinite(drop) && Math.abs(drop) <= 1000 * leg + 1e-9, `${height}: drop ${drop}`);
    for (const v of p) assert.ok(Math.abs(v) < 3.4e38, `${height}: position ${v}`);
    for (let j = 0; j < 7; j++) assert.ok(Math.abs(Math.hypot(q[4 * j]!, q[4 * j + 1]!, q[4 * j + 2]!, q[4 * j + 3]!) - 1) < 1e-9, `${height}: rotation ${j}`);
    for (const [a, b] of [[1, 2], [2, 3], [4, 5], [5, 6]]) assert.ok(Math.abs(dist(p, a!, b!) - dist(before, a!, b!)) < 1e-9, `${height}: bone ${a}-${b}`);
  }
  // Within 1,000 leg lengths nothing is clamped: a ground 9 m (10 legs) below drops the pelvis exactly that far.
  const { q, p, legs } = biped();
  assert.ok(Math.abs(footPlacement(q, p, 0, legs, flat(-9), 1, { softness: 0 }) + 9) < 1e-12);
});

test("footPlacement properties: any slope and weight gives finite unit rotations and bone lengths kept", () => {
  fc.assert(
    fc.property(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 0.5, noNaN: true }), (slope, weight, softness) => {
      const { q, p, legs } = biped();
      const p0 = Float64Array.from(p);
      const drop = footPlacement(q, p, 0, legs, slopeGround(slope), weight, { softness });
      assert.ok(Number.isFinite(drop) && drop <= 0);
      assert.ok(p.every(Number.isFinite) && q.every(Number.isFinite));
      for (let j = 0; j < 7; j++) assert.ok(Math.abs(Math.hypot(q[4 * j]!, q[4 * j + 1]!, q[4 * j + 2]!, q[4 * j + 3]!) - 1) < 1e-9);
      for (const [a, b] of [[1, 2], [2, 3], [4, 5], [5, 6]]) assert.ok(Math.abs(dist(p, a!, b!) - dist(p0, a!, b!)) < 1e-9);
    }),
  );
});

test("footPlacement on a real capture (CMU 131_01, 8 s): on a 20 % slope every ankle keeps its animated height above the ground within 1e-4 of the leg, measured on the written-back local pose", { skip: !HAVE_SHARED_ASSETS }, () => {
  const { skeleton, clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(skeleton && clip);
  const J = skeleton.jointCount;
  const idx = (n: string): number => skeleton.indexOf.get(n)!;
  const legs = [idx("LeftHip"), idx("LeftKnee"), idx("LeftAnkle"), idx("RightHip"), idx("RightKnee"), idx("RightAnkle")];
  const pelvis = idx("Hips");
  const pose = createPose(J), cursor = createClipCursor(clip);
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), s = new Float64Array(J);
  const q2 = new Float64Array(4 * J), p2 = new Float64Array(3 * J), s2 = new Float64Array(J);
  const changed = new Uint8Array(J);
  changed[pelvis] = CHANGED_POSITION;
  for (const j of legs) changed[j] = CHANGED_ROTATION;
  modelFrames(q, p, s, skeleton, skeleton.rest);
  const leg = dist(p, legs[0]!, legs[1]!) + dist(p, legs[1]!, legs[2]!);
  const ground = slopeGround(0.2);
  const g = new Float64Array(4);
  let worst = 0, drops = 0;
  for (let f = 0; f < 240; f++) {
    sampleClip(pose, clip, (f / 240) * clip.duration, cursor);
    modelFrames(q, p, s, skeleton, pose);
    const want = [2, 5].map((k) => {
      const a = legs[k]!;
      ground(g, 0, p, 3 * a);
      return p[3 * a + 1]! + g[0]!; // the animated height above the floor (0), now above the slope
    });
    drops = Math.min(drops, footPlacement(q, p, pelvis, legs, ground, 1, { softness: 0 }));
    writeModelPose(pose, skeleton, q, p, s, changed);
    // Measured again from the local pose alone.
    modelFrames(q2, p2, s2, skeleton, pose);
    [2, 5].forEach((k, i) => {
      worst = Math.max(worst, Math.abs(p2[3 * legs[k]! + 1]! - want[i]!) / leg);
    });
  }
  assert.ok(worst < 1e-4, `worst ankle error ${worst} leg lengths`);
  assert.ok(drops < -0.01 * leg, `the pelvis dropped (${drops})`);
});

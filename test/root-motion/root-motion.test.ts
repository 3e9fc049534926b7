import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createClip } from "../../src/clip/clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { wrapTime } from "../../src/clip/wrap-time.ts";
import { quatFromAxisAngle, quatTwistAngle } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { blendRootMotion, createRootMotionExtractor, extractRootMotion, stripRootMotion } from "../../src/root-motion/root-motion.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

// A walk that travels 1.5 units along +Z per 1 s cycle with a vertical bob, on a root under a Z-up → Y-up
// parent (like Fox's b_Root_00, rotated −90° about X: the parent's +Z is the model's up).
const rest = createPose(2);
quatFromAxisAngle(rest.r, 0, 1, 0, 0, -Math.PI / 2);
const skeleton = createSkeleton({ names: ["armature", "hips"], parents: [-1, 0], rest });
// In the parent's space: model forward +Z is parent −Y; model up +Y is parent +Z.
const walk = createClip({
  name: "walk",
  skeleton,
  tracks: [{
    joint: 1, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, 0.5, 1]),
    values: new Float32Array([0, 0, 1, 0, -0.75, 1.1, 0, -1.5, 1]),
  }],
});

const near = (a: ArrayLike<number>, b: ArrayLike<number>, eps: number): void => {
  for (let i = 0; i < b.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= eps, `[${i}] ${a[i]} vs ${b[i]}`);
};

test("horizontal travel is extracted in model space; vertical bob stays in the pose", () => {
  const ex = createRootMotionExtractor(walk, 1);
  near(ex.upLocal, [0, 0, 1], 1e-7);
  const d = new Float64Array(4);
  extractRootMotion(d, ex, 0, 0.5, "loop");
  near(d, [0, 0, 0.75, 0], 1e-6);
  const keep = createRootMotionExtractor(walk, 1, { keepVertical: false });
  extractRootMotion(d, keep, 0, 0.5, "loop");
  near(d, [0, 0.1, 0.75, 0], 1e-6);
});

test("no jump across the loop: the delta over a wrap is (end − t0) + (t1 − start)", () => {
  const ex = createRootMotionExtractor(walk, 1);
  const d = new Float64Array(4);
  extractRootMotion(d, ex, 0.9, 1.1, "loop");
  near(d, [0, 0, 0.3, 0], 1e-6); // a naive T(wrap(1.1)) − T(0.9) would be −1.2
  extractRootMotion(d, ex, 0.25, 3.25, "loop");
  near(d, [0, 0, 4.5, 0], 1e-5);
  // Summing per-frame deltas equals one long delta.
  let sum = 0;
  for (let f = 0; f < 300; f++) {
    extractRootMotion(d, ex, f / 60, (f + 1) / 60, "loop");
    sum += d[2]!;
  }
  assert.ok(Math.abs(sum - 7.5) < 1e-4, `${sum}`);
  // Clamp stops at the end; reversed times give the inverse motion.
  extractRootMotion(d, ex, 0.9, 1.5, "clamp");
  near(d, [0, 0, 0.15, 0], 1e-6);
  extractRootMotion(d, ex, 0.5, 0.25, "loop");
  near(d, [0, 0, -0.375, 0], 1e-6);
  // Pingpong walks back on odd cycles.
  extractRootMotion(d, ex, 0.5, 1.5, "pingpong");
  near(d, [0, 0, 0, 0], 1e-6);
});

test("stripRootMotion keeps the character in place (horizontal reset to the start, vertical kept)", () => {
  const ex = createRootMotionExtractor(walk, 1);
  const p = createPose(2);
  const cursor = createClipCursor(walk);
  for (const t of [0, 0.3, 0.5, 0.99]) {
    sampleClip(p, walk, t, cursor);
    const z = p.t[5]!;
    stripRootMotion(p, ex);
    near(p.t.subarray(3, 5), [0, 0], 1e-7);
    assert.equal(p.t[5], z);
  }
});

test("yaw: a turning clip reports its turn and the travel in the frame at t0", () => {
  // A root that walks forward (+Z) while turning 90° about Y over 1 s (no parent rotation).
  const sk = createSkeleton({ names: ["root"], parents: [-1] });
  const rot = new Float32Array(8);
  quatFromAxisAngle(rot, 0, 0, 1, 0, 0);
  quatFromAxisAngle(rot, 4, 0, 1, 0, Math.PI / 2);
  const turn = createClip({
    name: "turn",
    skeleton: sk,
    tracks: [
      { joint: 0, path: "rotation", interpolation: "LINEAR", stride: 4, times: new Float32Array([0, 1]), values: rot },
      { joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, 0, 1]) },
    ],
  });
  const ex = createRootMotionExtractor(turn, 0);
  const d = new Float64Array(4);
  extractRootMotion(d, ex, 0, 1, "clamp");
  near(d, [1, 0, 1, Math.PI / 2], 1e-6);
  // The second half, seen from the frame at t0 = 0.5 (already turned 45°): the world step (0.5, 0, 0.5)
  // rotated by −45° about Y.
  extractRootMotion(d, ex, 0.5, 1, "clamp");
  near(d, [0, 0, Math.SQRT1_2, Math.PI / 4], 1e-6);
  // In place: yaw reset to the start.
  const p = createPose(1);
  sampleClip(p, turn, 0.7, createClipCursor(turn));
  stripRootMotion(p, ex);
  assert.ok(Math.abs(quatTwistAngle(p.r, 0, 0, 1, 0)) < 1e-6);
  near(p.t, [0, 0, 0], 1e-7);
});

test("blendRootMotion weights deltas like poses (normalised; non-contributing skipped)", () => {
  const out = new Float32Array(4);
  blendRootMotion(out, [new Float32Array([1, 0, 2, 0.1]), new Float32Array([3, 0, 4, 0.3])], [1, 3]);
  near(out, [2.5, 0, 3.5, 0.25], 1e-7);
  blendRootMotion(out, [new Float32Array([1, 0, 2, 0.1])], [0]);
  assert.deepEqual([...out], [0, 0, 0, 0]);
});

test("property: per-frame deltas of a looping clip sum to the long-range delta", () => {
  const ex = createRootMotionExtractor(walk, 1);
  const d = new Float64Array(4);
  fc.assert(
    fc.property(fc.double({ min: 0, max: 5, noNaN: true }), fc.integer({ min: 1, max: 60 }), fc.double({ min: 0.001, max: 0.2, noNaN: true }), (t0, frames, dt) => {
      let sum = 0;
      for (let f = 0; f < frames; f++) {
        extractRootMotion(d, ex, t0 + f * dt, t0 + (f + 1) * dt, "loop");
        sum += d[2]!;
      }
      extractRootMotion(d, ex, t0, t0 + frames * dt, "loop");
      assert.ok(Math.abs(sum - d[2]!) < 1e-4, `${sum} vs ${d[2]}`);
      assert.ok(wrapTime(t0, 1, "loop") < 1);
    }),
  );
});

test("an 8-entry delta also carries the turn as a model-space quaternion; pieces may turn more than 180°", () => {
  const sk = createSkeleton({ names: ["root"], parents: [-1] });
  const rot = new Float32Array(12);
  quatFromAxisAngle(rot, 0, 0, 1, 0, 0);
  quatFromAxisAngle(rot, 4, 0, 1, 0, 2);
  quatFromAxisAngle(rot, 8, 0, 1, 0, 4);
  const spin = createClip({ name: "spin", skeleton: sk, tracks: [{ joint: 0, path: "rotation", interpolation: "LINEAR", stride: 4, times: new Float32Array([0, 1, 2]), values: rot }] });
  const ex = createRootMotionExtractor(spin, 0);
  const d = new Float64Array(8);
  extractRootMotion(d, ex, 0, 2, "clamp");
  // 4 rad of turn is reported as 4 − 2π in (−π, π]; the quaternion is the exact 4 rad rotation.
  assert.ok(Math.abs(d[3]! - (4 - 2 * Math.PI)) < 1e-6, `${d[3]}`);
  const expected = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 4);
  const sign = Math.sign(d[7]! * expected[3]! + d[5]! * expected[1]!);
  near([d[4]! * sign, d[5]! * sign, d[6]! * sign, d[7]! * sign], expected, 1e-6);
});

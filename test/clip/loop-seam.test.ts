import { test } from "node:test";
import assert from "node:assert/strict";
import { createClip } from "../../src/clip/clip.ts";
import { isSeamlessLoop, measureLoopSeam } from "../../src/clip/loop-seam.ts";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

const rest = createPose(2);
rest.t.set([0, 0, 0, 0, 1, 0]);
const skeleton = createSkeleton({ names: ["root", "arm"], parents: [-1, 0], rest });
const rotations = (a0: number, a1: number, a2: number): Float32Array => {
  const v = new Float32Array(12);
  quatFromAxisAngle(v, 0, 1, 0, 0, a0);
  quatFromAxisAngle(v, 4, 1, 0, 0, a1);
  quatFromAxisAngle(v, 8, 1, 0, 0, a2);
  return v;
};
const times = new Float32Array([0, 0.5, 1]);

test("a cycle whose last key equals its first is seamless", () => {
  const clip = createClip({ name: "cycle", skeleton, tracks: [{ joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rotations(0.2, 1, 0.2) }] });
  const seam = measureLoopSeam(clip);
  assert.equal(seam.rotation, 0);
  assert.equal(seam.translation, 0);
  assert.ok(isSeamlessLoop(clip));
});

test("a one-shot (0.2 → 1.4 rad) reports its jump and is not seamless; ignoring the joint hides it", () => {
  const clip = createClip({
    name: "oneShot",
    skeleton,
    tracks: [
      { joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rotations(0.2, 1, 1.4) },
      { joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 0, 0, 2]) },
    ],
  });
  const seam = measureLoopSeam(clip);
  assert.ok(Math.abs(seam.rotation - 1.2) < 1e-6, `${seam.rotation}`);
  assert.equal(seam.worstJoint, 1);
  assert.equal(seam.translation, 2);
  assert.ok(!isSeamlessLoop(clip));
  assert.ok(!isSeamlessLoop(clip, { ignoreJoints: [1] })); // root still travels
  assert.ok(isSeamlessLoop(clip, { ignoreJoints: [0, 1] }));
  assert.ok(isSeamlessLoop(clip, { rotation: 1.3, translation: 2 }));
});

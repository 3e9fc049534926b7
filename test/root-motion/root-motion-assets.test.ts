// Root motion on the real clips: Fox's Walk moves b_Hip_01 (under b_Root_00, rotated −90° about X, so the
// parent's +Z is up) and RobotExpressive's Walking moves Body; both are authored in place, so a whole cycle
// travels nowhere and the per-frame deltas never jump at the loop.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { wrapTime } from "../../src/clip/wrap-time.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { quatTwistAngle } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createRootMotionExtractor, extractRootMotion, stripRootMotion } from "../../src/root-motion/root-motion.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS && "no assets";

for (const [file, clipName, jointName, expectedUp] of [
  ["fox/Fox.glb", "Walk", "b_Hip_01", [0, 0, 1]],
  ["robot-expressive/RobotExpressive.glb", "Walking", "Body", null],
] as const) {
  test(`${clipName}: ${jointName} carries the translation; a cycle nets zero, frames never jump, strip keeps it in place`, { skip }, async () => {
    const result = await loadGltfFile(sharedAsset(file));
    const clip = result.clips.find((c) => c.name === clipName)!;
    const joint = clip.skeleton.indexOf.get(jointName)!;
    const translationTracks = clip.tracks.filter((t) => t.path === "translation");
    assert.ok(translationTracks.some((t) => t.joint === joint));
    const ex = createRootMotionExtractor(clip, joint);
    if (expectedUp) for (let c = 0; c < 3; c++) assert.ok(Math.abs(ex.upLocal[c]! - expectedUp[c]!) < 1e-5);
    const d = new Float64Array(4);
    extractRootMotion(d, ex, 0.1, 0.1 + clip.duration, "loop");
    const scale = Math.max(1e-6, Math.hypot(...result.skeletons[0]!.rest.t.subarray(3 * joint, 3 * joint + 3)));
    assert.ok(Math.hypot(d[0]!, d[1]!, d[2]!) < 1e-4 * scale && Math.abs(d[3]!) < 1e-4, `cycle delta ${[...d]}`);
    // Per-frame deltas over three loops: no frame's step is larger than the largest in-cycle step.
    const fps = 60;
    let largest = 0;
    const steps: number[] = [];
    for (let f = 0; f < 3 * fps * clip.duration; f++) {
      extractRootMotion(d, ex, f / fps, (f + 1) / fps, "loop");
      steps.push(Math.hypot(d[0]!, d[2]!, d[1]!));
    }
    for (let f = 0; f < fps * clip.duration - 1; f++) largest = Math.max(largest, steps[f]!);
    assert.ok(Math.max(...steps) <= largest * 1.0001 + 1e-9, "a frame across the loop boundary jumps");
    // In place: the joint's horizontal position equals its start position at every frame; yaw too.
    const pose = createPose(clip.skeleton.jointCount);
    const cursor = createClipCursor(clip);
    const u = ex.upLocal;
    for (let f = 0; f < 40; f++) {
      sampleClip(pose, clip, wrapTime(f * 0.037, clip.duration, "loop"), cursor);
      stripRootMotion(pose, ex);
      const dx = pose.t[3 * joint]! - ex.startTranslation[0]!, dy = pose.t[3 * joint + 1]! - ex.startTranslation[1]!, dz = pose.t[3 * joint + 2]! - ex.startTranslation[2]!;
      const vertical = dx * u[0]! + dy * u[1]! + dz * u[2]!;
      assert.ok(Math.hypot(dx - vertical * u[0]!, dy - vertical * u[1]!, dz - vertical * u[2]!) < 1e-5 * scale + 1e-6);
      assert.ok(Math.abs(quatTwistAngle(pose.r, 4 * joint, u[0]!, u[1]!, u[2]!) - ex.startYaw) < 1e-5);
    }
  });
}

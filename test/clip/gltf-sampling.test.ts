// Sampling rules checked on the real glTF assets (RobotExpressive, Fox, CesiumMan, RiggedSimple).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import type { Clip } from "../../src/clip/clip.ts";
import { isSeamlessLoop, measureLoopSeam } from "../../src/clip/loop-seam.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { wrapTime } from "../../src/clip/wrap-time.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { quatAngleBetween, quatDot, quatLength } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS && "shared assets not present";

async function clipsOf(file: string, mergeAnimations = false): Promise<readonly Clip[]> {
  const result = await loadGltfFile(sharedAsset(file), { mergeAnimations });
  assert.ok(result.ok, `${file}: ${result.diagnostics.map((d) => d.message).join("; ")}`);
  return result.clips;
}

test("RobotExpressive Punch: UpperArm.R turns 124° between two keys; slerp keeps constant speed, nlerp is off by ~2e-2", { skip }, async () => {
  const punch = (await clipsOf("robot-expressive/RobotExpressive.glb")).find((c) => c.name === "Punch")!;
  const joint = punch.skeleton.indexOf.get("UpperArm.R")!;
  const track = punch.tracks[punch.trackIndex[3 * joint + 1]!]!;
  let k = 0, widest = 0;
  for (let i = 0; i + 1 < track.times.length; i++) {
    const a = quatAngleBetween(track.values, 4 * i, track.values, 4 * i + 4);
    if (a > widest) [widest, k] = [a, i];
  }
  assert.ok(Math.abs((widest * 180) / Math.PI - 124.3) < 0.1, `${(widest * 180) / Math.PI}°`);
  const slerped = createPose(punch.skeleton.jointCount), nlerped = createPose(punch.skeleton.jointCount);
  const t0 = track.times[k]!, t1 = track.times[k + 1]!;
  let maxDiff = 0;
  for (let i = 1; i < 20; i++) {
    const u = i / 20;
    sampleClip(slerped, punch, t0 + u * (t1 - t0), createClipCursor(punch));
    sampleClip(nlerped, punch, t0 + u * (t1 - t0), createClipCursor(punch), "nlerp");
    // Slerp: the angle travelled from key k is u × the whole step.
    assert.ok(Math.abs(quatAngleBetween(track.values, 4 * k, slerped.r, 4 * joint) - u * widest) < 1e-5);
    for (let c = 0; c < 4; c++) maxDiff = Math.max(maxDiff, Math.abs(slerped.r[4 * joint + c]! - nlerped.r[4 * joint + c]!));
  }
  assert.ok(maxDiff > 1.5e-2 && maxDiff < 2.5e-2, `slerp − nlerp ${maxDiff}`);
});

test("every clip of every asset, sampled at its key times, returns the keys bit for bit (forward and random order)", { skip }, async () => {
  const files: [string, boolean][] = [["robot-expressive/RobotExpressive.glb", false], ["fox/Fox.glb", false], ["rigged-simple/RiggedSimple.glb", false], ["cesium-man/CesiumMan.glb", true]];
  let checked = 0;
  for (const [file, merge] of files) {
    for (const clip of await clipsOf(file, merge)) {
      const out = createPose(clip.skeleton.jointCount);
      const forward = createClipCursor(clip);
      for (const track of clip.tracks) {
        const target = track.path === "rotation" ? out.r : track.path === "translation" ? out.t : out.s;
        const perKey = track.interpolation === "CUBICSPLINE" ? 3 * track.stride : track.stride;
        const shift = track.interpolation === "CUBICSPLINE" ? track.stride : 0;
        for (let k = 0; k < track.times.length; k++) {
          sampleClip(out, clip, track.times[k]!, k % 3 === 0 ? createClipCursor(clip) : forward);
          const o = track.stride * track.joint;
          const expected = track.values.subarray(perKey * k + shift, perKey * k + shift + track.stride);
          assert.deepEqual([...target.subarray(o, o + track.stride)], [...expected], `${file} ${clip.name} joint ${track.joint} ${track.path} key ${k}`);
          checked++;
        }
      }
    }
  }
  assert.ok(checked > 5000, `${checked} keys`);
});

test("RiggedSimple starts at 0.0417 s: before that the first key holds", { skip }, async () => {
  const [clip] = await clipsOf("rigged-simple/RiggedSimple.glb");
  assert.ok(clip && Math.abs(clip.startTime - 0.0417) < 1e-4);
  const atZero = createPose(clip.skeleton.jointCount), atStart = createPose(clip.skeleton.jointCount);
  sampleClip(atZero, clip, 0, createClipCursor(clip));
  sampleClip(atStart, clip, clip.startTime, createClipCursor(clip));
  assert.deepEqual(atZero, atStart);
});

test("keys in opposite hemispheres (Dance, Jump, Running): samples stay on the short arc and unit", { skip }, async () => {
  const clips = await clipsOf("robot-expressive/RobotExpressive.glb");
  let flips = 0;
  for (const clip of clips) {
    const out = createPose(clip.skeleton.jointCount);
    const cursor = createClipCursor(clip);
    for (const track of clip.tracks) {
      if (track.path !== "rotation") continue;
      for (let k = 0; k + 1 < track.times.length; k++) {
        if (quatDot(track.values, 4 * k, track.values, 4 * k + 4) >= 0) continue;
        flips++;
        const step = quatAngleBetween(track.values, 4 * k, track.values, 4 * k + 4);
        sampleClip(out, clip, (track.times[k]! + track.times[k + 1]!) / 2, cursor);
        const o = 4 * track.joint;
        assert.ok(Math.abs(quatLength(out.r, o) - 1) < 1e-6);
        const a = quatAngleBetween(track.values, 4 * k, out.r, o);
        const b = quatAngleBetween(out.r, o, track.values, 4 * k + 4);
        assert.ok(Math.abs(a - step / 2) < 1e-4 && Math.abs(b - step / 2) < 1e-4, `${clip.name} key ${k}: ${a} + ${b} vs ${step}`);
      }
    }
  }
  assert.ok(flips >= 10, `${flips} hemisphere flips`);
});

test("looping: seamless clips sample the same at t and t + duration; Death, Sitting, Standing and Dance are not seamless", { skip }, async () => {
  const clips = [...(await clipsOf("robot-expressive/RobotExpressive.glb")), ...(await clipsOf("fox/Fox.glb"))];
  const notSeamless = clips.filter((c) => !isSeamlessLoop(c)).map((c) => c.name).sort();
  assert.deepEqual(notSeamless, ["Dance", "Death", "Sitting", "Standing"]);
  assert.ok(measureLoopSeam(clips.find((c) => c.name === "Death")!).rotation > 1.5);
  for (const clip of clips.filter((c) => isSeamlessLoop(c))) {
    const a = createPose(clip.skeleton.jointCount), b = createPose(clip.skeleton.jointCount);
    const ca = createClipCursor(clip), cb = createClipCursor(clip);
    for (let i = 0; i <= 50; i++) {
      const t = (i / 50) * clip.duration;
      sampleClip(a, clip, wrapTime(t, clip.duration, "loop"), ca);
      sampleClip(b, clip, wrapTime(t + clip.duration, clip.duration, "loop"), cb);
      for (let j = 0; j < clip.skeleton.jointCount; j++) {
        assert.ok(quatAngleBetween(a.r, 4 * j, b.r, 4 * j) < 1e-3, `${clip.name} t=${t} joint ${j}`);
        for (let c = 0; c < 3; c++) assert.ok(Math.abs(a.t[3 * j + c]! - b.t[3 * j + c]!) < 1e-3);
      }
    }
  }
});

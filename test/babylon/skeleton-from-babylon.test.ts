import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { loadGltf } from "../../src/io/gltf/load-gltf.ts";
import { createPose } from "../../src/pose/pose.ts";
import { applyPoseToBabylon, bindBabylonSkeleton, clipFromBabylon, readPoseFromBabylon, skeletonFromBabylon } from "../../src/babylon/index.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { loadGltfWithBabylon } from "./babylon-gltf.ts";

const FILES = ["robot-expressive/RobotExpressive.glb", "fox/Fox.glb", "cesium-man/CesiumMan.glb", "rigged-simple/RiggedSimple.glb"];

test("skeletonFromBabylon rebuilds loadGltf's skeleton from Babylon's glTF skeleton: hierarchy, rest pose, inverse binds, node indices", { skip: !HAVE_SHARED_ASSETS }, async (t) => {
  for (const file of FILES) {
    const bytes = readFileSync(sharedAsset(file));
    const { container } = await loadGltfWithBabylon(bytes);
    const ag = await loadGltf(bytes, { fileName: file });
    assert.ok(ag.ok);
    const expected = ag.skeletons[0]!;
    const { skeleton, binding } = skeletonFromBabylon(container.skeletons[0]!);
    assert.equal(skeleton.jointCount, expected.jointCount, file);
    // Same joints (by glTF node), same parents, same names where the file names them.
    const ours = new Map<number, number>();
    skeleton.sourceIndex.forEach((node, j) => ours.set(node, j));
    let maxRest = 0, maxBind = 0;
    for (let e = 0; e < expected.jointCount; e++) {
      const j = ours.get(expected.sourceIndex[e]!);
      assert.ok(j !== undefined, `${file}: joint ${e} (node ${expected.sourceIndex[e]}) is in Babylon's skeleton`);
      const pe = expected.parents[e]!, pj = skeleton.parents[j]!;
      assert.equal(pj < 0 ? -1 : skeleton.sourceIndex[pj], pe < 0 ? -1 : expected.sourceIndex[pe], `${file}: parent of joint ${e}`);
      if (!expected.names[e]!.startsWith("#")) assert.equal(skeleton.names[j], expected.names[e]);
      for (let c = 0; c < 3; c++) {
        maxRest = Math.max(maxRest, Math.abs(skeleton.rest.t[3 * j + c]! - expected.rest.t[3 * e + c]!), Math.abs(skeleton.rest.s[3 * j + c]! - expected.rest.s[3 * e + c]!));
      }
      for (let c = 0; c < 4; c++) maxRest = Math.max(maxRest, Math.abs(skeleton.rest.r[4 * j + c]! - expected.rest.r[4 * e + c]!));
      // Babylon inverts the inverse bind matrix and back in doubles: equal up to float rounding, relative to the matrix's size.
      const scale = Math.max(1, ...expected.inverseBind.subarray(16 * e, 16 * e + 16).map(Math.abs));
      for (let c = 0; c < 16; c++) maxBind = Math.max(maxBind, Math.abs(skeleton.inverseBind[16 * j + c]! - expected.inverseBind[16 * e + c]!) / scale);
    }
    assert.ok(maxRest <= 1e-6, `${file}: rest pose differs by ${maxRest}`);
    assert.ok(maxBind <= 1e-5, `${file}: inverse bind matrices differ by ${maxBind} (relative)`);
    // The returned binding is the one bindBabylonSkeleton finds through the glTF node pointers.
    const { binding: bound } = bindBabylonSkeleton(skeleton, container.rootNodes[0] as TransformNode);
    assert.deepEqual(binding.nodes, bound.nodes);
    t.diagnostic(`${file}: ${skeleton.jointCount} joints, rest within ${maxRest.toExponential(1)}, inverse binds within ${maxBind.toExponential(1)} (relative)`);
  }
});

test("a scene-only workflow: skeletonFromBabylon + clipFromBabylon + applyPoseToBabylon reproduce Babylon's own playback (Fox Run)", { skip: !HAVE_SHARED_ASSETS }, async () => {
  const { container } = await loadGltfWithBabylon(readFileSync(sharedAsset("fox/Fox.glb")));
  const { skeleton, binding } = skeletonFromBabylon(container.skeletons[0]!);
  const group = container.animationGroups.find((g) => g.name === "Run")!;
  const { clip, diagnostics } = clipFromBabylon(group, skeleton, { binding });
  assert.deepEqual(diagnostics, []);
  const fps = group.targetedAnimations[0]!.animation.framePerSecond;
  const ours = createPose(skeleton.jointCount), theirs = createPose(skeleton.jointCount), back = createPose(skeleton.jointCount);
  const cursor = createClipCursor(clip);
  let max = 0;
  for (let k = 0; k < 50; k++) {
    const time = (k * clip.duration) / 50;
    group.start(false);
    group.goToFrame(time * fps);
    readPoseFromBabylon(theirs, binding);
    group.stop();
    sampleClip(ours, clip, time, cursor);
    applyPoseToBabylon(binding, ours);
    readPoseFromBabylon(back, binding);
    for (let i = 0; i < ours.t.length; i++) max = Math.max(max, Math.abs(back.t[i]! - theirs.t[i]!));
    for (let i = 0; i < ours.r.length; i++) max = Math.max(max, Math.min(Math.abs(back.r[i]! - theirs.r[i]!), Math.abs(back.r[i]! + theirs.r[i]!)));
  }
  assert.ok(max <= 1e-5, `${max}`);
});

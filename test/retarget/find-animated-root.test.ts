import { test } from "node:test";
import assert from "node:assert/strict";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { findAnimatedRoot } from "../../src/retarget/find-animated-root.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;

test("findAnimatedRoot: RobotExpressive's trajectory joint is Body (its clips animate it; Bone, the IK feet's parent, never)", { skip }, async () => {
  const robot = await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"));
  const sk = robot.skeletons[0]!;
  const at = (n: string): number => sk.indexOf.get(n)!;
  const anchors = [at("Hips"), at("UpperLeg.L"), at("UpperLeg.R"), at("Abdomen")];
  assert.equal(sk.names[findAnimatedRoot(sk, anchors, robot.clips)], "Body");
  // Without clips: the lowest common ancestor, Body as well; with the pelvis alone, the pelvis.
  assert.equal(sk.names[findAnimatedRoot(sk, anchors)], "Body");
  assert.equal(sk.names[findAnimatedRoot(sk, [at("Hips")])], "Hips");
  assert.equal(findAnimatedRoot(sk, []), -1);
});

test("findAnimatedRoot: Fox and CesiumMan carry their trajectory on the pelvis their own clips move", { skip }, async () => {
  const fox = await loadGltfFile(sharedAsset("fox/Fox.glb"));
  const sk = fox.skeletons[0]!;
  const at = (n: string): number => sk.indexOf.get(n)!;
  const root = findAnimatedRoot(sk, [at("b_Hip_01"), at("b_LeftLeg01_015"), at("b_RightLeg01_019"), at("b_Spine01_02")], fox.clips);
  assert.ok(["b_Hip_01", "b_Root_00"].includes(sk.names[root]!), sk.names[root]);
  const cesium = await loadGltfFile(sharedAsset("cesium-man/CesiumMan.glb"));
  const cs = cesium.skeletons[0]!;
  const c = (n: string): number => cs.indexOf.get(n)!;
  assert.equal(cs.names[findAnimatedRoot(cs, [c("#2"), c("#7"), c("#3"), c("#11")], cesium.clips)], "#2");
});

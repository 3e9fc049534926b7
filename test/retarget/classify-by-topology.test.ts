import { test } from "node:test";
import assert from "node:assert/strict";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { classifySkeleton } from "../../src/retarget/bone-roles.ts";
import { classifyByTopology, skeletonRoles } from "../../src/retarget/classify-by-topology.ts";
import { modelFrames } from "../../src/retarget/model-frames.ts";
import { proposeBoneMap } from "../../src/retarget/propose-bone-map.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { cpuClock } from "../helpers/cpu-clock.ts";

const skip = !HAVE_SHARED_ASSETS;

test("classifyByTopology finds CesiumMan's unnamed humanoid: pelvis, spine, neck, head, legs with toes, arms, sides by its facing", { skip }, async () => {
  const sk = (await loadGltfFile(sharedAsset("cesium-man/CesiumMan.glb"))).skeletons[0]!;
  const roles = classifyByTopology(sk);
  const name = (key: string): string | undefined => (roles.has(key) ? sk.names[roles.get(key)!] : undefined);
  assert.deepEqual(
    ["hips", "spine", "chest", "neck", "head", "upperLeg.L", "lowerLeg.L", "foot.L", "toes.L", "upperLeg.R", "lowerLeg.R", "foot.R", "toes.R", "upperArm.L", "lowerArm.L", "hand.L", "upperArm.R", "lowerArm.R", "hand.R"].map(name),
    ["#2", "#11", "#12", "#19", "#20", "#7", "#8", "#9", "#10", "#3", "#4", "#5", "#6", "#16", "#17", "#18", "#13", "#14", "#15"],
  );
  // The check on the geometry: CesiumMan stands along +Z with its toes ahead of its ankles along +X, so
  // its left (up × forward = +Z × +X) is +Y, and the joints called left are those with y > 0.
  const J = sk.jointCount;
  const p = new Float64Array(3 * J);
  modelFrames(new Float64Array(4 * J), p, new Float64Array(J), sk, sk.rest);
  const toe = roles.get("toes.L")!, ankle = roles.get("foot.L")!;
  assert.ok(p[3 * toe]! > p[3 * ankle]!, "toes ahead along +X");
  for (const [key, j] of roles) {
    if (key.endsWith(".L")) assert.ok(p[3 * j + 1]! > 0, key);
    if (key.endsWith(".R")) assert.ok(p[3 * j + 1]! < 0, key);
  }
});

test("skeletonRoles: names win where they give the hips and both legs (CMU, pirouette, RobotExpressive, Fox unchanged)", { skip }, async () => {
  for (const sk of [
    loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh")).skeleton!,
    loadBvh(sharedAsset("bvh-cmu-pirouette/pirouette.bvh")).skeleton!,
    (await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"))).skeletons[0]!,
    (await loadGltfFile(sharedAsset("fox/Fox.glb"))).skeletons[0]!,
  ]) {
    assert.deepEqual(skeletonRoles(sk), classifySkeleton(sk));
  }
  // On CMU 131 the topology alone agrees with the names on the legs, hips and arms.
  const cmu = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh")).skeleton!;
  const named = classifySkeleton(cmu), topo = classifyByTopology(cmu);
  for (const key of ["hips", "upperLeg.L", "lowerLeg.L", "foot.L", "toes.L", "upperLeg.R", "foot.R", "upperArm.L", "lowerArm.R", "hand.L"]) assert.equal(topo.get(key), named.get(key), key);
});

test("proposeBoneMap onto CesiumMan: every joint mapped from topology (confidence 0.6), left to left", { skip }, async () => {
  const cesium = (await loadGltfFile(sharedAsset("cesium-man/CesiumMan.glb"))).skeletons[0]!;
  const cmu = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh")).skeleton!;
  const map = proposeBoneMap(cmu, cesium);
  const pairs = new Map(map.entries.map((e) => [e.source, e]));
  for (const [source, target] of [["Hips", "#2"], ["LeftHip", "#7"], ["LeftAnkle", "#9"], ["RightToe", "#6"], ["LeftShoulder", "#16"], ["RightWrist", "#15"], ["Head", "#20"]] as const) {
    assert.equal(pairs.get(source)?.target, target, source);
    assert.equal(pairs.get(source)?.reason, "topology");
    assert.equal(pairs.get(source)?.confidence, 0.6);
  }
  assert.deepEqual(map.unmappedTarget, []);
});

test("classifyByTopology is linear: a 30,000-joint chain is classified (as nothing) at once; no pelvis, no roles", () => {
  const J = 30_000;
  const rest = createPose(J);
  for (let j = 1; j < J; j++) rest.t[3 * j + 1] = 0.01;
  const sk = createSkeleton({ names: Array.from({ length: J }, (_, j) => `#${j}`), parents: Int16Array.from({ length: J }, (_, j) => j - 1) as unknown as Int16Array, rest, inverseBind: new Float32Array(16 * J) });
  const cpuMs = cpuClock();
  assert.equal(classifyByTopology(sk).size, 0);
  assert.ok(cpuMs() < 2000, `${cpuMs()} ms of CPU`);
});

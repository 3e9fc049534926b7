import { test } from "node:test";
import assert from "node:assert/strict";
import { parseJsonText } from "../../src/json/index.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { classifyName, classifySkeleton, proposeBoneMap, readBoneMap, compileBoneMap } from "../../src/retarget/index.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;

test("bone names: aliases, sides from prefixes and suffixes, exporter prefixes", () => {
  const cases: [string, string, string | undefined][] = [
    ["Hips", "", "hips"], ["hip", "", "hips"], ["pelvis", "", "hips"], ["mixamorig:Hips", "", "hips"],
    ["LeftUpLeg", "L", "upperLeg"], ["UpperLeg.L", "L", "upperLeg"], ["thigh_l", "L", "upperLeg"], ["lThigh", "L", "upperLeg"],
    ["LeftHip", "L", "upperLeg"], ["RightHip", "R", "upperLeg"], ["L_Hip", "L", "upperLeg"],
    ["LeftLeg", "L", "lowerLeg"], ["LowerLeg.L", "L", "lowerLeg"], ["shin.R", "R", "lowerLeg"], ["LeftKnee", "L", "lowerLeg"], ["rShin", "R", "lowerLeg"],
    ["Spine", "", "spine"], ["abdomen", "", "spine"], ["lowerback", "", "spine"], ["Chest2", "", "upperChest"],
    ["LeftAnkle", "L", "foot"], ["Foot.R", "R", "foot"], ["LeftToeBase", "L", "toes"],
    ["mixamorig:LeftArm", "L", "upperArm"], ["rShldr", "R", "upperArm"], ["LeftElbow", "L", "lowerArm"], ["lForeArm", "L", "lowerArm"],
    ["LeftWrist", "L", "hand"], ["lhand", "L", "hand"], ["rhand", "R", "hand"], ["LeftCollar", "L", "clavicle"],
    ["LHipJoint", "L", "hipJoint"], ["rButtock", "R", "hipJoint"], ["RThumb", "R", "thumb1"], ["Thumb2.L", "L", "thumb2"], ["rMid1", "R", "middle1"],
    ["mixamorig:LeftHandIndex2", "L", "index2"], ["b_LeftLeg01_015", "L", "upperLeg"], ["b_RightForeArm_07", "R", "lowerArm"],
    ["Root", "", undefined], ["Bone", "", undefined], ["LFingers", "L", undefined], ["PoleTarget.L", "L", undefined],
  ];
  for (const [name, side, role] of cases) {
    const info = classifyName(name);
    assert.equal(info.side, side, name);
    assert.equal(info.role, role, name);
  }
});

test("classifySkeleton: 'shoulder' is the upper arm beside a collar bone, else the clavicle; duplicates go to the joint nearest the root", () => {
  const cmu = createSkeleton({ names: ["Hips", "LeftCollar", "LeftShoulder", "LeftWrist", "lhand"], parents: [-1, 0, 1, 2, 3] });
  const roles = classifySkeleton(cmu);
  assert.equal(roles.get("upperArm.L"), 2);
  assert.equal(roles.get("clavicle.L"), 1);
  assert.equal(roles.get("hand.L"), 3);
  const mixamo = createSkeleton({ names: ["Hips", "LeftShoulder", "LeftArm"], parents: [-1, 0, 1] });
  assert.equal(classifySkeleton(mixamo).get("clavicle.L"), 1);
  assert.equal(classifySkeleton(mixamo).get("upperArm.L"), 2);
});

test("proposeBoneMap follows a chain the names do not explain, with lower confidence", () => {
  const a = createSkeleton({ names: ["Hips", "Spine", "tailA", "tailB"], parents: [-1, 0, 0, 2] });
  const b = createSkeleton({ names: ["pelvis", "abdomen", "t1", "t2"], parents: [-1, 0, 0, 2] });
  const p = proposeBoneMap(a, b);
  const by = new Map(p.entries.map((e) => [e.target, e]));
  assert.equal(by.get("pelvis")?.source, "Hips");
  assert.equal(by.get("abdomen")?.source, "Spine");
  assert.equal(by.get("t1")?.source, "tailA");
  assert.equal(by.get("t1")?.reason, "hierarchy");
  assert.equal(by.get("t1")?.confidence, 0.4);
  assert.equal(by.get("t2")?.source, "tailB");
  assert.equal(by.get("t2")?.confidence, 0.2);
  assert.deepEqual(p.unmappedSource, []);
});

test("proposal 131_01 → RobotExpressive: legs, arms, spine and head, sides kept, IK helpers left out", { skip }, async () => {
  const walk = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh")).skeleton!;
  const robot = (await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"))).skeletons[0]!;
  const p = proposeBoneMap(walk, robot);
  const map = Object.fromEntries(p.entries.map((e) => [e.source, e.target]));
  assert.deepEqual(
    { Hips: map["Hips"], LeftHip: map["LeftHip"], LeftKnee: map["LeftKnee"], LeftAnkle: map["LeftAnkle"], RightHip: map["RightHip"], lowerback: map["lowerback"], Chest: map["Chest"], Head: map["Head"], LeftShoulder: map["LeftShoulder"], RightElbow: map["RightElbow"], LeftCollar: map["LeftCollar"] },
    { Hips: "Hips", LeftHip: "UpperLeg.L", LeftKnee: "LowerLeg.L", LeftAnkle: "Foot.L", RightHip: "UpperLeg.R", lowerback: "Abdomen", Chest: "Torso", Head: "Head", LeftShoulder: "UpperArm.L", RightElbow: "LowerArm.R", LeftCollar: "Shoulder.L" },
  );
  for (const e of p.entries) assert.ok(e.confidence > 0 && e.confidence <= 1);
  assert.equal(p.entries.find((e) => e.target === "Hips")?.confidence, 1);
  for (const helper of ["Bone", "PoleTarget.L", "PoleTarget.R", "Body"]) assert.ok(p.unmappedTarget.includes(helper), helper);
  assert.ok(p.unmappedSource.includes("LHipJoint"));
  assert.equal(p.entries.length + p.unmappedTarget.length, robot.jointCount);
});

test("proposal pirouette → 131 skeleton (BVH to BVH): both limb chains and the spine, never across sides", { skip }, () => {
  const pir = loadBvh(sharedAsset("bvh-cmu-pirouette/pirouette.bvh")).skeleton!;
  const walk = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh")).skeleton!;
  const p = proposeBoneMap(pir, walk);
  const map = Object.fromEntries(p.entries.map((e) => [e.source, e.target]));
  assert.equal(map["hip"], "Hips");
  for (const [s, t] of [["lThigh", "LeftHip"], ["lShin", "LeftKnee"], ["lFoot", "LeftAnkle"], ["rThigh", "RightHip"], ["rShin", "RightKnee"], ["rFoot", "RightAnkle"],
    ["lShldr", "LeftShoulder"], ["lForeArm", "LeftElbow"], ["lHand", "LeftWrist"], ["rShldr", "RightShoulder"], ["rCollar", "RightCollar"], ["abdomen", "lowerback"], ["chest", "Chest"], ["head", "Head"]]) {
    assert.equal(map[s!], t, s);
  }
  for (const e of p.entries) {
    const a = classifyName(e.source).side;
    const b = classifyName(e.target).side;
    assert.equal(a, b, `${e.source} → ${e.target}`);
  }
  const compiled = compileBoneMap(p, pir, walk);
  assert.deepEqual(compiled.diagnostics, []);
  // pirouette's bones are about 4× as long as CMU 131's (mean offsets 11 vs 2.7 in the asset notes).
  assert.ok(compiled.compiled!.rootMotionScale > 0.15 && compiled.compiled!.rootMotionScale < 0.5, String(compiled.compiled!.rootMotionScale));
});

const SRC = createSkeleton({ names: ["Hips", "LeftHip", "RightHip"], parents: [-1, 0, 0] });
const TGT = createSkeleton({ names: ["pelvis", "thigh_l", "thigh_r", "tail"], parents: [-1, 0, 0, 0] });

test("readBoneMap: flat form, rich form with auto fill and settings", () => {
  const flat = readBoneMap(parseJsonText(`{ "Hips": "pelvis", "LeftHip": "thigh_l" }`, "m.json"), SRC, TGT);
  assert.deepEqual(flat.diagnostics, []);
  assert.deepEqual(flat.map!.entries.map((e) => [e.source, e.target, e.reason]), [["Hips", "pelvis", "explicit"], ["LeftHip", "thigh_l", "explicit"]]);
  const rich = readBoneMap(parseJsonText(`{ "bones": { "Hips": "pelvis", "LeftHip": null }, "auto": true, "rootMotionScale": 0.5, "alignRest": false }`, "m.json"), SRC, TGT);
  assert.deepEqual(rich.diagnostics, []);
  assert.deepEqual(rich.map!.entries.map((e) => [e.source, e.target]), [["Hips", "pelvis"], ["RightHip", "thigh_r"]]);
  assert.deepEqual(rich.settings, { rootMotionScale: 0.5, alignRest: false });
});

test("readBoneMap: every mistake is a diagnostic at its JSON pointer and line", () => {
  const text = `{
  "bones": {
    "Hips": "pelvis",
    "Nope": "tail",
    "LeftHip": "missing",
    "RightHip": "pelvis"
  },
  "rootMotionScale": -1,
  "auto": "yes",
  "extra": 1
}`;
  const r = readBoneMap(parseJsonText(text, "m.json"), SRC, TGT);
  assert.equal(r.map, undefined);
  const got = r.diagnostics.map((d) => [d.code, d.pointer, d.line]);
  assert.deepEqual(got.sort(), [
    ["E_BONEMAP_DUPLICATE_TARGET", "/bones/RightHip", 6],
    ["E_BONEMAP_UNKNOWN_SOURCE", "/bones/Nope", 4],
    ["E_BONEMAP_UNKNOWN_TARGET", "/bones/LeftHip", 5],
    ["E_NOT_BOOLEAN", "/auto", 9],
    ["E_OUT_OF_RANGE", "/rootMotionScale", 8],
    ["W_BONEMAP_UNKNOWN_KEY", "/extra", 10],
  ].sort());
  for (const d of r.diagnostics) assert.equal(d.file, "m.json");
  const wrongType = readBoneMap(parseJsonText(`{ "Hips": 3 }`, "m.json"), SRC, TGT);
  assert.equal(wrongType.diagnostics[0]?.code, "E_WRONG_TYPE");
  assert.equal(wrongType.diagnostics[0]?.pointer, "/Hips");
});

test("compileBoneMap: typed arrays per target bone, and errors for a map naming unknown bones", () => {
  const { compiled, diagnostics } = compileBoneMap({ entries: [{ source: "Hips", target: "pelvis", confidence: 1, reason: "explicit" }] }, SRC, TGT);
  assert.ok(compiled);
  assert.ok(compiled.sourceOf instanceof Int16Array);
  assert.ok(compiled.ratio instanceof Float32Array);
  assert.deepEqual(Array.from(compiled.sourceOf), [0, -1, -1, -1]);
  assert.equal(compiled.rootTarget, 0);
  assert.equal(diagnostics[0]?.code, "W_RETARGET_NO_FRAME");
  const bad = compileBoneMap({ entries: [{ source: "X", target: "pelvis", confidence: 1, reason: "explicit" }, { source: "Hips", target: "Y", confidence: 1, reason: "explicit" }] }, SRC, TGT);
  assert.equal(bad.compiled, undefined);
  assert.deepEqual(bad.diagnostics.map((d) => [d.code, d.pointer]), [["E_BONEMAP_UNKNOWN_SOURCE", "/entries/0"], ["E_BONEMAP_UNKNOWN_TARGET", "/entries/1"]]);
});

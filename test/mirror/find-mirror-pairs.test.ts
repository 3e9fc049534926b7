import { test } from "node:test";
import assert from "node:assert/strict";
import { findMirrorPairs, sideMarkers, swapMarkerText } from "../../src/mirror/index.ts";

/** Names and the partner each must get ("" = on the plane), one convention per row. */
const CONVENTIONS: readonly (readonly [string, string])[] = [
  ["mixamorig:LeftUpLeg", "mixamorig:RightUpLeg"], ["mixamorig:LeftHandIndex1", "mixamorig:RightHandIndex1"],
  ["mixamorig1:LeftShoulder", "mixamorig1:RightShoulder"],
  ["Foot.L", "Foot.R"], ["PoleTarget.L", "PoleTarget.R"], ["thigh_l", "thigh_r"], ["calf_L", "calf_R"],
  ["L_Hand", "R_Hand"], ["Bip01 L Thigh", "Bip01 R Thigh"], ["hand-l", "hand-r"],
  ["LeftUpLeg", "RightUpLeg"], ["LHipJoint", "RHipJoint"], ["LFingers", "RFingers"], ["lCollar", "rCollar"],
  ["lhand", "rhand"], ["lhipjoint", "rhipjoint"], ["leftEye", "rightEye"], ["leftUpperArm", "rightUpperArm"],
  ["b_LeftLeg01_015", "b_RightLeg01_019"], ["upperLeft", "upperRight"], ["LEFT_ARM", "RIGHT_ARM"], ["HandL", "HandR"],
];
const ON_PLANE = ["Hips", "lowerback", "lowerneck", "Root", "ROOT", "LOD_Group", "RootNode", "Spine1", "cleft", "Bone.001", "#12", "rest"];

test("every naming convention pairs with its other side, and midline names stay on the plane", () => {
  const names = [...CONVENTIONS.flat(), ...ON_PLANE];
  const r = findMirrorPairs(names, undefined, { file: "rig" });
  assert.deepEqual(r.diagnostics, []);
  const partner = r.partner!;
  for (const [a, b] of CONVENTIONS) {
    assert.equal(names[partner[names.indexOf(a)]!], b, a);
    assert.equal(names[partner[names.indexOf(b)]!], a, b);
  }
  for (const n of ON_PLANE) assert.equal(partner[names.indexOf(n)], names.indexOf(n), n);
  assert.equal(r.pairs.length, CONVENTIONS.length);
});

test("side markers: strong where the name is unmistakable, weak where only an existing partner decides", () => {
  const strong = (n: string) => sideMarkers(n).filter((m) => m.strong).map((m) => n.slice(m.start, m.end));
  const weak = (n: string) => sideMarkers(n).filter((m) => !m.strong).map((m) => n.slice(m.start, m.end));
  assert.deepEqual(strong("mixamorig:LeftArm"), ["Left"]);
  assert.deepEqual(strong("Foot.L"), ["L"]);
  assert.deepEqual(strong("lThigh"), ["l"]);
  assert.deepEqual(strong("ROOT"), []);
  assert.deepEqual(strong("Leftover"), []);
  assert.deepEqual(weak("lhand"), ["l"]);
  assert.deepEqual(weak("lowerback"), ["l"]);
  assert.deepEqual(weak("HandR"), ["R"]);
  assert.equal(swapMarkerText("Left"), "Right");
  assert.equal(swapMarkerText("RIGHT"), "LEFT");
  assert.equal(swapMarkerText("l"), "r");
  assert.equal(swapMarkerText("R"), "L");
  assert.throws(() => swapMarkerText("x"), { name: "AnimgraphError", code: "ERR_INVALID_VALUE" });
});

test("a side name without its other side is E_MIRROR_UNPAIRED, naming the joint and the partner it looked for", () => {
  const r = findMirrorPairs(["Hips", "Eye.L", "Hand.L", "Hand.R"], [-1, 0, 0, 0], { file: "rig.glb" });
  assert.equal(r.partner, undefined);
  assert.equal(r.diagnostics.length, 1);
  const d = r.diagnostics[0]!;
  assert.equal(d.code, "E_MIRROR_UNPAIRED");
  assert.equal(d.file, "rig.glb");
  assert.match(d.message, /"Eye\.L".*no "Eye\.R"/);
});

test("an explicit self-pair keeps a one-sided joint on the plane; an explicit pair overrides the names", () => {
  const names = ["Hips", "Eye.L", "Hand_A", "Hand_B"];
  const r = findMirrorPairs(names, [-1, 0, 0, 0], { pairs: [["Eye.L", "Eye.L"], ["Hand_A", "Hand_B"]] });
  assert.deepEqual(r.diagnostics, []);
  assert.deepEqual(Array.from(r.partner!), [0, 1, 3, 2]);
  assert.deepEqual(r.pairs, [["Hand_A", "Hand_B"]]);
});

test("names that say both sides, or weak names with two candidate partners, are E_MIRROR_AMBIGUOUS", () => {
  const both = findMirrorPairs(["Hips", "Left_R"], [-1, 0]);
  assert.equal(both.diagnostics[0]?.code, "E_MIRROR_AMBIGUOUS");
  assert.match(both.diagnostics[0]!.message, /both sides/);
  // "lhandR": swapping the first letter gives "rhandR", the last gives "lhandL": both exist.
  const two = findMirrorPairs(["lhandR", "rhandR", "lhandL"], undefined);
  assert.ok(two.diagnostics.some((d) => d.code === "E_MIRROR_AMBIGUOUS"), JSON.stringify(two.diagnostics));
});

test("bad explicit pairs are reported at their JSON pointer in the pairs file", () => {
  const r = findMirrorPairs(["Hips", "A", "B"], [-1, 0, 0], {
    pairs: [["A", "B"], ["Ghost", "A"], ["B", "Hips"]], pairsFile: "pairs.json", pairsPointer: "/pairs",
  });
  const got = r.diagnostics.map((d) => `${d.file} ${d.pointer} ${d.code}`);
  assert.deepEqual(got, ["pairs.json /pairs/1/0 E_MIRROR_UNKNOWN_JOINT", "pairs.json /pairs/2 E_MIRROR_PAIR_TWICE"]);
});

test("paired joints whose parents are not mirror images are E_MIRROR_HIERARCHY", () => {
  // Hand.R hangs from Arm.L: the mirror of Hand.L's parent (Arm.L) is Arm.R, not Arm.L.
  const r = findMirrorPairs(["Hips", "Arm.L", "Arm.R", "Hand.L", "Hand.R"], [-1, 0, 0, 1, 1]);
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0]!.code, "E_MIRROR_HIERARCHY");
  assert.match(r.diagnostics[0]!.message, /"Hand\.L" and "Hand\.R"/);
});

test("detect: false pairs only what the pairs list says", () => {
  const r = findMirrorPairs(["Hips", "Foot.L", "Foot.R"], [-1, 0, 0], { detect: false });
  assert.deepEqual(Array.from(r.partner!), [0, 1, 2]);
  const withPairs = findMirrorPairs(["Hips", "Foot.L", "Foot.R"], [-1, 0, 0], { detect: false, pairs: [["Foot.L", "Foot.R"]] });
  assert.deepEqual(Array.from(withPairs.partner!), [0, 2, 1]);
});

test("a joint the names pair with one that the explicit pairs took is reported, not silently left unpaired", () => {
  const r = findMirrorPairs(["Hips", "Foot.L", "Foot.R", "Other"], [-1, 0, 0, 0], { pairs: [["Foot.R", "Other"]] });
  assert.equal(r.diagnostics[0]?.code, "E_MIRROR_UNPAIRED");
  assert.match(r.diagnostics[0]!.message, /"Foot\.L" would pair with "Foot\.R"/);
});

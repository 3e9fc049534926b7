import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { formatDiagnostic, type Diagnostic } from "../../../src/diagnostics/diagnostic.ts";
import { type GltfLoadResult } from "../../../src/io/gltf/load-gltf.ts";
import { loadGltfFile } from "../../../src/io/gltf/load-gltf-file.ts";
import { mergeClips } from "../../../src/io/gltf/merge-clips.ts";
import { buildRig, floatOffset, packGlb, unpackGlb, type Unpacked } from "./gltf-fixtures.ts";

const FILE = "rig.glb";

async function rig(): Promise<{ u: Unpacked; accessors: Record<string, number> }> {
  const { glb, accessors } = await buildRig();
  return { u: unpackGlb(glb), accessors };
}

async function loadU(u: Unpacked, options = {}): Promise<GltfLoadResult> {
  return loadGltfFile(packGlb(u), { fileName: FILE, ...options });
}

function codes(r: GltfLoadResult): string[] {
  return r.diagnostics.filter((d) => d.severity === "error").map((d) => d.code);
}

function only(r: GltfLoadResult, code: string): Diagnostic {
  const found = r.diagnostics.filter((d) => d.code === code);
  assert.equal(found.length, 1, `expected one ${code}, got ${JSON.stringify(r.diagnostics)}`);
  return found[0]!;
}

test("the valid rig: joints reordered parent-before-child with bind matrices remapped", async () => {
  const { u } = await rig();
  const r = await loadU(u);
  assert.equal(r.ok, true);
  const sk = r.skeletons[0]!;
  assert.deepEqual(sk.names, ["hips", "spine", "head"]);
  assert.deepEqual(Array.from(sk.parents), [-1, 0, 1]);
  assert.deepEqual(Array.from(sk.sourceIndex), [1, 2, 3]);
  // The skin listed head (y 1.9), hips (1), spine (1.5): each joint keeps its own bind matrix.
  assert.deepEqual([13, 29, 45].map((i) => Math.round(sk.inverseBind[i]! * 10) / 10), [-1, -1.5, -1.9]);
  assert.equal(only(r, "I_GLTF_JOINTS_REORDERED").severity, "info");
  // The Armature's 90° turn about X is the root transform, outside the skeleton.
  assert.ok(Math.abs(r.rootTransform[6]! - 1) < 1e-6, "rootTransform rotates Y to Z");
  assert.deepEqual(Array.from(sk.rest.r.subarray(0, 4)), [0, 0, 0, 1]);
});

test("LINEAR, STEP and CUBICSPLINE tracks keep glTF's layout; normalized SHORT rotations are dequantised", async () => {
  const { u } = await rig();
  const r = await loadU(u);
  const clip = r.clips[0]!;
  assert.equal(clip.name, "move");
  const track = (joint: number, path: string) => clip.tracks[clip.trackIndex[3 * joint + ["translation", "rotation", "scale"].indexOf(path)]!]!;
  assert.equal(track(0, "translation").interpolation, "LINEAR");
  assert.deepEqual(Array.from(track(0, "translation").values), [0, 1, 0, 0.5, 1, 0, 1, 1, 0]);
  assert.equal(track(1, "rotation").interpolation, "STEP");
  const head = track(2, "rotation");
  assert.equal(head.interpolation, "CUBICSPLINE");
  assert.equal(head.values.length, 2 * 3 * 4);
  assert.deepEqual(Array.from(head.values.subarray(8, 12)), [Math.fround(0.1), 0, 0, 0], "out-tangent kept, not normalized");
  assert.equal(clip.startTime, 0);
  assert.equal(clip.duration, 1.25);
  const hipsR = track(0, "rotation");
  assert.deepEqual(Array.from(hipsR.values.subarray(0, 4)), [0, 0, 0, 1]);
  // 23170 / 32767 = 0.70711 on y and w, renormalized to unit length.
  assert.ok(Math.abs(hipsR.values[5]! - Math.SQRT1_2) < 1e-6 && Math.abs(hipsR.values[7]! - Math.SQRT1_2) < 1e-6, `got ${hipsR.values}`);
});

test("morph weights become a FloatTrack; a channel on a non-joint node is reported, not silently dropped", async () => {
  const { u } = await rig();
  const r = await loadU(u);
  const clip = r.clips[0]!;
  assert.equal(clip.floatTracks.length, 1);
  const w = clip.floatTracks[0]!;
  assert.deepEqual([w.target, w.node, w.count, Array.from(w.values)], ["face", 5, 2, [0, 1, 1, 0.5]]);
  assert.deepEqual(r.morphTargets, [{ node: 5, name: "face", mesh: 0, count: 2, names: ["t0", "t1"] }], "target names from extras.targetNames");
  delete u.json.meshes[0].extras;
  assert.deepEqual((await loadU(u)).morphTargets[0]!.names, ["#0", "#1"], "generated names without extras.targetNames");
  const d = only(r, "W_GLTF_CHANNEL_NOT_JOINT");
  assert.equal(d.pointer, "/animations/0/channels/4");
  assert.match(d.message, /"prop"/);
});

test("non-ascending key times: an error naming the file and channel; the other channels still load", async () => {
  const { u, accessors } = await rig();
  new DataView(u.bin.buffer).setFloat32(floatOffset(u, accessors["t3"]!, 2), 0.25, true);
  const r = await loadU(u);
  assert.equal(r.ok, false);
  // Channels 0 and 1 share the broken input.
  assert.deepEqual(codes(r), ["E_GLTF_KEY_TIMES", "E_GLTF_KEY_TIMES"]);
  const d = r.diagnostics.find((x) => x.code === "E_GLTF_KEY_TIMES")!;
  assert.equal(d.pointer, "/animations/0/channels/0");
  assert.match(formatDiagnostic(d), /^rig\.glb: \/animations\/0\/channels\/0: key times are not ascending: key 2 \(0\.25 s\) is not after key 1 \(0\.5 s\) .*\[E_GLTF_KEY_TIMES\]$/);
  assert.equal(r.clips[0]!.tracks.length, 2, "head rotation and hips rotation remain");
});

test("NaN and infinite values are errors on their channel", async () => {
  const { u, accessors } = await rig();
  const dv = new DataView(u.bin.buffer);
  dv.setFloat32(floatOffset(u, accessors["hipsT"]!, 1, 1), NaN, true);
  dv.setFloat32(floatOffset(u, accessors["faceW"]!, 2), Infinity, true);
  const r = await loadU(u);
  assert.deepEqual(codes(r), ["E_GLTF_NONFINITE", "E_GLTF_NONFINITE"]);
  assert.deepEqual(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.pointer), ["/animations/0/channels/0", "/animations/0/channels/5"]);
  assert.equal(r.clips[0]!.floatTracks.length, 0);
});

test("NaN in an inverse bind matrix and a zero-length rotation key are errors", async () => {
  const { u, accessors } = await rig();
  const dv = new DataView(u.bin.buffer);
  dv.setFloat32(floatOffset(u, accessors["ibm"]!, 0, 5), NaN, true);
  for (let k = 0; k < 4; k++) dv.setFloat32(floatOffset(u, accessors["spineR"]!, 1, k), 0, true);
  const r = await loadU(u);
  assert.deepEqual(codes(r).sort(), ["E_GLTF_NONFINITE", "E_GLTF_NONFINITE"]);
  assert.ok(r.diagnostics.some((d) => d.pointer === "/skins/0/inverseBindMatrices"), "names the skin");
  assert.ok(r.diagnostics.some((d) => /rotation key 1 has zero length/.test(d.message)), "names the key");
});

test("an accessor past the end of its buffer view rejects the file with E_GLTF_RANGE", async () => {
  const { u, accessors } = await rig();
  u.json.accessors[accessors["hipsT"]!].count = 1000;
  const r = await loadU(u);
  assert.equal(r.ok, false);
  assert.deepEqual(r.skeletons, []);
  const d = only(r, "E_GLTF_RANGE");
  assert.equal(d.pointer, `/accessors/${accessors["hipsT"]}`);
});

test("a buffer view past the end of the buffer, and a buffer longer than its data", async () => {
  const { u } = await rig();
  u.json.bufferViews[0].byteLength += 4096;
  assert.equal(only(await loadU(u), "E_GLTF_RANGE").pointer, "/bufferViews/0");
  const second = await rig();
  second.u.json.buffers[0].byteLength += 4096;
  assert.equal(only(await loadU(second.u), "E_GLTF_RANGE").pointer, "/buffers/0");
});

test("a channel naming a missing node or sampler, a skin naming a missing joint", async () => {
  const { u } = await rig();
  u.json.animations[0].channels[2].target.node = 99;
  u.json.animations[0].channels[3].sampler = 42;
  u.json.skins[0].joints[1] = 77;
  const r = await loadU(u);
  assert.deepEqual(r.diagnostics.map((d) => [d.code, d.pointer]), [
    ["E_GLTF_REF", "/skins/0/joints/1"],
    ["E_GLTF_REF", "/animations/0/channels/2/target/node"],
    ["E_GLTF_REF", "/animations/0/channels/3/sampler"],
  ]);
});

test("input/output counts that do not match, and wrong accessor types", async () => {
  const { u, accessors } = await rig();
  u.json.animations[0].samplers[0].output = accessors["hipsR"]; // 2 VEC4 (normalized) values for a translation
  u.json.animations[0].samplers[1].output = accessors["hipsT"]; // VEC3 for a rotation
  u.json.animations[0].samplers[3].input = accessors["t3"]; // 3 times, 2 values
  const r = await loadU(u);
  assert.deepEqual(r.diagnostics.filter((d) => d.severity === "error").map((d) => [d.code, d.pointer]), [
    ["E_GLTF_ACCESSOR_TYPE", "/animations/0/samplers/0/output"],
    ["E_GLTF_ACCESSOR_TYPE", "/animations/0/samplers/1/output"],
    ["E_GLTF_SAMPLER_COUNT", "/animations/0/channels/3"],
  ]);
});

test("morph weights whose count does not match the mesh's targets", async () => {
  const { u, accessors } = await rig();
  u.json.animations[0].samplers[5].output = accessors["hipsT"];
  u.json.accessors[accessors["hipsT"]!].type = "SCALAR"; // 9 floats over 2 keys: not a whole number per key
  const r = await loadU(u);
  assert.ok(codes(r).includes("E_GLTF_SAMPLER_COUNT"), JSON.stringify(r.diagnostics));
});

test("truncated GLBs, garbage and empty input are diagnostics, never exceptions", async () => {
  const { glb } = await buildRig();
  for (const cut of [0, 3, 11, 12, 19, 20, 100, glb.length - 1]) {
    const r = await loadGltfFile(glb.subarray(0, cut), { fileName: FILE });
    assert.equal(r.ok, false, `cut at ${cut}`);
    assert.ok(r.diagnostics.length > 0 && r.diagnostics.every((d) => d.file === FILE), `cut at ${cut}`);
    assert.ok(["E_GLB_TRUNCATED", "E_GLTF_READ"].includes(r.diagnostics[0]!.code), `cut at ${cut}: ${r.diagnostics[0]!.code}`);
  }
  assert.equal((await loadGltfFile(glb.subarray(0, 100), { fileName: FILE })).diagnostics[0]!.code, "E_GLB_TRUNCATED");
  assert.equal((await loadGltfFile(new TextEncoder().encode("not json"), { fileName: "x.gltf" })).diagnostics[0]!.code, "E_GLTF_READ");
  assert.equal((await loadGltfFile(new TextEncoder().encode('{"asset":{"version":"1.0"}}'))).diagnostics[0]!.pointer, "/asset/version");
  const missing = await loadGltfFile(join(tmpdir(), "no-such-dir-animgraph", "x.glb"));
  assert.match(formatDiagnostic(missing.diagnostics[0]!), /x\.glb: no such file \[E_FILE_NOT_FOUND\]$/);
});

test("node cycles and nodes with two parents are E_GLTF_HIERARCHY", async () => {
  const { u } = await rig();
  u.json.nodes[3].children = [4, 1];
  const r = await loadU(u);
  assert.ok(codes(r).includes("E_GLTF_HIERARCHY"), JSON.stringify(r.diagnostics));
});

test("matrix joints are decomposed; a sheared matrix is a warning; non-finite TRS is an error", async () => {
  const { u } = await rig();
  delete u.json.nodes[2].translation;
  u.json.nodes[2].matrix = [2, 0, 0, 0, 0, 0, 3, 0, 0, -4, 0, 0, 1, 2, 3, 1]; // scale (2, 3, 4), 90° about X
  const r = await loadU(u);
  assert.equal(r.ok, true);
  const sk = r.skeletons[0]!;
  assert.deepEqual(Array.from(sk.rest.t.subarray(3, 6)), [1, 2, 3]);
  assert.deepEqual(Array.from(sk.rest.s.subarray(3, 6)).map((v) => Math.round(v * 1e6) / 1e6), [2, 3, 4]);
  assert.ok(Math.abs(Math.abs(sk.rest.r[4]!) - Math.SQRT1_2) < 1e-6, "rotation about X");

  u.json.nodes[2].matrix = [1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]; // shear
  assert.equal(only(await loadU(u), "W_GLTF_MATRIX_NOT_TRS").pointer, "/nodes/2/matrix");

  const bad = await rig();
  bad.u.json.nodes[1].translation = [0, 12345, 0];
  // JSON text "1e999" parses as Infinity.
  const infinite = await loadGltfFile(packGlb(bad.u, (text) => text.replace("12345", "1e999")), { fileName: FILE });
  assert.equal(only(infinite, "E_GLTF_NONFINITE").pointer, "/nodes/1/translation");
});

test("mergeAnimations merges split animations; a repeated joint/path is a warning", async () => {
  const { u } = await rig();
  const anim = u.json.animations[0];
  u.json.animations = [
    { samplers: anim.samplers, channels: [anim.channels[0], anim.channels[1]] },
    { samplers: anim.samplers, channels: [anim.channels[2], anim.channels[0]] },
  ];
  const separate = await loadU(u);
  assert.deepEqual(separate.clips.map((c) => c.name), ["#0", "#1"]);
  const merged = await loadU(u, { mergeAnimations: true });
  assert.equal(merged.clips.length, 1);
  assert.equal(merged.clips[0]!.name, "rig");
  assert.equal(merged.clips[0]!.tracks.length, 3);
  assert.equal(only(merged, "W_GLTF_DUPLICATE_CHANNEL").pointer, "/animations/1/channels/1");
  const named = await loadU(u, { mergeAnimations: true, mergedClipName: "walk" });
  assert.equal(named.clips[0]!.name, "walk");
});

test("a .gltf JSON file with an external .bin loads from a path; missing .bin is an error", async () => {
  const { u } = await rig();
  const dir = mkdtempSync(join(tmpdir(), "animgraph-gltf-"));
  u.json.buffers[0].uri = "rig.bin";
  writeFileSync(join(dir, "rig.gltf"), JSON.stringify(u.json));
  writeFileSync(join(dir, "rig.bin"), u.bin);
  const r = await loadGltfFile(join(dir, "rig.gltf"));
  assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
  assert.equal(r.clips[0]!.tracks.length, 4);
  u.json.buffers[0].uri = "missing.bin";
  writeFileSync(join(dir, "broken.gltf"), JSON.stringify(u.json));
  const broken = await loadGltfFile(join(dir, "broken.gltf"));
  assert.equal(only(broken, "E_GLTF_READ").pointer, "/buffers/0/uri");
  // Embedded data: URIs work from bytes.
  u.json.buffers[0].uri = `data:application/octet-stream;base64,${Buffer.from(u.bin).toString("base64")}`;
  const embedded = await loadGltfFile(new TextEncoder().encode(JSON.stringify(u.json)), { fileName: "rig.gltf" });
  assert.equal(embedded.ok, true, JSON.stringify(embedded.diagnostics));
});

test("a file without skins: all nodes form the skeleton, so node animations still load", async () => {
  const { u } = await rig();
  delete u.json.skins;
  delete u.json.nodes[5].skin;
  const r = await loadU(u);
  assert.equal(r.ok, true);
  assert.equal(only(r, "I_GLTF_NO_SKIN").severity, "info");
  assert.equal(r.skeletons[0]!.jointCount, 6);
  assert.equal(r.clips[0]!.tracks.length, 5, "prop's channel now targets a joint");
});

test("a JSON chunk padded with NUL bytes instead of spaces still loads", async () => {
  const { u } = await rig();
  const r = await loadGltfFile(packGlb(u, (text) => `${text}\u0000\u0000\u0000`), { fileName: FILE });
  assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
});

test("mergeClips refuses clips of different skeletons (a programmer error)", async () => {
  const { u } = await rig();
  const a = await loadU(u);
  const b = await loadU(u);
  assert.throws(() => mergeClips("x", [a.clips[0]!, b.clips[0]!]), { name: "AnimgraphError", code: "ERR_SKELETON_MISMATCH" });
  assert.throws(() => mergeClips("x", []), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE" });
});

test("skins sharing a joint set give one skeleton (bind matrices compared per joint); other sets give another", async () => {
  const { u, accessors } = await rig();
  // Same joints in another order, reusing the first skin's matrices: they now belong to other joints.
  u.json.skins.push({ joints: [1, 2, 3], inverseBindMatrices: accessors["ibm"] });
  const shared = await loadU(u);
  assert.deepEqual(shared.skeletonSkins, [[0, 1]]);
  assert.equal(only(shared, "W_GLTF_SKIN_BIND_DIFFERS").pointer, "/skins/1");
  u.json.skins[1] = { joints: [3, 1, 2], inverseBindMatrices: accessors["ibm"] };
  assert.equal((await loadU(u)).diagnostics.some((d) => d.code === "W_GLTF_SKIN_BIND_DIFFERS"), false, "same matrices: no warning");

  u.json.skins[1] = { joints: [4] };
  const two = await loadU(u);
  assert.deepEqual(two.skeletons.map((s) => s.names), [["hips", "spine", "head"], ["prop"]]);
  assert.equal(two.clips[0]!.skeleton, two.skeletons[0], "bound to the skeleton with most of its joints");
  assert.equal(only(two, "W_GLTF_CHANNEL_NOT_JOINT").pointer, "/animations/0/channels/4");
  // prop sits under head: its root transform is the world matrix of head (y = 1 + 0.5 + 0.4, rotated by Armature).
  assert.ok(Math.abs(two.rootTransforms[1]![14]! - 1.9) < 1e-6, `${two.rootTransforms[1]}`);
});

test("a non-joint node between two joints is reported (its transform is not part of the skeleton)", async () => {
  const { u } = await rig();
  u.json.skins[0].joints = [1, 3];
  const r = await loadU(u);
  assert.deepEqual(r.skeletons[0]!.names, ["hips", "head"]);
  assert.deepEqual(Array.from(r.skeletons[0]!.parents), [-1, 0]);
  assert.equal(only(r, "W_GLTF_JOINT_GAP").pointer, "/nodes/3");
});

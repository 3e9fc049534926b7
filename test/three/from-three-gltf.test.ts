// fromThreeGltf must give exactly what loadGltf gives on the same file: same joints, rest poses,
// bind matrices, root transforms and clips, bit for bit, so a three.js app can skip the second parse.
// In Node, GLTFLoader gets the GLB with its textures stripped (no image decoding here); the JSON is
// re-serialised by that, which turns RiggedSimple's `-0` rotations into `0`, so the comparison is with
// loadGltf on those same bytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { fromThreeGltf } from "../../src/three/index.ts";
import { loadGltf, type GltfLoadResult } from "../../src/index.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";
import { glbWithoutTextures, loadGltfWithThree } from "./three-gltf.ts";

const CHARACTERS = [
  { label: "examples/robot/RobotExpressive.glb", path: repoPath("examples/robot/RobotExpressive.glb") },
  ...(HAVE_SHARED_ASSETS ? ["robot-expressive/RobotExpressive.glb", "fox/Fox.glb", "cesium-man/CesiumMan.glb", "rigged-simple/RiggedSimple.glb"]
    .map((a) => ({ label: a, path: sharedAsset(a) })) : []),
];

const bytesOf = (a: ArrayBufferView): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

function assertSameLoad(three: GltfLoadResult, ours: GltfLoadResult, label: string): void {
  assert.equal(three.ok, ours.ok, label);
  assert.equal(three.skeletons.length, ours.skeletons.length, `${label}: skeleton count`);
  three.skeletons.forEach((s, i) => {
    const o = ours.skeletons[i]!;
    assert.deepEqual(s.names, o.names, `${label}: names`);
    assert.deepEqual([...s.parents], [...o.parents], `${label}: parents`);
    assert.deepEqual([...s.sourceIndex], [...o.sourceIndex], `${label}: node indices`);
    for (const key of ["t", "r", "s"] as const) assert.ok(bytesOf(s.rest[key]).equals(bytesOf(o.rest[key])), `${label}: rest ${key}`);
    assert.ok(bytesOf(s.inverseBind).equals(bytesOf(o.inverseBind)), `${label}: inverse bind matrices`);
    assert.ok(bytesOf(three.rootTransforms[i]!).equals(bytesOf(ours.rootTransforms[i]!)), `${label}: root transform`);
  });
  assert.deepEqual(three.clipSources, ours.clipSources, `${label}: clip sources`);
  assert.equal(three.clips.length, ours.clips.length);
  three.clips.forEach((c, i) => {
    const o = ours.clips[i]!;
    assert.equal(c.name, o.name);
    assert.equal(c.duration, o.duration, `${label}/${c.name}: duration`);
    assert.equal(c.tracks.length, o.tracks.length, `${label}/${c.name}: track count`);
    c.tracks.forEach((t, k) => {
      const u = o.tracks[k]!;
      assert.deepEqual([t.joint, t.path, t.interpolation, t.stride], [u.joint, u.path, u.interpolation, u.stride]);
      assert.ok(bytesOf(t.times).equals(bytesOf(u.times)) && bytesOf(t.values).equals(bytesOf(u.values)), `${label}/${c.name}: track ${k}`);
    });
    assert.equal(c.floatTracks.length, o.floatTracks.length);
    c.floatTracks.forEach((t, k) => assert.ok(bytesOf(t.values).equals(bytesOf(o.floatTracks[k]!.values)), `${label}/${c.name}: float track ${k}`));
  });
  assert.deepEqual(three.diagnostics.filter((d) => d.code !== "E_THREE_UNBOUND_JOINT").map((d) => d.code), ours.diagnostics.map((d) => d.code), `${label}: diagnostics`);
}

for (const { label, path } of CHARACTERS) {
  test(`fromThreeGltf(${label}) equals loadGltf bit for bit, and binds every joint by node index`, async () => {
    const gltf = await loadGltfWithThree(path);
    const three = await fromThreeGltf(gltf, { fileName: label });
    const ours = await loadGltf(new Uint8Array(glbWithoutTextures(readFileSync(path))), { fileName: label });
    assertSameLoad(three, ours, label);
    assert.equal((await loadGltfFile(path)).clips.length, three.clips.length);
    assert.equal(three.bindings.length, three.skeletons.length);
    three.bindings.forEach((b, s) => {
      assert.equal(b.skeleton, three.skeletons[s]);
      for (let j = 0; j < b.skeleton.jointCount; j++) {
        const object = b.objects[b.objectOfJoint[j]!];
        assert.equal(gltf.parser.associations.get(object!)?.nodes, b.skeleton.sourceIndex[j], `${label}: joint ${j} bound to its own node`);
      }
    });
    assert.ok(!three.diagnostics.some((d) => d.code === "E_THREE_UNBOUND_JOINT"), `${label}: every joint bound`);
  });
}

test("fromThreeGltf merges animations as loadGltf does (CesiumMan's one-animation-per-joint file)", { skip: !HAVE_SHARED_ASSETS }, async () => {
  const path = sharedAsset("cesium-man/CesiumMan.glb");
  const three = await fromThreeGltf(await loadGltfWithThree(path), { mergeAnimations: true });
  const ours = await loadGltf(new Uint8Array(glbWithoutTextures(readFileSync(path))), { mergeAnimations: true, fileName: "<three>" });
  assertSameLoad(three, ours, "CesiumMan merged");
});

test("fromThreeGltf reads a .gltf with an embedded data: buffer through GLTFLoader's own buffer loading", async () => {
  const glb = new Uint8Array(glbWithoutTextures(readFileSync(repoPath("examples/robot/RobotExpressive.glb"))));
  const dv = new DataView(glb.buffer);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(glb.subarray(20, 20 + jsonLength))) as { buffers: { uri?: string; byteLength: number }[] };
  const binLength = dv.getUint32(20 + jsonLength, true);
  const bin = glb.subarray(28 + jsonLength, 28 + jsonLength + binLength);
  json.buffers[0]!.uri = `data:application/octet-stream;base64,${Buffer.from(bin).toString("base64")}`;
  const text = JSON.stringify(json);
  // three's FileLoader (used for data: URIs) reports progress with ProgressEvent, which Node lacks.
  const g = globalThis as { ProgressEvent?: unknown };
  g.ProgressEvent ??= class extends Event {
    constructor(type: string, readonly init: object = {}) { super(type); }
  };
  const gltf = await new GLTFLoader().parseAsync(text, "");
  const three = await fromThreeGltf(gltf);
  const ours = await loadGltf(new TextEncoder().encode(text), { fileName: "<three>" });
  assertSameLoad(three, ours, "RobotExpressive as .gltf");
  assert.ok(three.ok && three.clips.length === 14);
});

test("fromThreeGltf on a result without glTF JSON is a diagnostic, not a throw", async () => {
  const { Group } = await import("three");
  const r = await fromThreeGltf({ scene: new Group(), parser: { json: null, associations: new Map(), getDependency: () => Promise.resolve(undefined) } });
  assert.equal(r.ok, false);
  assert.equal(r.diagnostics[0]?.code, "E_GLTF_READ");
  assert.equal(r.binding, undefined);
});

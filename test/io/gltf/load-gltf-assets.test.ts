import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { type GltfLoadResult } from "../../../src/io/gltf/load-gltf.ts";
import { loadGltfFile } from "../../../src/io/gltf/load-gltf-file.ts";
import { mergeClips } from "../../../src/io/gltf/merge-clips.ts";
import { mat4Identity, mat4Invert, mat4MaxDifference, mat4Multiply } from "../../../src/math/mat4.ts";
import { localToModel, modelToLocal } from "../../../src/pose/local-to-model.ts";
import { createPose } from "../../../src/pose/pose.ts";
import { createClipCursor, sampleClip } from "../../../src/clip/index.ts";
import type { Skeleton } from "../../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../../helpers/assets.ts";
import { rawAccessorFloats, readRawGlb } from "./raw-glb.ts";

const skip = HAVE_SHARED_ASSETS ? false : "shared assets not present";
const FILES = {
  robot: "robot-expressive/RobotExpressive.glb",
  fox: "fox/Fox.glb",
  cesium: "cesium-man/CesiumMan.glb",
  rigged: "rigged-simple/RiggedSimple.glb",
} as const;

const cache = new Map<string, Promise<GltfLoadResult>>();
function load(file: string, merge = false): Promise<GltfLoadResult> {
  const key = `${file}:${merge}`;
  if (!cache.has(key)) cache.set(key, loadGltfFile(sharedAsset(file), { mergeAnimations: merge, fileName: file }));
  return cache.get(key)!;
}

const IDENTITY = mat4Identity(new Float32Array(16));

/** `value < limit`, with both in the message (a bare assert.ok would print neither). */
function below(value: number, limit: number, label = "value"): void {
  if (!(value < limit)) assert.fail(`${label}: ${value} is not below ${limit}`);
}

/** max over joints of |bindShape⁻¹ × model[j] × inverseBind[j] − I|. */
function bindDeviation(sk: Skeleton, model: Float32Array, bindShape: Float32Array, joints?: readonly number[]): number {
  const inv = new Float32Array(16);
  assert.equal(mat4Invert(inv, 0, bindShape, 0), true);
  const m = new Float32Array(16);
  let worst = 0;
  for (const j of joints ?? sk.names.map((_, i) => i)) {
    mat4Multiply(m, 0, model, 16 * j, sk.inverseBind, 16 * j);
    mat4Multiply(m, 0, inv, 0, m, 0);
    worst = Math.max(worst, mat4MaxDifference(m, 0, IDENTITY, 0));
  }
  return worst;
}

test("RobotExpressive: 14 clips, one 43-joint skeleton from its 2 skins, morph weights kept", { skip }, async () => {
  const r = await load(FILES.robot);
  assert.equal(r.ok, true, JSON.stringify(r.diagnostics));
  assert.equal(r.skeletons.length, 1);
  assert.equal(r.skeletons[0]!.jointCount, 43);
  assert.deepEqual(r.skeletonSkins, [[0, 1]]);
  const channels: Record<string, number> = {
    Dance: 12, Death: 18, Idle: 7, Jump: 18, No: 7, Punch: 15, Running: 18, Sitting: 10, Standing: 10,
    ThumbsUp: 15, Walking: 20, WalkJump: 18, Wave: 18, Yes: 7,
  };
  assert.deepEqual(r.clips.map((c) => c.name), Object.keys(channels));
  for (const clip of r.clips) {
    assert.equal(clip.tracks.length + clip.floatTracks.length, channels[clip.name], clip.name);
    assert.equal(clip.floatTracks.length, 1);
    const w = clip.floatTracks[0]!;
    assert.equal(w.target, "Head");
    assert.equal(w.node, 13);
    assert.equal(w.count, 3);
    assert.equal(w.values.length, 3 * w.times.length);
  }
  below(Math.abs(r.clips[0]!.duration - 3.3333), 1e-3);
  assert.deepEqual(r.morphTargets, [{ node: 13, name: "Head", mesh: 2, count: 3, names: ["Angry", "Surprised", "Sad"] }]);
  // The ×100 armature scale sits above the root joint.
  below(Math.abs(Math.hypot(r.rootTransform[0]!, r.rootTransform[1]!, r.rootTransform[2]!) - 100), 1e-3);
});

test("Fox: 3 clips of 21 channels on a 24-joint skeleton", { skip }, async () => {
  const r = await load(FILES.fox);
  assert.equal(r.ok, true);
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.skeletons[0]!.jointCount, 24);
  assert.deepEqual(r.clips.map((c) => [c.name, Math.round(c.duration * 1e4) / 1e4, c.tracks.length]), [
    ["Survey", 3.4167, 21], ["Walk", 0.7083, 21], ["Run", 1.1583, 21],
  ]);
  assert.equal(r.skeletons[0]!.names[0], "_rootJoint");
});

test("CesiumMan: unnamed joints get #<node> names; 19 one-joint clips, or one merged clip", { skip }, async () => {
  const r = await load(FILES.cesium);
  assert.equal(r.ok, true);
  const sk = r.skeletons[0]!;
  assert.equal(sk.jointCount, 19);
  assert.deepEqual(sk.names.slice(0, 3), ["#2", "#11", "#12"]);
  assert.equal(r.clips.length, 19);
  assert.deepEqual(new Set(r.clips.map((c) => c.tracks.length)), new Set([3]));
  assert.equal(new Set(r.clips.map((c) => c.tracks[0]!.joint)).size, 19, "each clip drives a different joint");
  // Node 0's Z-up → Y-up matrix is the root transform.
  below(mat4MaxDifference(r.rootTransform, 0, [1, 0, 0, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1], 0), 1e-7);

  const merged = await load(FILES.cesium, true);
  assert.equal(merged.clips.length, 1);
  const clip = merged.clips[0]!;
  assert.equal(clip.name, "CesiumMan");
  assert.equal(clip.tracks.length, 57);
  assert.equal(clip.duration, 2);
  assert.deepEqual(merged.clipSources[0], Array.from({ length: 19 }, (_, i) => i));
  // mergeClips on the separate clips gives the same tracks and drops nothing.
  const { clip: again, dropped } = mergeClips("walk", r.clips);
  assert.deepEqual(dropped, []);
  assert.deepEqual(again.tracks.map((t) => [t.joint, t.path]), clip.tracks.map((t) => [t.joint, t.path]));
  const twice = mergeClips("walk", [r.clips[0]!, r.clips[0]!]);
  assert.equal(twice.dropped.length, 3, "a repeated joint/path is reported, not silently dropped");
});

test("CesiumMan in world space stands upright (Y-up after the root transform)", { skip }, async () => {
  const r = await load(FILES.cesium);
  const sk = r.skeletons[0]!;
  const world = localToModel(new Float32Array(16 * sk.jointCount), sk, sk.rest, r.rootTransform);
  const ys = sk.names.map((_, j) => world[16 * j + 13]!);
  const xs = sk.names.map((_, j) => world[16 * j + 12]!);
  assert.ok(Math.max(...ys) > 1.1 && Math.min(...ys) < 0.05, "head above 1.1 m, feet near the ground along +Y");
  assert.ok(Math.max(...xs) - Math.min(...xs) < 0.2, "thin front to back (arms spread along Z)");
});

test("RiggedSimple: first key at 0.0417 s, matrix joints decomposed into TRS", { skip }, async () => {
  const r = await load(FILES.rigged);
  assert.equal(r.ok, true);
  const sk = r.skeletons[0]!;
  assert.deepEqual(sk.names, ["Bone", "Bone.001"]);
  assert.equal(r.clips.length, 1);
  const clip = r.clips[0]!;
  assert.equal(clip.name, "#0");
  below(Math.abs(clip.startTime - 0.0417), 1e-4);
  below(Math.abs(clip.duration - 2.0833), 1e-4);
  // Bone's matrix is a pure translation (0, -1.36e-7, -4.18).
  below(Math.abs(sk.rest.t[2]! + 4.18033), 1e-5);
  assert.deepEqual(Array.from(sk.rest.r.subarray(0, 4)), [0, 0, 0, 1]);
  assert.deepEqual(Array.from(sk.rest.s.subarray(0, 3)), [1, 1, 1]);
});

test("joints are parent-before-child and sourceIndex maps to the glTF node whose nearest joint ancestor is the parent", { skip }, async () => {
  for (const file of Object.values(FILES)) {
    const r = await load(file);
    const { json } = readRawGlb(sharedAsset(file));
    const parentNode = new Map<number, number>();
    json.nodes.forEach((n: { children?: number[] }, i: number) => (n.children ?? []).forEach((c) => parentNode.set(c, i)));
    for (const sk of r.skeletons) {
      const joints = new Set(sk.sourceIndex);
      for (let j = 0; j < sk.jointCount; j++) {
        const p = sk.parents[j]!;
        assert.ok(p < j, `${file}: joint ${j} before its parent`);
        let n = parentNode.get(sk.sourceIndex[j]!);
        while (n !== undefined && !joints.has(n)) n = parentNode.get(n);
        assert.equal(p === -1 ? undefined : sk.sourceIndex[p], n, `${file}: parent of joint ${sk.names[j]}`);
        const name = json.nodes[sk.sourceIndex[j]!].name;
        assert.equal(sk.names[j], name ?? `#${sk.sourceIndex[j]}`);
      }
      // Inverse bind matrices follow their joints through any reordering.
      const skinJoints: number[] = json.skins[0].joints;
      const ibm = rawAccessorFloats(readRawGlb(sharedAsset(file)), json.skins[0].inverseBindMatrices);
      skinJoints.forEach((node, k) => {
        const j = sk.sourceIndex.indexOf(node);
        assert.deepEqual(Array.from(sk.inverseBind.subarray(16 * j, 16 * j + 16)), Array.from(Float32Array.from(ibm.slice(16 * k, 16 * k + 16))));
      });
    }
  }
});

test("every track's key times and values equal the file's accessor data", { skip }, async () => {
  let compared = 0;
  for (const file of Object.values(FILES)) {
    const r = await load(file);
    const glb = readRawGlb(sharedAsset(file));
    r.clips.forEach((clip, c) => {
      const anims = r.clipSources[c]!.map((a) => glb.json.animations[a]);
      const find = (node: number, path: string) => {
        for (const anim of anims) {
          const ch = anim.channels.find((x: { target: { node: number; path: string } }) => x.target.node === node && x.target.path === path);
          if (ch) return anim.samplers[ch.sampler];
        }
        return undefined;
      };
      for (const track of clip.tracks) {
        const sampler = find(clip.skeleton.sourceIndex[track.joint]!, track.path);
        assert.ok(sampler, `${file} ${clip.name}: no channel for ${track.path} of ${clip.skeleton.names[track.joint]}`);
        assert.equal(track.interpolation, sampler.interpolation ?? "LINEAR");
        assert.deepEqual(Array.from(track.times), Array.from(Float32Array.from(rawAccessorFloats(glb, sampler.input))));
        const raw = rawAccessorFloats(glb, sampler.output);
        assert.equal(track.values.length, raw.length);
        if (track.path === "rotation") {
          // Rotations are renormalized on load; the file's are unit to float precision.
          for (let i = 0; i < raw.length; i++) below(Math.abs(track.values[i]! - raw[i]!), 1e-5);
        } else {
          assert.deepEqual(Array.from(track.values), Array.from(Float32Array.from(raw)));
        }
        compared++;
      }
      for (const ft of clip.floatTracks) {
        const sampler = find(ft.node, "weights");
        assert.deepEqual(Array.from(ft.values), Array.from(Float32Array.from(rawAccessorFloats(glb, sampler.output))));
        compared++;
      }
    });
  }
  // Robot 193 + Fox 63 + CesiumMan 57 + RiggedSimple 3 channels.
  assert.equal(compared, 193 + 63 + 57 + 3);
});

test("rest model × inverse bind = bind shape (identity for Fox and CesiumMan) for every joint", { skip }, async () => {
  for (const file of [FILES.fox, FILES.cesium, FILES.rigged]) {
    const r = await load(file);
    const sk = r.skeletons[0]!;
    assert.deepEqual(r.restNotBind, [[]], file);
    const model = localToModel(new Float32Array(16 * sk.jointCount), sk, sk.rest);
    below(bindDeviation(sk, model, r.bindShapes[0]!), 1e-4, file);
    if (file !== FILES.rigged) below(mat4MaxDifference(r.bindShapes[0]!, 0, IDENTITY, 0), 1e-4, file);
  }
  // RiggedSimple's bind matrices also undo its Armature node's 90° turn about Z.
  const rigged = await load(FILES.rigged);
  below(mat4MaxDifference(rigged.bindShapes[0]!, 0, [0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], 0), 1e-4);
});

test("RobotExpressive: the node rest pose is not its bind pose; the bind pose rebuilt from the bind matrices is consistent", { skip }, async () => {
  const r = await load(FILES.robot);
  const sk = r.skeletons[0]!;
  const differing = r.restNotBind[0]!;
  assert.equal(differing.length, 40);
  assert.deepEqual(sk.names.filter((_, j) => !differing.includes(j)), ["Bone", "Foot.L", "Foot.R"]);
  assert.equal(r.diagnostics.some((d) => d.code === "I_GLTF_REST_NOT_BIND" && d.severity === "info"), true);
  const model = localToModel(new Float32Array(16 * sk.jointCount), sk, sk.rest);
  const agreeing = sk.names.map((_, j) => j).filter((j) => !differing.includes(j));
  below(bindDeviation(sk, model, r.bindShapes[0]!, agreeing), 1e-4);
  // Bind pose: model = bindShape × inverseBind⁻¹, back to local TRS, forward again.
  const bindModel = new Float32Array(16 * sk.jointCount);
  for (let j = 0; j < sk.jointCount; j++) {
    assert.equal(mat4Invert(bindModel, 16 * j, sk.inverseBind, 16 * j), true);
    mat4Multiply(bindModel, 16 * j, r.bindShapes[0]!, 0, bindModel, 16 * j);
  }
  const bindPose = createPose(sk.jointCount);
  assert.equal(modelToLocal(bindPose, sk, bindModel), true);
  const again = localToModel(new Float32Array(16 * sk.jointCount), sk, bindPose);
  below(bindDeviation(sk, again, r.bindShapes[0]!), 1e-4);
});

test("bytes load like the path, and name the given file in diagnostics", { skip }, async () => {
  const bytes = new Uint8Array(readFileSync(sharedAsset(FILES.fox)));
  const r = await loadGltfFile(bytes, { fileName: "fox-bytes.glb" });
  assert.equal(r.ok, true);
  assert.equal(r.file, "fox-bytes.glb");
  assert.equal(r.clips.length, 3);
  const truncated = await loadGltfFile(bytes.subarray(0, 1000), { fileName: "fox-bytes.glb" });
  assert.equal(truncated.ok, false);
  assert.equal(truncated.diagnostics[0]!.file, "fox-bytes.glb");
});

test("loaded clips play through sampleClip: at a key time the pose is that key, untracked joints hold the rest pose", { skip }, async () => {
  for (const [file, name] of [[FILES.fox, "Walk"], [FILES.robot, "Walking"], [FILES.rigged, "#0"]] as const) {
    const r = await load(file);
    const clip = r.clips.find((c) => c.name === name)!;
    const sk = clip.skeleton;
    const pose = createPose(sk.jointCount);
    const cursor = createClipCursor(clip);
    for (const track of clip.tracks) {
      for (const k of [0, Math.floor(track.times.length / 2), track.times.length - 1]) {
        sampleClip(pose, clip, track.times[k]!, cursor);
        const n = track.stride;
        const got = (track.path === "translation" ? pose.t : track.path === "rotation" ? pose.r : pose.s).subarray(n * track.joint, n * track.joint + n);
        const want = track.values.subarray(n * k, n * k + n);
        if (track.path === "rotation") {
          const dot = got.reduce((s, v, i) => s + v * want[i]!, 0);
          below(1 - Math.abs(dot), 1e-5, `${file} ${name} ${sk.names[track.joint]} rotation key ${k}`);
        } else {
          for (let i = 0; i < n; i++) below(Math.abs(got[i]! - want[i]!), 1e-5, `${file} ${name} ${sk.names[track.joint]} ${track.path} key ${k}`);
        }
      }
    }
    sampleClip(pose, clip, clip.duration / 3, cursor);
    for (let j = 0; j < sk.jointCount; j++) {
      if (clip.trackIndex[3 * j + 1] === -1) assert.deepEqual(Array.from(pose.r.subarray(4 * j, 4 * j + 4)), Array.from(sk.rest.r.subarray(4 * j, 4 * j + 4)));
    }
  }
});

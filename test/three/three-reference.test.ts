// three.js as an independent reference: for every clip of the bundled glTF files, animgraph's loader
// + sampler must reproduce what three's GLTFLoader + AnimationMixer put on the same bones.
import { test } from "node:test";
import assert from "node:assert/strict";
import { AnimationMixer, type AnimationAction } from "three";
import type { GLTF } from "three/examples/jsm/loaders/GLTFLoader.js";
import { crossfade } from "../../src/blend/crossfade.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { wrapTime } from "../../src/clip/wrap-time.ts";
import { type GltfLoadResult } from "../../src/io/gltf/load-gltf.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { createPose } from "../../src/pose/pose.ts";
import { bindThreeSkeleton, clipFromThree, readPoseFromThree, type ThreeBinding } from "../../src/three/index.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { accumulateDifference, describe, maxOf, zeroDifference } from "./pose-compare.ts";
import { loadGltfWithThree } from "./three-gltf.ts";

const FILES = ["robot-expressive/RobotExpressive.glb", "fox/Fox.glb", "cesium-man/CesiumMan.glb", "rigged-simple/RiggedSimple.glb"];
const SAMPLES = 100;
const TOLERANCE = 1e-5;

interface Loaded {
  readonly three: GLTF;
  readonly ag: GltfLoadResult;
  readonly binding: ThreeBinding;
}

const cache = new Map<string, Promise<Loaded>>();
function load(file: string, merge = false): Promise<Loaded> {
  const key = `${file}:${merge}`;
  let p = cache.get(key);
  if (!p) {
    p = (async () => {
      const path = sharedAsset(file);
      const three = await loadGltfWithThree(path);
      const ag = await loadGltfFile(path, { mergeAnimations: merge });
      assert.ok(ag.ok, ag.diagnostics.map((d) => d.message).join("\n"));
      const { binding, diagnostics } = bindThreeSkeleton(ag.skeletons[0]!, three.scene, {
        nodeIndexOf: (o) => three.parser.associations.get(o)?.nodes,
      });
      assert.deepEqual(diagnostics, [], "every joint binds to the node three created for it");
      return { three, ag, binding };
    })();
    cache.set(key, p);
  }
  return p;
}

/** Plays `actions` in three at `time` and reads the bound bones; stops and uncaches afterwards via the returned mixer. */
function mixerWith(loaded: Loaded, clipIndices: readonly number[], weights?: readonly number[]): { mixer: AnimationMixer; actions: AnimationAction[] } {
  const mixer = new AnimationMixer(loaded.three.scene);
  const actions = clipIndices.map((i, k) => {
    const action = mixer.clipAction(loaded.three.animations[i]!);
    if (weights) action.setEffectiveWeight(weights[k]!);
    action.play();
    return action;
  });
  return { mixer, actions };
}

function release(loaded: Loaded, mixer: AnimationMixer): void {
  mixer.stopAllAction(); // restores the bones' original (rest) state
  mixer.uncacheRoot(loaded.three.scene);
}

for (const file of FILES) {
  test(`every clip of ${file} played alone matches three's AnimationMixer within ${TOLERANCE}`, { skip: !HAVE_SHARED_ASSETS }, async (t) => {
    const loaded = await load(file);
    const { ag, binding } = loaded;
    const skeleton = ag.skeletons[0]!;
    const ours = createPose(skeleton.jointCount);
    const theirs = createPose(skeleton.jointCount);
    const total = zeroDifference();
    ag.clips.forEach((clip, c) => {
      const sources = ag.clipSources[c]!;
      assert.equal(sources.length, 1);
      const { mixer } = mixerWith(loaded, sources);
      const cursor = createClipCursor(clip);
      const diff = zeroDifference();
      for (let k = 0; k < SAMPLES; k++) {
        const time = (k * clip.duration) / SAMPLES; // [0, duration): three's LoopRepeat does not wrap
        mixer.setTime(time);
        readPoseFromThree(theirs, binding);
        sampleClip(ours, clip, time, cursor);
        accumulateDifference(diff, ours, theirs);
      }
      release(loaded, mixer);
      assert.ok(maxOf(diff) <= TOLERANCE, `clip ${c} "${clip.name}": ${describe(diff)}`);
      total.translation = Math.max(total.translation, diff.translation);
      total.rotation = Math.max(total.rotation, diff.rotation);
      total.scale = Math.max(total.scale, diff.scale);
    });
    t.diagnostic(`${file}: ${ag.clips.length} clips × ${SAMPLES} times, max |Δ| ${describe(total)}`);
  });
}

test("CesiumMan merged: one animgraph clip equals three playing all 19 per-joint clips together", { skip: !HAVE_SHARED_ASSETS }, async (t) => {
  const loaded = await load("cesium-man/CesiumMan.glb", true);
  const { ag, binding } = loaded;
  assert.equal(ag.clips.length, 1);
  const clip = ag.clips[0]!;
  assert.equal(ag.clipSources[0]!.length, 19);
  const { mixer } = mixerWith(loaded, ag.clipSources[0]!);
  const ours = createPose(clip.skeleton.jointCount);
  const theirs = createPose(clip.skeleton.jointCount);
  const cursor = createClipCursor(clip);
  const diff = zeroDifference();
  for (let k = 0; k < SAMPLES; k++) {
    const time = (k * clip.duration) / SAMPLES;
    mixer.setTime(time);
    sampleClip(ours, clip, time, cursor);
    accumulateDifference(diff, ours, readPoseFromThree(theirs, binding));
  }
  release(loaded, mixer);
  assert.ok(maxOf(diff) <= TOLERANCE, describe(diff));
  t.diagnostic(`CesiumMan merged: max |Δ| ${describe(diff)}`);
});

/**
 * Two clips at weights (1 − w, w). three: two actions with those effective weights; its PropertyMixer
 * copies the first and mixes the second in with slerp(acc, q, w / (1 − w + w)) (joints only one clip
 * animates are mixed with their original state, the rest pose, for the missing weight). animgraph:
 * sample both (untracked joints take the rest pose) and crossfade.
 */
function crossfadeDifference(loaded: Loaded, a: number, b: number, w: number, rotation: "nlerp" | "slerp") {
  const { ag, binding } = loaded;
  const clipA = ag.clips[a]!;
  const clipB = ag.clips[b]!;
  const { mixer } = mixerWith(loaded, [ag.clipSources[a]![0]!, ag.clipSources[b]![0]!], [1 - w, w]);
  const J = clipA.skeleton.jointCount;
  const pa = createPose(J), pb = createPose(J), ours = createPose(J), theirs = createPose(J);
  const ca = createClipCursor(clipA), cb = createClipCursor(clipB);
  const diff = zeroDifference();
  const span = Math.max(clipA.duration, clipB.duration);
  for (let k = 0; k < SAMPLES; k++) {
    const time = (k * span) / SAMPLES;
    mixer.setTime(time);
    sampleClip(pa, clipA, wrapTime(time, clipA.duration, "loop"), ca);
    sampleClip(pb, clipB, wrapTime(time, clipB.duration, "loop"), cb);
    crossfade(ours, pa, pb, w, rotation);
    accumulateDifference(diff, ours, readPoseFromThree(theirs, binding));
  }
  release(loaded, mixer);
  return diff;
}

const PAIRS: readonly [string, string, string][] = [
  ["fox/Fox.glb", "Walk", "Run"],
  ["robot-expressive/RobotExpressive.glb", "Walking", "Running"],
  ["robot-expressive/RobotExpressive.glb", "Idle", "Punch"], // different joint subsets
];

for (const [file, nameA, nameB] of PAIRS) {
  test(`crossfade ${nameA}→${nameB} (${file}) agrees with three's mixer`, { skip: !HAVE_SHARED_ASSETS }, async (t) => {
    const loaded = await load(file);
    const a = loaded.ag.clips.findIndex((c) => c.name === nameA);
    const b = loaded.ag.clips.findIndex((c) => c.name === nameB);
    assert.ok(a >= 0 && b >= 0);
    // At w = ½, slerp and nlerp give the same rotation (the normalised midpoint of the shorter arc), so
    // animgraph's default nlerp matches three's slerp up to rounding.
    const half = crossfadeDifference(loaded, a, b, 0.5, "nlerp");
    assert.ok(maxOf(half) <= TOLERANCE, `50/50 nlerp: ${describe(half)}`);
    // Off the midpoint nlerp runs ahead/behind slerp; animgraph's slerp mode matches three again.
    const nlerp = crossfadeDifference(loaded, a, b, 0.25, "nlerp");
    const slerp = crossfadeDifference(loaded, a, b, 0.25, "slerp");
    assert.ok(maxOf(slerp) <= TOLERANCE, `75/25 slerp: ${describe(slerp)}`);
    assert.ok(nlerp.translation <= TOLERANCE && nlerp.scale <= TOLERANCE, `75/25 nlerp: ${describe(nlerp)}`);
    t.diagnostic(`50/50 nlerp vs three: ${describe(half)}`);
    t.diagnostic(`75/25 nlerp vs three: ${describe(nlerp)}`);
    t.diagnostic(`75/25 slerp vs three: ${describe(slerp)}`);
  });
}

test("clipFromThree on GLTFLoader's clips reproduces loadGltf's clips exactly", { skip: !HAVE_SHARED_ASSETS }, async (t) => {
  let tracks = 0;
  for (const file of FILES) {
    const { three, ag, binding } = await load(file);
    ag.clips.forEach((expected, c) => {
      const threeClip = three.animations[ag.clipSources[c]![0]!]!;
      const { clip, diagnostics } = clipFromThree(threeClip, expected.skeleton, { binding, file });
      assert.deepEqual(diagnostics, [], `${file} clip ${c}`);
      assert.equal(clip.tracks.length, expected.tracks.length, `${file} clip ${c} joint tracks`);
      assert.ok(Math.abs(clip.duration - expected.duration) <= 1e-6, `${file} clip ${c} duration ${clip.duration} vs ${expected.duration}`);
      assert.equal(clip.startTime, expected.startTime);
      for (const track of clip.tracks) {
        const slot = track.path === "translation" ? 0 : track.path === "rotation" ? 1 : 2;
        const other = expected.tracks[expected.trackIndex[3 * track.joint + slot]!];
        assert.ok(other, `${file} clip ${c}: joint ${track.joint} ${track.path} has no track in loadGltf's clip`);
        assert.equal(track.interpolation, other.interpolation);
        assert.deepEqual(track.times, other.times);
        assert.deepEqual(track.values, other.values);
        tracks++;
      }
      // three splits a morph-weight channel into one track per primitive; each carries the same keys.
      for (const ft of clip.floatTracks) {
        const other = expected.floatTracks.find((e) => e.count === ft.count && e.times.length === ft.times.length);
        assert.ok(other, `${file} clip ${c}: float track ${ft.target}`);
        assert.deepEqual(ft.times, other.times);
        assert.deepEqual(ft.values, other.values);
      }
      assert.equal(clip.floatTracks.length > 0, expected.floatTracks.length > 0);
    });
  }
  t.diagnostic(`${tracks} joint tracks compared bit for bit`);
});

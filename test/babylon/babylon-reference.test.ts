// Babylon.js as an independent reference: for every clip of the bundled glTF files, animgraph's loader
// + sampler must reproduce what Babylon's glTF loader + animation system (AnimationGroup.goToFrame,
// under a NullEngine) put on the same joints; and clipFromBabylon must turn Babylon's AnimationGroups
// back into clips that sample the same.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { AnimationGroup } from "@babylonjs/core/Animations/animationGroup.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip, sampleFloatTracks } from "../../src/clip/sample-clip.ts";
import type { Clip } from "../../src/clip/clip.ts";
import { loadGltf, type GltfLoadResult } from "../../src/io/gltf/load-gltf.ts";
import { createPose } from "../../src/pose/pose.ts";
import { applyPoseToBabylon, bindBabylonSkeleton, clipFromBabylon, readPoseFromBabylon, type BabylonBinding } from "../../src/babylon/index.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { accumulateDifference, describe, maxOf, zeroDifference, type PoseDifference } from "../three/pose-compare.ts";
import { loadGltfWithBabylon, type BabylonGltf } from "./babylon-gltf.ts";

const FILES = ["robot-expressive/RobotExpressive.glb", "fox/Fox.glb", "cesium-man/CesiumMan.glb", "rigged-simple/RiggedSimple.glb"];
const SAMPLES = 200;
const TOLERANCE = 1e-5;

interface Loaded {
  readonly babylon: BabylonGltf;
  readonly ag: GltfLoadResult;
  readonly binding: BabylonBinding;
}

const cache = new Map<string, Promise<Loaded>>();
function load(file: string): Promise<Loaded> {
  let p = cache.get(file);
  if (!p) {
    p = (async () => {
      const bytes = readFileSync(sharedAsset(file));
      const babylon = await loadGltfWithBabylon(bytes);
      const ag = await loadGltf(bytes, { fileName: file });
      assert.ok(ag.ok, ag.diagnostics.map((d) => d.message).join("\n"));
      const root = babylon.container.rootNodes[0] as TransformNode;
      assert.equal(root.name, "__root__");
      const { binding, diagnostics } = bindBabylonSkeleton(ag.skeletons[0]!, root, { file });
      assert.deepEqual(diagnostics, [], "every joint binds to the node Babylon created for it");
      return { babylon, ag, binding };
    })();
    cache.set(file, p);
  }
  return p;
}

/** Max difference over `SAMPLES` times in [0, duration) between `clip` sampled by animgraph and `group` played by Babylon. */
function compareWithBabylon(loaded: Loaded, clip: Clip, group: AnimationGroup): PoseDifference & { moved: number } {
  const { binding } = loaded;
  const skeleton = binding.skeleton;
  applyPoseToBabylon(binding, skeleton.rest); // joints this group does not animate stand at rest, as in animgraph
  const fps = group.targetedAnimations[0]!.animation.framePerSecond;
  group.start(false);
  const ours = createPose(skeleton.jointCount);
  const theirs = createPose(skeleton.jointCount);
  const cursor = createClipCursor(clip);
  const diff = zeroDifference();
  const moved = zeroDifference(); // how far Babylon's joints get from the rest pose: the comparison is not vacuous
  for (let k = 0; k < SAMPLES; k++) {
    const time = (k * clip.duration) / SAMPLES;
    group.goToFrame(time * fps);
    readPoseFromBabylon(theirs, binding);
    sampleClip(ours, clip, time, cursor);
    accumulateDifference(diff, ours, theirs);
    accumulateDifference(moved, skeleton.rest, theirs);
  }
  group.stop();
  return { ...diff, moved: maxOf(moved) };
}

function fold(total: PoseDifference, d: PoseDifference): void {
  total.translation = Math.max(total.translation, d.translation);
  total.rotation = Math.max(total.rotation, d.rotation);
  total.scale = Math.max(total.scale, d.scale);
}

for (const file of FILES) {
  test(`every clip of ${file}: animgraph (loadGltf + sampleClip) matches Babylon's AnimationGroup.goToFrame within ${TOLERANCE}`, { skip: !HAVE_SHARED_ASSETS }, async (t) => {
    const loaded = await load(file);
    const { ag, babylon } = loaded;
    const groups = babylon.container.animationGroups;
    assert.equal(groups.length, ag.clips.length);
    const total = zeroDifference();
    let moved = 0;
    ag.clips.forEach((clip, c) => {
      const group = groups[ag.clipSources[c]![0]!]!;
      const diff = compareWithBabylon(loaded, clip, group);
      assert.ok(maxOf(diff) <= TOLERANCE, `clip ${c} "${clip.name}" vs group "${group.name}": ${describe(diff)}`);
      fold(total, diff);
      moved = Math.max(moved, diff.moved);
    });
    assert.ok(moved > 0.1, `Babylon moves the joints away from rest (by ${moved})`);
    t.diagnostic(`${file}: ${ag.clips.length} clips × ${SAMPLES} times, max |Δ| ${describe(total)} (joints move up to ${moved.toFixed(3)} from rest)`);
  });

  test(`clipFromBabylon on ${file}'s AnimationGroups samples like loadGltf's clips and like Babylon`, { skip: !HAVE_SHARED_ASSETS }, async (t) => {
    const loaded = await load(file);
    const { ag, babylon, binding } = loaded;
    const skeleton = binding.skeleton;
    const vsBabylon = zeroDifference();
    const vsLoadGltf = zeroDifference();
    let tracks = 0;
    ag.clips.forEach((expected, c) => {
      const group = babylon.container.animationGroups[ag.clipSources[c]![0]!]!;
      const { clip, diagnostics } = clipFromBabylon(group, skeleton, { binding, file });
      assert.deepEqual(diagnostics, [], `${file} clip ${c}`);
      assert.equal(clip.tracks.length, expected.tracks.length, `${file} clip ${c}: joint tracks`);
      assert.ok(Math.abs(clip.duration - expected.duration) <= 1e-6, `${file} clip ${c}: duration ${clip.duration} vs ${expected.duration}`);
      for (const track of clip.tracks) {
        const slot = track.path === "translation" ? 0 : track.path === "rotation" ? 1 : 2;
        const other = expected.tracks[expected.trackIndex[3 * track.joint + slot]!];
        assert.ok(other, `${file} clip ${c}: joint ${track.joint} ${track.path} has no track in loadGltf's clip`);
        assert.equal(track.interpolation, other.interpolation);
        tracks++;
      }
      fold(vsBabylon, compareWithBabylon(loaded, clip, group));
      // Against loadGltf's clip, over the same times.
      const a = createPose(skeleton.jointCount), b = createPose(skeleton.jointCount);
      const ca = createClipCursor(clip), cb = createClipCursor(expected);
      for (let k = 0; k <= SAMPLES; k++) {
        const time = (k * expected.duration) / SAMPLES;
        accumulateDifference(vsLoadGltf, sampleClip(a, clip, time, ca), sampleClip(b, expected, time, cb));
      }
      // Morph weights: each Babylon influence track is one component of a loadGltf weights track.
      if (expected.floatTracks.length > 0) {
        assert.ok(clip.floatTracks.length > 0, `${file} clip ${c}: morph influences kept`);
        const ours = new Float32Array(clip.floatTracks.length);
        const theirs = new Float32Array(expected.floatTracks.reduce((n, f) => n + f.count, 0));
        const co = createClipCursor(clip), ce = createClipCursor(expected);
        for (let k = 0; k <= SAMPLES; k++) {
          const time = (k * expected.duration) / SAMPLES;
          sampleFloatTracks(ours, clip, time, co);
          sampleFloatTracks(theirs, expected, time, ce);
          for (const w of ours) assert.ok(theirs.some((x) => Math.abs(x - w) <= 1e-6), `${file} clip ${c} t=${time}: weight ${w} not in [${[...theirs].join()}]`);
        }
      }
    });
    assert.ok(maxOf(vsBabylon) <= TOLERANCE, `vs Babylon: ${describe(vsBabylon)}`);
    assert.ok(maxOf(vsLoadGltf) <= TOLERANCE, `vs loadGltf: ${describe(vsLoadGltf)}`);
    t.diagnostic(`${file}: ${tracks} joint tracks; vs Babylon ${describe(vsBabylon)}; vs loadGltf ${describe(vsLoadGltf)}`);
  });
}

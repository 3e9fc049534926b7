// test.vrma read by animgraph against pixiv's own loader: three.js's GLTFLoader with
// @pixiv/three-vrm-animation's VRMAnimationLoaderPlugin, run in Node on the file's bytes (the file has
// no images, so GLTFLoader needs no DOM). three-vrm-animation does not keep the file's local rotations:
// it converts each bone's track to VRM's normalized space (parent world rest · q · own world rest⁻¹)
// and the hips translation to world space. So animgraph's clip is sampled, passed through
// normalizeHumanoidPose, and compared with three-vrm's tracks sampled by three.js's own interpolants,
// at every key and between keys. Expression and look-at tracks are compared as they are.
import { test } from "node:test";
import assert from "node:assert/strict";
import { InterpolateLinear, type KeyframeTrack } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { VRMAnimationLoaderPlugin, type VRMAnimation } from "@pixiv/three-vrm-animation";
import { createClipCursor } from "../../../src/clip/clip-cursor.ts";
import { sampleClip, sampleFloatTracks, floatTrackLength } from "../../../src/clip/sample-clip.ts";
import { createPose } from "../../../src/pose/pose.ts";
import { loadVrma } from "../../../src/io/vrma/load-vrma.ts";
import { createHumanoidNormalizer, normalizeHumanoidPose } from "../../../src/io/vrma/normalize-humanoid.ts";
import { HAVE_SHARED_ASSETS } from "../../helpers/assets.ts";
import { testVrmaBytes } from "./vrma-fixtures.ts";

const skip = !HAVE_SHARED_ASSETS;

async function loadWithThreeVrm(bytes: Uint8Array): Promise<VRMAnimation> {
  const loader = new GLTFLoader();
  loader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const gltf = await loader.parseAsync(buffer, "");
  const animations = gltf.userData["vrmAnimations"] as VRMAnimation[];
  assert.equal(animations.length, 1);
  return animations[0]!;
}

/** Sample times: every key, the midpoints, and points a third of the way. */
function sampleTimes(times: ArrayLike<number>): number[] {
  const out: number[] = [];
  for (let i = 0; i < times.length; i++) {
    out.push(times[i]!);
    if (i + 1 < times.length) out.push((times[i]! + times[i + 1]!) / 2, times[i]! + (times[i + 1]! - times[i]!) / 3);
  }
  return out;
}

/**
 * Angle between two rotations, radians (sign-insensitive), from r = conj(a)·b with both normalised:
 * 2·atan2(|r.xyz|, |r.w|), which stays accurate near 0 (2·acos of a dot product does not: a key whose
 * length is off by 1e-5 — three-vrm stores its converted keys in float32 — would read as 0.009 rad).
 */
function angle(a: ArrayLike<number>, ao: number, b: ArrayLike<number>, bo: number): number {
  const [ax, ay, az, aw] = [a[ao]!, a[ao + 1]!, a[ao + 2]!, a[ao + 3]!];
  const [bx, by, bz, bw] = [b[bo]!, b[bo + 1]!, b[bo + 2]!, b[bo + 3]!];
  const x = aw * bx - ax * bw - ay * bz + az * by;
  const y = aw * by + ax * bz - ay * bw - az * bx;
  const z = aw * bz - ax * by + ay * bx - az * bw;
  const w = aw * bw + ax * bx + ay * by + az * bz;
  return 2 * Math.atan2(Math.hypot(x, y, z), Math.abs(w));
}

/** three.js's own interpolation of a track at t (every track of this file is LINEAR; a quaternion track's factory slerps). */
function evaluate(track: KeyframeTrack, t: number): ArrayLike<number> {
  assert.equal(track.getInterpolation(), InterpolateLinear);
  return track.InterpolantFactoryMethodLinear().evaluate(t) as ArrayLike<number>;
}

test("humanoid rotations: animgraph's normalized pose matches three-vrm-animation's tracks (every bone, keys and between)", { skip }, async () => {
  const bytes = testVrmaBytes();
  const three = await loadWithThreeVrm(bytes);
  const ours = await loadVrma(bytes);
  assert.ok(ours.ok);
  const clip = ours.clips[0]!;
  assert.equal(clip.duration, three.duration);
  const n = createHumanoidNormalizer(ours.skeleton!, ours.humanBones);
  assert.equal(n.bones.length, 51);
  const pose = createPose(ours.skeleton!.jointCount);
  const cursor = createClipCursor(clip);
  const rotations = new Float32Array(4 * n.bones.length);
  const hips = new Float32Array(3);
  const animated = [...three.humanoidTracks.rotation.keys()];
  assert.deepEqual(animated, ["rightUpperArm"]);
  let worst = 0;
  let compared = 0;
  const identity = [0, 0, 0, 1];
  for (const t of sampleTimes(clip.tracks[0]!.times)) {
    sampleClip(pose, clip, t, cursor);
    normalizeHumanoidPose(rotations, hips, n, pose);
    n.bones.forEach((bone, i) => {
      const track = three.humanoidTracks.rotation.get(bone);
      // A bone three-vrm has no track for is at rest: identity in normalized space.
      const expected = track ? evaluate(track, t) : identity;
      worst = Math.max(worst, angle(rotations, 4 * i, expected, 0));
      compared++;
    });
  }
  assert.equal(compared, 51 * 19);
  assert.ok(worst < 1e-5, `largest difference ${worst} rad`);
  // The animated bone really moves: 90° at 0.5 s in normalized space.
  sampleClip(pose, clip, 0.5, cursor);
  normalizeHumanoidPose(rotations, hips, n, pose);
  const arm = n.bones.indexOf("rightUpperArm");
  assert.ok(Math.abs(angle(rotations, 4 * arm, identity, 0) - Math.PI / 2) < 1e-4);
});

test("hips rest position, expression weights and the look-at rotation match three-vrm-animation", { skip }, async () => {
  const bytes = testVrmaBytes();
  const three = await loadWithThreeVrm(bytes);
  const ours = await loadVrma(bytes);
  const clip = ours.clips[0]!;
  const n = createHumanoidNormalizer(ours.skeleton!, ours.humanBones);
  const pose = createPose(ours.skeleton!.jointCount);
  const cursor = createClipCursor(clip);
  const hips = new Float32Array(3);
  sampleClip(pose, clip, 0, cursor);
  normalizeHumanoidPose(new Float32Array(4 * n.bones.length), hips, n, pose);
  assert.ok(Math.hypot(hips[0]! - three.restHipsPosition.x, hips[1]! - three.restHipsPosition.y, hips[2]! - three.restHipsPosition.z) < 1e-6, `hips ${[...hips]}`);

  const happy = three.expressionTracks.preset.get("happy")!;
  const look = three.lookAtTrack!;
  assert.deepEqual([...three.expressionTracks.custom.keys()], []);
  const floats = new Float32Array(floatTrackLength(clip));
  let worstWeight = 0;
  let worstLook = 0;
  for (const t of sampleTimes(happy.times)) {
    sampleFloatTracks(floats, clip, t, cursor);
    worstWeight = Math.max(worstWeight, Math.abs(floats[0]! - evaluate(happy, t)[0]!));
    worstLook = Math.max(worstLook, angle(floats, 1, evaluate(look, t), 0));
  }
  assert.ok(worstWeight < 1e-6, `expression weight differs by ${worstWeight}`);
  assert.ok(worstLook < 1e-5, `look-at differs by ${worstLook} rad`);
});

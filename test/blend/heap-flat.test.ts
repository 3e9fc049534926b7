// 10,000 frames of sampling + blending + layering on RobotExpressive must not allocate: the heap after a
// forced GC stays flat. GC is exposed at run time (the runner does not pass --expose-gc).
import { test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { applyAdditive } from "../../src/blend/apply-additive.ts";
import { applyLayer } from "../../src/blend/apply-layer.ts";
import { maskFromJoints } from "../../src/blend/bone-mask.ts";
import { blendPoses } from "../../src/blend/blend-poses.ts";
import { crossfade } from "../../src/blend/crossfade.ts";
import { makeAdditiveClip } from "../../src/clip/additive-clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { floatTrackLength, sampleClip, sampleFloatTracks } from "../../src/clip/sample-clip.ts";
import { wrapTime } from "../../src/clip/wrap-time.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { evaluateCurve } from "../../src/math/curves.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createRootMotionExtractor, extractRootMotion } from "../../src/root-motion/root-motion.ts";
import { advanceSyncedPhase } from "../../src/sync/sync-group.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

test("heap stays flat over 10,000 frames of sampling + blending on RobotExpressive", { skip: !HAVE_SHARED_ASSETS && "no assets" }, async () => {
  const result = await loadGltfFile(sharedAsset("robot-expressive/RobotExpressive.glb"));
  const byName = (n: string) => result.clips.find((c) => c.name === n)!;
  const walk = byName("Walking"), run = byName("Running"), idle = byName("Idle"), wave = byName("Wave");
  const skeleton = walk.skeleton;
  const J = skeleton.jointCount;
  const yes = makeAdditiveClip(byName("Yes"), { kind: "firstFrame" });
  const clips = [walk, run, idle, wave, yes];
  const cursors = clips.map(createClipCursor);
  const poses = clips.map(() => createPose(J));
  const blended = createPose(J), out = createPose(J);
  const weights = new Float32Array(3);
  const durations = new Float64Array([walk.duration, run.duration]);
  const upper = maskFromJoints(skeleton, ["Abdomen"]);
  const morph = new Float32Array(floatTrackLength(walk));
  const extractor = createRootMotionExtractor(walk, skeleton.indexOf.get("Body")!);
  const delta = new Float32Array(4);
  const blendOptions = { rotation: "slerp" } as const;
  const blendInputs = [poses[0]!, poses[1]!, poses[2]!];
  const state = new Float64Array(2); // phase, checksum
  const frame = (f: number): void => {
    const dt = 1 / 60;
    const t = f * dt;
    state[0] = advanceSyncedPhase(state[0]!, dt, durations, weights);
    for (let i = 0; i < clips.length; i++) sampleClip(poses[i]!, clips[i]!, wrapTime(t * (1 + 0.1 * i), clips[i]!.duration, "loop"), cursors[i]!);
    sampleFloatTracks(morph, walk, wrapTime(t, walk.duration, "loop"), cursors[0]!);
    weights[0] = 0.5 + 0.5 * Math.sin(t);
    weights[1] = 1 - weights[0]!;
    weights[2] = 0.2;
    blendPoses(blended, blendInputs, weights, skeleton.rest, blendOptions);
    crossfade(out, blended, poses[2]!, evaluateCurve("smoothstep", (f % 120) / 120));
    applyLayer(out, out, poses[3]!, 0.8, upper, "override");
    applyAdditive(out, out, poses[4]!, 0.5);
    extractRootMotion(delta, extractor, t, t + dt, "loop");
    state[1] = state[1]! + out.r[4]! + delta[0]!;
  };
  for (let f = 0; f < 2000; f++) frame(f); // warm up the JIT
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  // Retained heap after a full GC, checked every 2,500 frames: a leak (per-frame arrays kept in a cache,
  // growing buffers) shows as a rising trend; transient boxing of doubles by the VM does not.
  const checkpoints: number[] = [];
  for (let f = 0; f < 10_000; f++) {
    frame(f);
    if ((f + 1) % 2500 === 0) {
      gc();
      gc();
      checkpoints.push(process.memoryUsage().heapUsed - before);
    }
  }
  assert.ok(Number.isFinite(state[1]!));
  for (const growth of checkpoints) assert.ok(growth < 256 * 1024, `heap grew by ${checkpoints.join(", ")} bytes`);
});

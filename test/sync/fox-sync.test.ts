// Fox Walk (0.71 s) and Run (1.16 s) blended 50/50: with phase sync the blend repeats every blended cycle,
// so the hind foot reaches the same lowest point each cycle; played on one clock they drift in and out of
// phase and the foot alternately sinks through the ground and floats above it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { blendPoses } from "../../src/blend/blend-poses.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { wrapTime } from "../../src/clip/wrap-time.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { createPose } from "../../src/pose/pose.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createSyncGroup, stepSyncGroup, syncedCycleDuration } from "../../src/sync/sync-group.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

test("Fox walk/run blend: synced foot contacts repeat every blended cycle; unsynced ones drift", { skip: !HAVE_SHARED_ASSETS && "no assets" }, async () => {
  const fox = await loadGltfFile(sharedAsset("fox/Fox.glb"));
  const walk = fox.clips.find((c) => c.name === "Walk")!, run = fox.clips.find((c) => c.name === "Run")!;
  const skeleton = walk.skeleton;
  const foot = skeleton.indexOf.get("b_LeftFoot02_018")!;
  const durations = [walk.duration, run.duration];
  const weights = [0.5, 0.5];
  const L = syncedCycleDuration(durations, weights);
  assert.ok(Math.abs(L - (walk.duration + run.duration) / 2) < 1e-9);
  const model = new Float32Array(16 * skeleton.jointCount);
  const pw = createPose(skeleton.jointCount), pr = createPose(skeleton.jointCount), out = createPose(skeleton.jointCount);
  const cw = createClipCursor(walk), cr = createClipCursor(run);

  const lowestPerCycle = (synced: boolean): number[] => {
    const group = createSyncGroup();
    const times = new Float64Array(2);
    const fps = 240;
    const minima: number[] = [];
    let current = Infinity;
    for (let f = 1; f <= fps * 12; f++) {
      const t = f / fps;
      if (synced) stepSyncGroup(group, times, 1 / fps, durations, weights);
      else [times[0], times[1]] = [wrapTime(t, walk.duration, "loop"), wrapTime(t, run.duration, "loop")];
      sampleClip(pw, walk, times[0]!, cw);
      sampleClip(pr, run, times[1]!, cr);
      blendPoses(out, [pw, pr], weights, skeleton.rest);
      localToModel(model, skeleton, out, fox.rootTransform);
      current = Math.min(current, model[16 * foot + 13]!);
      if (f % Math.round(L * fps) === 0) {
        minima.push(current);
        current = Infinity;
      }
    }
    return minima;
  };
  const spread = (xs: number[]): number => Math.max(...xs) - Math.min(...xs);
  const synced = lowestPerCycle(true);
  const unsynced = lowestPerCycle(false);
  assert.ok(synced.length >= 10);
  // Synced: the same contact depth every cycle (to sampling resolution); unsynced: several units apart.
  assert.ok(spread(synced.slice(1)) < 0.1, `synced minima ${synced.map((x) => x.toFixed(2))}`);
  assert.ok(spread(unsynced.slice(1)) > 2, `unsynced minima ${unsynced.map((x) => x.toFixed(2))}`);
});

// The studio's transition figures (studio/src/continuity-tracker.ts) on the robot example's own run: a
// transition on the upper-body emote layer is measured over the joints that layer's mask moves, as
// `animgraph run` reports it, not blamed for the legs of the walk under it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { compileGraph, createContinuityMeter, createInstance, parseJsonText, runTimeline } from "../../src/index.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { readTimeline } from "../../src/graph/read-timeline-file.ts";
import { createContinuityTracker } from "../../studio/src/continuity-tracker.ts";
import { repoPath } from "../helpers/assets.ts";

test("the studio's figure of a masked layer's transition is its jump over the mask's joints; the history keeps the whole body's", async () => {
  const gltf = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const skeleton = gltf.skeletons[0]!;
  const { graph } = compileGraph(parseJsonText(readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8"), "robot.animgraph.json"), skeleton, gltf.clips);
  assert.ok(graph);
  const timeline = readTimeline(repoPath("examples/robot/walk-run-jump.timeline.json"), graph).timeline!;
  const instance = createInstance(graph);
  const tracker = createContinuityTracker();
  const meter = createContinuityMeter(skeleton.jointCount);
  const emote = graph.layers.find((l) => l.name === "emote")!;
  const expected = new Map<number, number>();
  let gap = 0, checked = 0;
  runTimeline(graph, instance, timeline, (_k, _t, result) => {
    tracker.step(instance, graph, timeline.dt);
    const all = meter.push(result.pose, timeline.dt);
    for (let i = 0; i < result.events.count; i++) {
      const e = result.events.items[i]!;
      if (e.type !== "transitionStarted" || e.layer !== emote.index || e.transition < 0) continue;
      const own = meter.jumpOver(emote.mask);
      expected.set(e.machine * 65536 + e.transition, own);
      assert.ok(emote.mask![meter.joint]! > 0, `measured at ${skeleton.names[meter.joint]}, outside the emote layer's mask`);
      // The history plot keeps the whole body's jump (stored as float32).
      const last = tracker.history().at(-1)!;
      assert.ok(last.started && Math.abs(last.jump - all) <= 1e-6 * all, `${last.jump} vs ${all}`);
      gap = Math.max(gap, all - own);
      checked++;
    }
  });
  assert.ok(checked >= 3, `${checked} emote transitions`);
  for (const [key, jump] of expected) assert.equal(tracker.jumpOf(Math.floor(key / 65536), key % 65536), jump);
  // At least one emote fade started while the legs jumped more than the upper body (Run → Walk under None → Wave).
  assert.ok(gap > 1, `whole body − emote joints: ${gap} rad/s`);
});

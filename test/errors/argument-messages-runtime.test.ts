// The messages of the runtime's argument checks (issue 22): cursors, frame sequences, step snapshots
// and explanations, digests, machine evaluation. Each names the function, the argument and what was
// expected, under a stable code (docs/api-errors.md); a valid call still does its work.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  compileGraph, compressClip, createClip, createClipCursor, createCompressedClipCursor, createFrameSequence, createInstance, createPose,
  createSkeleton, describeStep, digestRun, disposeInstance, evaluateMachine, explainStep, trigger, step, type CompiledGraph, type Timeline,
} from "../../src/index.ts";
import { throwsArgument } from "../helpers/throws-argument.ts";

function fixture(names: string[]): { graph: CompiledGraph; clip: ReturnType<typeof createClip> } {
  const skeleton = createSkeleton({ names, parents: names.map((_, i) => i - 1) });
  const times = new Float32Array([0, 0.5, 1]);
  const clip = createClip({
    name: "walk", skeleton,
    tracks: [{ joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: new Float32Array([0, 0, 0, 1, 0, 0.3826834, 0, 0.9238795, 0, 0, 0, 1]) }],
  });
  const spec = {
    animgraph: 1, name: `g${names.length}`, parameters: { jump: { type: "trigger" } },
    layers: [{ name: "base", machine: { entry: "Walk", states: { Walk: { clip: "walk" }, Jump: { clip: "walk", loop: "clamp" } },
      transitions: [{ from: "Walk", to: "Jump", conditions: [{ param: "jump" }], duration: 0.2 }] } }],
  };
  const { graph } = compileGraph(spec, skeleton, [clip]);
  assert.ok(graph);
  return { graph, clip };
}

test("cursors and frame sequences: the clip and the counts are checked before anything is allocated", () => {
  const { clip } = fixture(["root", "spine", "head"]);
  throwsArgument(() => createClipCursor(undefined as never), "ERR_ARGUMENT", /^createClipCursor: clip must be a Clip \(from createClip or a loader\); got undefined$/);
  throwsArgument(() => createClipCursor({ ...clip, floatTracks: "none" } as never), "ERR_ARGUMENT", /^createClipCursor: clip must be a Clip/);
  assert.equal(createClipCursor(clip).keys.length, clip.tracks.length);
  throwsArgument(() => createCompressedClipCursor(clip as never), "ERR_ARGUMENT", /^createCompressedClipCursor: clip must be a CompressedClip \(from compressClip or readAgc\); got a/);
  const { compressed } = compressClip(clip);
  assert.ok(compressed);
  assert.equal(createCompressedClipCursor(compressed).cache.length, 8 * compressed.tracks.length);
  throwsArgument(() => createFrameSequence("3" as never, 10), "ERR_ARGUMENT", /^createFrameSequence: jointCount must be an integer; got the string "3"$/);
  throwsArgument(() => createFrameSequence(3, -1), "ERR_OUT_OF_RANGE", /^createFrameSequence: frameCount must be an integer in \[0, \d+\]; got the number -1$/);
  throwsArgument(() => createFrameSequence(100, 2 ** 30), "ERR_OUT_OF_RANGE", /createFrameSequence: frameCount must be an integer in \[0, 5368709\]/);
  assert.equal(createFrameSequence(3, 10).r.length, 120);
});

test("step snapshots and explanations: the graph, its instance and this instance's result", () => {
  const { graph } = fixture(["root", "spine", "head"]);
  const { graph: other } = fixture(["a", "b", "c", "d", "e"]);
  const instance = createInstance(graph);
  const result = step(graph, instance, 1 / 60);
  throwsArgument(() => describeStep({ graph, diagnostics: [] } as never, instance, result), "ERR_ARGUMENT", /^describeStep: graph must be a CompiledGraph from compileGraph \(the `graph` of compileGraph's result, not the result\)/);
  throwsArgument(() => describeStep(other, instance, result), "ERR_SKELETON_MISMATCH", /^describeStep: instance was created for another graph \("g3"\), not this one \("g5"\)/);
  throwsArgument(() => describeStep(graph, instance, null as never), "ERR_ARGUMENT", /^describeStep: result must be a StepResult \(what step\(graph, instance, dt\) returned\); got null$/);
  const second = createInstance(graph);
  throwsArgument(() => describeStep(graph, second, result), "ERR_INVALID_VALUE", /^describeStep: result: is the result of another instance's step/);
  assert.equal(describeStep(graph, instance, result).layers[0]?.state, "Walk");
  disposeInstance(second);
  throwsArgument(() => explainStep(graph, second), "ERR_DISPOSED", /^explainStep: instance was disposed and cannot be used any more$/);
  throwsArgument(() => explainStep(graph, undefined as never), "ERR_ARGUMENT", /^explainStep: instance must be a GraphInstance from createInstance; got undefined$/);
  throwsArgument(() => explainStep(other, instance), "ERR_SKELETON_MISMATCH", /^explainStep: instance was created for another graph/);
  trigger(instance, "jump");
  assert.equal(explainStep(graph, instance).machines[0]?.fired, "/layers/0/machine/transitions/0");
});

test("digestRun: the timeline, dt and the hasher factory's product", () => {
  const { graph } = fixture(["root", "spine", "head"]);
  const timeline: Timeline = { file: "t.json", dt: 0.1, duration: 1, commands: [{ t: 0.3, kind: "trigger", pointer: "/events/0", param: "jump" }] };
  throwsArgument(() => digestRun(graph, { dt: 0.1 } as never), "ERR_ARGUMENT", /^digestRun: timeline must be a Timeline \(from parseTimeline or readTimeline\)/);
  throwsArgument(() => digestRun(graph, timeline, { dt: -1 }), "ERR_OUT_OF_RANGE", /^digestRun: options\.dt must be a finite number of seconds > 0; got the number -1$/);
  throwsArgument(() => digestRun(graph, timeline, "fast" as never), "ERR_ARGUMENT", /^digestRun: options must be an object or undefined; got the string "fast"$/);
  throwsArgument(() => digestRun(graph, timeline, { createHasher: "sha256" } as never), "ERR_ARGUMENT", /^digestRun: options\.createHasher must be a function/);
  throwsArgument(() => digestRun(graph, timeline, { createHasher: () => ({}) } as never), "ERR_INVALID_VALUE", /^digestRun: options\.createHasher: returned an object, not a Hasher/);
  throwsArgument(() => digestRun(graph, timeline, { dt: 1e-9 }), "ERR_OUT_OF_RANGE", /^digestRun: timeline: 1 s at dt 1e-9 s is 1000000000 steps; the limit is/);
  const { digest, steps } = digestRun(graph, timeline);
  assert.equal(steps, 10);
  assert.match(digest, /^[0-9a-f]{64}$/);
  assert.equal(digestRun(graph, timeline, { dt: 0.1 }).digest, digest, "an explicit dt equal to the timeline's gives the same digest");
});

test("evaluateMachine: a machine of this instance into a pose of its skeleton, the same pose step writes", () => {
  const { graph } = fixture(["root", "spine", "head"]);
  const instance = createInstance(graph);
  const other = createInstance(graph);
  const result = step(graph, instance, 0.25);
  const mi = instance.layers[0]!;
  throwsArgument(() => evaluateMachine(instance, other.layers[0]!, createPose(3)), "ERR_INVALID_VALUE", /^evaluateMachine: mi: belongs to another instance/);
  throwsArgument(() => evaluateMachine(instance, {} as never, createPose(3)), "ERR_ARGUMENT", /^evaluateMachine: mi must be a MachineInstance \(an element of instance\.layers or instance\.machines\); got an object$/);
  throwsArgument(() => evaluateMachine(instance, mi, createPose(5)), "ERR_SKELETON_MISMATCH", /^evaluateMachine: out has 5 joints but the skeleton has 3/);
  throwsArgument(() => evaluateMachine(null as never, mi, createPose(3)), "ERR_ARGUMENT", /^evaluateMachine: inst must be a GraphInstance from createInstance; got null$/);
  const out = createPose(3);
  evaluateMachine(instance, mi, out);
  assert.deepEqual([...out.r], [...result.pose.r], "a full-weight base layer's machine output is the step's pose");
  disposeInstance(instance);
  throwsArgument(() => evaluateMachine(instance, mi, out), "ERR_DISPOSED", /^evaluateMachine: inst was disposed/);
});

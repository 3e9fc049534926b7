import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AnimgraphError, createAnimator, createProceduralClip, createSkeleton, disposeInstance, loadBvh, loadGltfFile, localToModel, parseGraphSpec,
  parseJsonText, setParam, step, trigger,
} from "../../src/node.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";

/** The robot's walk/run graph, built in code as an app would. */
function robotSpec(): object {
  return {
    animgraph: 1,
    name: "robot-in-code",
    parameters: { speed: { type: "float", default: 0, min: 0, max: 6 }, jump: { type: "trigger" } },
    layers: [{
      name: "base",
      machine: {
        entry: "Idle",
        states: {
          Idle: { clip: "Idle" },
          Walk: { clip: "Walking" },
          Jump: { clip: "Jump", loop: "clamp" },
        },
        transitions: [
          { from: "Idle", to: "Walk", conditions: [{ param: "speed", op: ">", value: 0.5 }], duration: 0.2 },
          { from: "Walk", to: "Idle", conditions: [{ param: "speed", op: "<=", value: 0.5 }], duration: 0.2 },
          { from: "*", to: "Jump", conditions: [{ param: "jump" }], duration: 0.1 },
          { from: "Jump", to: "Idle", exitTime: 0.9, duration: 0.2 },
        ],
      },
    }],
  };
}

test("createAnimator runs a spec built in code on the robot: the walking hips move, the idle ones hardly", async () => {
  const character = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const animator = createAnimator(robotSpec(), character);
  assert.equal(animator.ok, true, JSON.stringify(animator.diagnostics));
  const { graph, instance, skeleton } = animator;
  assert.ok(graph && instance && skeleton);
  const model = new Float32Array(16 * skeleton.jointCount);
  const hips = skeleton.indexOf.get("Hips")!;
  const heights = (steps: number): number[] => {
    const out: number[] = [];
    for (let i = 0; i < steps; i++) {
      localToModel(model, skeleton, step(graph, instance, 1 / 30).pose);
      out.push(model[16 * hips + 13]!);
    }
    return out;
  };
  const range = (xs: number[]): number => Math.max(...xs) - Math.min(...xs);
  const idle = heights(60);
  setParam(instance, "speed", 2);
  heights(15);
  const walking = heights(60);
  assert.equal(graph.layers[0]!.machine.states[instance.layers[0]!.current]!.name, "Walk");
  assert.ok(range(walking) > 2 * range(idle), `walking bob ${range(walking)} vs idle ${range(idle)}`);
  trigger(instance, "jump");
  step(graph, instance, 1 / 30);
  assert.equal(graph.layers[0]!.machine.states[instance.layers[0]!.current]!.name, "Jump");
});

test("the spec as text, as a parsed document and as an object gives one graph; text findings carry line and column", async () => {
  const character = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const text = JSON.stringify(robotSpec(), null, 2);
  for (const spec of [text, parseJsonText(text, "robot.json"), robotSpec(), parseGraphSpec(robotSpec()).spec!]) {
    const animator = createAnimator(spec, character);
    assert.equal(animator.ok, true);
    assert.deepEqual(animator.graph!.machines[0]!.states.map((s) => s.name), ["Idle", "Walk", "Jump"]);
  }
  const broken = robotSpec() as { layers: { machine: { states: Record<string, unknown> } }[] };
  broken.layers[0]!.machine.states["Walk"] = { clip: "Moonwalk" };
  const fromObject = createAnimator(broken, character);
  assert.equal(fromObject.ok, false);
  assert.equal(fromObject.instance, undefined);
  const unknown = fromObject.diagnostics.find((d) => d.code === "E_UNKNOWN_CLIP")!;
  assert.equal(unknown.pointer, "/layers/0/machine/states/Walk/clip");
  assert.equal(unknown.line, undefined, "an object has no text, so no line");
  const fromText = createAnimator(JSON.stringify(broken, null, 2), character, { file: "inline.json" });
  const located = fromText.diagnostics.find((d) => d.code === "E_UNKNOWN_CLIP")!;
  assert.equal(located.file, "inline.json");
  assert.ok(located.line! > 1 && located.column! > 1, JSON.stringify(located));
});

test("lint findings and spec errors come back as diagnostics, never thrown", async () => {
  const character = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  const spec = robotSpec() as { parameters: Record<string, unknown> };
  spec.parameters["unused"] = { type: "bool" };
  const warned = createAnimator(spec, character);
  assert.equal(warned.ok, true);
  assert.ok(warned.diagnostics.some((d) => d.code === "W_UNUSED_PARAM" && d.pointer === "/parameters/unused"));
  for (const bad of ["{ not json", 42, null, [], { animgraph: 2 }, "", { layers: "x" }]) {
    const r = createAnimator(bad as never, character);
    assert.equal(r.ok, false, JSON.stringify(bad));
    assert.ok(r.diagnostics.length > 0 && r.diagnostics.every((d) => typeof d.code === "string"));
  }
});

test("wrong arguments throw AnimgraphError naming the argument; a disposed instance cannot be stepped", async () => {
  const character = await loadGltfFile(repoPath("examples/robot/RobotExpressive.glb"));
  assert.throws(() => createAnimator(undefined as never, character), (e: AnimgraphError) => e.code === "ERR_ARGUMENT" && /createAnimator: spec must be/.test(e.message));
  for (const bad of [undefined, null, 3, "robot.glb", [], {}]) {
    assert.throws(() => createAnimator(robotSpec(), bad as never), (e: AnimgraphError) => e instanceof AnimgraphError && e.argument === "character", String(bad));
  }
  assert.throws(() => createAnimator(robotSpec(), character, { skeleton: 5 }), { name: "AnimgraphError", code: "ERR_INVALID_VALUE" });
  assert.throws(() => createAnimator(robotSpec(), character, 7 as never), { name: "AnimgraphError", code: "ERR_ARGUMENT", argument: "options" });
  const { graph, instance } = createAnimator(robotSpec(), character);
  step(graph!, instance!, 1 / 60);
  disposeInstance(instance!);
  disposeInstance(instance!);
  assert.throws(() => step(graph!, instance!, 1 / 60), { name: "AnimgraphError", code: "ERR_DISPOSED", argument: "instance" });
  assert.throws(() => setParam(instance!, "speed", 1), { name: "AnimgraphError", code: "ERR_DISPOSED" });
});

test("a character assembled in code: a skeleton and procedural clips", () => {
  const skeleton = createSkeleton({ names: ["root", "hand"], parents: [-1, 0] });
  const wave = createProceduralClip({ name: "wave", duration: 1, sample(out, time) { out.t[3] = Math.sin(2 * Math.PI * time); } });
  const rest = createProceduralClip({ name: "rest", duration: 1, sample() {} });
  const animator = createAnimator({
    animgraph: 1, name: "hand", parameters: { waving: { type: "bool" } },
    layers: [{ name: "base", machine: { entry: "Rest", states: { Rest: { clip: "rest" }, Wave: { clip: "wave" } },
      transitions: [{ from: "Rest", to: "Wave", conditions: [{ param: "waving" }], duration: 0 }, { from: "Wave", to: "Rest", conditions: [{ param: "waving", op: "==", value: false }], duration: 0 }] } }],
  }, { skeleton, clips: [wave, rest] });
  assert.equal(animator.ok, true, JSON.stringify(animator.diagnostics));
  setParam(animator.instance!, "waving", true);
  const pose = step(animator.graph!, animator.instance!, 0.25).pose;
  assert.ok(Math.abs(pose.t[3]! - 1) < 1e-6, `hand at sin(π/2): ${pose.t[3]}`);
});

test("a BVH character (CMU 131_01): its one clip plays as the spec names it", { skip: HAVE_SHARED_ASSETS ? false : "no shared assets" }, () => {
  const character = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  assert.ok(character.skeleton && character.clip);
  const animator = createAnimator({
    animgraph: 1, name: "mocap", layers: [{ name: "base", machine: { entry: "Take", states: { Take: { clip: character.clip.name } } } }],
  }, character);
  assert.equal(animator.ok, true, JSON.stringify(animator.diagnostics));
  const first = Float32Array.from(step(animator.graph!, animator.instance!, 0).pose.r);
  const later = step(animator.graph!, animator.instance!, 0.5).pose.r;
  assert.ok(later.some((v, i) => Math.abs(v - first[i]!) > 1e-3), "the mocap moves the joints");
  const failed = createAnimator(robotSpec(), loadBvh(sharedAsset("bvh-cmu-131/missing.bvh")));
  assert.equal(failed.ok, false);
  assert.ok(failed.diagnostics.some((d) => d.code === "E_FILE_NOT_FOUND"));
});

// Issue 10, "no unbounded work": step() and root-motion extraction finish in bounded time whatever the
// clip length, speed or dt, and refuse a dt that is not a number.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { createClip } from "../../src/clip/clip.ts";
import { setParam } from "../../src/graph/commands.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { MAX_STATE_CYCLES, step } from "../../src/graph/step.ts";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createRootMotionExtractor, extractRootMotion } from "../../src/root-motion/root-motion.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { exampleGraph } from "../crowd/example-graph.ts";
import { SKELETON, compileOf, machineSpec } from "../graph/fixtures.ts";
import { cpuClock } from "../helpers/cpu-clock.ts";

/** A clip whose keys are `spacing` seconds apart (1e-44 s: a few ulps of float32). */
function tinyClip(name: string, spacing: number) {
  return createClip({
    name, skeleton: SKELETON, duration: spacing,
    tracks: [{ joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, spacing]), values: new Float32Array([0, 0, 0, 1, 0, 0]) }],
  });
}

function timed(f: () => void): number {
  const cpuMs = cpuClock();
  f();
  return cpuMs();
}

const eventful = (clip: string, speed: unknown) => machineSpec(
  { A: { clip, speed, events: [{ name: "tick", time: 0 }] } }, [], { rate: { type: "float", default: 1 } },
);

test("a clip with keys 1e-44 s apart: step returns, events are bounded, the pose stays finite", () => {
  const clip = tinyClip("T", 1e-44);
  assert.ok(clip.duration > 0);
  const graph = compileOf(eventful("T", 1), [clip]);
  const inst = createInstance(graph);
  const ms = timed(() => {
    for (let i = 0; i < 10; i++) {
      const r = step(graph, inst, 1 / 60);
      assert.ok(r.events.count <= graph.options.maxSubsteps * 200, `${r.events.count} events`);
      assert.ok(r.pose.t.every(Number.isFinite));
    }
  });
  assert.ok(ms < 2000, `${ms} ms`);
  assert.ok(inst.layers[0]!.stateTime[0]! <= MAX_STATE_CYCLES * clip.duration);
});

test("a speed parameter of 1e20 and a step of 1e9 s return promptly with finite poses", () => {
  const graph = compileOf(eventful("A", { param: "rate" }), [createClip({
    name: "A", skeleton: SKELETON, duration: 1,
    tracks: [{ joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, 0, 0]) }],
  })]);
  const inst = createInstance(graph);
  setParam(inst, "rate", 1e20);
  const ms = timed(() => {
    for (let i = 0; i < 5; i++) step(graph, inst, 1 / 60);
    step(graph, inst, 1e9);
    setParam(inst, "rate", 1);
    step(graph, inst, 1e300);
  });
  assert.ok(ms < 2000, `${ms} ms`);
  assert.ok(inst.result.pose.t.every(Number.isFinite));
  assert.ok(inst.layers[0]!.stateTime[0]! <= MAX_STATE_CYCLES);
});

test("the robot example with root motion: dt 1e9 and 1e15 stay bounded and finite (real asset)", async () => {
  const graph = await exampleGraph("robot/robot.animgraph.json", "robot/RobotExpressive.glb");
  const inst = createInstance(graph);
  setParam(inst, "speed", 6);
  step(graph, inst, 1 / 60);
  const ms = timed(() => {
    step(graph, inst, 1e9);
    step(graph, inst, 1e15);
  });
  assert.ok(ms < 2000, `${ms} ms`);
  assert.ok(inst.result.rootDelta.every(Number.isFinite), String(inst.result.rootDelta));
  assert.ok(inst.result.pose.r.every(Number.isFinite));
});

test("step refuses a dt that is not a number: \"0.1\", null, true, [0.1] (they passed `dt >= 0` by coercion)", () => {
  const graph = compileOf(machineSpec({ A: { clip: "A" } }, []), [tinyClip("A", 1)]);
  const inst = createInstance(graph);
  for (const bad of ["0.1", null, true, [0.1], undefined, {}]) {
    assert.throws(() => step(graph, inst, bad as unknown as number), { name: "AnimgraphError", code: "ERR_ARGUMENT" }, JSON.stringify(bad));
  }
  for (const bad of [-1, NaN, Infinity]) assert.throws(() => step(graph, inst, bad), { name: "AnimgraphError", code: "ERR_OUT_OF_RANGE" }, String(bad));
});

// Root motion over many cycles: composed by repeated squaring, it agrees with walking cycle by cycle.
const rest = createPose(2);
quatFromAxisAngle(rest.r, 0, 1, 0, 0, -Math.PI / 2);
const skeleton = createSkeleton({ names: ["armature", "hips"], parents: [-1, 0], rest });
const turningWalk = (() => {
  const r = new Float32Array(12);
  // Yaw about the parent's +Z (the model's up) by 0 → 0.2 → 0.4 rad over the cycle.
  for (let k = 0; k < 3; k++) {
    const q = new Float32Array(4);
    quatFromAxisAngle(q, 0, 0, 0, 1, 0.2 * k);
    r.set(q, 4 * k);
  }
  return createClip({
    name: "turn", skeleton,
    tracks: [
      { joint: 1, path: "translation", interpolation: "LINEAR", stride: 3, times: new Float32Array([0, 0.5, 1]), values: new Float32Array([0, 0, 1, 0, -0.75, 1.1, 0, -1.5, 1]) },
      { joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times: new Float32Array([0, 0.5, 1]), values: r },
    ],
  });
})();

test("root motion across many cycles (composed) equals the sum of one-cycle pieces (property)", () => {
  const ex = createRootMotionExtractor(turningWalk, 1, { extractYaw: true });
  const whole = new Float64Array(4);
  const piece = new Float64Array(8);
  fc.assert(fc.property(
    fc.double({ min: 0, max: 3, noNaN: true }), fc.integer({ min: 5, max: 40 }), fc.double({ min: 0, max: 0.999, noNaN: true }),
    fc.constantFrom("loop" as const, "pingpong" as const),
    (start, cycles, frac, mode) => {
      const end = Math.floor(start) + cycles + frac;
      extractRootMotion(whole, ex, start, end, mode);
      // Reference: one call per (at most) one cycle, composed here in the character frame.
      let x = 0, y = 0, z = 0, yaw = 0;
      for (let a = start; a < end;) {
        const b = Math.min(end, Math.floor(a) + 1);
        extractRootMotion(piece, ex, a, b, mode);
        const c = Math.cos(yaw), s = Math.sin(yaw);
        // Model up is +Y: a yaw turns x/z.
        x += c * piece[0]! + s * piece[2]!;
        z += -s * piece[0]! + c * piece[2]!;
        y += piece[1]!;
        yaw += piece[3]!;
        a = b;
      }
      const tol = 1e-6 * (1 + cycles) * (1 + Math.hypot(x, z));
      assert.ok(Math.abs(whole[0]! - x) <= tol && Math.abs(whole[1]! - y) <= tol && Math.abs(whole[2]! - z) <= tol, `${[...whole]} vs ${[x, y, z, yaw]}`);
    },
  ));
});

test("root motion over 1e15 cycles of a one-second walk takes O(log n) work and is finite", () => {
  const ex = createRootMotionExtractor(turningWalk, 1, { extractYaw: true });
  const out = new Float64Array(4);
  const ms = timed(() => extractRootMotion(out, ex, 0.25, 1e15 + 0.5, "loop"));
  assert.ok(ms < 100, `${ms} ms`);
  assert.ok(out.every(Number.isFinite), String(out));
});

import assert from "node:assert/strict";
import { test } from "node:test";
import { setParam, trigger } from "../../src/graph/commands.ts";
import type { CompiledGraph } from "../../src/graph/compiled-graph.ts";
import { createInstance, type GraphInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { ABCD, clipStates, compileOf, machineSpec, rampClip } from "../graph/fixtures.ts";

const current = (g: CompiledGraph, inst: GraphInstance): string => g.layers[0]!.machine.states[inst.layers[0]!.current]!.name;
const events = (inst: GraphInstance): string[] =>
  inst.result.events.items.slice(0, inst.result.events.count).map((e) => {
    const names = inst.graph.machines[e.machine]!.states;
    return e.type === "notify" ? `notify:${e.name}` : `${e.type}:${names[e.state]!.name}`;
  });
const close = (a: number, b: number, eps = 1e-6): void => assert.ok(Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

test("exit time: the transition waits until the source has played that fraction of its cycle", () => {
  const g = compileOf(machineSpec(clipStates("A", "B"), [{ from: "A", to: "B", exitTime: 0.5, duration: 0.2 }]), ABCD);
  const inst = createInstance(g);
  for (let i = 0; i < 5; i++) {
    step(g, inst, 0.1); // checks happen before time advances: A has played 0, 0.1, …, 0.4
    assert.equal(current(g, inst), "A", `step ${i}`);
  }
  step(g, inst, 0.1);
  assert.equal(current(g, inst), "B");
  assert.deepEqual(events(inst), ["transitionStarted:B", "stateExited:A", "stateEntered:B"]);
});

test("duration and curve: s = (t − t0)/d, w = curve(s); the pose is the crossfade", () => {
  const g = compileOf(machineSpec(clipStates("A", "B"), [{ from: "A", to: "B", conditions: [{ param: "go" }], duration: 0.4, curve: "smoothstep" }], { go: { type: "bool" } }), ABCD);
  const inst = createInstance(g);
  step(g, inst, 0.1);
  setParam(inst, "go", true);
  const seen: number[] = [];
  for (let i = 1; i <= 3; i++) {
    const r = step(g, inst, 0.1);
    const e = inst.layers[0]!.stack[0]!;
    const s = (0.1 * i) / 0.4;
    close(e.progress, s);
    close(e.weight, s * s * (3 - 2 * s));
    close(r.pose.t[0]!, 1 * (1 - e.weight) + 2 * e.weight, 1e-6);
    seen.push(e.weight);
  }
  const r = step(g, inst, 0.1);
  assert.equal(inst.layers[0]!.depth, 0, "finished at s = 1");
  assert.equal(r.pose.t[0], 2);
  assert.deepEqual(events(inst), ["transitionEnded:B"]);
  assert.ok(seen[0]! < seen[1]! && seen[1]! < seen[2]!);
});

test("offset: the target starts that many seconds in", () => {
  const g = compileOf(machineSpec({ A: { clip: "A" }, R: { clip: "R" } }, [{ from: "A", to: "R", duration: 0, offset: 0.25 }]), [...ABCD, rampClip("R", 1)]);
  const inst = createInstance(g);
  const r = step(g, inst, 0.1);
  assert.equal(current(g, inst), "R");
  close(r.pose.t[0]!, 0.35); // offset 0.25 + one step of 0.1 (time advances after the check)
});

test("triggers stay set until a transition testing them fires, which consumes them", () => {
  const g = compileOf(machineSpec(clipStates("A", "B"), [
    { from: "A", to: "B", conditions: [{ param: "jump" }], duration: 0.1 },
    { from: "B", to: "A", exitTime: 1, duration: 0.1 },
  ], { jump: { type: "trigger" } }), ABCD);
  const inst = createInstance(g);
  trigger(inst, "jump");
  step(g, inst, 0.05);
  assert.equal(current(g, inst), "B");
  assert.equal(inst.params[0], 0, "consumed");
  for (let i = 0; i < 30; i++) step(g, inst, 0.05);
  assert.equal(current(g, inst), "A", "no second jump without a second trigger");
});

/** A→B (interruptible per `policy`) while X (from A) and Y (from B) are both possible. */
function interruptionRun(policy: string, freeze = false): { g: CompiledGraph; inst: GraphInstance } {
  const g = compileOf(machineSpec(clipStates("A", "B", "C", "D"), [
    { from: "A", to: "B", conditions: [{ param: "go" }], duration: 1, curve: "linear", interruption: { source: policy, freeze } },
    { from: "A", to: "C", conditions: [{ param: "x" }], duration: 1, curve: "linear" },
    { from: "B", to: "D", conditions: [{ param: "y" }], duration: 1, curve: "linear" },
  ], { go: { type: "bool" }, x: { type: "bool" }, y: { type: "bool" } }), ABCD);
  const inst = createInstance(g);
  setParam(inst, "go", true);
  step(g, inst, 0.25);
  assert.equal(current(g, inst), "B");
  setParam(inst, "x", true);
  setParam(inst, "y", true);
  step(g, inst, 0.25);
  return { g, inst };
}

test("interruption policies: none, source, target and both orders", () => {
  const expected: Record<string, string> = { none: "B", source: "C", target: "D", sourceThenTarget: "C", targetThenSource: "D" };
  for (const [policy, state] of Object.entries(expected)) {
    const { g, inst } = interruptionRun(policy);
    assert.equal(current(g, inst), state, policy);
    if (state !== "B") {
      assert.deepEqual(events(inst).slice(0, 2), ["transitionInterrupted:B", `transitionStarted:${state}`], policy);
      assert.equal(inst.layers[0]!.depth, 2, `${policy}: the interrupted crossfade stays on the stack`);
    }
  }
});

test("interrupted blends keep evaluating (freeze false) or are captured into a frozen pose (freeze true)", () => {
  const live = interruptionRun("target", false).inst;
  const frozen = interruptionRun("target", true).inst;
  const lm = live.layers[0]!;
  const fm = frozen.layers[0]!;
  assert.equal(lm.source, 0, "A is still the live bottom of the stack");
  assert.equal(fm.source, -1);
  assert.equal(fm.depth, 1);
  // Frozen pose = A→B at s = 0.25 (B has weight 0.25): x = 1·0.75 + 2·0.25.
  close(fm.frozen.t[0]!, 1.25);
  close(fm.frozenWeight + [...fm.stateWeight].reduce((a, b) => a + b, 0), 1, 1e-12);
  close([...lm.stateWeight].reduce((a, b) => a + b, 0), 1, 1e-12);
  // Live: weights A, B, D = (1 − 0.5)(1 − 0.25), 0.5 (1 − 0.25), 0.25.
  close(lm.stateWeight[0]!, 0.375);
  close(lm.stateWeight[1]!, 0.375);
  close(lm.stateWeight[3]!, 0.25);
  close(live.result.pose.t[0]!, 0.375 * 1 + 0.375 * 2 + 0.25 * 4);
});

test("the stack is bounded: beyond maxStackDepth the oldest crossfades collapse into the frozen pose", () => {
  const g = compileOf(machineSpec(clipStates("A", "B", "C", "D"), [
    { from: "*", to: "A", conditions: [{ param: "s", value: 0 }], duration: 1, interruption: { source: "target" } },
    { from: "*", to: "B", conditions: [{ param: "s", value: 1 }], duration: 1, interruption: { source: "target" } },
    { from: "*", to: "C", conditions: [{ param: "s", value: 2 }], duration: 1, interruption: { source: "target" } },
    { from: "*", to: "D", conditions: [{ param: "s", value: 3 }], duration: 1, interruption: { source: "target" } },
  ], { s: { type: "int" } }), ABCD, { maxStackDepth: 2 });
  const inst = createInstance(g);
  for (const s of [1, 2, 3, 0, 1]) {
    setParam(inst, "s", s);
    step(g, inst, 0.1);
    const mi = inst.layers[0]!;
    assert.ok(mi.depth <= 2);
    close(mi.frozenWeight + [...mi.stateWeight].reduce((a, b) => a + b, 0), 1, 1e-12);
  }
  const mi = inst.layers[0]!;
  assert.equal(mi.depth, 2);
  assert.equal(mi.source, -1, "the oldest entries were folded into the frozen pose");
  assert.equal(current(g, inst), "B");
});

test("cut mode (the seed's): a new transition drops the unfinished one", () => {
  const g = compileOf(machineSpec(clipStates("A", "B", "C"), [
    { from: "A", to: "B", conditions: [{ param: "s", value: 1 }], duration: 1, interruption: { source: "target" } },
    { from: "B", to: "C", conditions: [{ param: "s", value: 2 }], duration: 1 },
  ], { s: { type: "int" } }), ABCD, { interruptMode: "cut" });
  const inst = createInstance(g);
  setParam(inst, "s", 1);
  step(g, inst, 0.5);
  setParam(inst, "s", 2);
  const r = step(g, inst, 0.5);
  const mi = inst.layers[0]!;
  assert.equal(mi.depth, 1);
  assert.equal(mi.source, 1, "fades from B alone");
  close(r.pose.t[0]!, 2 * (1 - mi.stack[0]!.weight) + 3 * mi.stack[0]!.weight);
});

test("events at clip times fire exactly once per crossing, across loops, in order", () => {
  const g = compileOf(machineSpec({ A: { clip: "A", events: [{ name: "a", time: 0.25 }, { name: "b", time: 0.75 }] } }, []), ABCD);
  const inst = createInstance(g);
  const fired: string[] = [];
  for (let i = 0; i < 30; i++) {
    step(g, inst, 0.1);
    fired.push(...events(inst));
  }
  assert.deepEqual(fired, ["notify:a", "notify:b", "clipLooped:A", "notify:a", "notify:b", "clipLooped:A", "notify:a", "notify:b", "clipLooped:A"]);
  const big = createInstance(g);
  step(g, big, 2.5); // one long step: five events and two loops, in time order
  assert.deepEqual(events(big), ["notify:a", "notify:b", "clipLooped:A", "notify:a", "notify:b", "clipLooped:A", "notify:a"]);
  const times = big.result.events.items.slice(0, big.result.events.count).map((e) => e.time);
  assert.deepEqual([...times].sort((a, b) => a - b), times);
});

test("a frame spike fires the transitions it spans, in order, within the sub-step bound", () => {
  const g = compileOf(machineSpec(clipStates("A", "B", "C", "D"), [
    { from: "A", to: "B", exitTime: 1, duration: 0.1 },
    { from: "B", to: "C", exitTime: 1, duration: 0.1 },
    { from: "C", to: "D", exitTime: 1, duration: 0.1 },
  ]), ABCD);
  const inst = createInstance(g);
  const r = step(g, inst, 3.5);
  assert.equal(current(g, inst), "D");
  assert.equal(r.substeps, 16, "ceil(3.5 / 0.1) = 35 capped at maxSubsteps = 16");
  assert.deepEqual(events(inst).filter((e) => e.startsWith("transitionStarted")), ["transitionStarted:B", "transitionStarted:C", "transitionStarted:D"]);
  assert.equal(r.transitionsFired, 3);
});

test("nested machines run inside their state and report their own events", () => {
  const g = compileOf({
    animgraph: 1,
    layers: [{ name: "base", machine: { entry: "Outer", states: {
      Outer: { machine: { entry: "X", states: { X: { clip: "A" }, Y: { clip: "B" } }, transitions: [{ from: "X", to: "Y", exitTime: 0.5, duration: 0 }] } },
    } } }],
  }, ABCD);
  const inst = createInstance(g);
  let r = step(g, inst, 0.3);
  assert.equal(r.pose.t[0], 1);
  r = step(g, inst, 0.3);
  assert.equal(r.pose.t[0], 2);
  assert.equal(inst.machines[1]!.machine.states[inst.machines[1]!.current]!.name, "Y");
});

test("speed from a parameter scales state time; additive and override layers apply in order with masks", () => {
  const g = compileOf({
    animgraph: 1,
    parameters: { rate: { type: "float", default: 2 }, w: { type: "float", default: 0.5 } },
    masks: { kid: { include: ["child"] } },
    layers: [
      { name: "base", machine: { entry: "R", states: { R: { clip: "R", speed: { param: "rate" } } } } },
      { name: "over", weight: { param: "w" }, machine: { entry: "D", states: { D: { clip: "D" } } } },
      { name: "mask", mask: "kid", machine: { entry: "C", states: { C: { clip: "C" } } } },
    ],
  }, [...ABCD, rampClip("R", 10)]);
  const inst = createInstance(g);
  const r = step(g, inst, 0.5);
  // base x = clip time 1.0 (0.5 s at rate 2); override D (x = 4) at weight 0.5 → 2.5; the masked layer
  // only touches the child joint (whose x becomes C's rest-track-less value: the rest pose, 0).
  close(r.pose.t[0]!, 2.5, 1e-6);
});

test("sync: a blend's cycle is the weight-averaged child cycle; sync groups carry the phase across a transition", () => {
  const clips = [rampClip("R1", 1), rampClip("R2", 2)];
  const g = compileOf(machineSpec({
    Blend: { blend1d: { param: "p", sync: true, children: [{ at: 0, clip: "R1" }, { at: 1, clip: "R2" }] } },
    A: { clip: "R1", syncGroup: "gait" },
    B: { clip: "R2", syncGroup: "gait" },
  }, [
    { from: "Blend", to: "A", conditions: [{ param: "go", value: 1 }], duration: 0 },
    { from: "A", to: "B", conditions: [{ param: "go", value: 2 }], duration: 0 },
  ], { p: { type: "float", default: 0.5 }, go: { type: "int" } }), clips);
  const inst = createInstance(g);
  const r = step(g, inst, 0.75);
  const mi = inst.layers[0]!;
  close(mi.statePhase[0]!, 0.5); // cycle = 0.5·1 + 0.5·2 = 1.5 s
  close(r.pose.t[0]!, 0.5 * 0.5 + 0.5 * 1.0); // R1 at phase 0.5 → 0.5 s, R2 → 1.0 s
  setParam(inst, "go", 1);
  step(g, inst, 0.25); // enters A at time 0, plays 0.25 s
  setParam(inst, "go", 2);
  const r2 = step(g, inst, 0);
  assert.equal(current(g, inst), "B");
  close(mi.stateTime[2]!, 0.5, 1e-9); // A's phase 0.25 → B (2 s cycle) starts at 0.5 s
  close(r2.pose.t[0]!, 0.5);
});

test("an additive layer of clips held at their first frame adds nothing; at weight 0 it is skipped", () => {
  const g = compileOf({
    animgraph: 1,
    parameters: { w: { type: "float", default: 1 } },
    layers: [
      { name: "base", machine: { entry: "A", states: { A: { clip: "A" } } } },
      { name: "add", mode: "additive", weight: { param: "w" }, machine: { entry: "Hold", states: { Hold: { clip: "R", speed: 0 }, Play: { clip: "R" } }, transitions: [{ from: "Hold", to: "Play", conditions: [{ param: "w", op: "<", value: 0.9 }], duration: 0 }] } },
    ],
  }, [...ABCD, rampClip("R", 1)]);
  const inst = createInstance(g);
  assert.equal(step(g, inst, 0.3).pose.t[0], 1, "delta of R at time 0 is zero");
  setParam(inst, "w", 0.5);
  step(g, inst, 0.4); // Play enters and plays 0.4 s: delta x = 0.4, at weight 0.5
  close(inst.result.pose.t[0]!, 1 + 0.5 * 0.4);
});

// The checker on graphs with one planted fault each: it finds the fault, at the right JSON pointer,
// with a witness timeline that its replay (parsed, then played by the runtime) reproduced.
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CheckReport } from "../../src/check/check-graph.ts";
import { check, clip, machine } from "./check-fixtures.ts";

function only(report: CheckReport, code: string): CheckReport["findings"][number] {
  const found = report.findings.filter((f) => f.code === code);
  assert.ok(found.length > 0, `expected ${code}; got ${report.findings.map((f) => `${f.code} ${f.pointer}`).join(", ") || "nothing"}`);
  for (const f of found) {
    assert.ok(f.witness, `${code} has a witness`);
    assert.equal(f.witness.replay, "reproduced", `${code}: ${f.message}`);
    assert.equal(f.witness.replayed, true);
  }
  assert.ok(report.exploration.complete, "the exploration of a small graph is complete");
  return found[0]!;
}

const SPEED = { speed: { type: "float", default: 0, min: 0, max: 6 } };

test("a play-once state with a gap in its ways out is stuck, with the speed in the gap as witness", () => {
  const r = check(machine("Idle", { Idle: clip("idle"), Walk: clip("walk"), Jump: clip("jump", { loop: "clamp" }) }, [
    { from: "*", to: "Jump", conditions: [{ param: "jump" }], duration: 0.1 },
    { from: "Idle", to: "Walk", conditions: [{ param: "speed", op: ">", value: 0.1 }], duration: 0.2 },
    { from: "Walk", to: "Idle", conditions: [{ param: "speed", op: "<=", value: 0.1 }], duration: 0.2 },
    { from: "Jump", to: "Idle", exitTime: 0.9, conditions: [{ param: "speed", op: "<=", value: 0.1 }], duration: 0.2 },
    { from: "Jump", to: "Walk", exitTime: 0.9, conditions: [{ param: "speed", op: ">", value: 0.5 }], duration: 0.2 },
  ], { ...SPEED, jump: { type: "trigger" } }));
  const f = only(r, "W_CHECK_STUCK_STATE");
  assert.equal(f.pointer, "/layers/0/machine/states/Jump");
  const set = f.witness!.timeline.events.filter((e) => "set" in e).map((e) => (e as { set: Record<string, number> }).set["speed"]).filter((v) => v !== undefined);
  const last = set[set.length - 1]!;
  assert.ok(last > 0.1 && last <= 0.5, `the witness holds speed in the gap (0.1, 0.5], got ${last}`);
  assert.ok(f.witness!.timeline.events.some((e) => "trigger" in e && e.trigger === "jump"));
  assert.equal(r.findings.filter((x) => x.severity !== "info").length, 1, "nothing else is reported");
});

test("instant transitions whose offset lies past their exit time loop within a step (lint cannot see it)", () => {
  const r = check(machine("A", { A: clip("a"), B: clip("b") }, [
    { from: "A", to: "B", exitTime: 0.5, offset: 0.6, conditions: [{ param: "x", op: ">", value: 1 }], duration: 0 },
    { from: "B", to: "A", exitTime: 0.5, offset: 0.6, duration: 0 },
  ], { x: { type: "float", default: 0, min: 0, max: 2 } }));
  const f = only(r, "E_CHECK_LIVELOCK");
  assert.match(f.message, /8 transitions within one step/);
});

test("two crossfades whose conditions hold together ping-pong for ever: a livelock", () => {
  const r = check(machine("A", { A: clip("a"), B: clip("b") }, [
    { from: "A", to: "B", conditions: [{ param: "x", op: ">", value: 1 }], duration: 0.2 },
    { from: "B", to: "A", conditions: [{ param: "x", op: ">", value: 0 }], duration: 0.2 },
  ], { x: { type: "float", default: 0, min: 0, max: 2 } }));
  const f = only(r, "E_CHECK_LIVELOCK");
  assert.equal(f.pointer, "/layers/0/machine/transitions/0");
  assert.match(f.message, /A → B, B → A/);
});

test("a state behind an exit time that an earlier exit always beats is unreachable, and its transition never fires", () => {
  const r = check(machine("A", { A: clip("a"), B: clip("b"), C: clip("c") }, [
    { from: "A", to: "B", conditions: [{ param: "go" }], duration: 0.1 },
    { from: "B", to: "A", exitTime: 0.2, duration: 0.1 },
    { from: "B", to: "C", exitTime: 0.5, duration: 0.1 },
    { from: "C", to: "A", duration: 0.1 },
  ], { go: { type: "bool", default: false } }));
  assert.equal(only(r, "W_CHECK_UNREACHABLE_STATE").pointer, "/layers/0/machine/states/C");
  assert.equal(only(r, "W_CHECK_TRANSITION_NEVER_FIRES").pointer, "/layers/0/machine/transitions/2");
});

test("a trigger tested by two layers goes to the first: the second layer's transition is robbed", () => {
  const r = check({ parameters: { fire: { type: "trigger" } }, layers: [
    { name: "base", machine: { entry: "Idle", states: { Idle: clip("idle"), Shoot: clip("shoot", { loop: "clamp" }) }, transitions: [
      { from: "*", to: "Shoot", conditions: [{ param: "fire" }], duration: 0.1 }, { from: "Shoot", to: "Idle", exitTime: 1, duration: 0.1 }] } },
    { name: "upper", machine: { entry: "Rest", states: { Rest: clip("rest"), Wave: clip("wave", { loop: "clamp" }) }, transitions: [
      { from: "Rest", to: "Wave", conditions: [{ param: "fire" }], duration: 0.1 }, { from: "Wave", to: "Rest", exitTime: 1, duration: 0.1 }] } },
  ] });
  assert.equal(only(r, "W_CHECK_TRIGGER_STOLEN").pointer, "/layers/1/machine/transitions/0");
  assert.equal(r.exploration.groups, 1, "layers sharing a trigger are explored together");
});

test("a trigger whose transition is undone within the same step has no effect", () => {
  const r = check(machine("A", { A: clip("a"), B: clip("b") }, [
    { from: "A", to: "B", conditions: [{ param: "t" }], duration: 0 },
    { from: "B", to: "A", exitTime: 0.5, offset: 0.6, duration: 0 },
  ], { t: { type: "trigger" } }));
  assert.equal(only(r, "W_CHECK_TRIGGER_NO_EFFECT").pointer, "/parameters/t");
});

test("a transition always beaten by an earlier one is shadowed; its trigger never fires anything", () => {
  const r = check(machine("A", { A: clip("a"), B: clip("b"), C: clip("c") }, [
    { from: "A", to: "B", conditions: [{ param: "x", op: ">", value: 0 }], duration: 0.1 },
    { from: "A", to: "C", conditions: [{ param: "t" }, { param: "x", op: ">", value: 1 }], duration: 0.1 },
    { from: "B", to: "A", conditions: [{ param: "x", op: "<=", value: 0 }], duration: 0.1 },
    { from: "C", to: "A", duration: 0.1, exitTime: 1 },
  ], { x: { type: "float", default: 0, min: 0, max: 2 }, t: { type: "trigger" } }));
  const f = only(r, "W_CHECK_SHADOWED_TRANSITION");
  assert.equal(f.pointer, "/layers/0/machine/transitions/1");
  assert.match(f.message, /transitions\/0/);
  assert.equal(only(r, "W_CHECK_TRIGGER_NEVER_FIRES").pointer, "/parameters/t");
});

test("an exit time behind a clock that a speed parameter can stop is never reached", () => {
  const r = check(machine("A", { A: clip("a", { speed: { param: "rate" } }), B: clip("b") }, [
    { from: "A", to: "B", exitTime: 0.5, conditions: [{ param: "go" }], duration: 0.1 },
    { from: "B", to: "A", conditions: [{ param: "go", value: false }], duration: 0.1 },
  ], { rate: { type: "float", default: 1, min: 0, max: 2 }, go: { type: "bool", default: false } }));
  const f = only(r, "W_CHECK_EXIT_TIME_NEVER_REACHED");
  assert.equal(f.pointer, "/layers/0/machine/transitions/0");
  assert.match(f.message, /rate = 0/);
});

test("a state entered and never left under any input is a trap", () => {
  // Hold plays at speed 0: its clock never moves, so its only way out, at exit time 0.5, never opens.
  const r = check(machine("A", { A: clip("a"), Hold: clip("hold", { speed: 0 }) }, [
    { from: "A", to: "Hold", conditions: [{ param: "go" }], duration: 0.1 },
    { from: "Hold", to: "A", exitTime: 0.5, duration: 0.1 },
  ], { go: { type: "bool", default: false } }));
  assert.equal(only(r, "W_CHECK_TRAP_STATE").pointer, "/layers/0/machine/states/Hold");
  assert.equal(only(r, "W_CHECK_EXIT_TIME_NEVER_REACHED").pointer, "/layers/0/machine/transitions/1");
});

test("in a nested machine: a play-once state stuck in a speed gap, and a trigger the parent machine takes first", () => {
  const r = check({
    parameters: { speed: { type: "float", default: 0, min: 0, max: 6 }, act: { type: "trigger" }, go: { type: "bool", default: false } },
    layers: [{
      name: "base",
      machine: {
        entry: "Loco",
        states: {
          Loco: { machine: { entry: "Idle", states: { Idle: clip("idle"), Walk: clip("walk"), Trip: clip("trip", { loop: "clamp" }) }, transitions: [
            { from: "Idle", to: "Walk", conditions: [{ param: "speed", op: ">", value: 1 }], duration: 0.2 },
            { from: "Walk", to: "Idle", conditions: [{ param: "speed", op: "<=", value: 1 }], duration: 0.2 },
            { from: "Walk", to: "Trip", conditions: [{ param: "act" }], duration: 0.1 },
            { from: "Trip", to: "Walk", exitTime: 0.9, conditions: [{ param: "speed", op: ">", value: 3 }], duration: 0.2 },
            { from: "Trip", to: "Idle", exitTime: 0.9, conditions: [{ param: "speed", op: "<=", value: 1 }], duration: 0.2 },
          ] } },
          Act: clip("act", { loop: "clamp" }),
        },
        transitions: [
          { from: "Loco", to: "Act", conditions: [{ param: "act" }, { param: "go" }], duration: 0.2 },
          { from: "Act", to: "Loco", exitTime: 1, duration: 0.2 },
        ],
      },
    }],
  });
  assert.equal(only(r, "W_CHECK_STUCK_STATE").pointer, "/layers/0/machine/states/Loco/machine/states/Trip");
  const stolen = only(r, "W_CHECK_TRIGGER_STOLEN");
  assert.equal(stolen.pointer, "/layers/0/machine/states/Loco/machine/transitions/2");
  assert.match(stolen.message, /consumed by base's Loco → Act/);
});

test("with the real clip lengths: an exit time never reached at the blend weights where an endless clip plays", async () => {
  const { parseGraphSpec } = await import("../../src/spec/parse-graph-spec.ts");
  const { parseJsonText } = await import("../../src/json/index.ts");
  const { compileGraph } = await import("../../src/graph/compile-graph.ts");
  const { createProceduralClip } = await import("../../src/graph/motion-source.ts");
  const { createSkeleton } = await import("../../src/skeleton/skeleton.ts");
  const { checkGraph } = await import("../../src/check/check-graph.ts");
  const doc = machine("Move", {
    Move: { blend1d: { param: "lean", children: [{ at: 0, clip: "walk" }, { at: 1, clip: "breathe" }] } },
    Stop: clip("walk"),
  }, [
    { from: "Move", to: "Stop", exitTime: 0.9, conditions: [{ param: "halt" }], duration: 0.2 },
    { from: "Stop", to: "Move", conditions: [{ param: "halt", value: false }], duration: 0.2 },
  ], { lean: { type: "float", default: 0, min: 0, max: 1 }, halt: { type: "bool", default: false } });
  const spec = parseGraphSpec(parseJsonText(JSON.stringify({ animgraph: 1, name: "blend-exit", ...doc }), "blend-exit.json")).spec!;
  const skeleton = createSkeleton({ names: ["root"], parents: [-1] });
  const sample = (out: { t: Float32Array }): void => { out.t[0] = 0; };
  const clips = new Map([
    ["walk", createProceduralClip({ name: "walk", duration: 1, sample })],
    ["breathe", createProceduralClip({ name: "breathe", duration: Infinity, sample })], // an endless procedural motion
  ]);
  const graph = compileGraph(spec, skeleton, clips).graph!;
  const r = checkGraph(spec, graph);
  const f = only(r, "W_CHECK_EXIT_TIME_NEVER_REACHED");
  assert.equal(f.pointer, "/layers/0/machine/transitions/0");
  assert.match(f.message, /lean = (?!0,)/, "at a blend weight on the endless clip, not at lean = 0");
  // With every child one second long (the stand-ins, no --clips) the exit time always comes.
  const standIn = check(doc);
  assert.equal(standIn.findings.filter((x) => x.code === "W_CHECK_EXIT_TIME_NEVER_REACHED").length, 0);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import type { LintOptions } from "../../src/lint/lint-options.ts";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import type { Json } from "../spec/spec-fixtures.ts";
import { cpuClock } from "../helpers/cpu-clock.ts";

const M = "/layers/0/machine";

/** A graph with one layer and the given machine parts; every parameter below is used somewhere. */
function graph(machine: Json, extra: Json = {}): Json {
  return {
    animgraph: 1,
    parameters: {
      speed: { type: "float", min: 0, max: 6 },
      n: { type: "int" },
      grounded: { type: "bool" },
      jump: { type: "trigger" },
    },
    layers: [{ name: "base", machine }],
    ...extra,
  };
}

/** Idle ⇄ Run on speed, Jump on the trigger and back on grounded: clean. */
function cleanMachine(): Json {
  return {
    entry: "Idle",
    states: { Idle: { clip: "idle" }, Run: { clip: "run", speed: { param: "n" } }, Jump: { clip: "jump" } },
    transitions: [
      { from: "*", to: "Jump", conditions: [{ param: "jump" }] },
      { from: "Idle", to: "Run", conditions: [{ param: "speed", op: ">", value: 0.5 }] },
      { from: "Run", to: "Idle", conditions: [{ param: "speed", op: "<=", value: 0.5 }] },
      { from: "Jump", to: "Idle", conditions: [{ param: "grounded" }], exitTime: 0.9 },
    ],
  };
}

function lint(spec: Json, options: Omit<LintOptions, "document"> = {}): Diagnostic[] {
  const doc = parseJsonText(JSON.stringify(spec, null, 2), "g.json");
  const parsed = parseGraphSpec(doc);
  assert.ok(parsed.spec, `the spec must parse: ${JSON.stringify(parsed.diagnostics)}`);
  return lintGraph(parsed.spec, { ...options, document: doc });
}

function codes(ds: readonly Diagnostic[]): string[] {
  return ds.map((d) => `${d.code} ${d.pointer}`);
}

function has(ds: readonly Diagnostic[], code: string, pointer: string): Diagnostic {
  const d = ds.find((x) => x.code === code && x.pointer === pointer);
  assert.ok(d, `expected ${code} at ${pointer}; got\n${codes(ds).join("\n")}`);
  return d;
}

test("a clean graph has no findings", () => {
  assert.deepEqual(codes(lint(graph(cleanMachine()))), []);
});

test("unknown states, parameters, masks; parameter types", () => {
  const m = cleanMachine();
  m["entry"] = "Idel";
  (m["transitions"] as Json[]).push({ from: "Run", to: "Ghost", conditions: [{ param: "sped", op: ">", value: 1 }] });
  (m["transitions"] as Json[]).push({ from: "Nowhere", to: "Idle" });
  (m["states"] as Json)["Blend"] = { blend1d: { param: "grounded", children: [{ at: 0, clip: "a" }] } };
  const ds = lint(graph(m, { masks: { upper: { include: ["Spine"] } }, layers: [{ name: "base", mask: "uper", machine: m }] }));
  assert.match(has(ds, "E_UNKNOWN_STATE", `${M}/entry`).message, /did you mean "Idle"/);
  has(ds, "E_UNKNOWN_STATE", `${M}/transitions/4/to`);
  has(ds, "E_UNKNOWN_STATE", `${M}/transitions/5/from`);
  assert.match(has(ds, "E_UNKNOWN_PARAM", `${M}/transitions/4/conditions/0/param`).message, /did you mean "speed"/);
  has(ds, "E_PARAM_TYPE", `${M}/states/Blend/blend1d/param`);
  has(ds, "E_UNKNOWN_MASK", "/layers/0/mask");
  has(ds, "W_UNUSED_MASK", "/masks/upper");
  for (const d of ds) assert.ok(d.line !== undefined && d.column !== undefined, `${d.code} is positioned`);
});

test("type mismatches in conditions", () => {
  const m = cleanMachine();
  (m["transitions"] as Json[]).push(
    { from: "Idle", to: "Jump", conditions: [{ param: "grounded", op: ">", value: 0 }] },
    { from: "Idle", to: "Jump", conditions: [{ param: "jump", op: "==", value: false }] },
    { from: "Idle", to: "Jump", conditions: [{ param: "speed" }] },
    { from: "Idle", to: "Jump", conditions: [{ param: "grounded", op: "==", value: 1 }] },
    { from: "Idle", to: "Jump", conditions: [{ param: "jump", op: ">", value: 0 }] },
  );
  const ds = lint(graph(m)).filter((d) => d.code === "E_CONDITION_TYPE");
  assert.deepEqual(ds.map((d) => d.pointer), [4, 5, 6, 7, 8].map((i) => `${M}/transitions/${i}/conditions/0`));
  assert.match(ds[0]!.message, /bool parameter "grounded" cannot be compared with ">"/);
  assert.match(ds[1]!.message, /trigger "jump" can only be tested for being set/);
  assert.match(ds[2]!.message, /float parameter "speed" is compared with a boolean/);
});

test("clips and joints are checked when given; events past the clip's end", () => {
  const m = cleanMachine();
  (m["states"] as Json)["Idle"] = { clip: "idle", events: [{ name: "blink", time: 3 }] };
  const spec = graph(m, { masks: { upper: { include: ["Spine", "Hed"], exclude: ["Neck"] } }, layers: [{ name: "base", mask: "upper", machine: m }] });
  assert.ok(!lint(spec).some((d) => d.code === "E_UNKNOWN_CLIP" || d.code === "E_UNKNOWN_JOINT"));
  const ds = lint(spec, {
    clips: [{ name: "idle", duration: 2 }, { name: "run", duration: 1 }],
    joints: ["Hips", "Spine", "Neck", "Head"],
  });
  assert.match(has(ds, "E_UNKNOWN_CLIP", `${M}/states/Jump/clip`).message, /unknown clip "jump"/);
  assert.match(has(ds, "E_UNKNOWN_JOINT", "/masks/upper/include/1").message, /did you mean "Head"/);
  has(ds, "W_EVENT_OUT_OF_RANGE", `${M}/states/Idle/events/0/time`);
  assert.equal(ds.filter((d) => d.code === "E_UNKNOWN_CLIP").length, 1);
});

test("unused parameters are warnings", () => {
  const spec = graph(cleanMachine());
  (spec["parameters"] as Json)["unused"] = { type: "bool" };
  const d = has(lint(spec), "W_UNUSED_PARAM", "/parameters/unused");
  assert.equal(d.severity, "warning");
});

test("unreachable and dead-end states; final states and '*' transitions are ways out", () => {
  const m: Json = {
    entry: "A",
    states: { A: { clip: "a" }, B: { clip: "b" }, Island: { clip: "c" }, End: { clip: "d", final: true }, Stuck: { clip: "e" } },
    transitions: [
      { from: "A", to: "B", conditions: [{ param: "speed", op: ">", value: 1 }] },
      { from: "B", to: "End", conditions: [{ param: "grounded" }] },
      { from: "B", to: "Stuck", conditions: [{ param: "n", op: ">", value: 3 }] },
      { from: "Island", to: "A", conditions: [{ param: "jump" }] },
    ],
  };
  const ds = lint(graph(m));
  assert.deepEqual(ds.filter((d) => d.code === "W_UNREACHABLE_STATE").map((d) => d.pointer), [`${M}/states/Island`]);
  // End is final; Stuck has no way out; A and B have.
  assert.deepEqual(ds.filter((d) => d.code === "W_DEAD_END_STATE").map((d) => d.pointer), [`${M}/states/Stuck`]);

  // A "*" transition is a way out of every state but its target, and reaches its target.
  (m["transitions"] as Json[]).push({ from: "*", to: "Island", conditions: [{ param: "jump" }] });
  const ds2 = lint(graph(m));
  assert.ok(!ds2.some((d) => d.code === "W_UNREACHABLE_STATE"), codes(ds2).join("\n"));
  assert.ok(!ds2.some((d) => d.code === "W_DEAD_END_STATE"), codes(ds2).join("\n"));
});

test("a one-state machine is not a dead end; a transition to an unknown state is no way out", () => {
  const one = graph({ entry: "Only", states: { Only: { clip: "x" } } });
  (one["parameters"] as Json) = {};
  assert.deepEqual(codes(lint(one)), []);
  const m: Json = { entry: "A", states: { A: { clip: "a" }, B: { clip: "b" } }, transitions: [{ from: "A", to: "B" }, { from: "B", to: "Ghost" }] };
  const spec = graph(m);
  spec["parameters"] = {};
  has(lint(spec), "W_DEAD_END_STATE", `${M}/states/B`);
});

test("transitions that can never fire: contradictions, parameter ranges, int gaps, bools; exit times past the end", () => {
  const m: Json = {
    entry: "A",
    states: { A: { clip: "a" }, B: { clip: "b", loop: "clamp" }, C: { clip: "c" } },
    transitions: [
      { from: "A", to: "B", conditions: [{ param: "speed", op: ">", value: 5 }, { param: "speed", op: "<", value: 2 }] },
      { from: "A", to: "B", conditions: [{ param: "speed", op: ">", value: 10 }] },
      { from: "A", to: "C", conditions: [{ param: "n", op: ">", value: 1 }, { param: "n", op: "<", value: 2 }] },
      { from: "A", to: "C", conditions: [{ param: "grounded" }, { param: "grounded", op: "==", value: false }] },
      { from: "B", to: "A", exitTime: 1.5 },
      { from: "C", to: "A", exitTime: 1.5, conditions: [{ param: "jump" }] },
      { from: "A", to: "C", conditions: [{ param: "speed", op: "==", value: 3 }, { param: "speed", op: "!=", value: 3 }] },
      { from: "A", to: "B", conditions: [{ param: "speed", op: ">=", value: 6 }] },
    ],
  };
  const ds = lint(graph(m));
  const never = ds.filter((d) => d.code === "E_TRANSITION_NEVER_FIRES").map((d) => d.pointer);
  // 7 (speed ≥ 6 = max) can fire.
  assert.deepEqual(never, [0, 1, 2, 3, 6].map((i) => `${M}/transitions/${i}`));
  // 4 leaves B (plays once) at 1.5: it fires, after B has held its last pose for half its length.
  // 5 leaves C (loops) at 1.5: halfway through the second cycle, nothing odd.
  const past = ds.filter((d) => d.code === "W_EXIT_TIME_PAST_END");
  assert.deepEqual(past.map((d) => d.pointer), [`${M}/transitions/4/exitTime`]);
  assert.match(past[0]!.message, /exit time 1.5 is past the end of state "B", which plays once and holds: its last pose stays frozen for 0.5/);
});

test("an inertialized or dead-blended transition of duration 0 is a cut: W_BLEND_WITHOUT_DURATION", () => {
  const m: Json = {
    entry: "A", states: { A: { clip: "a" }, B: { clip: "b" } },
    transitions: [
      { from: "A", to: "B", blend: "inertialize", duration: 0, exitTime: 1 },
      { from: "B", to: "A", blend: "deadBlend", durationFrames: 0, exitTime: 1 },
      { from: "A", to: "B", blend: "inertialize", duration: 0.2, exitTime: 2 },
      { from: "B", to: "A", blend: "crossfade", duration: 0, exitTime: 2 },
    ],
  };
  const spec = graph(m);
  spec["parameters"] = {};
  const found = lint(spec).filter((d) => d.code === "W_BLEND_WITHOUT_DURATION");
  assert.deepEqual(found.map((d) => d.pointer), [`${M}/transitions/0/blend`, `${M}/transitions/1/blend`]);
  assert.match(found[0]!.message, /"A" -> "B" asks for "inertialize" but its duration is 0/);
});

test("an exit time past the end of a clip that the clip info says is clamped", () => {
  const m: Json = { entry: "A", states: { A: { clip: "once" }, B: { clip: "b" } }, transitions: [{ from: "A", to: "B", exitTime: 1.2 }, { from: "B", to: "A" }] };
  const spec = graph(m);
  spec["parameters"] = {};
  assert.ok(!lint(spec).some((d) => d.code === "W_EXIT_TIME_PAST_END"));
  const ds = lint(spec, { clips: [{ name: "once", duration: 1, loop: "clamp" }, { name: "b", duration: 1 }] });
  has(ds, "W_EXIT_TIME_PAST_END", `${M}/transitions/0/exitTime`);
});

test("shadowed transitions: an earlier one whose conditions follow from the later one's", () => {
  const m: Json = {
    entry: "A",
    states: { A: { clip: "a" }, B: { clip: "b" }, C: { clip: "c" }, D: { clip: "d" } },
    transitions: [
      { from: "A", to: "B", conditions: [{ param: "speed", op: ">", value: 1 }] },
      { from: "A", to: "C", conditions: [{ param: "speed", op: ">", value: 2 }, { param: "grounded" }] },
      { from: "A", to: "D", conditions: [{ param: "speed", op: "<", value: 1 }], exitTime: 0.5 },
      { from: "A", to: "C", conditions: [{ param: "speed", op: "<", value: 0.5 }] },
      { from: "A", to: "C", conditions: [{ param: "speed", op: "<", value: 0.5 }], exitTime: 0.8 },
      { from: "B", to: "A" }, { from: "C", to: "A" }, { from: "D", to: "A" },
    ],
  };
  const ds = lint(graph(m));
  const shadowed = ds.filter((d) => d.code === "W_SHADOWED_TRANSITION");
  // 1: speed > 2 implies speed > 1 (transition 0 fires first). 3 is not shadowed by 2 (2 waits for an
  // exit time that 3 does not), 4 is (it waits at least as long as 2, and speed < 0.5 implies < 1).
  assert.deepEqual(shadowed.map((d) => d.pointer), [`${M}/transitions/1`, `${M}/transitions/4`]);
  assert.match(shadowed[0]!.message, /transitions\/0 \("A" -> "B"\) comes first/);
});

test("a '*' transition shadows later ones from every state it covers", () => {
  const m: Json = {
    entry: "A",
    states: { A: { clip: "a" }, B: { clip: "b" }, Hit: { clip: "h" } },
    transitions: [
      { from: "*", to: "Hit", conditions: [{ param: "jump" }] },
      { from: "A", to: "B", conditions: [{ param: "jump" }, { param: "speed", op: ">", value: 1 }] },
      // From Hit the "*" transition does not apply (no canTransitionToSelf): this one is not shadowed.
      { from: "Hit", to: "A", conditions: [{ param: "jump" }] },
      { from: "B", to: "A", conditions: [{ param: "speed", op: "<", value: 1 }] },
      { from: "*", to: "A", conditions: [{ param: "jump" }] },
    ],
  };
  const ds = lint(graph(m));
  const shadowed = ds.filter((d) => d.code === "W_SHADOWED_TRANSITION").map((d) => d.pointer);
  // 4 ("*" -> A on jump): from A and B transition 0 comes first; from Hit, transition 2 does.
  assert.deepEqual(shadowed, [`${M}/transitions/1`, `${M}/transitions/4`]);
});

test("ambiguous transitions: overlapping conditions, neither a special case of the other", () => {
  const m: Json = {
    entry: "A",
    states: { A: { clip: "a" }, B: { clip: "b" }, C: { clip: "c" }, D: { clip: "d" } },
    transitions: [
      { from: "A", to: "B", conditions: [{ param: "speed", op: ">", value: 1 }] },
      { from: "A", to: "C", conditions: [{ param: "speed", op: "<", value: 3 }] },
      { from: "A", to: "D", conditions: [{ param: "speed", op: "<=", value: 1 }, { param: "grounded" }] },
      { from: "B", to: "C", conditions: [{ param: "n", op: ">", value: 3 }] },
      { from: "B", to: "D", conditions: [{ param: "n", op: ">", value: 1 }] },
      { from: "C", to: "A" }, { from: "D", to: "A" },
    ],
  };
  const ds = lint(graph(m));
  const amb = ds.filter((d) => d.code === "W_AMBIGUOUS_TRANSITIONS");
  // 1 overlaps 0 on speed in (1, 3). 2 (speed ≤ 1 and grounded) is disjoint from 0 and implies 1, so 1
  // always fires first: shadowed, not ambiguous. 4 is more general than 3 (n > 3 implies n > 1): the
  // special case comes first, so the order is deliberate.
  assert.deepEqual(amb.map((d) => d.pointer), [`${M}/transitions/1`]);
  assert.equal(amb[0]!.severity, "warning");
  has(ds, "W_SHADOWED_TRANSITION", `${M}/transitions/2`);
});

test("zero-duration cycles whose conditions can hold together are errors", () => {
  const m: Json = {
    entry: "A",
    states: { A: { clip: "a" }, B: { clip: "b" }, C: { clip: "c" } },
    transitions: [
      { from: "A", to: "B", duration: 0, conditions: [{ param: "speed", op: ">", value: 1 }] },
      { from: "B", to: "C", durationFrames: 0, conditions: [{ param: "speed", op: ">", value: 2 }] },
      { from: "C", to: "A", duration: 0, conditions: [{ param: "speed", op: "<", value: 4 }] },
    ],
  };
  const ds = lint(graph(m));
  const d = has(ds, "E_ZERO_DURATION_CYCLE", `${M}/transitions/0`);
  assert.match(d.message, /"A" -> "B" -> "C" -> "A"/);

  // Contradictory along the cycle (speed > 2 and speed < 1): no finding.
  ((m["transitions"] as Json[])[2]!["conditions"] as Json[])[0]!["value"] = 1;
  assert.ok(!lint(graph(m)).some((x) => x.code === "E_ZERO_DURATION_CYCLE"));
  // An exit time, a crossfade or a trigger breaks the loop.
  for (const fix of [{ exitTime: 0.5 }, { duration: 0.1 }, { conditions: [{ param: "jump" }] }]) {
    const m2 = structuredClone(m);
    ((m2["transitions"] as Json[])[2]!["conditions"] as Json[])[0]!["value"] = 4;
    Object.assign((m2["transitions"] as Json[])[1]!, fix);
    if ("duration" in fix) delete (m2["transitions"] as Json[])[1]!["durationFrames"];
    assert.ok(!lint(graph(m2)).some((x) => x.code === "E_ZERO_DURATION_CYCLE"), JSON.stringify(fix));
  }
});

test("a '*' instant transition that may re-enter its own target loops on itself", () => {
  const m: Json = { entry: "A", states: { A: { clip: "a" }, B: { clip: "b" } }, transitions: [{ from: "*", to: "B", duration: 0, canTransitionToSelf: true, conditions: [{ param: "grounded" }] }] };
  has(lint(graph(m)), "E_ZERO_DURATION_CYCLE", `${M}/transitions/0`);
});

test("crossfades outside the frame budget, in frames or seconds", () => {
  const m = cleanMachine();
  const ts = m["transitions"] as Json[];
  ts[1]!["durationFrames"] = 30;
  ts[2]!["duration"] = 0.05;
  ts[3]!["duration"] = 0.5;
  const ds = lint(graph(m, { transitionBudget: { minFrames: 4, maxFrames: 24 } }));
  const over = ds.filter((d) => d.code === "E_TRANSITION_BUDGET");
  assert.deepEqual(over.map((d) => d.pointer), [`${M}/transitions/1/durationFrames`, `${M}/transitions/2/duration`]);
  assert.match(over[1]!.message, /1\.5 frames/);
  // The default duration (0.2 s = 6 frames) is inside; a finding on it would point at the transition.
  const tight = lint(graph(cleanMachine(), { transitionBudget: { minFrames: 8, maxFrames: 24 } }));
  assert.equal(tight.filter((d) => d.code === "E_TRANSITION_BUDGET" && d.pointer === `${M}/transitions/0`).length, 1);
});

test("blend trees and spaces: duplicate positions and samples, collinear samples, one parameter twice, incomplete grids", () => {
  const m = cleanMachine();
  Object.assign(m["states"] as Json, {
    B1: { blend1d: { param: "speed", children: [{ at: 0, clip: "a" }, { at: 2, clip: "b" }, { at: 2, clip: "c" }] } },
    B2: { blend2d: { params: ["speed", "speed"], samples: [{ x: 0, y: 0, clip: "a" }, { x: 1, y: 0, clip: "b" }, { x: 0, y: 1, clip: "c" }, { x: 0, y: 0, clip: "d" }] } },
    B3: { blend2d: { params: ["speed", "n"], samples: [{ x: 0, y: 0, clip: "a" }, { x: 1, y: 1, clip: "b" }, { x: 2, y: 2, clip: "c" }] } },
    B4: { blend2d: { params: ["speed", "n"], mode: "grid", samples: [{ x: 0, y: 0, clip: "a" }, { x: 1, y: 0, clip: "b" }, { x: 0, y: 1, clip: "c" }] } },
    B5: { blend2d: { params: ["speed", "n"], mode: "grid", samples: [{ x: 0, y: 0, clip: "a" }, { x: 1, y: 0, clip: "b" }, { x: 0, y: 1, clip: "c" }, { x: 1, y: 1, clip: "d" }] } },
  });
  const ds = lint(graph(m)).filter((d) => d.code.startsWith("E_BLEND"));
  const S = `${M}/states`;
  assert.deepEqual(codes(ds).sort(), [
    `E_BLEND_COLLINEAR ${S}/B3/blend2d/samples`,
    `E_BLEND_DUPLICATE_POSITION ${S}/B1/blend1d/children/2/at`,
    `E_BLEND_DUPLICATE_SAMPLE ${S}/B2/blend2d/samples/3`,
    `E_BLEND_GRID_INCOMPLETE ${S}/B4/blend2d/samples`,
    `E_BLEND_SAME_PARAMS ${S}/B2/blend2d/params`,
  ].sort());
});

test("nested machines are linted too, with their own entry", () => {
  const inner: Json = { entry: "Up", states: { Up: { clip: "up" }, Down: { clip: "down" }, Lost: { clip: "x" } }, transitions: [{ from: "Up", to: "Down", exitTime: 0.9 }] };
  const m = cleanMachine();
  (m["states"] as Json)["Jump"] = { machine: inner };
  const ds = lint(graph(m));
  has(ds, "W_UNREACHABLE_STATE", `${M}/states/Jump/machine/states/Lost`);
  has(ds, "W_DEAD_END_STATE", `${M}/states/Jump/machine/states/Down`);
});

test("a transition on an event placed first is a deliberate special case, not an ambiguity", () => {
  const m: Json = {
    entry: "A",
    states: { A: { clip: "a" }, Jump: { clip: "j" }, Run: { clip: "r" }, Wave: { clip: "w" } },
    transitions: [
      { from: "A", to: "Jump", conditions: [{ param: "jump" }] },
      { from: "A", to: "Run", conditions: [{ param: "speed", op: ">", value: 1 }] },
      // An event behind a continuous condition: reported, with the hint to move it first.
      { from: "A", to: "Wave", conditions: [{ param: "wave" }, { param: "n", op: ">", value: 0 }] },
      { from: "Jump", to: "A" }, { from: "Run", to: "A" }, { from: "Wave", to: "A" },
    ],
  };
  const spec = graph(m);
  spec["parameters"] = { speed: { type: "float" }, n: { type: "int" }, jump: { type: "trigger" }, wave: { type: "trigger" } };
  const amb = lint(spec).filter((d) => d.code === "W_AMBIGUOUS_TRANSITIONS");
  assert.deepEqual(amb.map((d) => d.pointer), [`${M}/transitions/2`]);
  assert.match(amb[0]!.message, /"A" -> "Run" \(\/layers\/0\/machine\/transitions\/1\) and "A" -> "Wave"/);
  assert.match(amb[0]!.message, /move this transition on a trigger before the other/);
});

test("a huge machine stops the pairwise analyses at their work budget (I_LINT_SKIPPED) instead of running long", () => {
  const states: Json = { A: { clip: "a" } };
  const transitions: Json[] = [];
  for (let i = 0; i < 2100; i++) {
    states[`S${i}`] = { clip: "s", final: true };
    transitions.push({ from: "A", to: `S${i}`, conditions: [{ param: "speed", op: ">", value: (i % 60) / 10 }] });
  }
  const cpuMs = cpuClock();
  const ds = lint(graph({ entry: "A", states, transitions }, { parameters: { speed: { type: "float" } } }));
  assert.ok(cpuMs() < 15_000, `${cpuMs()} ms of CPU`);
  has(ds, "I_LINT_SKIPPED", M);
  assert.equal(ds.find((d) => d.code === "I_LINT_SKIPPED")!.severity, "info");
});

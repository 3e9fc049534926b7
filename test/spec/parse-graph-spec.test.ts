import { test } from "node:test";
import assert from "node:assert/strict";
import { parseGraphSpec } from "../../src/spec/parse-graph-spec.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { baseSpec, machineOf, paramsOf, parseObject, parseText, statesOf, transitionsOf, type Json } from "./spec-fixtures.ts";

const M = "/layers/0/machine";
const T0 = `${M}/transitions/0`;

interface Row {
  readonly name: string;
  readonly mutate: (s: Json) => void;
  readonly code: string;
  readonly pointer: string;
}

// One row per bad input: the diagnostic code and the JSON pointer it must be reported at.
const ROWS: Row[] = [
  { name: "version 2", mutate: (s) => (s["animgraph"] = 2), code: "E_SPEC_VERSION", pointer: "/animgraph" },
  { name: "version missing", mutate: (s) => delete s["animgraph"], code: "E_MISSING_KEY", pointer: "" },
  { name: "unknown root key", mutate: (s) => (s["stats"] = {}), code: "E_SPEC_UNKNOWN_KEY", pointer: "/stats" },
  { name: "frameRate 0", mutate: (s) => (s["frameRate"] = 0), code: "E_OUT_OF_RANGE", pointer: "/frameRate" },
  { name: "frameRate string", mutate: (s) => (s["frameRate"] = "30"), code: "E_WRONG_TYPE", pointer: "/frameRate" },
  { name: "budget min > max", mutate: (s) => (s["transitionBudget"] = { minFrames: 9, maxFrames: 3 }), code: "E_SPEC_RANGE", pointer: "/transitionBudget" },
  { name: "budget not integer", mutate: (s) => (s["transitionBudget"] = { minFrames: 1.5, maxFrames: 3 }), code: "E_NOT_INTEGER", pointer: "/transitionBudget/minFrames" },
  { name: "budget key missing", mutate: (s) => (s["transitionBudget"] = { minFrames: 1 }), code: "E_MISSING_KEY", pointer: "/transitionBudget" },
  { name: "param type unknown", mutate: (s) => ((paramsOf(s)["speed"] as Json)["type"] = "double"), code: "E_SPEC_BAD_ENUM", pointer: "/parameters/speed/type" },
  { name: "param type missing", mutate: (s) => delete (paramsOf(s)["speed"] as Json)["type"], code: "E_MISSING_KEY", pointer: "/parameters/speed" },
  { name: "bool with min", mutate: (s) => ((paramsOf(s)["grounded"] as Json)["min"] = 0), code: "E_SPEC_NOT_ALLOWED", pointer: "/parameters/grounded/min" },
  { name: "trigger default true", mutate: (s) => ((paramsOf(s)["jump"] as Json)["default"] = true), code: "E_SPEC_BAD_VALUE", pointer: "/parameters/jump/default" },
  { name: "bool default number", mutate: (s) => ((paramsOf(s)["grounded"] as Json)["default"] = 1), code: "E_NOT_BOOLEAN", pointer: "/parameters/grounded/default" },
  { name: "float default outside range", mutate: (s) => ((paramsOf(s)["speed"] as Json)["default"] = 7), code: "E_OUT_OF_RANGE", pointer: "/parameters/speed/default" },
  { name: "int default fractional", mutate: (s) => ((paramsOf(s)["n"] as Json)["default"] = 1.5), code: "E_NOT_INTEGER", pointer: "/parameters/n/default" },
  { name: "min > max", mutate: (s) => ((paramsOf(s)["speed"] as Json)["min"] = 9), code: "E_SPEC_RANGE", pointer: "/parameters/speed" },
  { name: "param not an object", mutate: (s) => (paramsOf(s)["speed"] = "float"), code: "E_WRONG_TYPE", pointer: "/parameters/speed" },
  { name: "mask weight 2", mutate: (s) => ((s["masks"] as Json)["upper"] = { include: [], weight: 2 }), code: "E_OUT_OF_RANGE", pointer: "/masks/upper/weight" },
  { name: "mask include missing", mutate: (s) => ((s["masks"] as Json)["upper"] = { exclude: ["Neck"] }), code: "E_MISSING_KEY", pointer: "/masks/upper" },
  { name: "mask joint not a string", mutate: (s) => ((s["masks"] as Json)["upper"] = { include: [3] }), code: "E_WRONG_TYPE", pointer: "/masks/upper/include/0" },
  { name: "layers empty", mutate: (s) => (s["layers"] = []), code: "E_SPEC_EMPTY", pointer: "/layers" },
  { name: "layers missing", mutate: (s) => delete s["layers"], code: "E_MISSING_KEY", pointer: "" },
  { name: "layer names repeat", mutate: (s) => (s["layers"] as Json[]).push((baseSpec()["layers"] as Json[])[0]!), code: "E_SPEC_DUPLICATE_NAME", pointer: "/layers/1" },
  { name: "layer mode unknown", mutate: (s) => ((s["layers"] as Json[])[0]!["mode"] = "multiply"), code: "E_SPEC_BAD_ENUM", pointer: "/layers/0/mode" },
  { name: "layer weight 1.5", mutate: (s) => ((s["layers"] as Json[])[0]!["weight"] = 1.5), code: "E_OUT_OF_RANGE", pointer: "/layers/0/weight" },
  { name: "layer weight ref not a name", mutate: (s) => ((s["layers"] as Json[])[0]!["weight"] = { param: 3 }), code: "E_WRONG_TYPE", pointer: "/layers/0/weight/param" },
  { name: "layer weight ref extra key", mutate: (s) => ((s["layers"] as Json[])[0]!["weight"] = { param: "speed", scale: 2 }), code: "E_SPEC_UNKNOWN_KEY", pointer: "/layers/0/weight/scale" },
  { name: "layer without machine", mutate: (s) => delete (s["layers"] as Json[])[0]!["machine"], code: "E_MISSING_KEY", pointer: "/layers/0" },
  { name: "machine without entry", mutate: (s) => delete machineOf(s)["entry"], code: "E_MISSING_KEY", pointer: M },
  { name: "no states", mutate: (s) => (machineOf(s)["states"] = {}), code: "E_SPEC_EMPTY", pointer: `${M}/states` },
  { name: "state named *", mutate: (s) => (statesOf(s)["*"] = { clip: "x" }), code: "E_SPEC_RESERVED_NAME", pointer: `${M}/states/*` },
  { name: "state without motion", mutate: (s) => (statesOf(s)["Idle"] = { speed: 1 }), code: "E_SPEC_MOTION", pointer: `${M}/states/Idle` },
  { name: "state with two motions", mutate: (s) => ((statesOf(s)["Idle"] as Json)["blend1d"] = { param: "speed", children: [{ at: 0, clip: "a" }] }), code: "E_SPEC_MOTION", pointer: `${M}/states/Idle/blend1d` },
  { name: "state key typo", mutate: (s) => ((statesOf(s)["Idle"] as Json)["lopp"] = "clamp"), code: "E_SPEC_UNKNOWN_KEY", pointer: `${M}/states/Idle/lopp` },
  { name: "loop unknown", mutate: (s) => ((statesOf(s)["Idle"] as Json)["loop"] = "forever"), code: "E_SPEC_BAD_ENUM", pointer: `${M}/states/Idle/loop` },
  { name: "speed a string", mutate: (s) => ((statesOf(s)["Idle"] as Json)["speed"] = "fast"), code: "E_WRONG_TYPE", pointer: `${M}/states/Idle/speed` },
  { name: "speed negative", mutate: (s) => ((statesOf(s)["Idle"] as Json)["speed"] = -1), code: "E_OUT_OF_RANGE", pointer: `${M}/states/Idle/speed` },
  { name: "speed ref without param", mutate: (s) => ((statesOf(s)["Idle"] as Json)["speed"] = {}), code: "E_MISSING_KEY", pointer: `${M}/states/Idle/speed` },
  { name: "event without time", mutate: (s) => ((statesOf(s)["Run"] as Json)["events"] = [{ name: "step" }]), code: "E_MISSING_KEY", pointer: `${M}/states/Run/events/0` },
  { name: "event time negative", mutate: (s) => ((statesOf(s)["Run"] as Json)["events"] = [{ name: "step", time: -1 }]), code: "E_OUT_OF_RANGE", pointer: `${M}/states/Run/events/0/time` },
  { name: "final not boolean", mutate: (s) => ((statesOf(s)["Run"] as Json)["final"] = "yes"), code: "E_NOT_BOOLEAN", pointer: `${M}/states/Run/final` },
  { name: "clip not a string", mutate: (s) => ((statesOf(s)["Run"] as Json)["clip"] = 5), code: "E_WRONG_TYPE", pointer: `${M}/states/Run/clip` },
  { name: "blend1d no children", mutate: (s) => (statesOf(s)["Run"] = { blend1d: { param: "speed", children: [] } }), code: "E_SPEC_EMPTY", pointer: `${M}/states/Run/blend1d/children` },
  { name: "blend1d at a string", mutate: (s) => (statesOf(s)["Run"] = { blend1d: { param: "speed", children: [{ at: "0", clip: "a" }] } }), code: "E_WRONG_TYPE", pointer: `${M}/states/Run/blend1d/children/0/at` },
  { name: "blend1d weighting unknown", mutate: (s) => (statesOf(s)["Run"] = { blend1d: { param: "speed", weighting: "cubic", children: [{ at: 0, clip: "a" }] } }), code: "E_SPEC_BAD_ENUM", pointer: `${M}/states/Run/blend1d/weighting` },
  { name: "blend1d without param", mutate: (s) => (statesOf(s)["Run"] = { blend1d: { children: [{ at: 0, clip: "a" }] } }), code: "E_MISSING_KEY", pointer: `${M}/states/Run/blend1d` },
  { name: "blend2d one param", mutate: (s) => (statesOf(s)["Run"] = { blend2d: { params: ["speed"], samples: [{ x: 0, y: 0, clip: "a" }] } }), code: "E_SPEC_ARITY", pointer: `${M}/states/Run/blend2d/params` },
  { name: "blend2d mode unknown", mutate: (s) => (statesOf(s)["Run"] = { blend2d: { params: ["speed", "n"], mode: "hex", samples: [{ x: 0, y: 0, clip: "a" }] } }), code: "E_SPEC_BAD_ENUM", pointer: `${M}/states/Run/blend2d/mode` },
  { name: "blend2d sample without clip", mutate: (s) => (statesOf(s)["Run"] = { blend2d: { params: ["speed", "n"], samples: [{ x: 0, y: 0 }] } }), code: "E_MISSING_KEY", pointer: `${M}/states/Run/blend2d/samples/0` },
  { name: "duration and durationFrames", mutate: (s) => Object.assign(transitionsOf(s)[0]!, { duration: 0.1, durationFrames: 3 }), code: "E_SPEC_CONFLICT", pointer: `${T0}/durationFrames` },
  { name: "exitTime and exitPermille", mutate: (s) => Object.assign(transitionsOf(s)[0]!, { exitTime: 0.5, exitPermille: 500 }), code: "E_SPEC_CONFLICT", pointer: `${T0}/exitPermille` },
  { name: "duration negative", mutate: (s) => (transitionsOf(s)[0]!["duration"] = -0.1), code: "E_OUT_OF_RANGE", pointer: `${T0}/duration` },
  { name: "durationFrames fractional", mutate: (s) => (transitionsOf(s)[0]!["durationFrames"] = 2.5), code: "E_NOT_INTEGER", pointer: `${T0}/durationFrames` },
  { name: "exitPermille negative", mutate: (s) => (transitionsOf(s)[0]!["exitPermille"] = -1), code: "E_OUT_OF_RANGE", pointer: `${T0}/exitPermille` },
  { name: "exitTime a string", mutate: (s) => (transitionsOf(s)[0]!["exitTime"] = "end"), code: "E_WRONG_TYPE", pointer: `${T0}/exitTime` },
  { name: "offset negative", mutate: (s) => (transitionsOf(s)[0]!["offset"] = -1), code: "E_OUT_OF_RANGE", pointer: `${T0}/offset` },
  { name: "curve unknown", mutate: (s) => (transitionsOf(s)[0]!["curve"] = "bounce"), code: "E_SPEC_BAD_ENUM", pointer: `${T0}/curve` },
  { name: "blend unknown", mutate: (s) => (transitionsOf(s)[0]!["blend"] = "inertialise"), code: "E_SPEC_BAD_ENUM", pointer: `${T0}/blend` },
  { name: "blend not a string", mutate: (s) => (transitionsOf(s)[0]!["blend"] = 1), code: "E_WRONG_TYPE", pointer: `${T0}/blend` },
  { name: "transition to *", mutate: (s) => (transitionsOf(s)[0]!["to"] = "*"), code: "E_SPEC_RESERVED_NAME", pointer: `${T0}/to` },
  { name: "transition key typo", mutate: (s) => (transitionsOf(s)[0]!["form"] = "Idle"), code: "E_SPEC_UNKNOWN_KEY", pointer: `${T0}/form` },
  { name: "transition without to", mutate: (s) => delete transitionsOf(s)[0]!["to"], code: "E_MISSING_KEY", pointer: T0 },
  { name: "transitions not an array", mutate: (s) => (machineOf(s)["transitions"] = {}), code: "E_WRONG_TYPE", pointer: `${M}/transitions` },
  { name: "conditions not an array", mutate: (s) => (transitionsOf(s)[0]!["conditions"] = { param: "speed" }), code: "E_WRONG_TYPE", pointer: `${T0}/conditions` },
  { name: "op unknown", mutate: (s) => (transitionsOf(s)[0]!["conditions"] = [{ param: "speed", op: "=~", value: 1 }]), code: "E_SPEC_BAD_ENUM", pointer: `${T0}/conditions/0/op` },
  { name: "ordering op without value", mutate: (s) => (transitionsOf(s)[0]!["conditions"] = [{ param: "speed", op: ">" }]), code: "E_MISSING_KEY", pointer: `${T0}/conditions/0` },
  { name: "condition value a string", mutate: (s) => (transitionsOf(s)[0]!["conditions"] = [{ param: "speed", op: ">", value: "fast" }]), code: "E_WRONG_TYPE", pointer: `${T0}/conditions/0/value` },
  { name: "condition without param", mutate: (s) => (transitionsOf(s)[0]!["conditions"] = [{ op: ">", value: 1 }]), code: "E_MISSING_KEY", pointer: `${T0}/conditions/0` },
  { name: "interruption source unknown", mutate: (s) => (transitionsOf(s)[0]!["interruption"] = { source: "any" }), code: "E_SPEC_BAD_ENUM", pointer: `${T0}/interruption/source` },
  { name: "interruption a string", mutate: (s) => (transitionsOf(s)[0]!["interruption"] = "none"), code: "E_WRONG_TYPE", pointer: `${T0}/interruption` },
  { name: "canTransitionToSelf 1", mutate: (s) => (transitionsOf(s)[0]!["canTransitionToSelf"] = 1), code: "E_NOT_BOOLEAN", pointer: `${T0}/canTransitionToSelf` },
  { name: "name too long", mutate: (s) => (statesOf(s)["x".repeat(300)] = { clip: "a" }), code: "E_SPEC_LIMIT", pointer: `${M}/states/${"x".repeat(300)}` },
];

for (const row of ROWS) {
  test(`bad input: ${row.name} → ${row.code} at "${row.pointer.slice(0, 80)}"`, () => {
    const spec = baseSpec();
    row.mutate(spec);
    const r = parseObject(spec);
    assert.equal(r.spec, undefined, "an input with errors gives no spec");
    const hit = r.diagnostics.find((d) => d.code === row.code && d.pointer === row.pointer);
    assert.ok(hit, `expected ${row.code} at "${row.pointer}", got:\n${r.diagnostics.map((d) => `${d.code} ${d.pointer}`).join("\n")}`);
    assert.equal(hit.severity, "error");
    assert.equal(hit.file, "t.json");
    assert.ok(hit.line !== undefined && hit.column !== undefined, "positioned");
  });
}

const TEXT_ROWS: { name: string; text: string; code: string; pointer: string }[] = [
  { name: "syntax error", text: '{"animgraph": 1,', code: "E_JSON_SYNTAX", pointer: "" },
  { name: "root an array", text: "[]", code: "E_WRONG_TYPE", pointer: "" },
  { name: "duplicate state", text: '{"animgraph":1,"layers":[{"name":"a","machine":{"entry":"A","states":{"A":{"clip":"a"},"A":{"clip":"b"}}}}]}', code: "E_DUPLICATE_KEY", pointer: "/layers/0/machine/states/A" },
  { name: "number beyond double", text: '{"animgraph":1,"parameters":{"s":{"type":"float","max":1e400}},"layers":[]}', code: "E_NOT_FINITE", pointer: "/parameters/s/max" },
];
for (const row of TEXT_ROWS) {
  test(`bad text: ${row.name} → ${row.code}`, () => {
    const r = parseText(row.text);
    assert.equal(r.spec, undefined);
    assert.ok(r.diagnostics.some((d) => d.code === row.code && d.pointer === row.pointer), JSON.stringify(r.diagnostics));
  });
}

test("every problem of a file is reported at once", () => {
  const spec = baseSpec();
  spec["frameRate"] = -1;
  transitionsOf(spec)[0]!["curve"] = "bounce";
  (statesOf(spec)["Idle"] as Json)["loop"] = 3;
  const codes = parseObject(spec).diagnostics.map((d) => d.code);
  assert.deepEqual(codes.sort(), ["E_OUT_OF_RANGE", "E_SPEC_BAD_ENUM", "E_WRONG_TYPE"]);
});

test("the base spec parses with every default filled in", () => {
  const r = parseObject(baseSpec());
  assert.deepEqual(r.diagnostics, []);
  const spec = r.spec!;
  assert.equal(spec.version, 1);
  assert.equal(spec.file, "t.json");
  assert.equal(spec.frameRate, 30);
  assert.deepEqual(spec.parameters.get("speed"), { pointer: "/parameters/speed", name: "speed", type: "float", default: 0, min: 0, max: 6 });
  assert.deepEqual(spec.parameters.get("jump"), { pointer: "/parameters/jump", name: "jump", type: "trigger", default: false });
  assert.equal(spec.parameters.get("grounded")!.default, true);
  assert.deepEqual(spec.masks.get("upper"), { pointer: "/masks/upper", name: "upper", include: ["Spine"], exclude: [], weight: 1 });
  const layer = spec.layers[0]!;
  assert.equal(layer.weight, 1);
  assert.equal(layer.mode, "override");
  assert.equal(layer.mask, "upper");
  const idle = layer.machine.states.get("Idle")!;
  assert.deepEqual(idle.motion, { kind: "clip", clip: "idle", pointer: `${M}/states/Idle/clip` });
  assert.equal(idle.speed, 1);
  assert.equal(idle.final, false);
  assert.equal(idle.loop, undefined);
  assert.deepEqual(idle.events, []);
  const t = layer.machine.transitions[0]!;
  assert.equal(t.duration, 0.2);
  assert.equal(t.durationFrames, undefined);
  assert.equal(t.curve, "smoothstep");
  assert.equal(t.blend, "crossfade");
  assert.equal(t.exitTime, undefined);
  assert.equal(t.offset, 0);
  assert.deepEqual(t.interruption, { source: "none", freeze: false });
  assert.equal(t.canTransitionToSelf, false);
  assert.deepEqual(t.conditions, [{ pointer: `${T0}/conditions/0`, param: "speed", op: ">", value: 0.1 }]);
  // `{ "param": "grounded" }` is `== true`.
  assert.deepEqual(layer.machine.transitions[1]!.conditions[1], { pointer: `${M}/transitions/1/conditions/1`, param: "grounded", op: "==", value: true });
});

test("durations in frames, exit times in per-mille, blends and nested machines", () => {
  const spec = baseSpec();
  spec["frameRate"] = 60;
  Object.assign(transitionsOf(spec)[0]!, { durationFrames: 12, exitPermille: 750, curve: "linear", blend: "deadBlend", offset: 0.25, interruption: { source: "sourceThenTarget", freeze: true } });
  Object.assign(transitionsOf(spec)[1]!, { duration: 0, exitTime: 1.5 });
  statesOf(spec)["Move"] = { blend1d: { param: "speed", weighting: "inverseDistance", sync: false, children: [{ at: 0, clip: "walk" }, { at: 5, clip: "run" }] } };
  statesOf(spec)["Strafe"] = { blend2d: { params: ["speed", "n"], mode: "grid", samples: [{ x: 0, y: 0, clip: "a" }] } };
  statesOf(spec)["Air"] = { machine: { entry: "Up", states: { Up: { clip: "up", loop: "clamp", final: true } } }, speed: { param: "speed" }, syncGroup: "air" };
  const r = parseObject(spec);
  assert.deepEqual(r.diagnostics, []);
  const m = r.spec!.layers[0]!.machine;
  const t0 = m.transitions[0]!;
  assert.equal(t0.durationFrames, 12);
  assert.equal(t0.blend, "deadBlend");
  assert.equal(t0.duration, 0.2);
  assert.equal(t0.exitTime, 0.75);
  assert.equal(t0.offset, 0.25);
  assert.deepEqual(t0.interruption, { source: "sourceThenTarget", freeze: true });
  assert.equal(m.transitions[1]!.duration, 0);
  assert.equal(m.transitions[1]!.exitTime, 1.5);
  const move = m.states.get("Move")!.motion;
  assert.equal(move.kind, "blend1d");
  assert.equal(move.kind === "blend1d" && move.weighting, "inverseDistance");
  assert.equal(move.kind === "blend1d" && move.sync, false);
  const strafe = m.states.get("Strafe")!.motion;
  assert.equal(strafe.kind === "blend2d" && strafe.mode, "grid");
  assert.equal(strafe.kind === "blend2d" && strafe.sync, true);
  const air = m.states.get("Air")!;
  assert.deepEqual(air.speed, { param: "speed" });
  assert.equal(air.syncGroup, "air");
  assert.equal(air.motion.kind === "machine" && air.motion.machine.states.get("Up")!.loop, "clamp");
});

test("defaults of numeric parameters are brought into their range; the name defaults to the file name", () => {
  const r = parseGraphSpec(parseJsonText(JSON.stringify({
    animgraph: 1,
    parameters: { a: { type: "float", min: 2 }, b: { type: "int", max: -3 }, c: { type: "float" } },
    layers: [{ name: "l", machine: { entry: "S", states: { S: { clip: "s" } } } }],
  }), "dir/hero.animgraph.json"));
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.spec!.name, "hero");
  assert.equal(r.spec!.parameters.get("a")!.default, 2);
  assert.equal(r.spec!.parameters.get("b")!.default, -3);
  assert.equal(r.spec!.parameters.get("c")!.default, 0);
});

test("extension keys (x-…) are accepted anywhere and ignored", () => {
  const spec = baseSpec();
  spec["x-editor"] = { zoom: 2 };
  transitionsOf(spec)[0]!["x-note"] = "tuned";
  (statesOf(spec)["Idle"] as Json)["x-pos"] = [1, 2];
  const r = parseObject(spec);
  assert.deepEqual(r.diagnostics, []);
  assert.ok(r.spec);
});

test("keys such as __proto__ and constructor are plain names (no prototype pollution)", () => {
  const text = JSON.stringify({
    animgraph: 1,
    parameters: { ["__proto__"]: { type: "bool" }, constructor: { type: "float" } },
    layers: [{ name: "l", machine: { entry: "__proto__", states: { ["__proto__"]: { clip: "toString" }, hasOwnProperty: { clip: "x" } } } }],
  });
  const r = parseText(text);
  assert.deepEqual(r.diagnostics, []);
  assert.equal(r.spec!.parameters.get("__proto__")!.type, "bool");
  assert.equal(r.spec!.parameters.get("constructor")!.type, "float");
  assert.ok(r.spec!.layers[0]!.machine.states.has("__proto__"));
  assert.equal(({} as Record<string, unknown>)["type"], undefined);
});

test("limits: too many states, too deep nesting, too many conditions", () => {
  const many = baseSpec();
  for (let i = 0; i < 10; i++) statesOf(many)[`S${i}`] = { clip: "c" };
  const r1 = parseObject(many, { limits: { maxStates: 5 } });
  assert.equal(r1.spec, undefined);
  assert.equal(r1.diagnostics.filter((d) => d.code === "E_SPEC_LIMIT").length, 1);

  // Nine machines, one inside the next: the ninth is over the default depth of 8.
  let machine: Json = { entry: "Leaf", states: { Leaf: { clip: "c" } } };
  for (let i = 0; i < 8; i++) machine = { entry: "N", states: { N: { machine } } };
  const deep = { animgraph: 1, layers: [{ name: "l", machine }] };
  const r2 = parseObject(deep);
  assert.equal(r2.spec, undefined);
  const limit = r2.diagnostics.find((d) => d.code === "E_SPEC_LIMIT");
  assert.ok(limit);
  assert.equal(limit.pointer, `/layers/0/machine${"/states/N/machine".repeat(8)}`);
  assert.ok(parseObject(deep, { limits: { maxMachineDepth: 9 } }).spec);

  const conds = baseSpec();
  transitionsOf(conds)[0]!["conditions"] = Array.from({ length: 70 }, () => ({ param: "speed", op: ">", value: 0 }));
  assert.ok(parseObject(conds).diagnostics.some((d) => d.code === "E_SPEC_LIMIT" && d.pointer === `${T0}/conditions`));
});

test("parsing the same document twice gives the same diagnostics (the document is not mutated)", () => {
  const doc = parseJsonText('{"animgraph": 2, "layers": []}', "t.json");
  const a = parseGraphSpec(doc).diagnostics;
  const b = parseGraphSpec(doc).diagnostics;
  assert.deepEqual(a, b);
  assert.equal(doc.diagnostics.length, 0);
});

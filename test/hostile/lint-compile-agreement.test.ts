// Issue 10, "one set of rules": what lint calls clean must compile and run, and a graph that compiles
// is lint-clean; one check and one code for mistyped conditions; pointers where the author wrote.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { lintGraph } from "../../src/lint/lint-graph.ts";
import { ABCD, SKELETON, machineSpec, specOf } from "../graph/fixtures.ts";

const CLIP_INFO = ABCD.map((c) => ({ name: c.name, duration: c.duration }));
const lint = (json: unknown) => lintGraph(specOf(json), { clips: CLIP_INFO, joints: SKELETON.names });
const errors = (json: unknown) => lint(json).filter((d) => d.severity === "error");
const compile = (json: unknown) => compileGraph(specOf(json), SKELETON, ABCD);

test("a hard cut into Punch on a trigger and back at exitTime 1 is lint-clean, compiles and runs", () => {
  const json = machineSpec(
    { Idle: { clip: "A" }, Punch: { clip: "B" } },
    [
      { from: "Idle", to: "Punch", conditions: [{ param: "punch" }], duration: 0 },
      { from: "Punch", to: "Idle", exitTime: 1, duration: 0 },
    ],
    { punch: { type: "trigger" } },
  );
  assert.deepEqual(errors(json), []);
  const { graph, diagnostics } = compile(json);
  assert.ok(graph, JSON.stringify(diagnostics));
  const inst = createInstance(graph);
  trigger(inst, "punch");
  step(graph, inst, 1 / 60);
  assert.equal(inst.layers[0]!.current, 1);
  for (let i = 0; i < 70; i++) step(graph, inst, 1 / 60);
  assert.equal(inst.layers[0]!.current, 0);
});

test("instant cycles broken by a trigger or an exit time compile; one that can loop is refused by both", () => {
  const broken = machineSpec(clipStates2(), [
    { from: "S", to: "T", conditions: [{ param: "go" }], duration: 0 },
    { from: "T", to: "S", conditions: [{ param: "f", op: ">", value: 0 }], duration: 0 },
  ], { go: { type: "trigger" }, f: { type: "float" } });
  assert.deepEqual(errors(broken), []);
  assert.ok(compile(broken).graph);
  const looping = machineSpec(clipStates2(), [
    { from: "S", to: "T", conditions: [{ param: "f", op: ">", value: 0 }], duration: 0 },
    { from: "T", to: "S", conditions: [{ param: "f", op: ">", value: 1 }], duration: 0 },
  ], { f: { type: "float" } });
  assert.deepEqual(errors(looping).map((d) => d.code), ["E_ZERO_DURATION_CYCLE"]);
  const c = compile(looping);
  assert.equal(c.graph, undefined);
  assert.deepEqual(c.diagnostics.map((d) => d.code), ["E_ZERO_DURATION_CYCLE"]);
});

function clipStates2() {
  return { S: { clip: "A" }, T: { clip: "B" } };
}

test("a trigger compared with false: E_CONDITION_TYPE from lint and compile alike, same pointer", () => {
  const json = machineSpec(clipStates2(), [{ from: "S", to: "T", conditions: [{ param: "go", op: "==", value: false }] }], { go: { type: "trigger" } });
  const l = errors(json);
  const c = compile(json);
  assert.equal(c.graph, undefined);
  assert.deepEqual(l.map((d) => [d.code, d.pointer]), [["E_CONDITION_TYPE", "/layers/0/machine/transitions/0/conditions/0"]]);
  assert.deepEqual(c.diagnostics.map((d) => [d.code, d.pointer]), [["E_CONDITION_TYPE", "/layers/0/machine/transitions/0/conditions/0"]]);
  const floatBool = machineSpec(clipStates2(), [{ from: "S", to: "T", conditions: [{ param: "f", value: true }] }], { f: { type: "float" } });
  assert.deepEqual(compile(floatBool).diagnostics.map((d) => d.code), errors(floatBool).map((d) => d.code));
});

test("W_EXIT_TIME_PAST_END on a transition written with exitPermille points at /exitPermille", () => {
  const json = machineSpec({ S: { clip: "A", loop: "clamp" }, T: { clip: "B" } }, [{ from: "S", to: "T", exitPermille: 1500 }]);
  const found = lint(json).find((d) => d.code === "W_EXIT_TIME_PAST_END");
  assert.equal(found?.pointer, "/layers/0/machine/transitions/0/exitPermille");
  const json2 = machineSpec({ S: { clip: "A", loop: "clamp" }, T: { clip: "B" } }, [{ from: "S", to: "T", exitTime: 1.5 }]);
  assert.equal(lint(json2).find((d) => d.code === "W_EXIT_TIME_PAST_END")?.pointer, "/layers/0/machine/transitions/0/exitTime");
});

test("a state whose only way in is a shadowed transition is unreachable", () => {
  const json = machineSpec({ S: { clip: "A" }, T: { clip: "B" }, U: { clip: "C" } }, [
    { from: "S", to: "T", conditions: [{ param: "f", op: ">", value: 0 }] },
    { from: "S", to: "U", conditions: [{ param: "f", op: ">", value: 1 }] },
    { from: "T", to: "S", conditions: [{ param: "f", op: "<", value: 0 }] },
    { from: "U", to: "S", conditions: [{ param: "f", op: "<", value: 0 }] },
  ], { f: { type: "float" } });
  const codes = lint(json).map((d) => `${d.code} ${d.pointer}`);
  assert.ok(codes.includes("W_SHADOWED_TRANSITION /layers/0/machine/transitions/1"), codes.join("\n"));
  assert.ok(codes.includes("W_UNREACHABLE_STATE /layers/0/machine/states/U"), codes.join("\n"));
});

test("a trigger tested in two layers is linted (the first layer to fire consumes it), as documented", () => {
  const machine = { entry: "S", states: clipStates2(), transitions: [{ from: "S", to: "T", conditions: [{ param: "go" }] }] };
  const json = { animgraph: 1, name: "t", parameters: { go: { type: "trigger" } }, layers: [{ name: "base", machine }, { name: "upper", machine }] };
  const found = lint(json).filter((d) => d.code === "W_TRIGGER_SHARED_BY_LAYERS");
  assert.deepEqual(found.map((d) => d.pointer), ["/layers/1/machine/transitions/0/conditions/0"]);
  // The runtime does what the warning says: only the base layer switches.
  const { graph } = compile(json);
  const inst = createInstance(graph!);
  trigger(inst, "go");
  step(graph!, inst, 1 / 60);
  assert.deepEqual([inst.layers[0]!.current, inst.layers[1]!.current], [1, 0]);
});

// Random graphs: lintGraph reports no error ⇔ compileGraph succeeds.
const PARAMS = { f: { type: "float", min: -1, max: 1 }, i: { type: "int" }, b: { type: "bool" }, t: { type: "trigger" } };
const NAMES = ["S0", "S1", "S2", "S3"];
const value = fc.oneof(fc.integer({ min: -2, max: 2 }), fc.boolean(), fc.constantFrom(0.5, -0.5, 1.5));
const condition = fc.oneof(
  fc.record({ param: fc.constantFrom("f", "i", "b", "t", "nope"), op: fc.constantFrom(">", ">=", "<", "<=", "==", "!="), value }),
  fc.record({ param: fc.constantFrom("t", "b") }),
);
const transition = fc.record({
  from: fc.constantFrom(...NAMES, "*"), to: fc.constantFrom(...NAMES, "Ghost"),
  conditions: fc.array(condition, { maxLength: 2 }),
  duration: fc.constantFrom(0, 0, 0.1, 0.25),
}, { requiredKeys: ["from", "to", "conditions", "duration"] }).chain((t) => fc.option(fc.constantFrom(0.5, 1, 2), { nil: undefined }).map((e) => (e === undefined ? t : { ...t, exitTime: e })));
const graphArb = fc.record({
  states: fc.array(fc.record({ clip: fc.constantFrom("A", "B", "C", "D", "Missing"), loop: fc.constantFrom("loop", "clamp") }), { minLength: 2, maxLength: 4 }),
  transitions: fc.array(transition, { maxLength: 6 }),
  budget: fc.boolean(),
}).map(({ states, transitions, budget }) => {
  const st: Record<string, unknown> = {};
  states.forEach((s, k) => (st[NAMES[k]!] = s));
  return {
    animgraph: 1, name: "r", parameters: PARAMS, frameRate: 30,
    ...(budget ? { transitionBudget: { minFrames: 2, maxFrames: 6 } } : {}),
    layers: [{ name: "base", machine: { entry: "S0", states: st, transitions } }],
  };
});

test("property: lintGraph reports no error ⇔ compileGraph succeeds (random graphs)", () => {
  let clean = 0, refused = 0;
  fc.assert(fc.property(graphArb, (json) => {
    let spec;
    try {
      spec = specOf(json);
    } catch {
      return; // not a parseable spec (parse errors stop both alike)
    }
    const lintErrors = lintGraph(spec, { clips: CLIP_INFO, joints: SKELETON.names }).filter((d) => d.severity === "error");
    const compiled = compileGraph(spec, SKELETON, ABCD);
    assert.equal(compiled.graph !== undefined, lintErrors.length === 0,
      `lint: ${lintErrors.map((d) => `${d.code} ${d.pointer}`).join(", ") || "clean"}; compile: ${compiled.diagnostics.map((d) => `${d.code} ${d.pointer}`).join(", ") || "ok"}`);
    if (compiled.graph) {
      clean++;
      const inst = createInstance(compiled.graph);
      for (let k = 0; k < 20; k++) step(compiled.graph, inst, 1 / 30);
    } else refused++;
  }), { numRuns: 300 });
  assert.ok(clean > 0 && refused > 0, `clean ${clean}, refused ${refused}`);
});

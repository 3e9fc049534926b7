import assert from "node:assert/strict";
import { test } from "node:test";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";
import { ABCD, clipStates, compileOf, constClip, machineSpec, SKELETON, specOf } from "./fixtures.ts";

function codesOf(json: unknown, clips = ABCD): string[] {
  return compileGraph(specOf(json), SKELETON, clips).diagnostics.filter((d) => d.severity === "error").map((d) => `${d.code} ${d.pointer}`);
}

test("names resolve to indices; '*' transitions are interleaved by file position", () => {
  const g = compileOf(machineSpec(clipStates("A", "B", "C"), [
    { from: "A", to: "B", conditions: [{ param: "go" }] },
    { from: "*", to: "C", conditions: [{ param: "c" }] },
    { from: "A", to: "C" },
    { from: "B", to: "A" },
  ], { go: { type: "trigger" }, c: { type: "bool" } }), ABCD);
  const m = g.layers[0]!.machine;
  assert.deepEqual([...m.stateIndex.entries()], [["A", 0], ["B", 1], ["C", 2]]);
  assert.deepEqual([...m.outgoing[0]!], [0, 1, 2]);
  assert.deepEqual([...m.outgoing[1]!], [1, 3]);
  assert.deepEqual([...m.outgoing[2]!], [], "a '*' transition does not leave its own target unless canTransitionToSelf");
  assert.equal(m.transitions[0]!.triggerSlots[0], g.paramIndex.get("go"));
  assert.equal(m.states[0]!.motion.kind, "clip");
  assert.ok(Object.isFrozen(g) && Object.isFrozen(m.transitions));
});

test("unknown names and wrong types are diagnostics with pointers, one row per bad input", () => {
  const rows: [unknown, string][] = [
    [machineSpec(clipStates("A"), [{ from: "A", to: "Ghost" }]), "E_UNKNOWN_STATE /layers/0/machine/transitions/0/to"],
    [machineSpec(clipStates("A"), [{ from: "Ghost", to: "A" }]), "E_UNKNOWN_STATE /layers/0/machine/transitions/0/from"],
    [machineSpec({ A: { clip: "Nope" } }, []), "E_UNKNOWN_CLIP /layers/0/machine/states/A/clip"],
    [machineSpec(clipStates("A", "B"), [{ from: "A", to: "B", conditions: [{ param: "x", op: ">", value: 1 }] }]), "E_UNKNOWN_PARAM /layers/0/machine/transitions/0/conditions/0/param"],
    [machineSpec(clipStates("A", "B"), [{ from: "A", to: "B", conditions: [{ param: "f", value: true }] }], { f: { type: "float" } }), "E_CONDITION_TYPE /layers/0/machine/transitions/0/conditions/0"],
    [machineSpec({ A: { clip: "A", speed: { param: "b" } } }, [], { b: { type: "bool" } }), "E_PARAM_TYPE /layers/0/machine/states/A/speed"],
    [machineSpec({ A: { blend1d: { param: "nope", children: [{ at: 0, clip: "A" }] } } }, []), "E_UNKNOWN_PARAM /layers/0/machine/states/A/blend1d/param"],
  ];
  for (const [json, expected] of rows) {
    const codes = codesOf(json);
    assert.ok(codes.some((c) => c.startsWith(expected.split(" ")[0]!)), `${expected}: got ${codes.join(", ")}`);
    assert.ok(codes.includes(expected), `${expected}: got ${codes.join(", ")}`);
  }
});

test("mask joints are checked and masks become per-joint weights", () => {
  const json = (include: string[]) => ({
    animgraph: 1, masks: { upper: { include, weight: 0.5 } },
    layers: [{ name: "base", mask: "upper", machine: { entry: "A", states: clipStates("A") } }],
  });
  assert.deepEqual(codesOf(json(["Nope"])), ["E_UNKNOWN_JOINT /masks/upper/include/0"]);
  const g = compileOf(json(["child"]), ABCD);
  assert.deepEqual([...g.layers[0]!.mask!], [0, 0.5]);
});

test("zero-duration cycles are rejected at compile time; zero-duration chains are not", () => {
  const cyc = codesOf(machineSpec(clipStates("A", "B", "C"), [
    { from: "A", to: "B", duration: 0 },
    { from: "B", to: "C", duration: 0 },
    { from: "C", to: "A", duration: 0 },
  ]));
  assert.equal(cyc.length, 1);
  assert.match(cyc[0]!, /^E_ZERO_DURATION_CYCLE \/layers\/0\/machine\/transitions\/0$/);
  const viaAny = codesOf(machineSpec(clipStates("A", "B"), [{ from: "*", to: "B", duration: 0 }, { from: "B", to: "A", duration: 0 }]));
  assert.deepEqual(viaAny.map((c) => c.split(" ")[0]), ["E_ZERO_DURATION_CYCLE"]);
  const selfAny = codesOf(machineSpec(clipStates("A"), [{ from: "*", to: "A", duration: 0, canTransitionToSelf: true }]));
  assert.deepEqual(selfAny.map((c) => c.split(" ")[0]), ["E_ZERO_DURATION_CYCLE"]);
  assert.deepEqual(codesOf(machineSpec(clipStates("A", "B", "C"), [{ from: "A", to: "B", duration: 0 }, { from: "B", to: "C", duration: 0 }, { from: "C", to: "A", duration: 0.1 }])), []);
});

test("2D grid blends need a full grid; freeform blends are triangulated", () => {
  const grid = (samples: unknown[]) => machineSpec({ S: { blend2d: { params: ["x", "y"], mode: "grid", samples } } }, [], { x: { type: "float" }, y: { type: "float" } });
  assert.deepEqual(codesOf(grid([{ x: 0, y: 0, clip: "A" }, { x: 1, y: 0, clip: "B" }, { x: 0, y: 1, clip: "C" }])), ["E_BLEND_GRID_INCOMPLETE /layers/0/machine/states/S/blend2d/samples"]);
  const g = compileOf(grid([{ x: 0, y: 0, clip: "A" }, { x: 1, y: 0, clip: "B" }, { x: 0, y: 1, clip: "C" }, { x: 1, y: 1, clip: "D" }]), ABCD);
  const m = g.layers[0]!.machine.states[0]!.motion;
  assert.ok(m.kind === "blend2d" && m.grid && [...m.grid.cellSample].join() === "0,1,2,3");
  const free = compileOf(machineSpec({ S: { blend2d: { params: ["x", "y"], samples: [{ x: 0, y: 0, clip: "A" }, { x: 1, y: 0, clip: "B" }, { x: 0, y: 1, clip: "C" }] } } }, [], { x: { type: "float" }, y: { type: "float" } }), ABCD);
  const fm = free.layers[0]!.machine.states[0]!.motion;
  assert.ok(fm.kind === "blend2d" && fm.space?.kind === "triangles");
});

test("clips bound to another skeleton are rejected; root motion 'auto' picks a moving joint", () => {
  const otherSkeleton = createSkeleton({ names: ["a", "b", "c"], parents: [-1, 0, 1] });
  const wrong = compileGraph(specOf(machineSpec(clipStates("A"), [])), SKELETON, [constClip("A", 1, 1, otherSkeleton)]);
  assert.deepEqual(wrong.diagnostics.map((d) => `${d.code} ${d.pointer}`), ["E_CLIP_SKELETON /layers/0/machine/states/A/clip"]);
  const g = compileGraph(specOf(machineSpec(clipStates("A"), [])), SKELETON, ABCD, { rootMotion: "auto" });
  assert.equal(g.graph!.rootJoint, 0, "joint 0 has translation tracks");
  const bad = compileGraph(specOf(machineSpec(clipStates("A"), [])), SKELETON, ABCD, { rootMotion: "Nope" });
  assert.deepEqual(bad.diagnostics.map((d) => d.code), ["E_UNKNOWN_JOINT"]);
});

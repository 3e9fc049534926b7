import assert from "node:assert/strict";
import { test } from "node:test";
import { AnimgraphError } from "../../src/errors/animgraph-error.ts";
import { getParam, resetTrigger, setParam, travel, trigger } from "../../src/graph/commands.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { ABCD, clipStates, compileOf, machineSpec } from "./fixtures.ts";

const PARAMS = {
  f: { type: "float", default: 0.5 },
  i: { type: "int", default: 2 },
  b: { type: "bool", default: true },
  t: { type: "trigger" },
};

test("setParam rejects values that do not fit the parameter, with an AnimgraphError, and changes nothing", () => {
  const g = compileOf(machineSpec(clipStates("A"), [], PARAMS), ABCD);
  const inst = createInstance(g);
  const rows: [string | number, unknown, RegExp][] = [
    ["f", NaN, /setParam: value must be a finite number \(float parameter "f"\); got the number NaN/],
    ["f", Infinity, /got the number Infinity/],
    ["f", -Infinity, /got the number -Infinity/],
    ["f", true, /got the boolean true/],
    ["f", "1", /got the string "1"/],
    ["i", 1.5, /value must be a safe integer \(int parameter "i"\); got the number 1.5/],
    ["i", 2 ** 60, /a safe integer/],
    ["i", NaN, /a safe integer .*; got the number NaN/],
    ["b", 1, /value must be a boolean \(bool parameter "b"\); got the number 1/],
    ["t", true, /"t" is a trigger; use trigger/],
    ["nope", 1, /unknown parameter "nope"/],
    [7, 1, /param must be a parameter name or a slot in \[0, 3\]; got the number 7/],
    [-1, 1, /got the number -1/],
  ];
  const before = [...inst.params];
  for (const [param, value, message] of rows) {
    assert.throws(() => setParam(inst, param, value as number), (e: Error) => e instanceof AnimgraphError && message.test(e.message), `${String(param)} = ${String(value)}`);
    assert.deepEqual([...inst.params], before, "nothing changed");
  }
  setParam(inst, "f", -3.25);
  setParam(inst, 1, -7);
  setParam(inst, "b", false);
  assert.deepEqual([getParam(inst, "f"), getParam(inst, "i"), getParam(inst, "b"), getParam(inst, "t")], [-3.25, -7, false, false]);
  assert.throws(() => trigger(inst, "f"), /not a trigger/);
  trigger(inst, "t");
  assert.equal(getParam(inst, "t"), true);
  resetTrigger(inst, "t");
  assert.equal(getParam(inst, "t"), false);
});

test("travel takes the shortest path, then its transitions one by one, ignoring their conditions", () => {
  // A → B → C → D (long way) and A → X → D… no: A → D only through B, C; plus a '*' shortcut into C.
  const g = compileOf(machineSpec(clipStates("A", "B", "C", "D"), [
    { from: "A", to: "B", conditions: [{ param: "never" }], duration: 0.1 },
    { from: "B", to: "C", conditions: [{ param: "never" }], duration: 0.1 },
    { from: "C", to: "D", conditions: [{ param: "never" }], duration: 0.1 },
    { from: "*", to: "C", conditions: [{ param: "never" }], duration: 0.2 },
  ], { never: { type: "bool" } }), ABCD);
  const inst = createInstance(g);
  const plan = travel(inst, "base", "D");
  assert.deepEqual(plan, { kind: "path", states: ["A", "C", "D"] }, "via the '*' transition: 2 hops instead of 3");
  const visited: string[] = [];
  for (let i = 0; i < 20; i++) {
    step(g, inst, 0.05);
    const mi = inst.layers[0]!;
    const name = mi.machine.states[mi.current]!.name;
    if (visited.at(-1) !== name) visited.push(name);
  }
  assert.deepEqual(visited, ["C", "D"]);
  assert.equal(inst.layers[0]!.depth, 0);
  assert.deepEqual(travel(inst, 0, "D"), { kind: "here", states: ["D"] });
  assert.throws(() => travel(inst, 0, "Nope"), /has no state "Nope"/);
  assert.throws(() => travel(inst, 5, "A"), /unknown layer/);
});

test("travel to an unreachable state teleports on the next step", () => {
  const g = compileOf(machineSpec(clipStates("A", "B"), []), ABCD);
  const inst = createInstance(g);
  assert.deepEqual(travel(inst, 0, "B"), { kind: "teleport", states: ["A", "B"] });
  const r = step(g, inst, 0.1);
  assert.equal(inst.layers[0]!.current, 1);
  assert.equal(r.pose.t[0], 2);
});

test("step rejects a bad dt and a foreign instance", () => {
  const g = compileOf(machineSpec(clipStates("A"), []), ABCD);
  const g2 = compileOf(machineSpec(clipStates("A"), []), ABCD);
  const inst = createInstance(g);
  for (const dt of [-0.1, NaN, Infinity]) assert.throws(() => step(g, inst, dt), /dt must be a finite number/);
  assert.throws(() => step(g2, inst, 0.1), /another graph/);
  assert.equal(step(g, inst, 0).pose.t[0], 1, "dt = 0 is a valid step");
});

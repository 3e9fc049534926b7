import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { setParam, travel, trigger } from "../../src/graph/commands.ts";
import { compileGraph } from "../../src/graph/compile-graph.ts";
import { explainStep, formatExplanation, type TransitionExplanation } from "../../src/graph/explain-step.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { CLIPS, applyCommands, command, graphArb } from "../state-machine/random-graphs.ts";
import { ABCD, SKELETON, beforeSourceInterruption, clipStates, compileOf, machineSpec, sourceInterruptionSpec, specOf } from "./fixtures.ts";

const byTarget = (ts: readonly TransitionExplanation[], to: string): TransitionExplanation => ts.find((t) => t.to === to)!;

test("explainStep: conditions with values, exit time progress, priority and shadowing", () => {
  const g = compileOf(machineSpec(clipStates("A", "B", "C", "D"), [
    { from: "A", to: "B", conditions: [{ param: "speed", op: ">", value: 2 }], duration: 0.2 },
    { from: "A", to: "C", conditions: [{ param: "speed", op: ">", value: 1 }], duration: 0.2 },
    { from: "A", to: "D", exitTime: 0.5, duration: 0.2 },
    { from: "*", to: "A", conditions: [{ param: "speed", op: "<", value: 0 }], duration: 0.2 },
  ], { speed: { type: "float", default: 0 } }), ABCD);
  const inst = createInstance(g);
  let e = explainStep(g, inst).machines[0]!;
  assert.equal(e.state, "A");
  assert.equal(e.fired, null);
  const b = byTarget(e.transitions, "B");
  assert.equal(b.verdict, "conditions");
  assert.deepEqual(b.conditions, [{ param: "speed", op: ">", value: 2, actual: 0, holds: false }]);
  assert.match(b.reason, /speed is 0, needs > 2/);
  const d = byTarget(e.transitions, "D");
  assert.equal(d.verdict, "exitTime");
  assert.deepEqual(d.exitTime, { required: 0.5, position: 0, reached: false });
  // speed 3: B (listed first) fires, C could but is shadowed by it.
  setParam(inst, "speed", 3);
  e = explainStep(g, inst).machines[0]!;
  assert.equal(e.fired, b.pointer);
  assert.equal(byTarget(e.transitions, "B").verdict, "fired");
  assert.equal(byTarget(e.transitions, "B").priority, 1);
  const c = byTarget(e.transitions, "C");
  assert.equal(c.verdict, "shadowed");
  assert.equal(c.shadowedBy, b.pointer);
  // And step agrees.
  step(g, inst, 0.05);
  assert.equal(g.layers[0]!.machine.states[inst.layers[0]!.current]!.name, "B");
});

test("explainStep: a crossfade's interruption policy decides what is considered", () => {
  const g = compileOf(machineSpec(clipStates("A", "B", "C"), [
    { from: "A", to: "B", conditions: [{ param: "go" }], duration: 1, interruption: { source: "none" } },
    { from: "B", to: "C", conditions: [{ param: "go" }], duration: 0.2 },
  ], { go: { type: "bool" } }), ABCD);
  const inst = createInstance(g);
  setParam(inst, "go", true);
  step(g, inst, 0.1);
  const e = explainStep(g, inst).machines[0]!;
  assert.equal(e.state, "B");
  assert.deepEqual({ ...e.crossfade, progress: 0 }, { pointer: "/layers/0/machine/transitions/0", from: "A", to: "B", progress: 0, interruption: "none" });
  const c = byTarget(e.transitions, "C");
  assert.equal(c.verdict, "interruption");
  assert.match(c.reason, /interruption "none"/);
  step(g, inst, 0.1);
  assert.equal(g.layers[0]!.machine.states[inst.layers[0]!.current]!.name, "B", "step agrees: C waits");
});

test("explainStep: a trigger consumed by an earlier layer is named; the instance is left as it was", () => {
  const machine = (to: string) => ({ entry: "A", states: clipStates("A", to), transitions: [{ from: "A", to, conditions: [{ param: "jump" }], duration: 0.1 }] });
  const json = { animgraph: 1, parameters: { jump: { type: "trigger" } }, layers: [{ name: "base", machine: machine("B") }, { name: "upper", weight: 1, machine: machine("C") }] };
  const g = compileGraph(specOf(json), SKELETON, ABCD).graph!;
  const inst = createInstance(g);
  trigger(inst, "jump");
  const before = Float64Array.from(inst.params);
  const [base, upper] = explainStep(g, inst).machines;
  assert.deepEqual(Array.from(inst.params), Array.from(before));
  assert.equal(base!.transitions[0]!.verdict, "fired");
  const t = upper!.transitions[0]!;
  assert.equal(t.verdict, "conditions");
  assert.deepEqual(t.triggerConsumed, { param: "jump", layer: "base", by: "/layers/0/machine/transitions/0" });
  assert.match(t.reason, /trigger jump was consumed by layer base's \/layers\/0\/machine\/transitions\/0/);
  step(g, inst, 0.05);
  assert.equal(g.layers[1]!.machine.states[inst.layers[1]!.current]!.name, "A", "step agrees: the upper layer never sees it");
  assert.ok(formatExplanation(explainStep(g, inst)).length > 0);
});

test("explainStep: a travel() path is reported, and explaining does not take its step", () => {
  const g = compileOf(machineSpec(clipStates("A", "B", "C"), [
    { from: "A", to: "B", conditions: [{ param: "never" }], duration: 0 },
    { from: "B", to: "C", conditions: [{ param: "never" }], duration: 0 },
  ], { never: { type: "bool" } }), ABCD);
  const inst = createInstance(g);
  travel(inst, 0, "C");
  const e1 = explainStep(g, inst).machines[0]!;
  const e2 = explainStep(g, inst).machines[0]!;
  assert.deepEqual(e1, e2);
  assert.ok(e1.travel !== null);
  assert.ok(e1.transitions.every((t) => t.verdict === "travel"));
  step(g, inst, 0.05);
  assert.equal(g.layers[0]!.machine.states[inst.layers[0]!.current]!.name, "C");
});

test("explainStep agrees with step: the transition it says fires is the first each layer starts, on random graphs and inputs", () => {
  let fired = 0, checked = 0;
  fc.assert(
    fc.property(graphArb, fc.array(fc.record({ dt: fc.constantFrom(0, 1 / 60, 1 / 30, 0.05), commands: fc.array(command, { maxLength: 2 }) }), { minLength: 1, maxLength: 30 }), ({ json, options, names }, frames) => {
      const compiled = compileGraph(specOf(json), SKELETON, CLIPS, options);
      fc.pre(compiled.graph !== undefined);
      const g = compiled.graph!;
      const inst = createInstance(g);
      for (const { dt, commands } of frames) {
        applyCommands(inst, commands, names);
        const explanation = explainStep(g, inst);
        const r = step(g, inst, dt);
        // explainStep covers each machine's first decision; a chain (a travel step or an instant transition
        // followed by another in the same sub-step) may consume a trigger a later layer then misses.
        let chained = false;
        for (let li = 0; li < g.layers.length; li++) {
          if (chained) break;
          const m = explanation.machines.find((x) => x.machine === g.layers[li]!.name)!;
          let first: string | null = null;
          for (let k = 0; k < r.events.count; k++) {
            const ev = r.events.items[k]!;
            if (ev.type === "transitionStarted" && ev.layer === li && ev.machine === g.layers[li]!.machine.id && ev.time === 0) {
              first = ev.transition >= 0 ? g.layers[li]!.machine.transitions[ev.transition]!.pointer : null;
              break;
            }
          }
          let starts = 0;
          for (let k = 0; k < r.events.count; k++) {
            const ev = r.events.items[k]!;
            if (ev.type === "transitionStarted" && ev.layer === li && ev.time === 0) starts++;
          }
          if (starts > 1 || m.travel !== null) chained = true;
          checked++;
          if (m.travel === null) {
            assert.equal(m.fired, first, `layer ${li}`);
            if (first) fired++;
            assert.equal(m.transitions.filter((t) => t.verdict === "fired").length, first ? 1 : 0);
          }
        }
      }
    }),
    { numRuns: 120, seed: 20261204 },
  );
  assert.ok(fired > 50 && checked > 500, `${fired} fired, ${checked} checked`);
});

test("explainStep: a transition that interrupts from the running fade's source state is labelled by its own states, with the fade it interrupted", () => {
  const spec = sourceInterruptionSpec();
  for (const interruptMode of ["stack", "cut"] as const) {
    const g = compileOf(spec, ABCD, { interruptMode });
    const inst = beforeSourceInterruption(g);
    assert.equal(explainStep(g, inst).machines[0]!.fired, "/layers/0/machine/transitions/1");
    step(g, inst, 0.1);
    const e = explainStep(g, inst).machines[0]!;
    assert.equal(e.state, "C");
    // The machine was in B (fading A → B) when A → C fired: the fade is A → C, not the live pair B → C.
    const interrupted = interruptMode === "stack" ? { pointer: "/layers/0/machine/transitions/0", from: "A", to: "B" } : { from: "A", to: "B" };
    assert.deepEqual({ ...e.crossfade, progress: 0 }, { pointer: "/layers/0/machine/transitions/1", from: "A", to: "C", progress: 0, interruption: "none", interrupted });
    assert.match(formatExplanation({ machines: [e] })[0]!, interruptMode === "stack"
      ? /in C, fading A → C 20 % \(interruption none; it interrupted A → B \(\/layers\/0\/machine\/transitions\/0\)\)/
      : /in C, fading A → C 20 % \(interruption none; it interrupted A → B\)/);
  }
  // A plain fade has no `interrupted`.
  const g = compileOf(spec, ABCD);
  const inst = createInstance(g);
  setParam(inst, "go", true);
  step(g, inst, 0.1);
  assert.equal(explainStep(g, inst).machines[0]!.crossfade!.interrupted, undefined);
});

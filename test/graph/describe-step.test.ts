// Review of issue 18: describeStep (the step line of `animgraph run` and tools) labelled a transition that
// fired from the source state of a running fade (A → C during A → B) by the live pair B → C; explainStep
// and `run --explain` say "A → C, it interrupted A → B" (fc45bb1). describeStep now says the same.
import assert from "node:assert/strict";
import { test } from "node:test";
import { setParam } from "../../src/graph/commands.ts";
import { describeStep, formatStepLine } from "../../src/graph/describe-step.ts";
import { createInstance } from "../../src/graph/graph-instance.ts";
import { step } from "../../src/graph/step.ts";
import { ABCD, beforeSourceInterruption, compileOf, sourceInterruptionSpec } from "./fixtures.ts";

const spec = sourceInterruptionSpec([{ from: "*", to: "A", conditions: [{ param: "home" }], duration: 0.5 }], { home: { type: "bool" } });

test("describeStep: a transition that interrupts from the running fade's source state reads A→C interrupting A→B, in the fades and in the started event", () => {
  for (const interruptMode of ["stack", "cut"] as const) {
    const g = compileOf(spec, ABCD, { interruptMode });
    const inst = beforeSourceInterruption(g);
    const snap = describeStep(g, inst, step(g, inst, 0.1));
    const fades = snap.layers[0]!.transitions.map((x) => [x.from, x.to, x.interrupted]);
    assert.deepEqual(fades, interruptMode === "stack" ? [["A", "B", undefined], ["A", "C", "A→B"]] : [["A", "C", "A→B"]]);
    const started = snap.events.find((e) => e.type === "transitionStarted")!;
    assert.deepEqual([started.from, started.state, started.interrupted], ["A", "C", "A→B"]);
    const line = formatStepLine(0.3, snap);
    assert.match(line, /base: C (\[A→B s=0\.30 w=[\d.]+\] )?\[A→C s=0\.20 w=[\d.]+, interrupting A→B\]/);
    assert.match(line, /transitionInterrupted base A→B; transitionStarted base A→C \(interrupting A→B\)/);
    assert.doesNotMatch(line, /B→C/);
    // It ends as A→C too.
    let ended = "";
    for (let i = 0; i < 10 && !ended; i++) ended = formatStepLine(0, describeStep(g, inst, step(g, inst, 0.1))).match(/transitionEnded base \S+→C/)?.[0] ?? "";
    assert.equal(ended, "transitionEnded base A→C");
  }
});

test("describeStep: plain fades, a fade interrupted from its target and any-state transitions keep the states the machine went between", () => {
  const g = compileOf(spec, ABCD);
  const inst = createInstance(g);
  setParam(inst, "go", true);
  let snap = describeStep(g, inst, step(g, inst, 0.1));
  assert.deepEqual(snap.layers[0]!.transitions.map((x) => [x.from, x.to, x.interrupted]), [["A", "B", undefined]]);
  assert.equal(snap.events.find((e) => e.type === "transitionStarted")!.interrupted, undefined);
  setParam(inst, "go", false);
  for (let i = 0; i < 10; i++) step(g, inst, 0.1);
  setParam(inst, "home", true);
  snap = describeStep(g, inst, step(g, inst, 0.1));
  // * → A left B: an any-state transition's source is the state it left.
  const started = snap.events.find((e) => e.type === "transitionStarted")!;
  assert.deepEqual([started.from, started.state, started.interrupted], ["B", "A", undefined]);
  assert.deepEqual(snap.layers[0]!.transitions.at(-1), { from: "B", to: "A", progress: snap.layers[0]!.transitions.at(-1)!.progress, weight: snap.layers[0]!.transitions.at(-1)!.weight, blend: "crossfade" });
  assert.doesNotMatch(formatStepLine(0.2, snap), /interrupting/);
});

// Unit and property tests of the graph editor's document operations (studio/src/graph-edits.ts): each
// edit keeps the JSON a graph spec (references follow renames, conditions follow retypes), and random
// sequences of edits through the store undo back to the original and redo forward to the final text.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import {
  compileGraph, digestRun, lintDocument, parseJsonText, parseTimeline, standInClips, type Diagnostic,
} from "../../src/index.ts";
import {
  addCondition, addParam, addSample, addState, addTransition, deleteParam, deleteStates, deleteTransitions, editDocument,
  emptyGraph, formatDocument, graphFromClips, machineAt, moveTransition, paramReferences, parseDocument, placeStates,
  removeCondition, removeSample, renameParam, renameState, retypeParam, setBlendParam, setCondition, setEntry,
  setInterruption, setMotion, setSample, setStateField, setTransitionField, EditError, type JsonObject, type MachineLocation,
} from "../../studio/src/graph-edits.ts";
import { createStudioStore } from "../../studio/src/store.ts";
import { repoPath } from "../helpers/assets.ts";

const robot = readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8");
const seedMachine = readFileSync(repoPath("examples/robot/seed-machine.animgraph.json"), "utf8");
const seedTimeline = readFileSync(repoPath("examples/robot/seed-machine.timeline.json"), "utf8");
const BASE: MachineLocation = { layer: 0, path: [] };

const lint = (text: string): readonly Diagnostic[] => lintDocument(parseJsonText(text, "g.json")).diagnostics;
/** The digest of the seed timeline on stand-in clips: what `animgraph run --stand-in-clips --digest` prints. */
function runDigest(text: string): string {
  const result = lintDocument(parseJsonText(text, "g.json"));
  assert.ok(result.spec, JSON.stringify(result.diagnostics));
  const { skeleton, clips } = standInClips(result.spec);
  const graph = compileGraph(result.spec, skeleton, clips).graph!;
  const timeline = parseTimeline(parseJsonText(seedTimeline, "t.json"), graph).timeline!;
  return digestRun(graph, timeline).digest;
}

/** The seed's idle/walk/run/jump/attack machine built with the editor's operations, from an empty graph. */
function buildSeedMachine(): JsonObject {
  const doc = emptyGraph("seed-machine");
  const clips: Record<string, string> = { idle: "Idle", walk: "Walking", run: "Running", jump: "Jump", attack: "Punch" };
  Object.entries(clips).forEach(([name, clip], i) => {
    const added = addState(doc, BASE, { kind: "clip", clip, at: [100 + i * 150, 80] });
    renameState(doc, BASE, added, name);
  });
  for (const s of ["jump", "attack"]) setStateField(doc, BASE, s, "loop", "clamp");
  const speed = addParam(doc, "speed", "float");
  (doc["parameters"] as JsonObject)[speed] = { type: "float", default: 0, min: 0, max: 3 };
  addParam(doc, "jump", "trigger");
  addParam(doc, "attack", "trigger");
  const connect = (from: string, to: string, duration: number, condition?: { param: string; op?: string; value?: number }, exitTime?: number): void => {
    const t = addTransition(doc, BASE, from, to);
    setTransitionField(doc, BASE, t, "duration", duration);
    setTransitionField(doc, BASE, t, "exitTime", exitTime);
    if (condition) {
      const k = addCondition(doc, BASE, t, condition.param);
      if (condition.op) setCondition(doc, BASE, t, k, { op: condition.op, value: condition.value! });
    }
  };
  connect("*", "jump", 0.1, { param: "jump" });
  connect("*", "attack", 0.1, { param: "attack" });
  connect("idle", "walk", 0.3, { param: "speed", op: ">", value: 0.5 });
  connect("walk", "run", 0.3, { param: "speed", op: ">", value: 1.5 });
  connect("run", "walk", 0.3, { param: "speed", op: "<=", value: 1.5 });
  connect("walk", "idle", 0.3, { param: "speed", op: "<=", value: 0.5 });
  connect("jump", "idle", 0.3, undefined, 0.9);
  connect("attack", "idle", 0.3, undefined, 0.9);
  return doc;
}

test("the seed machine built from an empty graph lints clean and runs like the hand-written one", () => {
  const built = formatDocument(buildSeedMachine());
  assert.deepEqual(lint(built), []);
  assert.deepEqual(lint(seedMachine), []);
  assert.equal(runDigest(built), runDigest(seedMachine));
  // Positions are extension keys: the parser accepts them and the runtime ignores them.
  assert.match(built, /"x-pos": \[100, 80\]/);
});

test("the first state added becomes the entry; a name is made unique; '*' and blank names are refused", () => {
  const doc = emptyGraph("g");
  assert.equal(addState(doc, BASE, { kind: "clip", clip: "Idle" }), "Idle");
  assert.equal(addState(doc, BASE, { kind: "clip", clip: "Idle" }), "Idle 2");
  assert.equal(machineAt(doc, BASE)["entry"], "Idle");
  assert.throws(() => renameState(doc, BASE, "Idle", "*"), EditError);
  assert.throws(() => renameState(doc, BASE, "Idle", " "), EditError);
  assert.throws(() => renameState(doc, BASE, "Idle", "Idle 2"), /already a state "Idle 2"/);
  assert.throws(() => renameState(doc, BASE, "Ghost", "X"), /no state "Ghost"/);
});

test("renaming a state renames the entry and every transition from or to it, and keeps the order of states", () => {
  const doc = parseDocument(robot);
  renameState(doc, BASE, "Idle", "Rest");
  const machine = machineAt(doc, BASE);
  assert.equal(machine["entry"], "Rest");
  assert.deepEqual(Object.keys(machine["states"] as JsonObject), ["Rest", "Walk", "Run", "Jump", "Punch"]);
  const text = formatDocument(doc);
  assert.doesNotMatch(text, /"(from|to|entry)": "Idle"/);
  assert.deepEqual(lint(text), lint(robot), "no finding appears or goes");
  // The clip named Idle is a clip, not the state: it stays.
  assert.match(text, /"clip": "Idle"/);
});

test("renaming a parameter renames conditions, blend axes, speeds and layer weights in every machine", () => {
  const doc = parseDocument(robot);
  const before = paramReferences(doc, "speed");
  assert.ok(before.some((p) => p.endsWith("/blend1d/param")) && before.some((p) => p.includes("/conditions/")), before.join());
  renameParam(doc, "speed", "velocity");
  assert.deepEqual(paramReferences(doc, "speed"), []);
  assert.deepEqual(paramReferences(doc, "velocity"), before);
  renameParam(doc, "emoteWeight", "w");
  assert.ok(paramReferences(doc, "w").some((p) => /^\/layers\/\d+\/weight\/param$/.test(p)));
  const text = formatDocument(doc);
  assert.deepEqual(lint(text).map((d) => d.code), lint(robot).map((d) => d.code));
  assert.throws(() => renameParam(doc, "jump", "punch"), /already a parameter "punch"/);
});

test("retyping a parameter rewrites its conditions to fit the new type and flags references that cannot follow", () => {
  const doc = emptyGraph("g");
  addState(doc, BASE, { kind: "clip", clip: "A" });
  addState(doc, BASE, { kind: "blend1d", clip: "B", name: "B" }); // declares float "blend"
  addParam(doc, "go", "float");
  const t = addTransition(doc, BASE, "A", "B");
  const k = addCondition(doc, BASE, t, "go");
  setCondition(doc, BASE, t, k, { op: "<=", value: 2.6 });
  const cond = (): JsonObject => ((machineAt(doc, BASE)["transitions"] as JsonObject[])[t]!["conditions"] as JsonObject[])[k]!;
  retypeParam(doc, "go", "int");
  assert.deepEqual(cond(), { param: "go", op: "<=", value: 3 });
  retypeParam(doc, "go", "bool");
  assert.deepEqual(cond(), { param: "go" }, "3 is true: the bare test");
  setCondition(doc, BASE, t, k, { op: "!=" });
  assert.deepEqual(cond(), { param: "go", op: "!=", value: true });
  retypeParam(doc, "go", "trigger");
  assert.deepEqual(cond(), { param: "go" }, "!= true is false: a trigger condition has no value, it tests the trigger");
  retypeParam(doc, "go", "float");
  assert.deepEqual(cond(), { param: "go", op: ">", value: 0 });
  assert.deepEqual((doc["parameters"] as JsonObject)["go"], { type: "float", default: 0, min: 0, max: 1 });
  // A blend axis cannot read a bool: the reference stays and is flagged, and the linter says so too.
  const flagged = retypeParam(doc, "blend", "bool");
  assert.deepEqual(flagged, ["/layers/0/machine/states/B/blend1d/param"]);
  assert.ok(lint(formatDocument(doc)).some((d) => d.pointer.startsWith("/layers/0/machine/states/B/blend1d")), JSON.stringify(lint(formatDocument(doc))));
  // Operators are checked against the type.
  retypeParam(doc, "go", "bool");
  assert.throws(() => setCondition(doc, BASE, t, k, { op: "<" }), EditError);
});

test("deleting a parameter removes its conditions and returns the references left for the linter to flag", () => {
  const doc = parseDocument(robot);
  const left = deleteParam(doc, "speed");
  assert.ok(left.length > 0 && left.every((p) => !p.includes("/conditions/")), left.join());
  forEachCondition(doc, (c) => assert.notEqual(c["param"], "speed"));
  assert.ok(lint(formatDocument(doc)).some((d) => d.code.startsWith("E_") && d.message.includes("speed")));
});

function forEachCondition(doc: JsonObject, fn: (c: JsonObject) => void): void {
  const machine = machineAt(doc, BASE);
  for (const t of machine["transitions"] as JsonObject[]) for (const c of (t["conditions"] as JsonObject[] | undefined) ?? []) fn(c);
}

test("deleting states takes their transitions; a deleted entry passes to the first state left", () => {
  const doc = parseDocument(robot);
  deleteStates(doc, BASE, ["Idle", "Jump"]);
  const machine = machineAt(doc, BASE);
  assert.equal(machine["entry"], "Walk");
  for (const t of machine["transitions"] as JsonObject[]) {
    assert.ok(!["Idle", "Jump"].includes(t["from"] as string) && !["Idle", "Jump"].includes(t["to"] as string));
  }
  deleteStates(doc, BASE, Object.keys(machine["states"] as JsonObject));
  assert.equal(machine["entry"], "");
  assert.deepEqual(machine["transitions"], []);
});

test("transitions: Unity's defaults, fields set and removed, priority order among those from the same state, interruption", () => {
  const doc = parseDocument(seedMachine);
  const t = addTransition(doc, BASE, "idle", "run");
  const list = (): JsonObject[] => machineAt(doc, BASE)["transitions"] as JsonObject[];
  assert.deepEqual(list()[t], { from: "idle", to: "run", conditions: [], duration: 0.25, exitTime: 0.75 });
  assert.deepEqual(list()[addTransition(doc, BASE, "*", "idle")], { from: "*", to: "idle", conditions: [], duration: 0.25 });
  // idle → run moves above idle → walk (index 2), skipping the transitions from other states.
  const up = moveTransition(doc, BASE, t, -1);
  assert.equal(up, 2);
  assert.deepEqual([list()[2]!["to"], list()[3]!["to"]], ["run", "run"]);
  assert.equal(list()[8]!["to"], "walk", "idle → walk took idle → run's place");
  assert.equal(moveTransition(doc, BASE, up, -1), up, "already first among idle's");
  setTransitionField(doc, BASE, up, "curve", "easeIn");
  setTransitionField(doc, BASE, up, "exitTime", undefined);
  assert.equal(list()[up]!["curve"], "easeIn");
  assert.ok(!("exitTime" in list()[up]!));
  setInterruption(doc, BASE, up, "target");
  assert.deepEqual(list()[up]!["interruption"], { source: "target" });
  setInterruption(doc, BASE, up, "none");
  assert.ok(!("interruption" in list()[up]!));
  assert.throws(() => setTransitionField(doc, BASE, up, "to", "walk"), EditError);
  deleteTransitions(doc, BASE, [up, 0]);
  assert.equal(list().length, 8);
  assert.throws(() => addCondition(emptyGraphWithTransition(), BASE, 0), /declare a parameter first/);
  removeCondition(doc, BASE, 0, 0);
  assert.deepEqual(list()[0]!["conditions"], []);
});

function emptyGraphWithTransition(): JsonObject {
  const doc = emptyGraph("g");
  addState(doc, BASE, { kind: "clip", clip: "A" });
  addTransition(doc, BASE, "A", "A");
  return doc;
}

test("motion kinds: a blend declares a float parameter when there is none; samples are placed, added and removed", () => {
  const doc = emptyGraph("g");
  const name = addState(doc, BASE, { kind: "blend2d", clip: "Walking" });
  assert.equal(name, "Blend");
  assert.deepEqual(Object.keys(doc["parameters"] as JsonObject), ["blendX", "blendY"]);
  setSample(doc, BASE, name, 1, { at: [0.5, -0.25], clip: "Running" });
  const samples = (): JsonObject[] => ((machineAt(doc, BASE)["states"] as JsonObject)[name] as { blend2d: { samples: JsonObject[] } }).blend2d.samples;
  assert.deepEqual(samples()[1], { x: 0.5, y: -0.25, clip: "Running" });
  assert.equal(addSample(doc, BASE, name), 3);
  assert.deepEqual(samples()[3], { x: 1, y: 0, clip: "Walking" }, "the first free point of the unit grid (sample 1 moved off it), the last sample's clip");
  removeSample(doc, BASE, name, 0);
  assert.equal(samples().length, 3);
  setBlendParam(doc, BASE, name, 1, "blendX");
  setMotion(doc, BASE, name, "clip");
  assert.deepEqual((machineAt(doc, BASE)["states"] as JsonObject)[name], { clip: "Running" }, "the first sample's clip (sample 0 was removed)");
  setMotion(doc, BASE, name, "machine");
  const nested = machineAt(doc, { layer: 0, path: [name] });
  assert.equal(nested["entry"], "State");
  addState(doc, { layer: 0, path: [name] }, { kind: "clip", clip: "Jump", name: "Air" });
  setEntry(doc, { layer: 0, path: [name] }, "Air");
  assert.equal(nested["entry"], "Air");
  setMotion(doc, BASE, name, "blend1d");
  assert.deepEqual((machineAt(doc, BASE)["states"] as JsonObject)[name], { blend1d: { param: "blendX", children: [{ at: 0, clip: "Running" }, { at: 1, clip: "Running" }] } });
  assert.deepEqual(lint(formatDocument(doc)).filter((d) => d.severity === "error"), []);
});

test("a graph from a character's clips: one state per clip in rows, the first the entry, no transitions", () => {
  const doc = graphFromClips("fox", ["Survey", "Walk", "Run"]);
  const machine = machineAt(doc, BASE);
  assert.deepEqual(Object.keys(machine["states"] as JsonObject), ["Survey", "Walk", "Run"]);
  assert.equal(machine["entry"], "Survey");
  assert.ok(!lint(formatDocument(doc)).some((d) => d.severity === "error"));
});

test("editDocument edits a copy and formats it; a text that does not parse is an EditError naming why", () => {
  const r = editDocument(seedMachine, (doc) => placeStates(doc, BASE, new Map([["idle", [10.4, 20.6] as const]])));
  assert.match(r.text, /"idle": \{\n\s+"clip": "Idle",\n\s+"x-pos": \[10, 21\]\n/);
  assert.throws(() => editDocument("{ nope", () => 0), /does not parse/);
  assert.throws(() => editDocument("[1]", () => 0), /not a JSON object/);
});

// ---- Property tests: random edit sequences through the store ---------------------------------------

type Edit = (doc: JsonObject) => void;
/** One random edit on a machine's states, transitions and parameters (some fail, as a user's clicks would). */
const editArb: fc.Arbitrary<Edit> = fc.oneof(
  fc.tuple(fc.constantFrom<"clip" | "blend1d" | "blend2d" | "machine">("clip", "blend1d", "blend2d", "machine"), fc.constantFrom("Idle", "Walking", "Running")).map(([kind, clip]) => (doc: JsonObject) => { addState(doc, BASE, { kind, clip, at: [clip.length * 10, 40] }); }),
  fc.nat(8).map((i) => (doc: JsonObject) => { const s = names(doc); if (s.length) deleteStates(doc, BASE, [s[i % s.length]!]); }),
  fc.tuple(fc.nat(8), fc.constantFrom("A", "B", "walk", "x y")).map(([i, to]) => (doc: JsonObject) => { const s = names(doc); if (s.length) renameState(doc, BASE, s[i % s.length]!, to); }),
  fc.tuple(fc.nat(8), fc.nat(8)).map(([i, j]) => (doc: JsonObject) => { const s = ["*", ...names(doc)]; if (s.length > 1) addTransition(doc, BASE, s[i % s.length]!, s[1 + (j % (s.length - 1))]!); }),
  fc.tuple(fc.nat(8), fc.integer({ min: -1, max: 1 })).map(([i, d]) => (doc: JsonObject) => { const n = count(doc); if (n && d !== 0) moveTransition(doc, BASE, i % n, d as -1 | 1); }),
  fc.nat(8).map((i) => (doc: JsonObject) => { const n = count(doc); if (n) deleteTransitions(doc, BASE, [i % n]); }),
  fc.tuple(fc.constantFrom("speed", "go", "jump"), fc.constantFrom<"float" | "int" | "bool" | "trigger">("float", "int", "bool", "trigger")).map(([name, type]) => (doc: JsonObject) => { addParam(doc, name, type); }),
  fc.tuple(fc.nat(8), fc.constantFrom<"float" | "int" | "bool" | "trigger">("float", "int", "bool", "trigger")).map(([i, type]) => (doc: JsonObject) => { const p = Object.keys(doc["parameters"] as JsonObject); if (p.length) retypeParam(doc, p[i % p.length]!, type); }),
  fc.tuple(fc.nat(8), fc.constantFrom("v", "w", "speed")).map(([i, to]) => (doc: JsonObject) => { const p = Object.keys(doc["parameters"] as JsonObject); if (p.length) renameParam(doc, p[i % p.length]!, to); }),
  fc.nat(8).map((i) => (doc: JsonObject) => { const p = Object.keys(doc["parameters"] as JsonObject); if (p.length) deleteParam(doc, p[i % p.length]!); }),
  fc.nat(8).map((i) => (doc: JsonObject) => { const n = count(doc); if (n) addCondition(doc, BASE, i % n); }),
);
const names = (doc: JsonObject): string[] => Object.keys(machineAt(doc, BASE)["states"] as JsonObject);
const count = (doc: JsonObject): number => (machineAt(doc, BASE)["transitions"] as unknown[]).length;

test("property: random edit sequences through the store: undo all gives the original text, redo all the final one", () => {
  fc.assert(fc.property(fc.array(editArb, { maxLength: 25 }), (edits) => {
    const original = formatDocument(emptyGraph("g"));
    const store = createStudioStore({ text: original });
    for (const edit of edits) {
      try {
        store.edit(editDocument(store.text, edit).text);
      } catch (e) {
        if (!(e instanceof EditError)) throw e;
      }
      // Every edit leaves a document the parser reads without a shape error (names and kinds may be flagged).
      assert.ok(!lint(store.text).some((d) => d.code === "E_JSON_SYNTAX" || d.code === "E_SPEC_UNKNOWN_KEY"));
    }
    const final = store.text;
    while (store.undo());
    assert.equal(store.text, original);
    while (store.redo());
    assert.equal(store.text, final);
  }));
});

test("property: renaming a state or a parameter and back gives the same text, and the same findings meanwhile", () => {
  const base = formatDocument(buildSeedMachine());
  const states = ["idle", "walk", "run", "jump", "attack"];
  const params = ["speed", "jump", "attack"];
  fc.assert(fc.property(fc.constantFrom(...states), fc.constantFrom(...params), fc.string({ minLength: 1, maxLength: 6 }).filter((s) => s.trim() === s && s !== "*" && !/^(0|[1-9]\d*)$/.test(s)), (state, param, to) => {
    const doc = parseDocument(base);
    const stateFree = !states.includes(to);
    const paramFree = !params.includes(to);
    if (stateFree) renameState(doc, BASE, state, to);
    if (paramFree) renameParam(doc, param, to);
    assert.deepEqual(lint(formatDocument(doc)), [], "renamed: still clean");
    // A state's name does not change the motion: the run's pose digest is the same.
    if (stateFree && !paramFree) assert.equal(runDigest(formatDocument(doc)), runDigest(base));
    if (paramFree) renameParam(doc, to, param);
    if (stateFree) renameState(doc, BASE, to, state);
    assert.equal(formatDocument(doc), base);
  }), { numRuns: 60 });
});

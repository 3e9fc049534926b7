// Unit and property tests of the studio's store (studio/src/store.ts) in Node: the document derived from
// its text, subscriptions, the selection (pruned when the document loses what it named), undo / redo and
// the coalescing of edits into undo steps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { createStudioStore, EMPTY_SELECTION, machineAt, pruneSelection, type StoreChange } from "../../studio/src/store.ts";
import { repoPath } from "../helpers/assets.ts";

const robot = readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8");

/** A clock the test moves by hand. */
function clock(): { now: () => number; advance(ms: number): void } {
  let t = 1000;
  return { now: () => t, advance: (ms) => { t += ms; } };
}

test("the document is the text: the tree, the spec and the findings are derived from it, once per text", () => {
  const store = createStudioStore({ text: robot, file: "robot.animgraph.json" });
  const a = store.analysis;
  assert.ok(a.spec, "the robot graph parses");
  assert.equal(a.spec.layers[0]!.name, "base");
  assert.equal(store.analysis, a, "derived once, then cached");
  store.edit(robot.replace('"entry": "Idle"', '"entry": "Ghost"'));
  const b = store.analysis;
  assert.notEqual(b, a);
  const line = robot.split("\n").findIndex((l) => l.includes('"entry": "Idle"')) + 1;
  assert.ok(b.diagnostics.some((d) => d.code === "E_UNKNOWN_STATE" && d.line === line), JSON.stringify(b.diagnostics));
  store.edit("{ not json");
  assert.equal(store.analysis.spec, undefined);
  assert.ok(store.analysis.diagnostics.some((d) => d.code === "E_JSON_SYNTAX" && d.line === 1));
});

test("the lint context re-derives the findings (clip names checked against the character's clips)", () => {
  const store = createStudioStore({ text: robot });
  assert.ok(!store.analysis.diagnostics.some((d) => d.code === "E_UNKNOWN_CLIP"));
  const changes: StoreChange[] = [];
  store.subscribe((c) => changes.push(c));
  store.setLintContext({ clips: [{ name: "Idle", duration: 1 }] });
  assert.deepEqual(changes.map((c) => [c.origin, c.text, c.analysis]), [["context", false, true]]);
  assert.ok(store.analysis.diagnostics.some((d) => d.code === "E_UNKNOWN_CLIP" && /Walking|Running|Jump/.test(d.message)));
});

test("subscribers hear every change with what changed, why and from whom; unsubscribing stops them", () => {
  const store = createStudioStore({ text: "{}" });
  const seen: StoreChange[] = [];
  const off = store.subscribe((c) => seen.push(c));
  store.edit('{"a":1}', { source: "editor" });
  store.select({ states: ["Idle"] }, "graph");
  store.select({ states: ["Idle"] }, "graph"); // no change, no call
  store.edit('{"a":2}', { select: { transitions: [0] }, source: "inspector" });
  store.edit('{"a":2}'); // the same text: nothing
  store.undo();
  store.redo();
  store.load("{}", "other.json");
  off();
  store.edit('{"b":1}');
  assert.deepEqual(seen.map((c) => [c.origin, c.text, c.selection, c.source]), [
    ["edit", true, false, "editor"],
    ["select", false, true, "graph"],
    ["edit", true, true, "inspector"],
    ["undo", true, true, undefined],
    ["redo", true, true, undefined],
    ["load", true, false, undefined],
  ]);
});

test("undo and redo walk the history of texts and bring back the selection around each step, not the rewound step", () => {
  const store = createStudioStore({ text: "A" });
  store.select({ states: ["s1"] });
  store.edit("B", { label: "Rename", select: { states: ["s2"] } });
  store.edit("C", { label: "Delete", select: { states: [] } });
  store.select({ step: 42 });
  assert.equal(store.undoLabel, "Delete");
  assert.ok(store.undo());
  assert.equal(store.text, "B");
  assert.deepEqual(store.selection.states, ["s2"]);
  assert.equal(store.selection.step, 42, "undo does not move the clock");
  assert.equal(store.redoLabel, "Delete");
  assert.ok(store.undo());
  assert.equal(store.text, "A");
  assert.deepEqual(store.selection.states, ["s1"]);
  assert.equal(store.undo(), false, "nothing left to undo");
  assert.ok(store.redo());
  assert.equal(store.text, "B");
  // A new edit drops what could be redone.
  store.edit("D");
  assert.equal(store.canRedo, false);
  assert.equal(store.redo(), false);
  assert.ok(store.undo());
  assert.equal(store.text, "B");
});

test("a load starts the history again and is the saved state; edits make it dirty, saving cleans it", () => {
  const store = createStudioStore({ text: "A" });
  store.edit("B");
  store.load("X", "x.json");
  assert.equal(store.canUndo, false);
  assert.equal(store.dirty, false);
  store.edit("Y");
  assert.equal(store.dirty, true);
  store.markSaved("y.json");
  assert.equal(store.dirty, false);
  assert.equal(store.file, "y.json");
  store.undo();
  assert.equal(store.dirty, true, "undoing past the save makes it differ from the file again");
});

test("coalescing: edits with one key in a row within the window make one step; a pause, another key or seal() starts a new one", () => {
  const c = clock();
  const store = createStudioStore({ text: "", now: c.now, coalesceMs: 500 });
  for (const t of ["h", "he", "hel", "hell", "hello"]) { store.edit(t, { coalesce: "type" }); c.advance(100); }
  c.advance(600);
  store.edit("hello ", { coalesce: "type" });
  c.advance(100);
  store.edit("hello w", { coalesce: "type" });
  store.edit("hello", { coalesce: "delete" });
  store.edit("hello!", { coalesce: "type" });
  store.seal();
  store.edit("hello!!", { coalesce: "type" });
  store.edit("x"); // no key: always its own step
  store.edit("xy");
  const texts = [store.text];
  while (store.undo()) texts.push(store.text);
  assert.deepEqual(texts, ["xy", "x", "hello!!", "hello!", "hello", "hello w", "hello", ""]);
});

test("coalescing: dragging back to where it started leaves no undo step", () => {
  const c = clock();
  const store = createStudioStore({ text: "x=0", now: c.now });
  store.edit("x=1", { coalesce: "drag Idle" });
  c.advance(16);
  store.edit("x=0", { coalesce: "drag Idle" });
  assert.equal(store.canUndo, false);
});

test("the history keeps at most historyLimit steps, dropping the oldest", () => {
  const store = createStudioStore({ text: "0", historyLimit: 3 });
  for (let i = 1; i <= 5; i++) store.edit(String(i));
  let undos = 0;
  while (store.undo()) undos++;
  assert.equal(undos, 3);
  assert.equal(store.text, "2");
});

test("the selection loses what the document no longer has: a deleted state, a transition index past the end", () => {
  const spec = JSON.parse(robot) as { layers: { machine: { states: Record<string, unknown>; transitions: unknown[] } }[] };
  const store = createStudioStore({ text: robot });
  store.select({ layer: 0, states: ["Idle", "Jump"], transitions: [0, 1] });
  delete spec.layers[0]!.machine.states["Jump"];
  spec.layers[0]!.machine.transitions = spec.layers[0]!.machine.transitions.slice(0, 1);
  store.edit(JSON.stringify(spec, null, 2));
  assert.deepEqual(store.selection.states, ["Idle"]);
  assert.deepEqual(store.selection.transitions, [0]);
  // A text that does not parse keeps the selection (it is a moment in the middle of typing).
  store.select({ states: ["Idle", "Walk"] });
  store.edit("{");
  assert.deepEqual(store.selection.states, ["Idle", "Walk"]);
  // Undo brings back the text and the selection as they were.
  store.undo();
  store.undo();
  assert.deepEqual(store.selection.states, ["Idle", "Jump"]);
  assert.deepEqual(store.selection.transitions, [0, 1]);
});

test("pruneSelection and machineAt follow nested machines and clamp the layer", () => {
  const doc = {
    animgraph: 1, name: "n", parameters: { go: { type: "bool" } },
    layers: [{ name: "base", machine: { entry: "Air", states: {
      Air: { machine: { entry: "Rise", states: { Rise: { clip: "Jump" }, Fall: { blend1d: { param: "go", children: [{ at: 0, clip: "a" }, { at: 1, clip: "b" }] } } } } },
      Idle: { clip: "Idle" },
    }, transitions: [] } }],
  };
  const store = createStudioStore({ text: JSON.stringify(doc) });
  const spec = store.analysis.spec!;
  assert.ok(spec, JSON.stringify(store.analysis.diagnostics));
  assert.deepEqual([...machineAt(spec, 0, ["Air"])!.states.keys()], ["Rise", "Fall"]);
  assert.equal(machineAt(spec, 0, ["Idle"]), undefined);
  assert.equal(machineAt(spec, 3, []), undefined);
  const s = pruneSelection({ ...EMPTY_SELECTION, path: ["Air", "Rise"], states: ["Fall"], samples: [1, 2] }, spec);
  assert.deepEqual(s.path, ["Air"]);
  assert.deepEqual(s.states, ["Fall"]);
  assert.deepEqual(s.samples, [1], "samples of the one selected blend, within its count");
  const t = pruneSelection({ ...EMPTY_SELECTION, layer: 5, path: ["Air"], states: ["Idle"] }, spec);
  assert.equal(t.layer, 0);
  assert.deepEqual(t.path, [], "another layer's path does not apply");
  assert.deepEqual(t.states, ["Idle"]);
  const same = { ...EMPTY_SELECTION, states: ["Idle"] };
  assert.equal(pruneSelection(same, spec), same, "unchanged: the same object");
});

test("property: any sequence of edits, undos and redos agrees with a plain list-and-cursor model", () => {
  type Op = { kind: "edit"; text: string } | { kind: "undo" } | { kind: "redo" };
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.string({ maxLength: 3 }).map((text) => ({ kind: "edit" as const, text })),
    fc.constant({ kind: "undo" as const }),
    fc.constant({ kind: "redo" as const }),
  );
  fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
    const store = createStudioStore({ text: "" });
    // The model: the texts after each step, and where we are.
    let texts = [""];
    let at = 0;
    for (const o of ops) {
      if (o.kind === "edit") {
        if (o.text !== texts[at]) { texts = [...texts.slice(0, at + 1), o.text]; at++; }
        store.edit(o.text);
      } else if (o.kind === "undo") {
        assert.equal(store.undo(), at > 0);
        if (at > 0) at--;
      } else {
        assert.equal(store.redo(), at < texts.length - 1);
        if (at < texts.length - 1) at++;
      }
      assert.equal(store.text, texts[at]);
      assert.equal(store.canUndo, at > 0);
      assert.equal(store.canRedo, at < texts.length - 1);
    }
    // Undo to the start and redo to the end give the first and the last text.
    while (store.undo());
    assert.equal(store.text, texts[0]);
    while (store.redo());
    assert.equal(store.text, texts[texts.length - 1]);
  }));
});

test("a listener may edit or select in response; every listener hears every change, in the order they happened", () => {
  const store = createStudioStore({ text: "a" });
  const log: string[] = [];
  store.subscribe((c) => {
    log.push(`1:${c.origin}:${store.text}`);
    if (c.origin === "edit" && store.text === "b") store.select({ states: ["x"] });
  });
  store.subscribe((c) => log.push(`2:${c.origin}:${store.text}`));
  store.edit("b");
  assert.deepEqual(log, ["1:edit:b", "2:edit:b", "1:select:b", "2:select:b"]);
});

test("the picked joint is selection, not document: no undo step, kept through edits, undo and redo, a load and pruning", () => {
  const store = createStudioStore({ text: robot });
  const changes: StoreChange[] = [];
  store.subscribe((c) => changes.push(c));
  assert.equal(store.selection.joint, null);
  store.select({ joint: "Palm2.L" }, "viewport");
  assert.deepEqual(changes.map((c) => [c.origin, c.text, c.selection, c.source]), [["select", false, true, "viewport"]]);
  assert.equal(store.canUndo, false, "picking a joint is not an undo step");
  store.edit(robot.replace('"entry": "Idle"', '"entry": "Walk"'), { label: "Entry" });
  store.select({ joint: "Head" }, "viewport");
  // Undoing the edit takes back the text and the graph selection around it, not the joint picked since.
  store.undo();
  assert.equal(store.text, robot);
  assert.equal(store.selection.joint, "Head");
  store.redo();
  assert.equal(store.selection.joint, "Head");
  // An edit may pick a joint as it goes (a joint field filled from the viewport).
  store.edit(robot, { label: "Back", select: { joint: "Palm1.L" } });
  assert.equal(store.selection.joint, "Palm1.L");
  assert.equal(pruneSelection({ ...EMPTY_SELECTION, joint: "Palm1.L" }, store.analysis.spec!).joint, "Palm1.L", "pruning against the document keeps it");
  store.load(robot, "again.json");
  assert.equal(store.selection.joint, "Palm1.L");
  store.select({ joint: null });
  assert.equal(store.selection.joint, null);
});

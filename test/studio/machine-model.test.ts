// Unit tests of what the graph editor draws from the document (studio/src/machine-model.ts): states with
// their x-pos places and kinds, transitions with their conditions in short, and the linter's findings
// attached by JSON pointer; and of the save module's semantic key (a drag changes no runtime input).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { lintDocument, parseJsonText } from "../../src/index.ts";
import { addState, addTransition, emptyGraph, formatDocument, parseDocument, placeStates, setParamField, EditError } from "../../studio/src/graph-edits.ts";
import { conditionLabel, machineModel } from "../../studio/src/machine-model.ts";
import { semanticKey } from "../../studio/src/save.ts";
import { repoPath } from "../helpers/assets.ts";

const robot = readFileSync(repoPath("examples/robot/robot.animgraph.json"), "utf8");
const BASE = { layer: 0, path: [] } as const;
const findings = (text: string) => lintDocument(parseJsonText(text, "g.json")).diagnostics;

test("the model lists states with kind and place, and transitions with their conditions in short", () => {
  const doc = parseDocument(robot);
  placeStates(doc, BASE, new Map([["Idle", [40, 50] as const]]));
  const model = machineModel(doc, BASE, [])!;
  assert.equal(model.entry, "Idle");
  assert.deepEqual(model.states.map((s) => [s.name, s.kind]), [["Idle", "clip"], ["Walk", "clip"], ["Run", "blend1d"], ["Jump", "clip"], ["Punch", "clip"]]);
  assert.deepEqual(model.states[0]!.pos, { x: 40, y: 50 });
  assert.equal(model.states[1]!.pos, undefined, "no x-pos: laid out by the view");
  const labels = model.transitions.map((t) => `${t.from}→${t.to}: ${t.label}`);
  assert.ok(labels.includes("*→Jump: jump!"), labels.join("\n"));
  assert.ok(labels.some((l) => /^Idle→Walk: speed > 0\.1/.test(l)), labels.join("\n"));
  assert.equal(machineModel(doc, { layer: 7, path: [] }, []), undefined);
});

test("condition labels fit the parameter's type", () => {
  const types = new Map([["go", "bool"], ["jump", "trigger"], ["speed", "float"]] as const);
  assert.equal(conditionLabel({ param: "go" }, types), "go");
  assert.equal(conditionLabel({ param: "go", op: "==", value: false }, types), "!go");
  assert.equal(conditionLabel({ param: "go", op: "!=", value: false }, types), "go");
  assert.equal(conditionLabel({ param: "jump" }, types), "jump!");
  assert.equal(conditionLabel({ param: "speed", op: "<=", value: 1.23456 }, types), "speed ≤ 1.235");
});

test("findings are attached to the state or transition their pointer names; a nested machine's stay inside it", () => {
  const doc = emptyGraph("g");
  addState(doc, BASE, { kind: "clip", clip: "A" });
  addState(doc, BASE, { kind: "clip", clip: "B" });
  addState(doc, BASE, { kind: "machine", clip: "C", name: "M" });
  addTransition(doc, BASE, "A", "A");
  const text = formatDocument(doc);
  const diagnostics = findings(text);
  const model = machineModel(parseDocument(text), BASE, diagnostics)!;
  const b = model.states.find((s) => s.name === "B")!;
  assert.ok(b.findings.some((f) => /W_UNREACHABLE|reach/i.test(f.message)), JSON.stringify(diagnostics));
  const nested = diagnostics.filter((d) => d.pointer.startsWith("/layers/0/machine/states/M/machine/"));
  const m = model.states.find((s) => s.name === "M")!;
  for (const d of nested) assert.ok(!m.findings.some((f) => f.message.startsWith(d.message)), "a nested machine's finding is not drawn on its state");
  const inner = machineModel(parseDocument(text), { layer: 0, path: ["M"] }, diagnostics)!;
  assert.equal(inner.pointer, "/layers/0/machine/states/M/machine");
  assert.deepEqual(inner.states.map((s) => s.name), ["State"]);
});

test("a parameter's default, min and max are set within its type", () => {
  const doc = parseDocument(robot);
  setParamField(doc, "speed", "max", 3);
  setParamField(doc, "emote", "max", 2.6);
  setParamField(doc, "speed", "min", undefined);
  const params = doc["parameters"] as Record<string, Record<string, unknown>>;
  assert.equal(params["speed"]!["max"], 3);
  assert.ok(!("min" in params["speed"]!));
  assert.equal(params["emote"]!["max"], 3, "an int's bound is rounded");
  assert.throws(() => setParamField(doc, "jump", "default", 1), EditError);
  assert.throws(() => setParamField(doc, "ghost", "max", 1), /no parameter "ghost"/);
});

test("the semantic key ignores x- keys and formatting, and sees every other change", () => {
  const doc = parseDocument(robot);
  const a = semanticKey(robot);
  placeStates(doc, BASE, new Map([["Walk", [1, 2] as const]]));
  assert.equal(semanticKey(formatDocument(doc)), a);
  assert.equal(semanticKey(JSON.stringify(JSON.parse(robot))), a);
  assert.notEqual(semanticKey(robot.replace('"duration": 0.1', '"duration": 0.2')), a);
  assert.equal(semanticKey("{ nope"), undefined);
});

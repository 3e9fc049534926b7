// The checker's public functions: arguments checked (AnimgraphError with a stable code, never a raw
// TypeError), and the properties grammar — quoted names, alternatives, machine paths, bare bools — with
// errors at their line and column.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkGraph, formatCheckReport, isAnimgraphError, parseProperties } from "../../src/index.ts";
import { build, clip } from "./check-fixtures.ts";

const NESTED = build({
  parameters: { speed: { type: "float", default: 0, min: 0, max: 6 }, grounded: { type: "bool", default: true }, jump: { type: "trigger" } },
  layers: [{
    name: "base",
    machine: {
      entry: "Move",
      states: {
        Move: { machine: { entry: "Idle", states: { Idle: clip("idle"), "Big Jump": clip("jump") }, transitions: [{ from: "Idle", to: "Big Jump", conditions: [{ param: "jump" }] }] } },
        Idle: clip("idle"),
      },
      transitions: [{ from: "Move", to: "Idle", conditions: [{ param: "speed", op: ">", value: 3 }] }],
    },
  }],
});

function throwsCode(fn: () => unknown, code: string, message: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(isAnimgraphError(e), `an AnimgraphError, got ${String(e)}`);
    assert.equal((e as { code: string }).code, code);
    assert.match((e as Error).message, message);
    return true;
  });
}

test("checkGraph, parseProperties and formatCheckReport check their arguments", () => {
  throwsCode(() => checkGraph(undefined as never, NESTED.graph), "ERR_ARGUMENT", /checkGraph: spec must be a GraphSpec/);
  throwsCode(() => checkGraph(NESTED.spec, {} as never), "ERR_ARGUMENT", /checkGraph: graph must be a CompiledGraph/);
  throwsCode(() => checkGraph(NESTED.spec, NESTED.graph, { bound: 0 }), "ERR_OUT_OF_RANGE", /options\.bound must be an integer from 1/);
  throwsCode(() => checkGraph(NESTED.spec, NESTED.graph, { bound: "3" as never }), "ERR_ARGUMENT", /options\.bound must be a number/);
  throwsCode(() => checkGraph(NESTED.spec, NESTED.graph, { dt: 0.5 }), "ERR_OUT_OF_RANGE", /options\.dt/);
  throwsCode(() => checkGraph(NESTED.spec, NESTED.graph, { timeLimit: -1 }), "ERR_OUT_OF_RANGE", /options\.timeLimit/);
  throwsCode(() => checkGraph(NESTED.spec, NESTED.graph, null as never), "ERR_ARGUMENT", /options/);
  throwsCode(() => parseProperties(7 as never, "p", NESTED.graph), "ERR_ARGUMENT", /parseProperties: text/);
  throwsCode(() => parseProperties("", "p", null as never), "ERR_ARGUMENT", /parseProperties: graph/);
  throwsCode(() => formatCheckReport({} as never, "x"), "ERR_ARGUMENT", /formatCheckReport: report/);
  const report = checkGraph(NESTED.spec, NESTED.graph);
  throwsCode(() => formatCheckReport(report, 3 as never), "ERR_ARGUMENT", /replayCommand/);
  assert.ok(formatCheckReport(report, "animgraph run …").some((l) => /explored \d+ configurations/.test(l)));
});

test("properties: quoted names, alternatives, machine paths and bare bools", () => {
  const r = parseProperties([
    "# a comment line",
    "",
    'never "Big Jump" while grounded and speed >= 1   # trailing comment',
    "always eventually base/Idle|base/Move/Idle after jump",
    'from base/Move/"Big Jump" reachable Move',
    "always eventually Move after entering base/Idle",
  ].join("\n"), "p.prop", NESTED.graph);
  // base/Move/"Big Jump" is not a form: a quoted name is a whole name, so that line fails.
  assert.equal(r.properties.length, 3);
  assert.deepEqual(r.properties.map((p) => p.line), [3, 4, 6]);
  const never = r.properties[0]!.compiled;
  assert.equal(never.kind, "never");
  assert.equal(never.kind === "never" && never.conditions.length, 2);
  const ev = r.properties[1]!.compiled;
  assert.equal(ev.kind === "eventually" && ev.states.length, 2);
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0]!.pointer, "line 5");
});

test("properties: every error names its line and column, each line on its own", () => {
  const r = parseProperties([
    "never Move while speed > fast",
    "never Move while grounded > 1",
    "always eventually Move after speed",
    "from Move reachable",
    "sometimes Move",
    "never Move while jump == true",
    'never "unclosed while speed > 1',
    "never Move while speed > 1 extra",
  ].join("\n"), "p.prop", NESTED.graph);
  const byLine = new Map(r.diagnostics.map((d) => [d.line, d]));
  assert.equal(r.properties.length, 0);
  assert.equal(r.diagnostics.length, 8);
  assert.ok(r.diagnostics.every((d) => d.file === "p.prop" && d.pointer === `line ${d.line}` && d.severity === "error"));
  assert.match(byLine.get(1)!.message, /column 26: float parameter "speed" is compared with a number, not "fast"/);
  assert.equal(byLine.get(1)!.code, "E_PROP_CONDITION_TYPE");
  assert.match(byLine.get(2)!.message, /bool parameter "grounded" is compared with true or false/);
  assert.match(byLine.get(3)!.message, /"speed" is a float parameter: "after" takes a trigger/);
  assert.match(byLine.get(4)!.message, /the line ends where a state belongs/);
  assert.match(byLine.get(5)!.message, /column 1: a property starts with "never", "always eventually" or "from", not "sometimes"/);
  assert.match(byLine.get(6)!.message, /"jump" is a trigger/);
  assert.match(byLine.get(7)!.message, /a quoted name is not closed/);
  assert.match(byLine.get(8)!.message, /unexpected "extra"/);
  const amb = parseProperties("never Idle while speed > 1\n", "p.prop", NESTED.graph);
  assert.equal(amb.diagnostics[0]!.code, "E_PROP_AMBIGUOUS_STATE");
  assert.match(amb.diagnostics[0]!.message, /write base\/Idle, base\/Move\/Idle/);
});

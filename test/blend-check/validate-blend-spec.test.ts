import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import fc from "fast-check";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blendCheckFile } from "../../src/blend-check/blend-check-file.ts";
import { blendCheckText } from "../../src/blend-check/blend-check-text.ts";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.ts";
import { repoPath } from "../helpers/assets.ts";

const TEXT = readFileSync(repoPath("examples/stardust-inn/ta09_blend.json"), "utf8");
type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test edits of a known document
const edit = (f: (s: Spec) => void): string => {
  const s = JSON.parse(TEXT) as Spec;
  f(s);
  return JSON.stringify(s, null, 2);
};

/** One bad input per row: the text, and the single error (code, pointer) it must produce. */
const ROWS: [label: string, text: string, code: string, pointer: string][] = [
  ["not JSON", "{ nope", "E_JSON_SYNTAX", ""],
  ["trailing comma", TEXT.replace(/\n\}\s*$/, ",\n}"), "E_JSON_SYNTAX", ""],
  ["root is an array", "[]", "E_WRONG_TYPE", ""],
  ["missing project", edit((s) => delete s.project), "E_MISSING_KEY", ""],
  ["project is a number", edit((s) => (s.project = 9)), "E_WRONG_TYPE", "/project"],
  ["blendSpace is null", edit((s) => (s.blendSpace = null)), "E_WRONG_TYPE", "/blendSpace"],
  ["one axis", edit((s) => s.blendSpace.axes.pop()), "E_AXIS_COUNT", "/blendSpace/axes"],
  ["three axes", edit((s) => s.blendSpace.axes.push({ param: "turn", min: 0, max: 1 })), "E_AXIS_COUNT", "/blendSpace/axes"],
  ["axis max = min", edit((s) => (s.blendSpace.axes[0].max = 0)), "E_AXIS_RANGE", "/blendSpace/axes/0/max"],
  ["axis max < min", edit((s) => (s.blendSpace.axes[1].max = -200)), "E_AXIS_RANGE", "/blendSpace/axes/1/max"],
  ["axis min not an integer", TEXT.replace('"min": -100', '"min": -100.5'), "E_NOT_INTEGER", "/blendSpace/axes/1/min"],
  ["axis max as 3e2", TEXT.replace('"max": 300', '"max": 3e2'), "E_NOT_INTEGER", "/blendSpace/axes/0/max"],
  ["axis param missing", edit((s) => delete s.blendSpace.axes[1].param), "E_MISSING_KEY", "/blendSpace/axes/1"],
  ["both axes read speed", edit((s) => (s.blendSpace.axes[1].param = "speed")), "E_AXIS_PARAM_DUPLICATE", "/blendSpace/axes/1/param"],
  ["sample x is a string", edit((s) => (s.blendSpace.samples[2].x = "300")), "E_WRONG_TYPE", "/blendSpace/samples/2/x"],
  ["sample y is true", edit((s) => (s.blendSpace.samples[0].y = true)), "E_WRONG_TYPE", "/blendSpace/samples/0/y"],
  ["sample clip missing", edit((s) => delete s.blendSpace.samples[3].clip), "E_MISSING_KEY", "/blendSpace/samples/3"],
  ["clipSet item is a number", edit((s) => (s.clipSet[1] = 3)), "E_WRONG_TYPE", "/clipSet/1"],
  ["query misses lean", edit((s) => delete s.queryPoints[2].lean), "E_MISSING_KEY", "/queryPoints/2"],
  ["query speed is 1.5", edit((s) => (s.queryPoints[0].speed = 1.5)), "E_NOT_INTEGER", "/queryPoints/0/speed"],
  ["query is a list", edit((s) => (s.queryPoints[1] = [300, 100])), "E_WRONG_TYPE", "/queryPoints/1"],
  ["states is a string", edit((s) => (s.states = "Idle")), "E_WRONG_TYPE", "/states"],
  ["budget minFrames 4.0", TEXT.replace('"minFrames": 4', '"minFrames": 4.0'), "E_NOT_INTEGER", "/transitionBudget/minFrames"],
  ["budget inverted", edit((s) => (s.transitionBudget.maxFrames = 3)), "E_BUDGET_RANGE", "/transitionBudget/maxFrames"],
  ["budget missing", edit((s) => delete s.transitionBudget), "E_MISSING_KEY", ""],
  ["frames is a string", edit((s) => (s.transitions[0].frames = "8")), "E_WRONG_TYPE", "/transitions/0/frames"],
  ["exitPermille 1e3", TEXT.replace('"exitPermille": 800', '"exitPermille": 8e2'), "E_NOT_INTEGER", "/transitions/1/exitPermille"],
  ["interruptible is 1", edit((s) => (s.transitions[4].interruptible = 1)), "E_NOT_BOOLEAN", "/transitions/4/interruptible"],
  ["interruptible missing", edit((s) => delete s.transitions[6].interruptible), "E_MISSING_KEY", "/transitions/6"],
  ["transition from is null", edit((s) => (s.transitions[5].from = null)), "E_WRONG_TYPE", "/transitions/5/from"],
  ["duplicate JSON key", TEXT.replace('"chapter": 9,', '"chapter": 9, "chapter": 10,'), "E_DUPLICATE_KEY", "/chapter"],
  ["lone surrogate", TEXT.replace('"Celebrate"]', '"Celebrate", "\\ud800"]'), "E_BAD_UNICODE", "/states/5"],
  ["too deep", edit((s) => (s.note = JSON.parse("[".repeat(80) + "]".repeat(80)))), "E_JSON_TOO_DEEP", `/note${"/0".repeat(63)}`],
];

for (const [label, text, code, pointer] of ROWS) {
  test(`unusable: ${label} → ${code} at "${pointer}", exit 2, no report`, () => {
    const r = blendCheckText(text, "bad.json");
    assert.equal(r.report, undefined);
    assert.equal(r.exitCode, 2);
    const errors = r.diagnostics.filter((d) => d.severity === "error");
    if (code === "E_JSON_SYNTAX") assert.ok(errors.length > 0 && errors.every((d) => d.code === code));
    else assert.deepEqual(errors.map((d) => [d.code, d.pointer]), [[code, pointer]]);
    for (const d of errors) assert.match(formatDiagnostic(d), /^bad\.json: (\/[^:]*: )?.+ \[E_[A-Z_0-9]+\]$/);
  });
}

test("every problem is reported at once", () => {
  const text = edit((s) => {
    s.blendSpace.axes[0].max = -1;
    s.queryPoints[0].lean = "x";
    s.transitions[0].frames = 1.5;
    s.transitions[2].interruptible = null;
    delete s.states;
  });
  const r = blendCheckText(text, "many.json");
  assert.equal(r.exitCode, 2);
  assert.deepEqual(r.diagnostics.map((d) => [d.code, d.pointer]), [
    ["E_AXIS_RANGE", "/blendSpace/axes/0/max"],
    ["E_WRONG_TYPE", "/queryPoints/0/lean"],
    ["E_MISSING_KEY", ""],
    ["E_NOT_INTEGER", "/transitions/0/frames"],
    ["E_NOT_BOOLEAN", "/transitions/2/interruptible"],
  ]);
});

test("file problems: missing, a directory, not UTF-8; a BOM is only a warning", () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-check-"));
  assert.deepEqual(blendCheckFile(join(dir, "none.json"), "none.json").diagnostics.map((d) => [d.code, d.file]), [["E_FILE_NOT_FOUND", "none.json"]]);
  assert.equal(blendCheckFile(dir).diagnostics[0]!.code, "E_FILE_READ");
  writeFileSync(join(dir, "latin1.json"), Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x7d]));
  const l = blendCheckFile(join(dir, "latin1.json"));
  assert.deepEqual([l.exitCode, l.diagnostics[0]!.code], [2, "E_NOT_UTF8"]);
  writeFileSync(join(dir, "bom.json"), `\uFEFF${TEXT}`);
  const b = blendCheckFile(join(dir, "bom.json"));
  assert.equal(b.exitCode, 1);
  assert.equal(b.report?.weightDigest, "b3017af58f0ce3e5");
  assert.deepEqual(b.diagnostics.map((d) => d.code), ["W_BOM", "E_TRANSITION_BUDGET", "E_UNKNOWN_STATE"]);
});

test("a clean spec exits 0; big integers beyond 2^53 are read exactly", () => {
  const clean = edit((s) => {
    s.transitions[3].frames = 24;
    s.transitions.pop();
  });
  const r = blendCheckText(clean);
  assert.deepEqual([r.exitCode, r.diagnostics], [0, []]);
  const big = TEXT.replace(/\b300\b/g, "3000000000000000000000000000000").replace('{ "speed": 100, "lean": 50 }', '{ "speed": 1000000000000000000000000000001, "lean": 50 }');
  const rb = blendCheckText(big);
  // tx = ⌊(10^30 + 1) · 1000 / (3 · 10^30)⌋ = 333, ty = 750: the same weights as (100, 50) on 0..300.
  assert.deepEqual(rb.report?.badSamples, []);
  assert.equal(rb.report?.weights[3], "speed=1000000000000000000000000000001 lean=50:innkeeper_idle_lean_l=166 innkeeper_idle_lean_r=500 innkeeper_run_lean_l=83 innkeeper_run_lean_r=249");
});

test("queries are read under each axis's param name", () => {
  const renamed = TEXT.replace('"param": "speed"', '"param": "velocity"').replace(/"speed":/g, '"velocity":');
  const r = blendCheckText(renamed);
  assert.equal(r.report?.weights[3], "velocity=100 lean=50:innkeeper_idle_lean_l=166 innkeeper_idle_lean_r=500 innkeeper_run_lean_l=83 innkeeper_run_lean_r=249");
  const outside = blendCheckText(TEXT.replace('{ "speed": 100, "lean": 50 }', '{ "speed": 400, "lean": 50 }'), "o.json");
  assert.deepEqual(outside.diagnostics.map((d) => [d.code, d.pointer]), [
    ["W_QUERY_OUT_OF_RANGE", "/queryPoints/3"],
    ["E_TRANSITION_BUDGET", "/transitions/3/frames"],
    ["E_UNKNOWN_STATE", "/transitions/6/to"],
  ]);
});

test("property: replacing any value of the spec with arbitrary JSON never throws and always explains exit 2", () => {
  const paths: (string | number)[][] = [];
  (function walk(v: unknown, path: (string | number)[]) {
    paths.push(path);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
  })(JSON.parse(TEXT), []);
  fc.assert(
    fc.property(fc.constantFrom(...paths), fc.jsonValue({ maxDepth: 2 }), (path, value) => {
      const text = path.length === 0 ? JSON.stringify(value) : edit((s) => {
        let o = s;
        for (const k of path.slice(0, -1)) o = o[k];
        o[path.at(-1)!] = value;
      });
      const r = blendCheckText(text, "fuzz.json");
      assert.equal(r.exitCode === 2, r.report === undefined);
      if (r.exitCode === 2) assert.ok(r.diagnostics.some((d) => d.severity === "error"));
      else assert.equal(r.exitCode, r.diagnostics.length > 0 ? 1 : 0);
    }),
    { numRuns: 400 },
  );
});

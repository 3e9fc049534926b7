import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { blendCheckFile } from "../../src/blend-check/blend-check-file.ts";
import { blendCheckText } from "../../src/blend-check/blend-check-text.ts";
import { analyzeBlendSpec, type BlendCheckReport } from "../../src/blend-check/analyze-blend-spec.ts";
import { blendSpecFindings } from "../../src/blend-check/blend-spec-findings.ts";
import type { BlendCheckSpec } from "../../src/blend-check/blend-spec.ts";
import { formatBlendReportJson, formatBlendSummary } from "../../src/blend-check/format-report.ts";
import { formatDiagnostic } from "../../src/diagnostics/diagnostic.ts";
import { readJsonFile } from "../../src/json/read-json-file.ts";
import { validateBlendSpec } from "../../src/blend-check/validate-blend-spec.ts";
import { repoPath } from "../helpers/assets.ts";

const SPEC = repoPath("examples/stardust-inn/ta09_blend.json");
const GOLDEN_JSON = readFileSync(repoPath("test/golden/blend-check/ta09_blend.report.json"), "utf8");
const GOLDEN_SUMMARY = readFileSync(repoPath("test/golden/blend-check/ta09_blend.summary.txt"), "utf8");

function bundled(): { spec: BlendCheckSpec; report: BlendCheckReport } {
  const result = blendCheckFile(SPEC, "ta09_blend.json");
  const { spec } = validateBlendSpec(readJsonFile(SPEC));
  assert.ok(result.report && spec);
  assert.deepEqual(blendCheckText(readFileSync(SPEC, "utf8")).report, result.report);
  return { spec, report: result.report };
}

test("golden: the bundled spec gives the reference's summary lines and its JSON file byte for byte", () => {
  const { report } = bundled();
  assert.equal(`${formatBlendSummary(report).join("\n")}\n`, GOLDEN_SUMMARY);
  assert.equal(formatBlendReportJson(report), GOLDEN_JSON);
  assert.equal(report.weightDigest, "b3017af58f0ce3e5");
  assert.equal(report.transitionDigest, "62666f7852d7906b");
});

test("the bundled spec's findings are diagnostics with pointers and positions", () => {
  const result = blendCheckFile(SPEC, "ta09_blend.json");
  assert.equal(result.exitCode, 1);
  assert.deepEqual(result.diagnostics.map(formatDiagnostic), [
    "ta09_blend.json: /transitions/3/frames: 30 frames is outside the budget 4..24 [E_TRANSITION_BUDGET]",
    'ta09_blend.json: /transitions/6/to: unknown state "Ghost" [E_UNKNOWN_STATE]',
  ]);
  assert.ok(result.diagnostics.every((d) => d.line !== undefined && d.column !== undefined));
  assert.deepEqual([result.diagnostics[1]!.line, result.diagnostics[1]!.column], [32, 28]);
});

test("shuffling transitions leaves transitionDigest (and the sorted lists) unchanged", () => {
  const { spec, report } = bundled();
  fc.assert(
    fc.property(fc.shuffledSubarray([...spec.transitions], { minLength: spec.transitions.length }), (ts) => {
      const r = analyzeBlendSpec({ ...spec, transitions: ts });
      assert.equal(r.transitionDigest, report.transitionDigest);
      assert.deepEqual([r.danglingTransitions, r.outOfBudget, r.duplicateTransitions], [report.danglingTransitions, report.outOfBudget, report.duplicateTransitions]);
    }),
    { numRuns: 50 },
  );
});

test("shuffling samples reorders each weights line but no clip's weight", () => {
  const { spec, report } = bundled();
  const byClip = (line: string): Map<string, string> =>
    new Map(line.slice(line.indexOf(":") + 1).split(" ").filter((p) => p !== "").map((p) => p.split("=") as [string, string]));
  fc.assert(
    fc.property(fc.shuffledSubarray([...spec.blendSpace.samples], { minLength: 4 }), (samples) => {
      const r = analyzeBlendSpec({ ...spec, blendSpace: { ...spec.blendSpace, samples } });
      r.weights.forEach((line, i) => {
        assert.deepEqual(byClip(line), byClip(report.weights[i]!));
        const order = samples.map((s) => s.clip).filter((c) => byClip(line).has(c));
        assert.deepEqual([...byClip(line).keys()], order);
      });
    }),
    { numRuns: 50 },
  );
  const reversed = analyzeBlendSpec({ ...spec, blendSpace: { ...spec.blendSpace, samples: [...spec.blendSpace.samples].reverse() } });
  assert.equal(reversed.weights[3], "speed=100 lean=50:innkeeper_run_lean_r=249 innkeeper_run_lean_l=83 innkeeper_idle_lean_r=500 innkeeper_idle_lean_l=166");
  assert.notEqual(reversed.weightDigest, report.weightDigest);
});

const corners = (clips: string[]) => [
  { clip: clips[0]!, x: 0n, y: 0n }, { clip: clips[1]!, x: 0n, y: 10n }, { clip: clips[2]!, x: 10n, y: 0n }, { clip: clips[3]!, x: 10n, y: 10n },
];
const baseSpec = (over: Partial<BlendCheckSpec> = {}): BlendCheckSpec => ({
  project: "p",
  blendSpace: { name: "B", axes: [{ param: "u", min: 0n, max: 10n }, { param: "v", min: 0n, max: 10n }], samples: corners(["a", "b", "c", "d"]) },
  clipSet: ["a", "b", "c", "d"],
  queryPoints: [{ x: 5n, y: 5n }],
  states: ["S"],
  transitionBudget: { minFrames: 1n, maxFrames: 10n },
  transitions: [],
  ...over,
});

test("duplicates are keyed on the (from, to) pair: names containing '->' do not collide; repeats count each time", () => {
  const t = (from: string, to: string, frames = 2n) => ({ from, to, frames, exitPermille: 0n, interruptible: false });
  const spec = baseSpec({
    states: ["a->b", "c", "a", "b->c", "__proto__", "constructor"],
    transitions: [t("a->b", "c"), t("a", "b->c"), t("__proto__", "constructor"), t("__proto__", "constructor", 3n), t("__proto__", "constructor", 4n)],
  });
  const r = analyzeBlendSpec(spec);
  assert.deepEqual(r.duplicateTransitions, ["__proto__->constructor", "__proto__->constructor"]);
  assert.deepEqual(r.danglingTransitions, []);
  const findings = blendSpecFindings(spec, "x.json");
  assert.deepEqual(findings.map((d) => [d.code, d.pointer]), [
    ["E_DUPLICATE_TRANSITION", "/transitions/3"],
    ["E_DUPLICATE_TRANSITION", "/transitions/4"],
  ]);
  assert.match(findings[1]!.message, /repeats \/transitions\/2$/);
});

test("Unicode and prototype names: sorted by code point, kept verbatim, never confused with object keys", () => {
  const clips = ["__proto__", "\u{1F600}", "\uFF5E", "constructor"];
  const t = (from: string, to: string) => ({ from, to, frames: 99n, exitPermille: 0n, interruptible: true });
  const spec = baseSpec({
    project: "__proto__",
    blendSpace: { name: "constructor", axes: [{ param: "__proto__", min: 0n, max: 10n }, { param: "\u{1F3C3}", min: 0n, max: 10n }], samples: corners(clips) },
    clipSet: ["toString"],
    states: [],
    transitions: [t("\u{1F600}", "x"), t("\uFF5E", "x"), t("hasOwnProperty", "valueOf")],
  });
  const r = analyzeBlendSpec(spec);
  assert.equal(r.project, "__proto__");
  assert.equal(r.blendSpace, "constructor");
  assert.deepEqual(r.missingClipRefs, ["__proto__", "constructor", "\uFF5E", "\u{1F600}"]);
  assert.deepEqual(r.danglingTransitions, ["hasOwnProperty->valueOf", "\uFF5E->x", "\u{1F600}->x"]);
  assert.deepEqual(r.outOfBudget, ["hasOwnProperty->valueOf:99", "\uFF5E->x:99", "\u{1F600}->x:99"]);
  assert.equal(r.weights[0], "__proto__=5 \u{1F3C3}=5:__proto__=250 \u{1F600}=250 \uFF5E=250 constructor=250");
  const json = formatBlendReportJson(r);
  assert.ok(json.includes('"project": "__proto__"') && json.includes("\u{1F600}"));
});

test("badSamples: cornersMissing for missing AND extra positions, then outOfRange per sample in sample order", () => {
  const extra = baseSpec({ blendSpace: { ...baseSpec().blendSpace, samples: [...corners(["a", "b", "c", "d"]), { clip: "e", x: 5n, y: 5n }] } });
  assert.deepEqual(analyzeBlendSpec(extra).badSamples, ["cornersMissing"]);
  const dupCorner = baseSpec({ blendSpace: { ...baseSpec().blendSpace, samples: [...corners(["a", "b", "c", "d"]), { clip: "e", x: 0n, y: 0n }] } });
  assert.deepEqual(analyzeBlendSpec(dupCorner).badSamples, []);
  const out = baseSpec({
    blendSpace: { ...baseSpec().blendSpace, samples: [{ clip: "z", x: 11n, y: 0n }, ...corners(["a", "b", "c", "d"]).slice(1), { clip: "y", x: 0n, y: -1n }] },
  });
  const r = analyzeBlendSpec(out);
  assert.deepEqual(r.badSamples, ["cornersMissing", "outOfRange=z", "outOfRange=y"]);
  assert.deepEqual(r.missingClipRefs, ["y", "z"]);
  assert.deepEqual(blendSpecFindings(out, "f").map((d) => [d.code, d.pointer]), [
    ["E_BLEND_CORNERS_MISSING", "/blendSpace/samples"],
    ["E_SAMPLE_OUT_OF_RANGE", "/blendSpace/samples/0"],
    ["E_MISSING_CLIP", "/blendSpace/samples/0/clip"],
    ["E_SAMPLE_OUT_OF_RANGE", "/blendSpace/samples/4"],
    ["E_MISSING_CLIP", "/blendSpace/samples/4/clip"],
  ]);
  assert.match(blendSpecFindings(out, "f")[0]!.message, /no sample at \(0, 0\); samples off the corners at \(11, 0\) \(0, -1\)/);
});

test("a query outside the axes is a W_QUERY_OUT_OF_RANGE warning; the weights are still the reference's", () => {
  const spec = baseSpec({ queryPoints: [{ x: -5n, y: 20n }, { x: 10n, y: 10n }] });
  const r = analyzeBlendSpec(spec);
  // tx = −500, ty = 2000: a = 1500·(−1000)//1000, b = 1500·2000//1000, c = −500·(−1000)//1000, d = −500·2000//1000.
  assert.deepEqual(r.weights, ["u=-5 v=20:b=3000 c=500", "u=10 v=10:d=1000"]);
  const f = blendSpecFindings(spec, "q.json");
  assert.deepEqual(f.map((d) => [d.code, d.severity, d.pointer]), [["W_QUERY_OUT_OF_RANGE", "warning", "/queryPoints/0"]]);
  assert.equal(formatDiagnostic(f[0]!), "q.json: /queryPoints/0: warning: query (u=-5, v=20) is outside the blend space [0..10] × [0..10]; its weights are extrapolated [W_QUERY_OUT_OF_RANGE]");
});

test("empty lists: no queries, samples or transitions still give a well-formed report", () => {
  const r = analyzeBlendSpec(baseSpec({ queryPoints: [], transitions: [], blendSpace: { ...baseSpec().blendSpace, samples: [] } }));
  assert.deepEqual(r.weights, []);
  assert.deepEqual(r.badSamples, ["cornersMissing"]);
  assert.equal(r.weightDigest, "e3b0c44298fc1c14"); // sha256 of the empty string
  assert.match(formatBlendReportJson(r), /"weights": \[\]\n\}\n$/);
});

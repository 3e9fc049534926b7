import { test } from "node:test";
import assert from "node:assert/strict";
import type { Diagnostic } from "../../src/diagnostics/diagnostic.ts";
import { LINT_CODES } from "../../src/lint/lint-codes.ts";
import { toSarif } from "../../src/lint/sarif.ts";

const DS: Diagnostic[] = [
  { code: "E_UNKNOWN_STATE", severity: "error", file: "specs/hero.json", pointer: "/layers/0/machine/transitions/6/to", message: 'unknown state "Ghost"', line: 32, column: 28 },
  { code: "W_DEAD_END_STATE", severity: "warning", file: "specs/hero.json", pointer: "/layers/0/machine/states/Sit", message: "no way out", line: 12, column: 5 },
  { code: "I_LINT_SKIPPED", severity: "info", file: "/elsewhere/x.json", pointer: "", message: "skipped" },
  { code: "E_UNKNOWN_STATE", severity: "error", file: "specs/hero.json", pointer: "/layers/0/machine/entry", message: 'unknown entry state "Idel"', line: 3, column: 14 },
];

interface SarifLog {
  version: string;
  runs: {
    tool: { driver: { name: string; rules: { id: string; shortDescription: { text: string }; defaultConfiguration: { level: string } }[] } };
    originalUriBaseIds?: Record<string, { uri: string }>;
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId?: string }; region: { startLine: number; startColumn: number } } }[];
    }[];
  }[];
}

test("SARIF 2.1.0: tool, one rule per code, results with level, message, file and region", () => {
  const log = JSON.parse(JSON.stringify(toSarif(DS, { baseDirectory: "/work/proj" }))) as SarifLog;
  assert.equal(log.version, "2.1.0");
  assert.equal(log.runs.length, 1);
  const run = log.runs[0]!;
  assert.equal(run.tool.driver.name, "animgraph");
  assert.deepEqual(run.tool.driver.rules.map((r) => r.id), ["E_UNKNOWN_STATE", "I_LINT_SKIPPED", "W_DEAD_END_STATE"]);
  assert.equal(run.tool.driver.rules[0]!.shortDescription.text, LINT_CODES["E_UNKNOWN_STATE"]!.summary);
  assert.equal(run.originalUriBaseIds!["SRCROOT"]!.uri, "file:///work/proj/");
  assert.equal(run.results.length, 4);
  const [r0, r1, r2] = run.results;
  assert.equal(r0!.ruleId, "E_UNKNOWN_STATE");
  assert.equal(run.tool.driver.rules[r0!.ruleIndex]!.id, r0!.ruleId);
  assert.equal(r0!.level, "error");
  assert.equal(r1!.level, "warning");
  assert.equal(r2!.level, "note");
  assert.match(r0!.message.text, /unknown state "Ghost"/);
  assert.deepEqual(r0!.locations[0]!.physicalLocation.artifactLocation, { uri: "specs/hero.json", uriBaseId: "SRCROOT" });
  assert.deepEqual(r0!.locations[0]!.physicalLocation.region, { startLine: 32, startColumn: 28 });
  // Outside the base directory: an absolute file URI; no position: line 1, column 1.
  assert.equal(r2!.locations[0]!.physicalLocation.artifactLocation.uri, "file:///elsewhere/x.json");
  assert.deepEqual(r2!.locations[0]!.physicalLocation.region, { startLine: 1, startColumn: 1 });
});

test("SARIF of no diagnostics is a valid empty run", () => {
  const log = toSarif([]) as SarifLog;
  assert.deepEqual(log.runs[0]!.results, []);
  assert.deepEqual(log.runs[0]!.tool.driver.rules, []);
});

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseJsonText } from "../../src/json/index.ts";
import { LINT_CODES } from "../../src/lint/lint-codes.ts";
import { lintDocument } from "../../src/lint/lint-document.ts";
import { repoPath } from "../helpers/assets.ts";

const doc = readFileSync(repoPath("docs/spec-format.md"), "utf8");

test("the complete example in docs/spec-format.md parses and lints without findings", () => {
  const section = doc.slice(doc.indexOf("## A complete example"));
  const json = /```json\n([\s\S]*?)\n```/.exec(section)![1]!;
  const result = lintDocument(parseJsonText(json, "hero.animgraph.json"));
  assert.equal(result.format, "animgraph");
  assert.deepEqual(result.diagnostics, []);
  const spec = result.spec!;
  assert.equal(spec.layers.length, 2);
  assert.equal(spec.layers[0]!.machine.states.size, 5);
});

test("the codes table in docs/spec-format.md lists exactly LINT_CODES, with their severities", () => {
  const table = doc.slice(doc.indexOf("## Codes"));
  const rows = [...table.matchAll(/^\| ([EWI]_[A-Z0-9_]+) \| (error|warning|info) \|/gm)].map((m) => [m[1]!, m[2]!] as const);
  assert.deepEqual(rows.map(([c]) => c).sort(), Object.keys(LINT_CODES).sort());
  for (const [code, severity] of rows) assert.equal(severity, LINT_CODES[code]!.severity, code);
});

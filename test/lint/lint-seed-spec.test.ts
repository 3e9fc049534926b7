import { test } from "node:test";
import assert from "node:assert/strict";
import { blendCheckFile } from "../../src/blend-check/blend-check-file.ts";
import { parseJsonText } from "../../src/json/index.ts";
import { readJsonFile } from "../../src/json/read-json-file.ts";
import { lintDocument } from "../../src/lint/lint-document.ts";
import { isSeedSpec } from "../../src/lint/lint-seed-spec.ts";
import { repoPath } from "../helpers/assets.ts";

const STARDUST = repoPath("examples/stardust-inn/ta09_blend.json");

test("the stardust-inn spec is recognised by its shape", () => {
  assert.ok(isSeedSpec(readJsonFile(STARDUST)));
  assert.ok(!isSeedSpec(parseJsonText('{"animgraph": 1, "layers": []}', "g.json")));
  assert.ok(!isSeedSpec(parseJsonText("[]", "g.json")));
});

test("lint finds everything blend-check finds in the stardust-inn spec, and the flow problems", () => {
  const lint = lintDocument(readJsonFile(STARDUST, {}, "ta09_blend.json"));
  const check = blendCheckFile(STARDUST, "ta09_blend.json");
  assert.equal(lint.format, "seed");
  assert.equal(lint.exitCode, 1);
  const key = (d: { code: string; pointer: string }): string => `${d.code} ${d.pointer}`;
  const lintKeys = new Set(lint.diagnostics.map(key));
  assert.ok(check.diagnostics.length >= 2);
  for (const d of check.diagnostics) assert.ok(lintKeys.has(key(d)), `missing ${key(d)}`);
  assert.deepEqual(lint.diagnostics.map(key), [
    "W_DEAD_END_STATE /states/3",
    "W_UNREACHABLE_STATE /states/3",
    "E_TRANSITION_BUDGET /transitions/3/frames",
    "E_UNKNOWN_STATE /transitions/6/to",
  ]);
  for (const d of lint.diagnostics) assert.ok(d.line !== undefined, key(d));
});

test("a seed spec with a structural error is unusable (exit 2)", () => {
  const r = lintDocument(parseJsonText('{"blendSpace": {}, "clipSet": []}', "s.json"));
  assert.equal(r.format, "seed");
  assert.equal(r.exitCode, 2);
  assert.ok(r.diagnostics.some((d) => d.code === "E_MISSING_KEY"));
});

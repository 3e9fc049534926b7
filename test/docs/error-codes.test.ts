// docs/error-codes.md lists exactly the codes the source can emit: every code literal in src/ has a row,
// and every row names a code some source file still uses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { repoPath } from "../helpers/assets.ts";

const CODE = /\b[EWI]_[A-Z0-9]+(?:_[A-Z0-9]+)*\b/g;

function sourceCodes(): Set<string> {
  const codes = new Set<string>();
  (function walk(dir: string): void {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".ts")) for (const m of readFileSync(path, "utf8").matchAll(CODE)) codes.add(m[0]);
    }
  })(repoPath("src"));
  return codes;
}

function documentedCodes(): Set<string> {
  const codes = new Set<string>();
  for (const line of readFileSync(repoPath("docs/error-codes.md"), "utf8").split("\n")) {
    const m = /^\| `?([EWI]_[A-Z0-9_]+)`? \|/.exec(line);
    if (m) codes.add(m[1]!);
  }
  return codes;
}

test("docs/error-codes.md has a row for every code in src/ and none that src/ no longer uses", () => {
  const src = sourceCodes();
  const docs = documentedCodes();
  assert.deepEqual([...src].filter((c) => !docs.has(c)).sort(), [], "codes the source emits without a row in docs/error-codes.md");
  assert.deepEqual([...docs].filter((c) => !src.has(c)).sort(), [], "rows in docs/error-codes.md for codes the source no longer emits");
  assert.ok(src.has("E_NO_SKELETON") && docs.has("E_NO_SKELETON"));
});

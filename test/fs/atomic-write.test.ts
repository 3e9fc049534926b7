import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "../../src/fs/atomic-write.ts";

test("writes the whole file and leaves no temporary behind", () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-atomic-"));
  writeFileAtomic(join(dir, "out.json"), "one");
  writeFileAtomic(join(dir, "out.json"), "two");
  assert.equal(readFileSync(join(dir, "out.json"), "utf8"), "two");
  assert.deepEqual(readdirSync(dir), ["out.json"]);
});

test("a failed write leaves nothing", () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-atomic-"));
  assert.throws(() => writeFileAtomic(join(dir, "missing-dir", "out.json"), "x"));
  assert.deepEqual(readdirSync(dir), []);
});

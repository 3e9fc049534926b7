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
  const [failed, ...more] = writeFileAtomic(join(dir, "missing-dir", "out.json"), "x", "out.json");
  assert.equal(more.length, 0);
  assert.deepEqual({ ...failed, message: undefined }, { code: "E_FILE_WRITE", severity: "error", file: "out.json", pointer: "", message: undefined });
  assert.match(failed!.message, /^cannot write the file \(ENOENT\)$/);
  assert.deepEqual(readdirSync(dir), []);
});

test("wrong argument types throw AnimgraphError; the file system's refusals are diagnostics", () => {
  assert.throws(() => writeFileAtomic("", "x"), { name: "AnimgraphError", code: "ERR_ARGUMENT", message: /writeFileAtomic: path must be a non-empty string; got the string ""/ });
  assert.throws(() => writeFileAtomic("out.json", 3 as unknown as string), { name: "AnimgraphError", code: "ERR_ARGUMENT", message: /data must be a string or a Uint8Array; got the number 3/ });
  const dir = mkdtempSync(join(tmpdir(), "animgraph-atomic-"));
  assert.equal(writeFileAtomic(join(dir, "x".repeat(400)), "x")[0]?.message, "cannot write the file (ENAMETOOLONG)");
});

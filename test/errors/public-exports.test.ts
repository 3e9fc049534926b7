// Every function exported by animgraph's entries (listed at run time, so a new export is covered the
// day it lands), called with wrong arguments mixed with real ones, either returns or throws
// AnimgraphError — never a raw TypeError or RangeError from inside (issue 22; docs/api-errors.md).
// The same harness runs on the browser bundle in public-exports.browser.test.ts.
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as babylon from "../../src/babylon/index.ts";
import * as index from "../../src/index.ts";
import * as node from "../../src/node.ts";
import * as three from "../../src/three/index.ts";
// @ts-expect-error -- plain JavaScript shared with the browser test
import { UNCHECKED_EXPORTS } from "./unchecked-exports.mjs";
// @ts-expect-error -- plain JavaScript shared with the browser test
import { exportedFunctions, findRawErrors } from "./wrong-arguments.mjs";

const ENTRIES = { animgraph: index, "animgraph/node": node, "animgraph/three": three, "animgraph/babylon": babylon };
const RUNS = Number(process.env["FC_NUM_RUNS"] ?? 100);

test("every exported function throws only AnimgraphError on wrong arguments (Node, all four entries)", { timeout: 600_000 }, async () => {
  // Functions that take paths read and write relative to the working folder: a scratch one.
  const cwd = process.cwd();
  const scratch = mkdtempSync(join(tmpdir(), "animgraph-wrong-args-"));
  process.chdir(scratch);
  try {
    const seed = process.env["FC_SEED"];
    const result = await findRawErrors(fc, ENTRIES, index, { runs: RUNS, skip: UNCHECKED_EXPORTS, ...(seed ? { seed: Number(seed) } : {}) }) as { failures: string[]; calls: number; functions: number };
    assert.ok(result.functions > 250, `the entries were listed (${result.functions} functions)`);
    assert.deepEqual(result.failures, [], `${result.failures.length} exports let a raw error escape:\n${result.failures.join("\n")}`);
    assert.ok(result.calls >= (result.functions - UNCHECKED_EXPORTS.length) * RUNS * 0.9, `each function was called (${result.calls} calls)`);
  } finally {
    process.chdir(cwd);
    rmSync(scratch, { recursive: true, force: true });
  }
});

test("the list of exports not yet checked names only real exports", () => {
  const names = new Set((exportedFunctions(ENTRIES) as [string, string, unknown][]).map(([, name]) => name));
  const stale = (UNCHECKED_EXPORTS as string[]).filter((name) => !names.has(name));
  assert.deepEqual(stale, [], "remove these names from test/errors/unchecked-exports.mjs");
});

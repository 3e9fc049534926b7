// The frame loop allocates nothing whatever V8 chooses to inline. A computed double passed to a call
// that V8 does not inline is boxed into a new heap number, and which calls V8 inlines depends on when it
// optimises a function (code sizes, call counts, budgets), so a run under load once inlined less and the
// kernel crowd allocated 105 B per frame (layer weights passed as arguments, fixed in record-pose.ts).
// Here the zero-allocation tests run again with inlining off (--no-turbo-inlining): every such call is
// then boxed in every run, and the tests must still read 0 bytes.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { repoPath } from "../helpers/assets.ts";

test("zero-alloc and ik-zero-alloc pass with V8's inlining off", { timeout: 600_000 }, () => {
  const files = ["test/graph/zero-alloc.test.ts", "test/graph/ik-zero-alloc.test.ts"];
  // A runner of its own: without NODE_TEST_CONTEXT, which would make the child report to this runner.
  const env = { ...process.env };
  delete env["NODE_TEST_CONTEXT"];
  const run = spawnSync(process.execPath, ["--no-turbo-inlining", "--import", "tsx", "--test", "--test-reporter=tap", ...files], {
    cwd: repoPath("."), encoding: "utf8", maxBuffer: 16 << 20, env,
  });
  const failed = run.stdout.split("\n").filter((line) => /^\s*not ok|^\s+error:/.test(line));
  assert.equal(run.status, 0, `with --no-turbo-inlining:\n${failed.join("\n")}\n${run.stderr}`);
  assert.match(run.stdout, /^# pass 7$/m, "all seven allocation tests ran");
});

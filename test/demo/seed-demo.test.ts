import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { main } from "../../src/cli/main.ts";
import { formatFixed, padRight } from "../../src/demo/python-format.ts";
import { compileSeedDemo, runSeedDemo } from "../../src/demo/seed-demo.ts";
import { repoPath } from "../helpers/assets.ts";
import { isAnimgraphError } from "../../src/errors/index.ts";

const GOLDEN = readFileSync(repoPath("test/golden/demo-seed.txt"), "utf8");

test("the seed demo prints the Python original's 81 lines byte for byte", () => {
  const out = `${runSeedDemo().join("\n")}\n`;
  assert.equal(out.split("\n").length - 1, 81);
  assert.equal(out, GOLDEN);
});

test("`animgraph demo seed` prints the same bytes; an unknown demo is a usage error", async () => {
  let stdout = "";
  let stderr = "";
  const io = { stdout: (s: string) => void (stdout += s), stderr: (s: string) => void (stderr += s), cwd: repoPath("") };
  assert.equal(await main(["demo", "seed"], io), 0);
  assert.equal(stdout, GOLDEN);
  assert.equal(await main(["demo", "nope"], io), 2);
  assert.match(stderr, /unknown demo "nope"/);
});

test("the golden file is what the reconstructed Python program prints (when python3 is available)", (t) => {
  const r = spawnSync("python3", [repoPath("test/golden/demo-seed.py")], { encoding: "utf8" });
  if (r.error) {
    t.skip("python3 is not installed");
    return;
  }
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, GOLDEN);
});

test("the demo is the library's graph: three states, five transitions, the seed's semantics as options", () => {
  const g = compileSeedDemo();
  const m = g.layers[0]!.machine;
  assert.deepEqual(m.states.map((s) => s.name), ["idle", "walk", "run"]);
  assert.equal(m.transitions.length, 5);
  assert.ok(m.transitions.every((t) => t.duration === 0.3 && t.curve === "linear"));
  assert.equal(g.options.sourceTime, "freeze");
  assert.equal(g.options.targetTime, "resume");
  assert.equal(g.options.interruptMode, "cut");
});

test("Python-compatible %.Nf: exact binary value, ties to even, signed zero", () => {
  const rows: [number, number, string][] = [
    [0.125, 2, "0.12"], // exact tie: Python rounds half to even; (0.125).toFixed(2) is "0.13"
    [0.375, 2, "0.38"],
    [2.675, 2, "2.67"], // binary 2.67499999…
    [1.005, 2, "1.00"],
    [-0.001, 2, "-0.00"],
    [-0, 2, "-0.00"],
    [0, 1, "0.0"],
    [0.5, 0, "0"],
    [1.5, 0, "2"],
    [2.5, 0, "2"],
    [-2.5, 0, "-2"],
    [7.999999999999982, 1, "8.0"],
    [1e21, 2, "1000000000000000000000.00"],
    [5e-324, 3, "0.000"],
    [NaN, 2, "nan"],
    [Infinity, 2, "inf"],
    [-Infinity, 1, "-inf"],
  ];
  for (const [x, d, s] of rows) assert.equal(formatFixed(x, d), s, `${x} %.${d}f`);
  assert.equal(padRight("run", 4), "run ");
  assert.equal(padRight("idle", 4), "idle");
  assert.throws(() => formatFixed(1, -1), (e: unknown) => isAnimgraphError(e) && e.code === "ERR_OUT_OF_RANGE" && /digits/.test(e.message));
});

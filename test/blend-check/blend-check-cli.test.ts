import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { REPO_ROOT, repoPath } from "../helpers/assets.ts";

const SPEC_REL = "examples/stardust-inn/ta09_blend.json";
const TEXT = readFileSync(repoPath(SPEC_REL), "utf8");
const GOLDEN_JSON = readFileSync(repoPath("test/golden/blend-check/ta09_blend.report.json"), "utf8");
const GOLDEN_SUMMARY = readFileSync(repoPath("test/golden/blend-check/ta09_blend.summary.txt"), "utf8");
const FINDINGS_STDERR =
  `${SPEC_REL}: /transitions/3/frames: 30 frames is outside the budget 4..24 [E_TRANSITION_BUDGET]\n` +
  `${SPEC_REL}: /transitions/6/to: unknown state "Ghost" [E_UNKNOWN_STATE]\n`;

async function run(argv: string[], cwd = REPO_ROOT): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd });
  return { code, stdout, stderr };
}

test("default: the reference's summary on stdout, findings on stderr, exit 1", async () => {
  const r = await run(["blend-check", SPEC_REL]);
  assert.equal(r.stdout, GOLDEN_SUMMARY);
  assert.equal(r.stderr, FINDINGS_STDERR);
  assert.equal(r.code, 1);
});

test("--exit-zero exits 0 on findings; --json prints the report instead of the summary", async () => {
  const z = await run(["blend-check", SPEC_REL, "--exit-zero"]);
  assert.deepEqual([z.code, z.stdout], [0, GOLDEN_SUMMARY]);
  const j = await run(["blend-check", SPEC_REL, "--json"]);
  assert.deepEqual([j.code, j.stdout, j.stderr], [1, GOLDEN_JSON, FINDINGS_STDERR]);
});

test("--out writes the reference's JSON byte for byte (relative to cwd) and prints `wrote FILE` last", async () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-check-cli-"));
  writeFileSync(join(dir, "spec.json"), TEXT);
  mkdirSync(join(dir, "out"));
  const r = await run(["blend-check", "spec.json", "--out", "out/ta09_blend.json"], dir);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, `${GOLDEN_SUMMARY}wrote out/ta09_blend.json\n`);
  assert.equal(readFileSync(join(dir, "out/ta09_blend.json"), "utf8"), GOLDEN_JSON);
  assert.deepEqual(readdirSync(join(dir, "out")), ["ta09_blend.json"]);
});

test("a clean spec exits 0 with nothing on stderr", async () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-check-cli-"));
  const clean = JSON.parse(TEXT) as { transitions: { frames: number }[] };
  clean.transitions[3]!.frames = 24;
  clean.transitions.pop();
  writeFileSync(join(dir, "clean.json"), JSON.stringify(clean));
  const r = await run(["blend-check", "clean.json"], dir);
  assert.deepEqual([r.code, r.stderr], [0, ""]);
  assert.match(r.stdout, /^samples=4 queries=4 transitions=6\ndangling=0 outOfBudget=0 dup=0 badSamples=0 missingRefs=0\n/);
});

test("only an out-of-range query: a warning on stderr and exit 1 (the report is unchanged in form)", async () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-check-cli-"));
  const spec = JSON.parse(TEXT) as { transitions: { frames: number }[]; queryPoints: { speed: number; lean: number }[] };
  spec.transitions[3]!.frames = 24;
  spec.transitions.pop();
  spec.queryPoints[3] = { speed: 100, lean: 150 };
  writeFileSync(join(dir, "q.json"), JSON.stringify(spec, null, 1));
  const r = await run(["blend-check", "q.json"], dir);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, "q.json: /queryPoints/3: warning: query (speed=100, lean=150) is outside the blend space [0..300] × [-100..100]; its weights are extrapolated [W_QUERY_OUT_OF_RANGE]\n");
  // ty = 1250: idle_l 667·(−250)//1000 < 0 is dropped; idle_r 667·1250//1000 = 833; run_r 333·1250//1000 = 416.
  assert.match(r.stdout, /\n {2}speed=100 lean=150:innkeeper_idle_lean_r=833 innkeeper_run_lean_r=416\n/);
});

test("unusable input: exit 2, one line per problem, no stack trace, and no output file", async () => {
  const dir = mkdtempSync(join(tmpdir(), "blend-check-cli-"));
  const spec = JSON.parse(TEXT) as { blendSpace: { axes: { max: number }[] }; transitions: { frames: unknown }[] };
  spec.blendSpace.axes[1]!.max = -100;
  spec.transitions[0]!.frames = 8.5;
  writeFileSync(join(dir, "bad.json"), JSON.stringify(spec, null, 2));
  const r = await run(["blend-check", "bad.json", "--out", "report.json"], dir);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.equal(
    r.stderr,
    "bad.json: /blendSpace/axes/1/max: axis max -100 must be greater than min -100 [E_AXIS_RANGE]\n" +
      "bad.json: /transitions/0/frames: expected an integer, found 8.5 [E_NOT_INTEGER]\n",
  );
  assert.deepEqual(readdirSync(dir), ["bad.json"]);
  writeFileSync(join(dir, "syntax.json"), "{");
  const s = await run(["blend-check", "syntax.json", "--out", "report.json"], dir);
  assert.equal(s.code, 2);
  assert.match(s.stderr, /^syntax\.json: not valid JSON at line 1, column 2: .* \[E_JSON_SYNTAX\]\n$/);
  const m = await run(["blend-check", "missing.json", "--out", "report.json"], dir);
  assert.deepEqual([m.code, m.stderr], [2, "missing.json: no such file [E_FILE_NOT_FOUND]\n"]);
  assert.ok(!existsSync(join(dir, "report.json")));
});

test("usage errors and an unwritable --out exit 2", async () => {
  const none = await run(["blend-check"]);
  assert.equal(none.code, 2);
  const bad = await run(["blend-check", SPEC_REL, "--frobnicate"]);
  assert.equal(bad.code, 2);
  const dir = mkdtempSync(join(tmpdir(), "blend-check-cli-"));
  const w = await run(["blend-check", SPEC_REL, "--out", join(dir, "no/such/dir/r.json")]);
  assert.equal(w.code, 2);
  assert.match(w.stderr, /r\.json: cannot write the file \(ENOENT\) \[E_FILE_WRITE\]\n$/);
  assert.equal(w.stdout, "");
});

test("the built binary (npm start's command) prints the summary and exits 0", () => {
  assert.ok(existsSync(repoPath("dist/cli/commands/blend-check.js")), "dist/ is not built: run `npm run build` (npm test does)");
  const r = spawnSync(process.execPath, ["bin/animgraph.js", "blend-check", SPEC_REL, "--exit-zero"], { cwd: REPO_ROOT, encoding: "utf8" });
  assert.equal(r.status, 0);
  assert.equal(r.stdout, GOLDEN_SUMMARY);
  assert.equal(r.stderr, FINDINGS_STDERR);
  const bad = spawnSync(process.execPath, ["bin/animgraph.js", "blend-check", "no-such-spec.json"], { cwd: REPO_ROOT, encoding: "utf8" });
  assert.deepEqual([bad.status, bad.stderr], [2, "no-such-spec.json: no such file [E_FILE_NOT_FOUND]\n"]);
});

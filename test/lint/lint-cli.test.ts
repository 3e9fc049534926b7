import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import type { CliIo } from "../../src/cli/context.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";

const dir = mkdtempSync(join(tmpdir(), "animgraph-lint-"));

const CLEAN = {
  animgraph: 1,
  parameters: { speed: { type: "float", min: 0, max: 6 } },
  layers: [{
    name: "base",
    machine: {
      entry: "Idle",
      states: { Idle: { clip: "Idle" }, Run: { clip: "Running" } },
      transitions: [
        { from: "Idle", to: "Run", conditions: [{ param: "speed", op: ">", value: 0.5 }] },
        { from: "Run", to: "Idle", conditions: [{ param: "speed", op: "<=", value: 0.5 }] },
      ],
    },
  }],
};
const FINDINGS = structuredClone(CLEAN) as typeof CLEAN & { masks?: unknown };
FINDINGS.layers[0]!.machine.transitions[1]!.to = "Ghost";
FINDINGS.masks = { arms: { include: ["UpperArm.L", "Tail"] } };
FINDINGS.layers[0]!.machine.states.Run.clip = "Sprint";

writeFileSync(join(dir, "clean.json"), JSON.stringify(CLEAN, null, 2));
writeFileSync(join(dir, "findings.json"), JSON.stringify(FINDINGS, null, 2));
writeFileSync(join(dir, "broken.json"), '{"animgraph": 1, "layers": [');

async function run(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const io: CliIo = { stdout: (t) => void (out += t), stderr: (t) => void (err += t), cwd: dir };
  const code = await main(argv, io);
  return { code, out, err };
}

test("a clean spec: exit 0 and a summary", async () => {
  const r = await run("lint", "clean.json");
  assert.equal(r.code, 0, r.out + r.err);
  assert.equal(r.out, "1 file: no findings\n");
});

test("findings: one `file: pointer: message [CODE]` line each, then a summary; exit 1", async () => {
  const r = await run("lint", "findings.json");
  assert.equal(r.code, 1);
  const lines = r.out.trimEnd().split("\n");
  assert.ok(lines.includes('findings.json: /layers/0/machine/transitions/1/to: unknown state "Ghost" [E_UNKNOWN_STATE]'), r.out);
  assert.ok(lines.some((l) => /^findings\.json: \/masks\/arms: warning: .*\[W_UNUSED_MASK\]$/.test(l)), r.out);
  assert.match(lines.at(-1)!, /^1 file: 1 error, \d+ warnings?$/);
});

test("unusable input exits 2: bad JSON, a missing file; a bad --format is a usage error", async () => {
  const broken = await run("lint", "broken.json");
  assert.equal(broken.code, 2);
  assert.match(broken.out, /\[E_JSON_SYNTAX\]/);
  assert.match(broken.out, /\(unusable input\)/);
  const missing = await run("lint", "nope.json");
  assert.equal(missing.code, 2);
  assert.match(missing.out, /nope\.json: no such file \[E_FILE_NOT_FOUND\]/);
  const usage = await run("lint", "clean.json", "--format", "xml");
  assert.equal(usage.code, 2);
  assert.match(usage.err, /--format must be one of text, json, sarif/);
});

test("--format json prints the diagnostics as an array; several files give the worst exit code", async () => {
  const r = await run("lint", "clean.json", "findings.json", "--format", "json");
  assert.equal(r.code, 1);
  const ds = JSON.parse(r.out) as { code: string; file: string; pointer: string; line: number }[];
  assert.ok(ds.length >= 2);
  assert.ok(ds.every((d) => d.file === "findings.json" && typeof d.line === "number"));
});

test("--format sarif prints a SARIF 2.1.0 log with inline locations", async () => {
  const r = await run("lint", "findings.json", "--format", "sarif");
  assert.equal(r.code, 1);
  const log = JSON.parse(r.out) as { version: string; runs: { tool: { driver: { name: string } }; results: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number } } }[] }[] }[] };
  assert.equal(log.version, "2.1.0");
  assert.equal(log.runs[0]!.tool.driver.name, "animgraph");
  const ghost = log.runs[0]!.results.find((x) => x.ruleId === "E_UNKNOWN_STATE")!;
  assert.equal(ghost.locations[0]!.physicalLocation.artifactLocation.uri, "findings.json");
  assert.ok(ghost.locations[0]!.physicalLocation.region.startLine > 1);
});

test("the stardust-inn seed spec is linted through blend-check's findings", async () => {
  const r = await run("lint", repoPath("examples/stardust-inn/ta09_blend.json"));
  assert.equal(r.code, 1);
  assert.match(r.out, /\/transitions\/6\/to: unknown state "Ghost" \[E_UNKNOWN_STATE\]/);
  assert.match(r.out, /\/transitions\/3\/frames: 30 frames is outside the budget 4\.\.24 \[E_TRANSITION_BUDGET\]/);
});

test("--clips checks clip and joint names against a GLB", { skip: !HAVE_SHARED_ASSETS }, async () => {
  const glb = sharedAsset("robot-expressive/RobotExpressive.glb");
  const clean = await run("lint", "clean.json", "--clips", glb);
  assert.equal(clean.code, 0, clean.out);
  const r = await run("lint", "findings.json", "--clips", glb, "--format", "json");
  const ds = JSON.parse(r.out) as { code: string; pointer: string }[];
  assert.ok(ds.some((d) => d.code === "E_UNKNOWN_CLIP" && d.pointer === "/layers/0/machine/states/Run/clip"));
  assert.ok(ds.some((d) => d.code === "E_UNKNOWN_JOINT" && d.pointer === "/masks/arms/include/1"));
  assert.ok(!ds.some((d) => d.pointer === "/masks/arms/include/0"));
  const bad = await run("lint", "clean.json", "--clips", "missing.glb");
  assert.equal(bad.code, 2);
});

test("a foot-placement ground normal of (0, 0, 0) is unusable input: its file, pointer and line, exit 2", async () => {
  const spec = { ...structuredClone(CLEAN), ik: [{ name: "feet", solver: "footPlacement", pelvis: "Hips", legs: [["UpperLeg.L", "LowerLeg.L", "Foot.L"]], ground: { normal: [0, 0, 0] } }] };
  writeFileSync(join(dir, "flat.json"), JSON.stringify(spec, null, 2));
  const r = await run("lint", "flat.json");
  assert.equal(r.code, 2, r.out + r.err);
  assert.ok(r.out.includes("flat.json: /ik/0/ground/normal: the ground normal (0, 0, 0) has no direction (its squared length is 0) [E_SPEC_BAD_VALUE]"), r.out);
  assert.doesNotMatch(r.out + r.err, /\n\s+at /);
});

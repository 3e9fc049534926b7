import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { main } from "../../src/cli/main.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { buildRig, floatOffset, packGlb, unpackGlb } from "../io/gltf/gltf-fixtures.ts";

const skip = HAVE_SHARED_ASSETS ? false : "shared assets not present";
const ASSETS = sharedAsset("");

async function run(argv: string[], cwd = ASSETS): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s), cwd });
  return { code, stdout, stderr };
}

test("text: Fox's joint tree indented by depth, one line per clip, exit 0", { skip }, async () => {
  const r = await run(["inspect", "fox/Fox.glb"]);
  assert.equal(r.code, 0);
  assert.equal(r.stderr, "");
  const lines = r.stdout.trimEnd().split("\n");
  assert.equal(lines.length, 1 + 1 + 24 + 1 + 3 + 1);
  assert.deepEqual(lines.slice(0, 5), [
    "fox/Fox.glb",
    "skeleton 0: 24 joints",
    "  _rootJoint (node 2)",
    "    b_Root_00 (node 3)",
    "      b_Hip_01 (node 4)",
  ]);
  assert.ok(lines.includes("  Walk: 0.7083 s, 21 channels (1 translation, 20 rotation), LINEAR, root motion: no (b_Hip_01 travels 0)"), r.stdout);
  assert.equal(lines.at(-1), "morph targets: none");
});

test("text: RiggedSimple shows the late first key; RobotExpressive its morph targets and an info on stderr", { skip }, async () => {
  const rigged = await run(["inspect", "rigged-simple/RiggedSimple.glb"]);
  assert.match(rigged.stdout, /\n {2}#0: 2\.0833 s \(from 0\.0417 s\), 3 channels \(1 translation, 1 rotation, 1 scale\), LINEAR, /);
  const robot = await run(["inspect", "robot-expressive/RobotExpressive.glb"]);
  assert.equal(robot.code, 0);
  assert.match(robot.stdout, /\n {2}Head \(node 13, mesh 2\): 3 targets: Angry, Surprised, Sad\n$/);
  assert.match(robot.stdout, /\n {2}Dance: 3\.3333 s, 12 channels \(1 translation, 10 rotation, 1 weights\), LINEAR, root motion: no/);
  assert.match(robot.stderr, /^robot-expressive\/RobotExpressive\.glb: \/skins\/0: info: the nodes' rest pose differs .*\[I_GLTF_REST_NOT_BIND\]\n$/);
});

test("--json: skeletons, clips with channel counts and root motion, morph channels", { skip }, async () => {
  const r = await run(["inspect", "robot-expressive/RobotExpressive.glb", "--json"]);
  assert.equal(r.code, 0);
  const report = JSON.parse(r.stdout);
  assert.equal(report.ok, true);
  assert.equal(report.skeletons.length, 1);
  assert.equal(report.skeletons[0].jointCount, 43);
  assert.deepEqual(report.skeletons[0].joints[1], { index: 1, name: "Foot.L", parent: 0, node: 3, depth: 1 });
  assert.equal(report.clips.length, 14);
  const byName = new Map<string, { channels: number; weights: number; interpolations: string[]; rootMotion: { present: boolean; joint: string } }>(
    report.clips.map((c: { name: string }) => [c.name, c]),
  );
  assert.equal(byName.get("Walking")!.channels, 20);
  assert.equal(byName.get("Walking")!.weights, 1);
  assert.deepEqual(byName.get("Walking")!.interpolations, ["LINEAR"]);
  // Sitting down moves the body back over the ground; Idle stays in place.
  assert.deepEqual([byName.get("Sitting")!.rootMotion.present, byName.get("Sitting")!.rootMotion.joint], [true, "Body"]);
  assert.equal(byName.get("Idle")!.rootMotion.present, false);
  assert.deepEqual(report.morphTargets, [{ node: 13, name: "Head", mesh: 2, count: 3, names: ["Angry", "Surprised", "Sad"] }]);
  assert.equal(report.diagnostics[0].code, "I_GLTF_REST_NOT_BIND");
});

test("--merge gives CesiumMan's 19 animations as one clip", { skip }, async () => {
  const r = await run(["inspect", "cesium-man/CesiumMan.glb", "--merge", "--json"]);
  const report = JSON.parse(r.stdout);
  assert.equal(r.code, 0);
  assert.deepEqual(report.clips.map((c: { name: string; channels: number }) => [c.name, c.channels]), [["CesiumMan", 57]]);
  assert.equal(report.clips[0].sources.length, 19);
});

test("an unreadable file: diagnostics on stderr, nothing on stdout, exit 2", async () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-inspect-"));
  const { glb } = await buildRig();
  writeFileSync(join(dir, "cut.glb"), glb.subarray(0, 200));
  const r = await run(["inspect", "cut.glb"], dir);
  assert.equal(r.code, 2);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^cut\.glb: the GLB header declares \d+ bytes but the file has 200 \[E_GLB_TRUNCATED\]\n$/);
  const json = await run(["inspect", "cut.glb", "--json"], dir);
  assert.equal(json.code, 2);
  assert.deepEqual(JSON.parse(json.stdout).ok, false);
  const missing = await run(["inspect", "nope.glb"], dir);
  assert.deepEqual([missing.code, missing.stderr], [2, "nope.glb: no such file [E_FILE_NOT_FOUND]\n"]);
  const usage = await run(["inspect"], dir);
  assert.equal(usage.code, 2);
});

test("a file that loads with a broken channel: listing on stdout, the error on stderr, exit 1", async () => {
  const dir = mkdtempSync(join(tmpdir(), "animgraph-inspect-"));
  const { glb, accessors } = await buildRig();
  const u = unpackGlb(glb);
  new DataView(u.bin.buffer).setFloat32(floatOffset(u, accessors["hipsT"]!, 0), NaN, true);
  writeFileSync(join(dir, "rig.glb"), packGlb(u));
  const r = await run(["inspect", "rig.glb"], dir);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /^rig\.glb\nskeleton 0: 3 joints\n {2}hips \(node 1\)\n {4}spine \(node 2\)\n {6}head \(node 3\)\nclips: 1\n/);
  assert.match(r.stderr, /rig\.glb: \/animations\/0\/channels\/0: value 0 of the output accessor is NaN .*\[E_GLTF_NONFINITE\]/);
  assert.ok(readFileSync(join(dir, "rig.glb")).length > 0, "input untouched");
});

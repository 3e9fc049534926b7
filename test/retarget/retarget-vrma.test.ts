// A .vrma as a retarget source: its declared humanoid roles pair the bones, and the clip plays on
// RobotExpressive and CesiumMan with the quality measures (docs/retargeting.md) holding, through the
// API and through `animgraph retarget`.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import type { Clip } from "../../src/clip/clip.ts";
import { main } from "../../src/cli/main.ts";
import { runCli as run } from "../helpers/run-cli.ts";
import { loadGltf } from "../../src/io/gltf/load-gltf.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { loadVrmaFile } from "../../src/io/vrma/load-vrma-file.ts";
import { createPose } from "../../src/pose/pose.ts";
import { compileBoneMap } from "../../src/retarget/compile-bone-map.ts";
import { modelFrames } from "../../src/retarget/model-frames.ts";
import { proposeBoneMap } from "../../src/retarget/propose-bone-map.ts";
import { retargetClip } from "../../src/retarget/retarget-clip.ts";
import { measureRetargetQuality } from "../../src/retarget/retarget-quality.ts";
import type { Skeleton } from "../../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, repoPath, sharedAsset } from "../helpers/assets.ts";

const skip = !HAVE_SHARED_ASSETS;
const VRMA = sharedAsset("vrma/test.vrma");
const TARGETS = [
  { name: "RobotExpressive", path: sharedAsset("robot-expressive/RobotExpressive.glb"), driven: 33 },
  { name: "CesiumMan", path: sharedAsset("cesium-man/CesiumMan.glb"), driven: 19 },
];
// gltf-validator ships no type declarations: import it through a plain string and type what is used.
const VALIDATOR: string = "gltf-validator";
const { validateBytes } = (await import(VALIDATOR)) as { validateBytes(bytes: Uint8Array, options: { maxIssues: number }): Promise<{ issues: { numErrors: number } }> };
const dir = mkdtempSync(join(tmpdir(), "animgraph-vrma-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** Model-space direction from joint a to joint b in `clip` at time t. */
function direction(skeleton: Skeleton, clip: Clip, a: number, b: number, t: number): number[] {
  const J = skeleton.jointCount;
  const pose = createPose(J);
  sampleClip(pose, clip, t, createClipCursor(clip));
  const q = new Float64Array(4 * J), p = new Float64Array(3 * J), s = new Float64Array(J);
  modelFrames(q, p, s, skeleton, pose);
  const d = [0, 1, 2].map((c) => p[3 * b + c]! - p[3 * a + c]!);
  const l = Math.hypot(d[0]!, d[1]!, d[2]!);
  return d.map((x) => x / l);
}
const degreesBetween = (u: number[], v: number[]): number => (Math.acos(Math.max(-1, Math.min(1, u[0]! * v[0]! + u[1]! * v[1]! + u[2]! * v[2]!))) * 180) / Math.PI;

for (const target of TARGETS) {
  test(`test.vrma onto ${target.name}: bones paired by VRM role, quality holds, the right arm swings as far as the source's`, { skip }, async () => {
    const vrma = await loadVrmaFile(VRMA);
    assert.ok(vrma.ok);
    const source = vrma.skeleton!;
    const clip = vrma.clips[0]!;
    const gltf = await loadGltfFile(target.path);
    const skeleton = gltf.skeletons[0]!;
    const map = proposeBoneMap(source, skeleton);
    const compiled = compileBoneMap(map, source, skeleton, { targetClips: gltf.clips.filter((c) => c.skeleton === skeleton) });
    assert.ok(compiled.compiled, JSON.stringify(compiled.diagnostics));
    const c = compiled.compiled;
    assert.equal(c.sourceOf.filter((s) => s >= 0).length, target.driven);
    assert.ok(!compiled.diagnostics.some((d) => d.severity === "warning"), JSON.stringify(compiled.diagnostics));
    const result = retargetClip(clip, source, skeleton, c, { groundFeet: true });
    const q = measureRetargetQuality(clip, result, c);
    assert.ok(q.boneLengthErrorPercent < 0.01, `bone length ${q.boneLengthErrorPercent} %`);
    assert.ok(q.footPenetrationPercent < 0.01, `foot penetration ${q.footPenetrationPercent} %`);
    assert.ok(q.rootAttachmentPercent < 0.01, `root attachment ${q.rootAttachmentPercent} %`);
    assert.ok(q.limbDirectionMaxDeg < 5, `limb direction max ${q.limbDirectionMaxDeg}°`);
    assert.ok(q.limbs.some((l) => l.limb === "upperArm.R"));

    // The one animated bone: the right upper arm turns 90° and back. The target's must turn as far.
    const sArm = vrma.humanBones.get("rightUpperArm")!, sFore = vrma.humanBones.get("rightLowerArm")!;
    const tArm = c.sourceOf.indexOf(sArm), tFore = c.sourceOf.indexOf(sFore);
    assert.ok(tArm >= 0 && tFore >= 0);
    const swing = (sk: Skeleton, cl: Clip, a: number, b: number): number => degreesBetween(direction(sk, cl, a, b, 0), direction(sk, cl, a, b, 0.5));
    const sourceSwing = swing(source, clip, sArm, sFore);
    assert.ok(Math.abs(sourceSwing - 90) < 0.1, `source swing ${sourceSwing}°`);
    const targetSwing = swing(skeleton, result, tArm, tFore);
    assert.ok(Math.abs(targetSwing - sourceSwing) < 5, `target swing ${targetSwing}° vs source ${sourceSwing}°`);
  });
}

test("animgraph retarget takes a .vrma source: a valid GLB with the clip added, quality in --json", { skip }, async () => {
  for (const target of TARGETS) {
    const out = join(dir, `${target.name}-vrma.glb`);
    const r = await run(["retarget", VRMA, "--to", target.path, "--out", out, "--json"]);
    assert.equal(r.code, 0, r.err);
    const report = JSON.parse(r.out) as { animation: string; bonesDriven: number; quality: { boneLengthErrorPercent: number; footPenetrationPercent: number; limbDirectionMaxDeg: number } };
    assert.equal(report.animation, "test");
    assert.equal(report.bonesDriven, target.driven);
    assert.ok(report.quality.boneLengthErrorPercent < 0.01 && report.quality.footPenetrationPercent < 0.01 && report.quality.limbDirectionMaxDeg < 5, r.out);
    assert.ok(existsSync(out));
    const bytes = new Uint8Array(readFileSync(out));
    assert.equal((await validateBytes(bytes, { maxIssues: 0 })).issues.numErrors, 0);
    const back = await loadGltf(bytes);
    assert.ok(back.clips.some((cl) => cl.name === "test"));
  }
  const map = await run(["map", VRMA, TARGETS[0]!.path]);
  assert.equal(map.code, 0, map.err);
  assert.match(map.out, /leftUpperLeg\s+→\s+UpperLeg\.L\s+0\.80\s+role \(upperLeg\.L\)/);
});

test("animgraph retarget with a broken .vrma: exit 2, the extension's pointer, nothing written", { skip }, async () => {
  const bad = join(dir, "bad.vrma");
  const bytes = new Uint8Array(readFileSync(VRMA));
  // Same length: specVersion "1.0" becomes "9.0".
  const text = new TextDecoder("latin1").decode(bytes).replace('"specVersion":"1.0"', '"specVersion":"9.0"');
  assert.ok(text.includes('"specVersion":"9.0"'));
  writeFileSync(bad, Buffer.from(text, "latin1"));
  const out = join(dir, "never.glb");
  const r = await run(["retarget", bad, "--to", TARGETS[0]!.path, "--out", out]);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, /bad\.vrma: \/extensions\/VRMC_vrm_animation\/specVersion: specVersion "9\.0" is not one animgraph reads \(1\.0\) \[E_VRMA_SPEC_VERSION\]/);
  assert.equal(existsSync(out), false);
});

test("the README's .vrma retarget transcript is what the command prints", { skip }, async () => {
  const readme = readFileSync(repoPath("README.md"), "utf8");
  const m = /\$ npx animgraph retarget (\S+) --to (\S+) --name (\S+) --out wave\.glb\n([\s\S]*?)\n {2}```/.exec(readme);
  assert.ok(m, "the transcript is in the README");
  const out = join(dir, "wave.glb");
  let printed = "";
  const code = await main(["retarget", m[1]!, "--to", m[2]!, "--name", m[3]!, "--out", out], { stdout: (s) => void (printed += s), stderr: () => {}, cwd: repoPath(".") });
  assert.equal(code, 0);
  const expected = m[4]!.split("\n").map((line) => line.replace(/^ {2}/, "")).join("\n");
  assert.equal(printed.replace(out, "wave.glb").trimEnd(), expected);
});

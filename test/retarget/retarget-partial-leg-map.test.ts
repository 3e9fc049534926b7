// Held-out review (issue 18): a user's bone map that leaves a knee out. CMU 131_01 onto RobotExpressive
// with the map `animgraph map` proposes minus "LeftKnee": the robot's Foot.L hangs from the skeleton root
// (an IK rig), was placed where the capture's ankle is while its shin stayed at rest, and the written file
// had the foot 24 % of the leg under the ground and 51 % away from its shin, while the printed report said
// 1.1e-5 % and 7.8e-5 % (it measured only legs the map drives whole). The leg now keeps its own knee, bent by
// the leg IK, its foot following the source's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli as run } from "../helpers/run-cli.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { measureFootGround } from "../helpers/foot-ground.ts";
import { loadRig } from "../../src/retarget/load-rig.ts";
import { compileBoneMap } from "../../src/retarget/compile-bone-map.ts";
import { retargetClip } from "../../src/retarget/retarget-clip.ts";
import { measureRetargetQuality } from "../../src/retarget/retarget-quality.ts";
import { addClipToGltf } from "../../src/retarget/add-clip-to-gltf.ts";
import { readGltfDocument } from "../../src/io/gltf/read-gltf-document.ts";
import { createGltfIO } from "../../src/io/gltf/gltf-io.ts";

const skip = !HAVE_SHARED_ASSETS && "no shared assets";
const WALK = sharedAsset("bvh-cmu-131/131_01.bvh");
const ROBOT = sharedAsset("robot-expressive/RobotExpressive.glb");
const LEGS = [["UpperLeg.L", "LowerLeg.L", "Foot.L"], ["UpperLeg.R", "LowerLeg.R", "Foot.R"]] as const;

const dir = mkdtempSync(join(tmpdir(), "animgraph-partial-legs-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** The proposed map (map --json's "bones") without the named source joints. */
async function proposedMapWithout(...left: string[]): Promise<string> {
  const r = await run(["map", WALK, ROBOT, "--json"]);
  assert.equal(r.code, 0, r.err);
  const bones = (JSON.parse(r.out) as { bones: Record<string, string> }).bones;
  for (const name of left) {
    assert.ok(name in bones, name);
    delete bones[name];
  }
  const path = join(dir, `without-${left.join("-")}.json`);
  writeFileSync(path, JSON.stringify(bones));
  return path;
}

test("a map without the left knee: the written robot's left foot stays on the ground and on its shin, the knee bent by the leg IK", { skip }, async () => {
  const out = join(dir, "no-knee.glb");
  const r = await run(["retarget", WALK, "--to", ROBOT, "--map", await proposedMapWithout("LeftKnee"), "--out", out, "--name", "NoKnee", "--json"]);
  assert.equal(r.code, 0, r.err);
  const ground = await measureFootGround(new Uint8Array(readFileSync(out)), "NoKnee", LEGS);
  assert.ok(ground.depthPercent <= 1, `${ground.deepest} is ${ground.depthPercent.toFixed(2)} % of the leg below the ground`);
  assert.ok(ground.boneLengthPercent <= 1, `${ground.worstBone} changed length by ${ground.boneLengthPercent.toFixed(2)} %`);
  const q = (JSON.parse(r.out) as { quality: { footPenetrationPercent: number; footSlidingTarget: number; footSlidingSource: number } }).quality;
  assert.ok(q.footPenetrationPercent <= 1 && q.footSlidingTarget <= q.footSlidingSource, JSON.stringify(q));
});

// Review of issue 18: the same map minus "LeftHip" had no frame (W_RETARGET_NO_FRAME, exit 1): CMU's Hips
// OFFSET is 0, so the root ratio fell back to 1 and RobotExpressive's root moved by the capture's inches,
// its feet 2,000 leg lengths under the ground, while the report (measuring along Y in a Z-up skeleton) said
// 0 %. The frame now comes from the skeletons' own hips, legs and feet, and the leg whose hip is left out is
// solved by the leg IK with its foot where the source's is.
for (const left of [["LeftHip"], ["RightHip"], ["LeftAnkle"], ["LeftHip", "LeftKnee"]]) {
  test(`a map without ${left.join(" and ")}: the written robot's feet stay on the ground, its bones keep their lengths, and the report says what the file has`, { skip }, async () => {
    const name = `No${left.join("")}`;
    const out = join(dir, `${name}.glb`);
    const r = await run(["retarget", WALK, "--to", ROBOT, "--map", await proposedMapWithout(...left), "--out", out, "--name", name, "--json"]);
    assert.equal(r.code, 0, r.err);
    for (const bone of left) assert.match(r.err, new RegExp(`info: the map leaves out the source's "${bone}" .*\\[I_RETARGET_LEG_COMPLETED\\]`));
    assert.doesNotMatch(r.err, /W_RETARGET_NO_FRAME/);
    const ground = await measureFootGround(new Uint8Array(readFileSync(out)), name, LEGS);
    assert.ok(ground.depthPercent <= 1, `${ground.deepest} is ${ground.depthPercent.toFixed(2)} % of the leg below the ground`);
    assert.ok(ground.boneLengthPercent <= 1, `${ground.worstBone} changed length by ${ground.boneLengthPercent.toFixed(2)} %`);
    const json = JSON.parse(r.out) as { rootMotionScale: number; quality: { footPenetrationPercent: number; footSlidingTarget: number; footSlidingSource: number } };
    const q = json.quality;
    assert.ok(Math.abs(q.footPenetrationPercent - ground.depthPercent) <= 0.5, `report ${q.footPenetrationPercent} %, file ${ground.depthPercent} %`);
    assert.ok(q.footSlidingTarget <= q.footSlidingSource, JSON.stringify(q));
    // The root ratio is the full map's (hip heights), not 1.
    const full = await run(["retarget", WALK, "--to", ROBOT, "--out", join(dir, "full.glb"), "--json"]);
    assert.equal((JSON.parse(full.out) as { rootMotionScale: number }).rootMotionScale, json.rootMotionScale);
  });
}

test("a map that drives no bone of a leg cannot place its foot: E_RETARGET_FEET_UNPLACED names the map file and the leg's bones, exit 2, nothing written", { skip }, async () => {
  const out = join(dir, "no-left-leg.glb");
  const map = await proposedMapWithout("LeftHip", "LeftKnee", "LeftAnkle");
  const r = await run(["retarget", WALK, "--to", ROBOT, "--map", map, "--out", out]);
  assert.equal(r.code, 2, r.err);
  assert.match(r.err, new RegExp(`${map.replace(/[.\\/]/g, "\\$&")}: the map drives no bone of the left leg \\("LeftHip", "LeftKnee", "LeftAnkle"\\), so the feet cannot be placed: .* (\\d+\\.\\d) % of its leg length under the ground.*nothing was written \\[E_RETARGET_FEET_UNPLACED\\]`));
  assert.equal(existsSync(out), false);
});

test("the report measures a leg the map does not drive: its foot's depth under the ground is what the written clip has", { skip }, async () => {
  const source = await loadRig(WALK, { label: "131_01.bvh" });
  const target = await loadRig(ROBOT, { label: "robot" });
  const bones = JSON.parse(readFileSync(await proposedMapWithout("LeftHip", "LeftKnee", "LeftAnkle"), "utf8")) as Record<string, string>;
  const compiled = compileBoneMap(bones, source.skeleton!, target.skeleton!, { targetClips: target.clips }).compiled!;
  const clip = retargetClip(source.clips[0]!, source.skeleton!, target.skeleton!, compiled, { name: "Hanging", groundFeet: true });
  const q = measureRetargetQuality(source.clips[0]!, clip, compiled);
  const doc = await readGltfDocument(ROBOT, createGltfIO(), "robot");
  const ground = await measureFootGround(await addClipToGltf(doc.doc!, clip), "Hanging", LEGS);
  assert.ok(ground.depthPercent > 10, `the straight left leg hangs ${ground.depthPercent.toFixed(1)} % under the ground`);
  assert.ok(Math.abs(q.footPenetrationPercent - ground.depthPercent) <= 0.05 * ground.depthPercent, `report ${q.footPenetrationPercent.toFixed(2)} %, file ${ground.depthPercent.toFixed(2)} %`);
  assert.ok(ground.boneLengthPercent <= 1, `${ground.worstBone} changed length by ${ground.boneLengthPercent.toFixed(2)} % (the unmapped IK-style foot stays on its shin)`);
});

// Held-out review (issue 18): a capture with a zero-length bone — CMU 131_01 with LeftKnee's OFFSET set to
// 0 0 0, so the left thigh has no length, as BVH exports with a joint at its parent's place do. The
// retarget's quality report divided by that length: `limb direction error ... max NaN°` in the text and a
// null in --json, and the NaN dragged the median along. Directions of a zero-length bone are now left out.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli as run } from "../helpers/run-cli.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { measureFootGround } from "../helpers/foot-ground.ts";

const skip = !HAVE_SHARED_ASSETS && "no shared assets";

const dir = mkdtempSync(join(tmpdir(), "animgraph-zero-bone-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** 131_01 with the OFFSET of `joint` replaced by zeros. */
function withZeroOffset(joint: string): string {
  const text = readFileSync(sharedAsset("bvh-cmu-131/131_01.bvh"), "utf8");
  const at = text.indexOf(`JOINT ${joint}`);
  const offset = text.indexOf("OFFSET", at);
  const end = text.indexOf("\n", offset);
  assert.ok(at > 0 && offset > at && end > offset, joint);
  return text.slice(0, offset) + "OFFSET 0 0 0" + text.slice(end).replace(/^\r/, "");
}

test("retarget of a capture whose thigh has zero length: finite quality figures (no NaN°), feet on the ground, legs keep their lengths in the written file", { skip }, async () => {
  const source = join(dir, "zero-thigh.bvh");
  writeFileSync(source, withZeroOffset("LeftKnee"));
  const out = join(dir, "zero-thigh.glb");
  const text = await run(["retarget", source, "--to", sharedAsset("robot-expressive/RobotExpressive.glb"), "--out", out, "--name", "Zero"]);
  assert.equal(text.code, 0, text.err);
  assert.doesNotMatch(text.out, /NaN/, text.out);
  assert.match(text.out, /limb direction error {3}median \d+\.\d°, max \d+\.\d°/);

  const json = await run(["retarget", source, "--to", sharedAsset("robot-expressive/RobotExpressive.glb"), "--out", out, "--name", "Zero", "--json"]);
  assert.equal(json.code, 0, json.err);
  const doc = JSON.parse(json.out) as { quality: { limbDirectionMedianDeg: number; limbDirectionMaxDeg: number; limbs: { limb: string; medianDeg: number; maxDeg: number }[] } };
  const q = doc.quality;
  for (const x of [q.limbDirectionMedianDeg, q.limbDirectionMaxDeg, ...q.limbs.flatMap((l) => [l.medianDeg, l.maxDeg])]) assert.ok(Number.isFinite(x), JSON.stringify(q));
  // The zero-length thigh has no direction to compare; the other limbs still do, within the README's bound.
  assert.ok(!q.limbs.some((l) => l.limb === "thigh.L"), JSON.stringify(q.limbs));
  assert.ok(q.limbs.some((l) => l.limb === "thigh.R") && q.limbDirectionMaxDeg <= 25, JSON.stringify(q.limbs));

  const legs = [["UpperLeg.L", "LowerLeg.L", "Foot.L"], ["UpperLeg.R", "LowerLeg.R", "Foot.R"]] as const;
  const ground = await measureFootGround(new Uint8Array(readFileSync(out)), "Zero", legs);
  assert.ok(ground.depthPercent <= 1, `${ground.deepest} is ${ground.depthPercent.toFixed(2)} % of the leg below the ground`);
  assert.ok(ground.boneLengthPercent <= 1, `${ground.worstBone} changed length by ${ground.boneLengthPercent.toFixed(2)} %`);
});

// A held-out retarget (issue 18): CMU 131_03 onto RobotExpressive, whose feet are IK-style joints
// under the root that retargeting places at the end of each shin. Measured from the GLB `animgraph retarget`
// writes: between two consecutive keys no foot moves faster than a foot can (25 m/s; a sprinter's foot
// peaks near 15). Before, the foot teleported where the lock changed in one key between two contacts closer
// than the locks' easing (4.41 s: 45 cm in 0.5 ms, 874 m/s, the foot 2.2 % off its shin between the keys),
// and the knee flipped 22 cm between two keys where the nearly straight leg's bend plane turned over
// (6.625 s, 447 m/s, the foot 1.9 % off its shin; the pole now decides a nearly straight leg's plane).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { main } from "../../src/cli/main.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { loadGltfFile } from "../../src/io/gltf/load-gltf-file.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createPose } from "../../src/pose/pose.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const dir = mkdtempSync(join(tmpdir(), "animgraph-foot-lock-"));
test.after(() => rmSync(dir, { recursive: true, force: true }));

/** The fastest any of `joints` moves (m/s, world space) between two consecutive keys of the written clip. */
async function fastestBetweenKeys(file: string, clipName: string, joints: readonly string[]): Promise<{ speed: number; joint: string; time: number }> {
  const r = await loadGltfFile(new Uint8Array(readFileSync(file)), { fileName: file });
  assert.ok(r.ok);
  const skeleton = r.skeletons[0]!, root = r.rootTransforms[0]!;
  const clip = r.clips.find((c) => c.name === clipName && c.skeleton === skeleton)!;
  const keys = [...new Set(clip.tracks.flatMap((t) => [...t.times]))].sort((a, b) => a - b);
  const ids = joints.map((n) => skeleton.indexOf.get(n)!);
  const m = new Float32Array(16 * skeleton.jointCount), pose = createPose(skeleton.jointCount), cursor = createClipCursor(clip);
  const last = new Float64Array(3 * ids.length);
  let fastest = { speed: 0, joint: "", time: NaN };
  keys.forEach((t, k) => {
    sampleClip(pose, clip, t, cursor);
    localToModel(m, skeleton, pose, root);
    ids.forEach((j, i) => {
      const p = [m[16 * j + 12]!, m[16 * j + 13]!, m[16 * j + 14]!];
      if (k > 0) {
        const speed = Math.hypot(p[0]! - last[3 * i]!, p[1]! - last[3 * i + 1]!, p[2]! - last[3 * i + 2]!) / (t - keys[k - 1]!);
        if (speed > fastest.speed) fastest = { speed, joint: joints[i]!, time: t };
      }
      last.set(p, 3 * i);
    });
  });
  return fastest;
}

for (const take of ["131_03"]) {
  test(`retarget CMU ${take} → RobotExpressive: no placed foot or knee moves faster than 25 m/s between two keys of the written clip`, { skip: !HAVE_SHARED_ASSETS }, async (t) => {
    const out = join(dir, `${take}.glb`);
    let err = "";
    const code = await main(["retarget", sharedAsset(`bvh-cmu-131/${take}.bvh`), "--to", sharedAsset("robot-expressive/RobotExpressive.glb"), "--out", out, "--name", "Retargeted"], { stdout: () => {}, stderr: (s) => void (err += s), cwd: process.cwd() });
    assert.ok(code === 0 || code === 1, err);
    const fastest = await fastestBetweenKeys(out, "Retargeted", ["Foot.L", "Foot.R", "LowerLeg.L", "LowerLeg.R"]);
    t.diagnostic(`${take}: fastest foot or knee ${fastest.speed.toFixed(1)} m/s (${fastest.joint} at ${fastest.time.toFixed(3)} s)`);
    assert.ok(fastest.speed <= 25, `${fastest.joint} moves at ${fastest.speed.toFixed(1)} m/s into the key at ${fastest.time.toFixed(4)} s`);
  });
}

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createClipCursor, sampleClip } from "../../src/clip/index.ts";
import { parseBvh } from "../../src/io/bvh/parse-bvh.ts";
import { formatBvh } from "../../src/io/bvh/write-bvh.ts";
import { createPose } from "../../src/pose/pose.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

test("formatBvh writes a CMU take back: the same hierarchy, frames and poses (to the file's six decimals)", { skip: !HAVE_SHARED_ASSETS && "no assets" }, () => {
  for (const file of ["bvh-cmu-131/131_01.bvh", "bvh-cmu-pirouette/pirouette.bvh"]) {
    const src = parseBvh(readFileSync(sharedAsset(file), "utf8"), file);
    const written = formatBvh(src.bvh!, src.clip!);
    assert.deepEqual(written.problems, []);
    const back = parseBvh(written.text!, "back.bvh");
    assert.deepEqual(back.diagnostics, []);
    assert.deepEqual(back.bvh!.joints.map((j) => [j.name, j.offset, j.channels]), src.bvh!.joints.map((j) => [j.name, j.offset, j.channels]));
    assert.deepEqual(back.bvh!.endSites, src.bvh!.endSites);
    assert.equal(back.bvh!.frameCount, src.bvh!.frameCount);
    assert.equal(back.bvh!.frameTime, src.bvh!.frameTime);
    const J = src.skeleton!.jointCount;
    const a = createPose(J), b = createPose(J);
    let worst = 0;
    for (let f = 0; f < src.bvh!.frameCount; f += 7) {
      const t = Math.fround(f * src.bvh!.frameTime);
      sampleClip(a, src.clip!, t, createClipCursor(src.clip!));
      sampleClip(b, back.clip!, t, createClipCursor(back.clip!));
      for (let k = 0; k < 3 * J; k++) worst = Math.max(worst, Math.abs(a.t[k]! - b.t[k]!) / (1 + Math.abs(a.t[k]!)));
      for (let j = 0; j < J; j++) {
        let dot = 0;
        for (let c = 0; c < 4; c++) dot += a.r[4 * j + c]! * b.r[4 * j + c]!;
        worst = Math.max(worst, 1 - Math.abs(dot));
      }
    }
    assert.ok(worst < 1e-6, `${file}: ${worst}`);
  }
});

test("formatBvh names a joint whose rotation its channels cannot hold", () => {
  const text = ["HIERARCHY", "ROOT Hips", "{", "\tOFFSET 0 0 0", "\tCHANNELS 1 Zrotation", "}", "MOTION", "Frames: 1", "Frame Time: 0.1", "30", ""].join("\n");
  const src = parseBvh(text, "z.bvh");
  const other = parseBvh(text.replace("CHANNELS 1 Zrotation", "CHANNELS 1 Xrotation"), "x.bvh");
  // The X-rotation clip written in the Z-only layout.
  const r = formatBvh(src.bvh!, { ...other.clip!, skeleton: src.skeleton! });
  assert.equal(r.text, undefined);
  assert.match(r.problems[0]!, /joint "Hips" rotates about an axis it has no channel for \(its channels: Zrotation\)/);
});

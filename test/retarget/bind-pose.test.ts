import { test } from "node:test";
import assert from "node:assert/strict";
import { mat4Invert } from "../../src/math/mat4.ts";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { localToModel } from "../../src/pose/local-to-model.ts";
import { createPose } from "../../src/pose/pose.ts";
import { bindPose } from "../../src/retarget/index.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

test("bindPose recovers the local pose the inverse bind matrices were made from, not the node rest", () => {
  const names = ["root", "spine", "arm", "hand"];
  const parents = [-1, 0, 1, 2];
  const bind = createPose(4);
  bind.t.set([0, 1, 0, 0, 0.5, 0, 0.3, 0.2, 0, 0.4, 0, 0]);
  quatFromAxisAngle(bind.r, 4, 0, 0, 1, 0.3);
  quatFromAxisAngle(bind.r, 8, 1, 1, 0, -1.1);
  quatFromAxisAngle(bind.r, 12, 0, 1, 0, 0.7);
  const model = new Float32Array(64);
  const probe = createSkeleton({ names, parents, rest: bind });
  localToModel(model, probe, bind);
  const inverseBind = new Float32Array(64);
  for (let j = 0; j < 4; j++) assert.ok(mat4Invert(inverseBind, 16 * j, model, 16 * j));
  // The nodes hold another pose (arms down, say): bindPose must ignore it.
  const rest = createPose(4);
  rest.t.set(bind.t);
  quatFromAxisAngle(rest.r, 8, 0, 0, 1, 1.2);
  const sk = createSkeleton({ names, parents, rest, inverseBind });
  const got = bindPose(sk);
  for (let k = 0; k < 12; k++) assert.ok(Math.abs(got.t[k]! - bind.t[k]!) < 1e-5, `t[${k}]`);
  for (let j = 0; j < 4; j++) {
    const dot = Math.abs(got.r[4 * j]! * bind.r[4 * j]! + got.r[4 * j + 1]! * bind.r[4 * j + 1]! + got.r[4 * j + 2]! * bind.r[4 * j + 2]! + got.r[4 * j + 3]! * bind.r[4 * j + 3]!);
    assert.ok(1 - dot < 1e-6, `joint ${j}`);
  }
  for (let k = 0; k < 12; k++) assert.ok(Math.abs(got.s[k]! - 1) < 1e-5);
});

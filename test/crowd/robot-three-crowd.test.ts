// The benchmark's robot crowd (bench/workloads.ts: Walking and Running crossfaded at 50 % plus the
// additive Yes layer) gives three.js's AnimationMixer's local poses, on the kernel path and the JS path:
// the speed figures of `npm run bench` compare equal work.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Object3D } from "three";
import { benchGraph, robotWorkload } from "../../bench/workloads.ts";
import { createThreeCrowd, stepThreeCrowd } from "../../bench/three-crowd.ts";
import { createCrowd, evaluateCrowd, loadCrowdKernelSync } from "../../src/crowd/index.ts";
import { step } from "../../src/graph/step.ts";
import { createPose } from "../../src/pose/pose.ts";
import { bindThreeSkeleton, readPoseFromThree } from "../../src/three/index.ts";
import { HAVE_SHARED_ASSETS } from "../helpers/assets.ts";

const N = 12;
const FRAMES = 90;
const DT = 1 / 60;

/** Rotation angle between unit quaternions a[4i..] and b[4i..], from the chord (acos loses half the digits near 0). */
function angleBetween(a: ArrayLike<number>, b: ArrayLike<number>, i: number): number {
  let plus = 0, minus = 0;
  for (let c = 0; c < 4; c++) {
    plus += (a[4 * i + c]! + b[4 * i + c]!) ** 2;
    minus += (a[4 * i + c]! - b[4 * i + c]!) ** 2;
  }
  return 4 * Math.asin(Math.min(1, Math.sqrt(Math.min(plus, minus)) / 2));
}

test("robot crowd: kernel and JS path equal three.js's mixer within 1e-5 rad and 1e-5 m on every joint", { skip: !HAVE_SHARED_ASSETS }, async (t) => {
  const w = await robotWorkload();
  const graph = benchGraph(w, { eventCapacity: 16, maxStackDepth: 4 });
  const offsets = Float64Array.from({ length: N }, (_, i) => (i * 0.7919) % 2);
  const three = createThreeCrowd(w, N, offsets);
  const crowds = [createCrowd(graph, N, { kernel: loadCrowdKernelSync() }), createCrowd(graph, N)];
  for (const c of crowds) for (let i = 0; i < N; i++) step(graph, c.instances[i]!, offsets[i]!);
  const bindings = (three.scene.children as Object3D[]).map((root) => {
    const { binding, diagnostics } = bindThreeSkeleton(w.skeleton, root);
    assert.deepEqual(diagnostics, [], "every joint binds to a three.js bone");
    return binding;
  });
  const J = w.skeleton.jointCount;
  const threePose = createPose(J);
  const worst = [{ angle: 0, t: 0 }, { angle: 0, t: 0 }];
  for (let f = 0; f < FRAMES; f++) {
    stepThreeCrowd(three, DT);
    for (const c of crowds) evaluateCrowd(c, DT);
    for (let i = 0; i < N; i++) {
      readPoseFromThree(threePose, bindings[i]!);
      crowds.forEach((c, k) => {
        const pose = c.poses[i]!;
        for (let j = 0; j < J; j++) {
          worst[k]!.angle = Math.max(worst[k]!.angle, angleBetween(pose.r, threePose.r, j));
          for (let x = 3 * j; x < 3 * j + 3; x++) worst[k]!.t = Math.max(worst[k]!.t, Math.abs(pose.t[x]! - threePose.t[x]!));
        }
      });
    }
  }
  t.diagnostic(`kernel: ${worst[0]!.angle.toExponential(2)} rad, ${worst[0]!.t.toExponential(2)} m; JS path: ${worst[1]!.angle.toExponential(2)} rad, ${worst[1]!.t.toExponential(2)} m`);
  for (const [k, name] of ["kernel", "JS path"].entries()) {
    assert.ok(worst[k]!.angle <= 1e-5, `${name}: rotations differ from three.js by ${worst[k]!.angle} rad`);
    assert.ok(worst[k]!.t <= 1e-5, `${name}: translations differ from three.js by ${worst[k]!.t} m`);
  }
});

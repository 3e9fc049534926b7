import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { angularVelocityJump, jointAngularVelocities, transitionContinuity } from "../../src/continuity/angular-velocity-jump.ts";
import { createContinuityMeter } from "../../src/continuity/continuity-meter.ts";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { createPose, type Pose } from "../../src/pose/pose.ts";
import { isAnimgraphError } from "../../src/errors/animgraph-error.ts";

/** A one-joint pose rotated by `angle` about the unit axis (x, y, z). */
function turned(x: number, y: number, z: number, angle: number): Pose {
  const p = createPose(1);
  quatFromAxisAngle(p.r, 0, x, y, z, angle);
  return p;
}

test("a joint turning at a constant rate has that angular velocity and no jump", () => {
  const dt = 1 / 60;
  const poses = [0, 1, 2, 3].map((k) => turned(0, 1, 0, 2 * k * dt)); // 2 rad/s about +y
  const w = jointAngularVelocities(new Float64Array(3), poses[0]!, poses[1]!, dt);
  assert.ok(Math.abs(w[0]!) < 1e-5 && Math.abs(w[1]! - 2) < 1e-4 && Math.abs(w[2]!) < 1e-5, `${[...w]}`);
  assert.ok(transitionContinuity(poses, 2, dt).jump < 1e-3);
  assert.ok(transitionContinuity(poses, 3, dt).jump < 1e-3);
});

test("a velocity that changes from 2 rad/s about y to 3 rad/s about x jumps by |(3, −2, 0)|", () => {
  const dt = 0.02;
  const p0 = turned(0, 1, 0, 0), p1 = turned(0, 1, 0, 2 * dt);
  const p2 = createPose(1);
  // p2 = (turn 3·dt about x) · p1: the increment is applied in the parent's space.
  const inc = turned(1, 0, 0, 3 * dt);
  const a = inc.r, b = p1.r;
  p2.r[0] = a[3]! * b[0]! + a[0]! * b[3]! + a[1]! * b[2]! - a[2]! * b[1]!;
  p2.r[1] = a[3]! * b[1]! - a[0]! * b[2]! + a[1]! * b[3]! + a[2]! * b[0]!;
  p2.r[2] = a[3]! * b[2]! + a[0]! * b[1]! - a[1]! * b[0]! + a[2]! * b[3]!;
  p2.r[3] = a[3]! * b[3]! - a[0]! * b[0]! - a[1]! * b[1]! - a[2]! * b[2]!;
  const r = angularVelocityJump(p0, p1, p2, dt);
  assert.ok(Math.abs(r.jump - Math.hypot(3, 2)) < 1e-3, String(r.jump));
  assert.equal(r.joint, 0);
});

test("q and −q are one rotation: flipping a quaternion's sign changes no velocity", () => {
  const dt = 1 / 30;
  const p0 = turned(0, 0, 1, 0.1), p1 = turned(0, 0, 1, 0.2), p2 = turned(0, 0, 1, 0.3);
  for (let i = 0; i < 4; i++) p1.r[i] = -p1.r[i]!;
  assert.ok(angularVelocityJump(p0, p1, p2, dt).jump < 1e-3);
});

test("property: the streaming meter gives the jump angularVelocityJump gives, frame by frame", () => {
  const arbQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }))
    .filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-3);
  fc.assert(fc.property(fc.array(fc.array(arbQuat, { minLength: 2, maxLength: 2 }), { minLength: 3, maxLength: 8 }), fc.double({ min: 1e-3, max: 0.2, noNaN: true }), (frames, dt) => {
    const poses = frames.map((joints) => {
      const p = createPose(2);
      joints.forEach(([x, y, z, angle], j) => {
        const n = Math.hypot(x, y, z);
        quatFromAxisAngle(p.r, 4 * j, x / n, y / n, z / n, angle);
      });
      return p;
    });
    const meter = createContinuityMeter(2);
    poses.forEach((p, k) => {
      const jump = meter.push(p, dt);
      if (k < 2) assert.ok(Number.isNaN(jump));
      else {
        const ref = transitionContinuity(poses, k, dt);
        assert.ok(Math.abs(jump - ref.jump) <= 1e-9 * Math.max(1, ref.jump), `${jump} vs ${ref.jump}`);
        assert.ok(jump >= 0);
      }
    });
  }));
});

test("property: jumpOver(mask) is the largest jump over the joints the mask weights above 0, and tells which", () => {
  const arbQuat = fc.tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }))
    .filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-3);
  const arbMask = fc.array(fc.constantFrom(0, 0.5, 1), { minLength: 3, maxLength: 3 });
  fc.assert(fc.property(fc.array(fc.array(arbQuat, { minLength: 3, maxLength: 3 }), { minLength: 3, maxLength: 6 }), arbMask, (frames, weights) => {
    const dt = 1 / 60;
    const poses = frames.map((joints) => {
      const p = createPose(3);
      joints.forEach(([x, y, z, angle], j) => {
        const n = Math.hypot(x, y, z);
        quatFromAxisAngle(p.r, 4 * j, x / n, y / n, z / n, angle);
      });
      return p;
    });
    const mask = Float32Array.from(weights);
    const meter = createContinuityMeter(3);
    poses.forEach((p, k) => {
      const all = meter.push(p, dt);
      const masked = meter.jumpOver(mask);
      if (k < 2) {
        assert.ok(Number.isNaN(masked));
        return;
      }
      // The reference: each joint alone, from its own one-joint poses.
      const perJoint = [0, 1, 2].map((j) => {
        const one = (q: Pose): Pose => {
          const o = createPose(1);
          o.r.set(q.r.subarray(4 * j, 4 * j + 4));
          return o;
        };
        return angularVelocityJump(one(poses[k - 2]!), one(poses[k - 1]!), one(p), dt).jump;
      });
      const chosen = perJoint.filter((_, j) => weights[j]! > 0);
      if (chosen.length === 0) {
        assert.equal(masked, 0);
        assert.equal(meter.joint, -1);
      } else {
        assert.ok(Math.abs(masked - Math.max(...chosen)) <= 1e-9 * Math.max(1, masked), `${masked} vs ${chosen}`);
        assert.ok(weights[meter.joint]! > 0, `joint ${meter.joint} is outside the mask ${weights}`);
      }
      assert.ok(masked <= all + 1e-12);
      assert.equal(meter.jumpOver(null), all);
    });
  }));
});

test("wrong arguments throw AnimgraphError with the function's name and a stable code", () => {
  const p = createPose(1);
  const is = (code: string, message: RegExp) => (e: unknown): boolean => {
    assert.ok(isAnimgraphError(e), String(e));
    assert.equal(e.code, code);
    assert.match(e.message, message);
    return true;
  };
  assert.throws(() => jointAngularVelocities(new Float64Array(1), p, p, 0.1), is("ERR_OUT_OF_RANGE", /jointAngularVelocities: out/));
  assert.throws(() => jointAngularVelocities(new Float64Array(3), p, createPose(2), 0.1), is("ERR_SKELETON_MISMATCH", /jointAngularVelocities: to has 2 joints/));
  assert.throws(() => angularVelocityJump(p, p, p, 0), is("ERR_OUT_OF_RANGE", /angularVelocityJump: dt01 must be/));
  assert.throws(() => angularVelocityJump(p, p, p, "1" as unknown as number), is("ERR_ARGUMENT", /angularVelocityJump: dt01 must be a number/));
  assert.throws(() => angularVelocityJump(p, {} as Pose, p, 0.1), is("ERR_ARGUMENT", /angularVelocityJump: p1 must be a Pose/));
  assert.throws(() => transitionContinuity([p, p], 2, 0.1), is("ERR_OUT_OF_RANGE", /transitionContinuity: frame must be an integer in \[2, 1\]/));
  assert.throws(() => transitionContinuity(null as unknown as Pose[], 2, 0.1), is("ERR_ARGUMENT", /transitionContinuity: poses/));
  assert.throws(() => createContinuityMeter(-1), is("ERR_OUT_OF_RANGE", /createContinuityMeter: jointCount/));
  assert.throws(() => createContinuityMeter(1).push(createPose(2), 0.1), is("ERR_SKELETON_MISMATCH", /ContinuityMeter.push: pose has 2 joints/));
  assert.throws(() => createContinuityMeter(2).jumpOver(new Float32Array(1)), is("ERR_OUT_OF_RANGE", /ContinuityMeter.jumpOver: mask/));
  assert.throws(() => createContinuityMeter(2).jumpOver("upper" as unknown as Float32Array), is("ERR_ARGUMENT", /ContinuityMeter.jumpOver: mask/));
});

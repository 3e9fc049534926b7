import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  quatAngleBetween, quatConjugate, quatDot, quatFromAxisAngle, quatFromEuler, quatIdentity, quatInvert, quatLength,
  quatMultiply, quatNlerp, quatNormalize, quatRotateVec3, quatSlerp, quatSlerpFast, quatTwistAngle, type EulerOrder,
} from "../../src/math/quat.ts";

const close = (a: ArrayLike<number>, b: ArrayLike<number>, eps: number, msg = ""): void => {
  for (let i = 0; i < b.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= eps, `${msg} [${i}] ${a[i]} vs ${b[i]} (eps ${eps})`);
};

/** An arbitrary unit quaternion (from a non-degenerate 4-vector). */
const unitQuat = fc
  .tuple(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }))
  .filter(([x, y, z, w]) => x * x + y * y + z * z + w * w > 1e-3)
  .map(([x, y, z, w]) => quatNormalize(new Float64Array(4), 0, [x, y, z, w], 0) as Float64Array);

test("multiply composes rotations: rotating by a·b equals rotating by b then a", () => {
  const a = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, Math.PI / 2);
  const b = quatFromAxisAngle(new Float64Array(4), 0, 1, 0, 0, Math.PI / 2);
  const ab = quatMultiply(new Float64Array(4), 0, a, 0, b, 0);
  const v = [0, 0, 1];
  const viaAb = quatRotateVec3(new Float64Array(3), 0, ab, 0, v, 0);
  const viaB = quatRotateVec3(new Float64Array(3), 0, b, 0, v, 0);
  const viaBA = quatRotateVec3(new Float64Array(3), 0, a, 0, viaB, 0);
  close(viaAb, viaBA, 1e-12);
  // Rx(90°) takes +Z to −Y; Ry(90°) takes −Y to −Y.
  close(viaAb, [0, -1, 0], 1e-12);
});

test("functions work on offsets inside a larger SoA array and out may alias an input", () => {
  const soa = new Float32Array(12);
  quatIdentity(soa, 0);
  quatFromAxisAngle(soa, 4, 0, 0, 1, 1);
  quatMultiply(soa, 8, soa, 4, soa, 4); // 2 rad about Z
  quatMultiply(soa, 4, soa, 4, soa, 4); // in place
  close(soa.subarray(4, 8), soa.subarray(8, 12), 0);
  close(soa.subarray(0, 4), [0, 0, 0, 1], 0);
  assert.ok(Math.abs(quatAngleBetween(soa, 0, soa, 8) - 2) < 1e-6);
});

test("conjugate and invert undo a rotation; normalize makes unit length; zero normalizes to identity", () => {
  fc.assert(
    fc.property(unitQuat, (q) => {
      const inv = quatConjugate(new Float64Array(4), 0, q, 0);
      const id = quatMultiply(new Float64Array(4), 0, q, 0, inv, 0);
      close(id, [0, 0, 0, 1], 1e-12);
      const scaled = [q[0]! * 3, q[1]! * 3, q[2]! * 3, q[3]! * 3];
      const inv2 = quatInvert(new Float64Array(4), 0, scaled, 0);
      close(quatMultiply(new Float64Array(4), 0, scaled, 0, inv2, 0), [0, 0, 0, 1], 1e-12);
      assert.ok(Math.abs(quatLength(quatNormalize(new Float64Array(4), 0, scaled, 0), 0) - 1) < 1e-12);
    }),
  );
  close(quatNormalize(new Float64Array(4), 0, [0, 0, 0, 0], 0), [0, 0, 0, 1], 0);
});

test("slerp matches the glTF formula, keeps unit length and constant angular speed", () => {
  fc.assert(
    fc.property(unitQuat, unitQuat, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, t) => {
      const out = quatSlerp(new Float64Array(4), 0, a, 0, b, 0, t);
      assert.ok(Math.abs(quatLength(out, 0) - 1) < 1e-9);
      const total = quatAngleBetween(a, 0, b, 0);
      if (total > 1e-3) {
        assert.ok(Math.abs(quatAngleBetween(a, 0, out, 0) - t * total) < 1e-6);
        assert.ok(Math.abs(quatAngleBetween(out, 0, b, 0) - (1 - t) * total) < 1e-6);
      }
    }),
  );
});

test("slerp and nlerp take the shorter arc when the keys are in opposite hemispheres (q vs −q)", () => {
  const a = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 0.2);
  const b = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 0.6);
  const negB = [-b[0]!, -b[1]!, -b[2]!, -b[3]!];
  const viaB = quatSlerp(new Float64Array(4), 0, a, 0, b, 0, 0.5);
  const viaNegB = quatSlerp(new Float64Array(4), 0, a, 0, negB, 0, 0.5);
  close(viaNegB, viaB, 1e-15);
  close(viaB, quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 0.4), 1e-15);
  close(quatNlerp(new Float64Array(4), 0, a, 0, negB, 0, 0.5), viaB, 1e-15);
  close(quatSlerpFast(new Float64Array(4), 0, a, 0, negB, 0, 0.5), viaB, 1e-7);
});

test("nlerp differs from slerp by up to 2e-2 on a 124° step (why keys use slerp)", () => {
  const a = quatIdentity(new Float64Array(4), 0);
  const b = quatFromAxisAngle(new Float64Array(4), 0, 1, 0, 0, (124 * Math.PI) / 180);
  let max = 0;
  for (let t = 0; t <= 1; t += 0.01) {
    const s = quatSlerp(new Float64Array(4), 0, a, 0, b, 0, t);
    const n = quatNlerp(new Float64Array(4), 0, a, 0, b, 0, t);
    for (let c = 0; c < 4; c++) max = Math.max(max, Math.abs(s[c]! - n[c]!));
  }
  assert.ok(max > 1e-2 && max < 3e-2, `max ${max}`);
});

test("fast slerp (only + − × ÷ √) stays within 2e-7 of exact slerp; endpoints exact", () => {
  // Dense sweep over the angle (all of (0, π] between rotations) and t.
  const a = quatIdentity(new Float64Array(4), 0);
  const b = new Float64Array(4), e = new Float64Array(4), f = new Float64Array(4);
  let max = 0;
  for (let ai = 1; ai <= 400; ai++) {
    quatFromAxisAngle(b, 0, 0.3, 0.5, 0.8, (Math.PI * ai) / 400);
    for (let ti = 0; ti <= 100; ti++) {
      quatSlerp(e, 0, a, 0, b, 0, ti / 100);
      quatSlerpFast(f, 0, a, 0, b, 0, ti / 100);
      for (let c = 0; c < 4; c++) max = Math.max(max, Math.abs(e[c]! - f[c]!));
    }
  }
  assert.ok(max < 2e-7, `max ${max}`);
  fc.assert(
    fc.property(unitQuat, unitQuat, fc.double({ min: 0, max: 1, noNaN: true }), (p, q, t) => {
      quatSlerp(e, 0, p, 0, q, 0, t);
      quatSlerpFast(f, 0, p, 0, q, 0, t);
      close(f, e, 2e-7);
    }),
  );
  const p = quatFromAxisAngle(new Float64Array(4), 0, 1, 2, 3, 0.7);
  const q = quatFromAxisAngle(new Float64Array(4), 0, -1, 0, 2, 2.5);
  close(quatSlerpFast(new Float64Array(4), 0, p, 0, q, 0, 0), p, 0);
  close(quatSlerpFast(new Float64Array(4), 0, p, 0, q, 0, 1), q, 1e-15);
});

test("fast slerp source uses no Math.sin/cos/acos/atan (deterministic mode)", async () => {
  const { readFile } = await import("node:fs/promises");
  const src = await readFile(new URL("../../src/math/quat.ts", import.meta.url), "utf8");
  const start = src.indexOf("function fastSlerpCoefficient");
  const end = src.indexOf("export function quatAngleBetween");
  // Code only: comments may name the functions the code avoids.
  const body = src.slice(start, end).replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
  assert.ok(start > 0 && end > start);
  assert.doesNotMatch(body, /Math\.(sin|cos|acos|asin|atan|atan2|exp|log|pow)\b/);
});

test("rotate vec3 and axis-angle: 90° about Z takes X to Y", () => {
  const q = quatFromAxisAngle(new Float64Array(4), 0, 0, 0, 2, Math.PI / 2);
  close(quatRotateVec3(new Float64Array(3), 0, q, 0, [1, 0, 0], 0), [0, 1, 0], 1e-15);
  close(quatFromAxisAngle(new Float64Array(4), 0, 0, 0, 0, 1), [0, 0, 0, 1], 0);
});

test("Euler: intrinsic order as listed, q = q_first · q_second · q_third", () => {
  const orders: EulerOrder[] = ["XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"];
  const x = 0.3, y = -0.7, z = 1.1;
  const axis = { X: [1, 0, 0], Y: [0, 1, 0], Z: [0, 0, 1] } as const;
  const angle = { X: x, Y: y, Z: z } as const;
  for (const order of orders) {
    const expected = quatIdentity(new Float64Array(4), 0);
    for (const c of order as string) {
      const k = c as "X" | "Y" | "Z";
      const step = quatFromAxisAngle(new Float64Array(4), 0, axis[k][0], axis[k][1], axis[k][2], angle[k]);
      quatMultiply(expected, 0, expected, 0, step, 0);
    }
    close(quatFromEuler(new Float64Array(4), 0, x, y, z, order), expected, 1e-15, order);
  }
  // A single-axis rotation is the same whatever the order.
  const only = quatFromEuler(new Float64Array(4), 0, 0, 0.5, 0, "ZXY");
  close(only, quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 0.5), 1e-15);
});

test("twist angle recovers the yaw of a yaw·pitch rotation", () => {
  const yaw = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, 0.8);
  const pitch = quatFromAxisAngle(new Float64Array(4), 0, 1, 0, 0, 0.3);
  const q = quatMultiply(new Float64Array(4), 0, yaw, 0, pitch, 0);
  assert.ok(Math.abs(quatTwistAngle(q, 0, 0, 1, 0) - 0.8) < 0.05); // swing–twist yaw of yaw·pitch is close to the yaw
  assert.ok(Math.abs(quatTwistAngle(yaw, 0, 0, 1, 0) - 0.8) < 1e-12);
  const back = quatFromAxisAngle(new Float64Array(4), 0, 0, 1, 0, -3);
  assert.ok(Math.abs(quatTwistAngle(back, 0, 0, 1, 0) + 3) < 1e-12);
});

test("angle between is accurate for nearly equal rotations and uses the shorter arc", () => {
  const q = new Float32Array([0.1, 0.2, 0.3, Math.sqrt(1 - 0.14)]);
  assert.equal(quatAngleBetween(q, 0, q, 0), 0);
  const neg = q.map((v) => -v);
  assert.equal(quatAngleBetween(q, 0, neg, 0), 0);
  assert.ok(Math.abs(quatDot(q, 0, q, 0) - 1) < 1e-6);
});

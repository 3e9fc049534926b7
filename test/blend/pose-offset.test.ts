import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { addPackedOffsetAt, addPoseOffsetAt, inertialDecayAt, OFFSET_STRIDE, offsetVelocityAt, packOffset, poseDifferenceAt } from "../../src/blend/pose-offset.ts";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { createPose, type Pose } from "../../src/pose/pose.ts";

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const joint = fc.record({ t: fc.tuple(unit, unit, unit), axis: fc.tuple(unit, unit, unit).filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-2), angle: fc.double({ min: -3.1, max: 3.1, noNaN: true }), s: fc.tuple(unit, unit, unit) });
const poseArb = fc.array(joint, { minLength: 1, maxLength: 4 });

function build(joints: { t: number[]; axis: number[]; angle: number; s: number[] }[]): Pose {
  const p = createPose(joints.length);
  joints.forEach((j, k) => {
    p.t.set(j.t, 3 * k);
    p.s.set(j.s.map((v) => 1 + 0.5 * v), 3 * k);
    const n = Math.hypot(j.axis[0]!, j.axis[1]!, j.axis[2]!);
    quatFromAxisAngle(p.r, 4 * k, j.axis[0]! / n, j.axis[1]! / n, j.axis[2]! / n, j.angle);
  });
  return p;
}

test("property: b ⊕ (a ⊖ b) is a (same rotation up to sign, same translation and scale)", () => {
  fc.assert(fc.property(poseArb, poseArb, (ja, jb) => {
    const n = Math.min(ja.length, jb.length);
    const a = build(ja.slice(0, n)), b = build(jb.slice(0, n));
    const x = new Float64Array(OFFSET_STRIDE * n);
    const one = new Float64Array([1, 0]);
    poseDifferenceAt(x, a, b, one, 0);
    const out = createPose(n);
    addPoseOffsetAt(out, b, x, null, one, 0);
    for (let j = 0; j < n; j++) {
      const dot = Math.abs(out.r[4 * j]! * a.r[4 * j]! + out.r[4 * j + 1]! * a.r[4 * j + 1]! + out.r[4 * j + 2]! * a.r[4 * j + 2]! + out.r[4 * j + 3]! * a.r[4 * j + 3]!);
      assert.ok(dot > 1 - 1e-5, `joint ${j}: |q·q'| = ${dot}`);
      for (let c = 0; c < 3; c++) {
        assert.ok(Math.abs(out.t[3 * j + c]! - a.t[3 * j + c]!) < 1e-5);
        assert.ok(Math.abs(out.s[3 * j + c]! - a.s[3 * j + c]!) < 1e-5);
      }
    }
  }));
});

test("a velocity: (a ⊖ b) / dt scales the difference by 1 / dt", () => {
  const a = createPose(1), b = createPose(1);
  quatFromAxisAngle(a.r, 0, 0, 0, 1, 0.3);
  const v = new Float64Array(OFFSET_STRIDE);
  poseDifferenceAt(v, a, b, new Float64Array([0.1]), 0);
  assert.ok(Math.abs(v[5]! - 3) < 1e-5 && Math.abs(v[3]!) < 1e-9, `${[...v]}`);
});

test("the inertialization decay: h₀ runs 1 → 0 and D·h₁ 0 → 0, flat at both ends; u is clamped", () => {
  const at = (u: number, d = 2): [number, number] => {
    const c = new Float64Array([u, d]);
    inertialDecayAt(c, 0);
    return [c[0]!, c[1]!];
  };
  assert.deepEqual(at(0), [1, 0]);
  assert.deepEqual(at(1), [0, 0]);
  assert.deepEqual(at(-3), [1, 0]);
  assert.deepEqual(at(7), [0, 0]);
  assert.deepEqual(at(Number.NaN), [1, 0]);
  const e = 1e-4;
  // Slopes at the start: h₀' = 0, (D·h₁)' = D (the offset's velocity v₀ carries through), in u.
  assert.ok(Math.abs((at(e)[0] - 1) / e) < 1e-6);
  assert.ok(Math.abs(at(e)[1] / e - 2) < 1e-6);
  // Monotonic h₀ (no overshoot from the position term).
  let last = 1;
  for (let i = 1; i <= 100; i++) {
    const h0 = at(i / 100)[0];
    assert.ok(h0 <= last + 1e-15);
    last = h0;
  }
});

test("property: the offset's velocity lands one step later on the pose it was taken from: t ⊕ (x + v·dt) = e", () => {
  fc.assert(fc.property(poseArb, poseArb, poseArb, fc.double({ min: 1e-3, max: 0.1, noNaN: true }), (je, jt, jx, dt) => {
    const n = Math.min(je.length, jt.length, jx.length);
    const e = build(je.slice(0, n)), t = build(jt.slice(0, n)), x0 = build(jx.slice(0, n));
    // x: any offset (a difference of two poses, so rotations up to a half turn).
    const x = new Float64Array(OFFSET_STRIDE * n), v = new Float64Array(OFFSET_STRIDE * n);
    poseDifferenceAt(x, x0, t, new Float64Array([1]), 0);
    const cs = new Float64Array([dt]);
    offsetVelocityAt(v, e, t, x, cs, 0);
    assert.equal(cs[0], dt, "the step is left as it was");
    const out = createPose(n);
    addPoseOffsetAt(out, t, x, v, new Float64Array([1, dt]), 0);
    for (let j = 0; j < n; j++) {
      for (let c = 0; c < 3; c++) assert.ok(Math.abs(out.t[3 * j + c]! - e.t[3 * j + c]!) < 1e-6);
      // Poses store float32: compare the rotations' angle, to float32 rounding.
      const a = out.r.subarray(4 * j, 4 * j + 4), b = e.r.subarray(4 * j, 4 * j + 4);
      const dot = Math.abs(a[0]! * b[0]! + a[1]! * b[1]! + a[2]! * b[2]! + a[3]! * b[3]!) / (Math.hypot(...a) * Math.hypot(...b));
      assert.ok(2 * Math.acos(Math.min(1, dot)) < 2e-3, `joint ${j}: |q·q'| = ${dot}`);
      // Taken on x's side: c = x + v·dt is the nearer to x of the two rotation vectors of its rotation
      // past a quarter turn, c and c − 2π·ĉ.
      const o = OFFSET_STRIDE * j;
      const c = [0, 1, 2].map((k) => x[o + 3 + k]! + v[o + 3 + k]! * dt);
      const angle = Math.hypot(...c);
      if (angle > Math.PI / 2) {
        const near = Math.hypot(...c.map((ck, k) => ck - x[o + 3 + k]!));
        const far = Math.hypot(...c.map((ck, k) => ck * (1 - (2 * Math.PI) / angle) - x[o + 3 + k]!));
        assert.ok(near <= far + 1e-9, `joint ${j}: ${near} from x, the other side ${far}`);
      }
    }
  }));
});

test("property: the packed offset of the moving joints turns and shifts a pose to the same bits as the whole offset", () => {
  // Per joint: still, turning only, shifting only (translation or scale), or both; y absent or given.
  const part = fc.constantFrom("still", "turn", "shift", "scale", "both");
  const value = fc.double({ min: -2, max: 2, noNaN: true });
  const jointOffset = fc.record({ kind: part, x: fc.array(value, { minLength: 9, maxLength: 9 }), y: fc.array(value, { minLength: 9, maxLength: 9 }) });
  fc.assert(fc.property(poseArb, fc.array(jointOffset, { minLength: 4, maxLength: 4 }), fc.boolean(), value, value, (jp, offsets, withY, c0, c1) => {
    const n = jp.length;
    const pose = build(jp);
    const x = new Float64Array(OFFSET_STRIDE * n), y = new Float64Array(OFFSET_STRIDE * n);
    for (let j = 0; j < n; j++) {
      const { kind, x: xs, y: ys } = offsets[j]!;
      for (let c = 0; c < OFFSET_STRIDE; c++) {
        const keep = kind === "both" || (kind === "turn" && c > 2 && c < 6) || (kind === "shift" && c < 3) || (kind === "scale" && c > 5);
        x[OFFSET_STRIDE * j + c] = keep ? xs[c]! : 0;
        y[OFFSET_STRIDE * j + c] = keep && withY ? ys[c]! : 0;
      }
    }
    const cs = new Float64Array([c0, c1]);
    const whole = createPose(n);
    addPoseOffsetAt(whole, pose, x, y, cs, 0);
    const packed = new Float64Array(18 * n), joints = new Int32Array(2 * n), counts = new Int32Array(2);
    packOffset(packed, joints, counts, x, withY ? y : null);
    const moving = offsets.slice(0, n).filter((o) => o.kind !== "still").length;
    assert.ok(counts[0]! + counts[1]! >= moving && counts[0]! <= moving && counts[1]! <= moving);
    const inPlace = createPose(n);
    inPlace.t.set(pose.t);
    inPlace.r.set(pose.r);
    inPlace.s.set(pose.s);
    addPackedOffsetAt(inPlace, packed, joints, counts, cs, 0);
    // Equal numbers (a still joint keeps a −0 that adding the whole offset's +0 would make +0).
    for (const k of ["t", "r", "s"] as const) inPlace[k].forEach((v, i) => assert.ok(v === whole[k][i], `${k}[${i}]: ${v} against ${whole[k][i]}`));
  }));
});

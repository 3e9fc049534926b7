// The dead blend's parts (src/blend/dead-blend.ts): its weight, the extrapolation and its decay, and the
// blend that keeps each joint turning the way it started.
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  deadBlendAt, deadBlendWeightAt, extrapolatePoseAt, extrapolationRatesInto, MAX_EXTRAPOLATED_ANGLE, resetDirections,
} from "../../src/blend/dead-blend.ts";
import { OFFSET_STRIDE } from "../../src/blend/pose-offset.ts";
import { jointAngularVelocities } from "../../src/continuity/angular-velocity-jump.ts";
import { CURVE_NAMES, evaluateCurve, type Curve } from "../../src/math/curves.ts";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { copyPose, createPose, type Pose } from "../../src/pose/pose.ts";

function weight(curve: Curve, u: number): number {
  const v = new Float64Array([u]);
  deadBlendWeightAt(curve, v, 0);
  return v[0]!;
}

/** The rotation angle between two unit quaternions (shortest way round). */
function angleBetween(a: Float32Array, ai: number, b: Float32Array, bi: number): number {
  const dot = Math.abs(a[ai]! * b[bi]! + a[ai + 1]! * b[bi + 1]! + a[ai + 2]! * b[bi + 2]! + a[ai + 3]! * b[bi + 3]!);
  return 2 * Math.acos(Math.min(1, dot));
}

test("the weight runs 0 → 1 for every curve, never decreasing, and is clamped outside [0, 1]", () => {
  for (const curve of CURVE_NAMES) {
    assert.equal(weight(curve, 0), 0, curve);
    assert.equal(weight(curve, 1), 1, curve);
    assert.equal(weight(curve, -2), 0, curve);
    assert.equal(weight(curve, 5), 1, curve);
    assert.equal(weight(curve, NaN), 0, curve);
    let last = 0;
    for (let i = 1; i <= 2000; i++) {
      const w = weight(curve, i / 2000);
      assert.ok(w >= last - 1e-12 && w <= 1 + 1e-12, `${curve} at ${i / 2000}: ${w} after ${last}`);
      last = w;
    }
  }
});

test("the weight starts flat to second order (w(u) = O(u³)) for every curve, and ends as the curve does", () => {
  for (const curve of CURVE_NAMES) {
    // w(u)/u³ bounded as u → 0: no slope and no acceleration at the start.
    const ratios = [1e-2, 1e-3, 1e-4].map((u) => weight(curve, u) / (u * u * u));
    for (const r of ratios) assert.ok(Math.abs(r) < 200, `${curve}: w(u)/u³ = ${ratios.join(", ")}`);
    // Near the end the start correction has faded: the curve itself within (1 − u)⁶.
    for (const u of [0.9, 0.95, 0.99]) assert.ok(Math.abs(weight(curve, u) - evaluateCurve(curve, u)) < 20 * (1 - u) ** 6, `${curve} at ${u}`);
  }
  // smootherstep is already flat to second order: unchanged.
  for (const u of [0.1, 0.37, 0.8]) assert.equal(weight("smootherstep", u), evaluateCurve("smootherstep", u));
});

test("a smoothstep dead blend's first frame moves at most 16·Δt/(3d) of what the crossfade's curve moves (0.3 s at 60 Hz: < 0.3×)", () => {
  // w(u) = 16u³ + O(u⁴) against smoothstep's 3u² + O(u³).
  for (let i = 1; i <= 200; i++) {
    const u = i / 1000;
    assert.ok(weight("smoothstep", u) <= (16 * u / 3) * evaluateCurve("smoothstep", u), `u = ${u}`);
  }
  assert.ok(weight("smoothstep", 1 / 60 / 0.3) < 0.3 * evaluateCurve("smoothstep", 1 / 60 / 0.3));
});

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const axisArb = fc.tuple(unit, unit, unit).filter(([x, y, z]) => Math.hypot(x, y, z) > 1e-2);
const jointArb = fc.record({ t: fc.tuple(unit, unit, unit), axis: axisArb, angle: fc.double({ min: -3.1, max: 3.1, noNaN: true }), s: fc.tuple(unit, unit, unit) });
const poseArb = fc.array(jointArb, { minLength: 1, maxLength: 4 });

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

test("property: the blend gives the target at w ≥ 1 (bit for bit), the extrapolated pose at w ≤ 0, and unit rotations between", () => {
  fc.assert(fc.property(poseArb, poseArb, fc.double({ min: 0, max: 1, noNaN: true }), (ja, jb, w) => {
    const n = Math.min(ja.length, jb.length);
    const target = build(ja.slice(0, n)), ext = build(jb.slice(0, n));
    const dirs = new Float64Array(4 * n);
    const out = createPose(n);
    resetDirections(dirs);
    deadBlendAt(out, target, ext, dirs, new Float64Array([1]), 0);
    assert.deepEqual(out.r, target.r);
    assert.deepEqual(out.t, target.t);
    assert.deepEqual(out.s, target.s);
    resetDirections(dirs);
    deadBlendAt(out, target, ext, dirs, new Float64Array([0]), 0);
    for (let j = 0; j < n; j++) assert.ok(angleBetween(out.r, 4 * j, ext.r, 4 * j) < 1e-3, `joint ${j}`);
    for (let i = 0; i < 3 * n; i++) assert.ok(Math.abs(out.t[i]! - ext.t[i]!) < 1e-6 && Math.abs(out.s[i]! - ext.s[i]!) < 1e-6);
    resetDirections(dirs);
    deadBlendAt(out, target, ext, dirs, new Float64Array([w]), 0);
    for (let j = 0; j < n; j++) {
      const q = Math.hypot(out.r[4 * j]!, out.r[4 * j + 1]!, out.r[4 * j + 2]!, out.r[4 * j + 3]!);
      assert.ok(Math.abs(q - 1) < 1e-6, `|q| = ${q}`);
      // On the shortest arc at the start: no farther from either end than they are from each other.
      const whole = angleBetween(target.r, 4 * j, ext.r, 4 * j);
      assert.ok(angleBetween(out.r, 4 * j, target.r, 4 * j) <= whole + 1e-3 && angleBetween(out.r, 4 * j, ext.r, 4 * j) <= whole + 1e-3);
    }
  }));
});

test("a joint whose extrapolation turns past half a turn from the target keeps turning the same way (a shortest-arc blend would flip)", () => {
  const target = createPose(1), ext = createPose(1), out = createPose(1), prev = createPose(1);
  const dirs = new Float64Array(4);
  resetDirections(dirs);
  const w = new Float64Array([0.5]);
  let largest = 0;
  // E turns from 0.2π to 1.6π about z while T stays: the output, half way, turns from 0.1π to 0.8π.
  for (let i = 0; i <= 140; i++) {
    quatFromAxisAngle(ext.r, 0, 0, 0, 1, Math.PI * (0.2 + 0.01 * i));
    deadBlendAt(out, target, ext, dirs, w, 0);
    if (i > 0) largest = Math.max(largest, angleBetween(out.r, 0, prev.r, 0));
    copyPose(prev, out);
  }
  assert.ok(largest < 0.02, `largest step ${largest} rad (each step of E is 0.0314 rad)`);
  // Half of 1.6π about z: 0.8π.
  const expected = new Float32Array(4);
  quatFromAxisAngle(expected, 0, 0, 0, 1, 0.8 * Math.PI);
  assert.ok(angleBetween(out.r, 0, expected, 0) < 1e-4);
});

test("the extrapolation starts at the source with the source's velocity and decays", () => {
  const source = createPose(2);
  quatFromAxisAngle(source.r, 4, 1, 0, 0, 0.4);
  const v = new Float64Array(2 * OFFSET_STRIDE);
  v.set([0.5, 0, -1, 0, 2, 0, 0, 0, 0.1], 0); // joint 0: translation, 2 rad/s about y, scale
  v.set([0, 0, 0, 3, 0, 0, 0, 0, 0], OFFSET_STRIDE); // joint 1: 3 rad/s about x
  const rates = new Float64Array(2);
  extrapolationRatesInto(rates, v, new Float64Array([5]), 0);
  assert.deepEqual([...rates], [5, 5]);
  const out = createPose(2), later = createPose(2);
  extrapolatePoseAt(out, source, v, rates, new Float64Array([0]), 0);
  assert.deepEqual(out.r, source.r);
  assert.deepEqual(out.t, source.t);
  // Over 1 ms the velocity is the source's (the decay is flat at the start).
  const h = 1e-3;
  extrapolatePoseAt(later, source, v, rates, new Float64Array([h]), 0);
  const w = new Float64Array(6);
  jointAngularVelocities(w, out, later, h);
  assert.ok(Math.abs(w[1]! - 2) < 1e-2 && Math.abs(w[3]! - 3) < 1e-2, `${[...w]}`);
  assert.ok(Math.abs((later.t[0]! - out.t[0]!) / h - 0.5) < 1e-3);
  // In all it moves 2/λ = 0.4 seconds' worth of the velocity: 0.8 rad about y for joint 0.
  extrapolatePoseAt(later, source, v, rates, new Float64Array([100]), 0);
  assert.ok(Math.abs(angleBetween(later.r, 0, source.r, 0) - 0.8) < 1e-5);
  assert.ok(Math.abs(later.t[2]! - source.t[2]! + 0.4) < 1e-6);
});

test("property: however fast a joint turns, its extrapolation turns it at most MAX_EXTRAPOLATED_ANGLE in all", () => {
  fc.assert(fc.property(axisArb, fc.double({ min: 0, max: 500, noNaN: true }), fc.double({ min: 0.5, max: 50, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), ([x, y, z], speed, base, tau) => {
    const n = Math.hypot(x, y, z);
    const v = new Float64Array(OFFSET_STRIDE);
    v[3] = (speed * x) / n; v[4] = (speed * y) / n; v[5] = (speed * z) / n;
    const rates = new Float64Array(1);
    extrapolationRatesInto(rates, v, new Float64Array([base]), 0);
    assert.ok(rates[0]! >= base);
    const source = createPose(1), out = createPose(1);
    extrapolatePoseAt(out, source, v, rates, new Float64Array([tau]), 0);
    assert.ok(angleBetween(out.r, 0, source.r, 0) <= MAX_EXTRAPOLATED_ANGLE + 1e-5);
  }));
});

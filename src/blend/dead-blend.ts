// Dead blending's blend (docs/transitions.md, "deadBlend"): from the extrapolated source E toward the
// target T, written as the target plus the part of the difference that is left, T ⊕ (1 − w)·(E ⊖ T), so
// that each joint's rotation keeps turning the way it started even when E drifts more than half a turn
// away from T (a shortest-arc blend would switch sides there and spin the joint in one frame).
import { evaluateCurveAt, type Curve } from "../math/curves.ts";
import { copyPose, type Pose } from "../pose/pose.ts";
import { OFFSET_STRIDE } from "./pose-offset.ts";

/**
 * How far (radians) a joint's extrapolation may turn it in all: its velocity decays at least fast enough
 * for that. A joint turning faster than its clip can mean (a mocap marker flipping 180° in one frame)
 * would otherwise spin on through the blend; with at most ⅜ of a turn added to the half turn at most
 * between source and target, E stays more than ⅛ turn short of a full turn from the target, where the
 * blend's direction would become ambiguous.
 */
export const MAX_EXTRAPOLATED_ANGLE = 0.75 * Math.PI;

/**
 * The dead blend's weight at progress u = v[i] (written back to v[i]): the transition's curve c with its
 * start made flat to second order, w(u) = c(u) − (c′(0)·u + (c″(0)/2 + 6·c′(0))·u²)·(1 − u)⁶. w(0) = 0
 * with zero velocity and acceleration, so the output leaves the extrapolated source with its velocity and
 * acceleration (a crossfade's smoothstep starts with an acceleration of 6·(T − S)/d², which a frame at
 * 60 Hz shows as a velocity jump); the correction fades out well before the end, where w(1) = 1 and the
 * curve's own end slope and acceleration are kept. Curves already flat to second order (smootherstep)
 * are used as they are.
 */
export function deadBlendWeightAt(curve: Curve, v: Float64Array, i: number): void {
  let u = v[i]!;
  if (!(u > 0)) u = 0;
  else if (u > 1) u = 1;
  evaluateCurveAt(curve, v, i);
  // c′(0) and c″(0) of each curve (src/math/curves.ts); smootherstep's are 0.
  let slope = 0, accel = 0;
  switch (curve) {
    case "linear": slope = 1; break;
    case "smoothstep": accel = 6; break;
    case "easeIn": accel = 2; break;
    case "easeOut": slope = 2; accel = -2; break;
  }
  // (1 − u)⁶ = 1 − 6u + …: the 6·c′(0) in the u² term cancels what the fade's slope adds back.
  const f = 1 - u, f2 = f * f, fade = f2 * f2 * f2;
  v[i] = v[i]! - (slope * u + (0.5 * accel + 6 * slope) * u * u) * fade;
}

/**
 * out ← target ⊕ (1 − w)·(extrapolated ⊖ target) per joint, with w = ws[wi]: translation and scale lerp;
 * the rotation is q_T turned by (1 − w) of the rotation from q_T to q_E, taken on the side of
 * `directions` (4 per joint: the previous frame's q_E · q_T⁻¹, identity at the transition's start, so
 * its first frame takes the shortest arc) and written back there. w ≥ 1 copies the target bit for bit.
 * `out` may be `target`. No allocation.
 */
export function deadBlendAt(out: Pose, target: Pose, extrapolated: Pose, directions: Float64Array, ws: Float64Array, wi: number): void {
  const w = ws[wi]!;
  if (w >= 1) {
    copyPose(out, target);
    return;
  }
  const k = w > 0 ? 1 - w : 1;
  const tt = target.t, ts = target.s, tr = target.r, et = extrapolated.t, es = extrapolated.s, er = extrapolated.r;
  const ot = out.t, os = out.s, or = out.r;
  for (let i = 0; i < 3 * target.jointCount; i++) {
    ot[i] = tt[i]! + k * (et[i]! - tt[i]!);
    os[i] = ts[i]! + k * (es[i]! - ts[i]!);
  }
  for (let j = 0; j < target.jointCount; j++) {
    const k4 = 4 * j;
    const qx = tr[k4]!, qy = tr[k4 + 1]!, qz = tr[k4 + 2]!, qw = tr[k4 + 3]!;
    const ex = er[k4]!, ey = er[k4 + 1]!, ez = er[k4 + 2]!, ew = er[k4 + 3]!;
    // d = q_E · q_T⁻¹ (q_T unit: its inverse is its conjugate), on the side of the previous frame's d.
    let dx = -ew * qx + ex * qw - ey * qz + ez * qy;
    let dy = -ew * qy + ey * qw - ez * qx + ex * qz;
    let dz = -ew * qz + ez * qw - ex * qy + ey * qx;
    let dw = ew * qw + ex * qx + ey * qy + ez * qz;
    if (dx * directions[k4]! + dy * directions[k4 + 1]! + dz * directions[k4 + 2]! + dw * directions[k4 + 3]! < 0) {
      dx = -dx; dy = -dy; dz = -dz; dw = -dw;
    }
    directions[k4] = dx; directions[k4 + 1] = dy; directions[k4 + 2] = dz; directions[k4 + 3] = dw;
    // d^k = exp(k·log d): the same axis, k times the angle (up to a full turn: dw < 0 is more than half).
    const sin = Math.sqrt(dx * dx + dy * dy + dz * dz);
    // No rotation between them (sin = 0): the target's rotation.
    const inv = sin > 1e-12 ? 1 / sin : 0;
    const half = k * Math.atan2(sin, dw);
    let s: number, cw: number;
    if (half < 1.5) {
      // The extrapolation's Taylor series (below), for the half angle.
      const h2 = half * half;
      cw = 1 + h2 * (-1 / 2 + h2 * (1 / 24 + h2 * (-1 / 720 + h2 * (1 / 40320 + h2 * (-1 / 3628800 + h2 / 479001600)))));
      s = 2 * half * inv * (0.5 + h2 * (-1 / 12 + h2 * (1 / 240 + h2 * (-1 / 10080 + h2 * (1 / 725760 + h2 * (-1 / 79833600 + h2 / 12454041600))))));
    } else {
      s = Math.sin(half) * inv;
      cw = Math.cos(half);
    }
    const cx = dx * s, cy = dy * s, cz = dz * s;
    // d^k · q_T, renormalised (float32 storage leaves it a few ulps off unit).
    const nx = cw * qx + cx * qw + cy * qz - cz * qy;
    const ny = cw * qy - cx * qz + cy * qw + cz * qx;
    const nz = cw * qz + cx * qy - cy * qx + cz * qw;
    const nw = cw * qw - cx * qx - cy * qy - cz * qz;
    const n = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
    or[k4] = nx * n; or[k4 + 1] = ny * n; or[k4 + 2] = nz * n; or[k4 + 3] = nw * n;
  }
}

/**
 * Per joint, the rate λ at which the extrapolation's velocity decays: the transition's rate ws[wi], or
 * more for a joint so fast that it would turn more than MAX_EXTRAPOLATED_ANGLE (the extrapolation turns
 * a joint by |ω|·2/λ in all, see extrapolatePoseAt). No allocation.
 */
export function extrapolationRatesInto(rates: Float64Array, velocity: Float64Array, ws: Float64Array, wi: number): void {
  const base = ws[wi]!;
  for (let j = 0; j < rates.length; j++) {
    const o = OFFSET_STRIDE * j;
    const speed = Math.sqrt(velocity[o + 3]! * velocity[o + 3]! + velocity[o + 4]! * velocity[o + 4]! + velocity[o + 5]! * velocity[o + 5]!);
    const fast = (2 * speed) / MAX_EXTRAPOLATED_ANGLE;
    rates[j] = fast > base ? fast : base;
  }
}

/**
 * out ← source ⊕ velocity·k_j(τ) per joint, τ = ws[wi] seconds after the source: each joint drifts on with
 * its velocity (translation, rotation vector in the parent's space, scale; OFFSET_STRIDE per joint),
 * which decays as (1 + λτ)·e^(−λτ) with λ = rates[j] — flat at τ = 0, so the decay adds no acceleration at
 * the start — and k(τ) = (2 − (2 + λτ)·e^(−λτ)) / λ is its integral (→ 2/λ). No allocation.
 */
export function extrapolatePoseAt(out: Pose, source: Pose, velocity: Float64Array, rates: Float64Array, ws: Float64Array, wi: number): void {
  const tau = ws[wi]!;
  // Most joints share the transition's rate: k(τ) is computed again only when the rate changes.
  let lastRate = NaN, k = 0;
  const st = source.t, ss = source.s, sr = source.r, ot = out.t, os = out.s, or = out.r;
  for (let j = 0; j < source.jointCount; j++) {
    const o = OFFSET_STRIDE * j, k3 = 3 * j, k4 = 4 * j;
    const lambda = rates[j]!;
    if (lambda !== lastRate) {
      const lt = lambda * tau;
      k = lt > 0 ? (2 - (2 + lt) * Math.exp(-lt)) / lambda : 0;
      lastRate = lambda;
    }
    ot[k3] = st[k3]! + k * velocity[o]!;
    ot[k3 + 1] = st[k3 + 1]! + k * velocity[o + 1]!;
    ot[k3 + 2] = st[k3 + 2]! + k * velocity[o + 2]!;
    os[k3] = ss[k3]! + k * velocity[o + 6]!;
    os[k3 + 1] = ss[k3 + 1]! + k * velocity[o + 7]!;
    os[k3 + 2] = ss[k3 + 2]! + k * velocity[o + 8]!;
    const qx = sr[k4]!, qy = sr[k4 + 1]!, qz = sr[k4 + 2]!, qw = sr[k4 + 3]!;
    const rx = k * velocity[o + 3]!, ry = k * velocity[o + 4]!, rz = k * velocity[o + 5]!;
    // exp(r) · q, renormalised; the half angle h = |r|/2 is at most MAX_EXTRAPOLATED_ANGLE / 2 < π/2:
    // Taylor series in h² (7 terms: error below 1e-8 for h ≤ π/2; no square root, a third of the cost of
    // Math.sin and cos; r = 0 gives the identity).
    const h2 = 0.25 * (rx * rx + ry * ry + rz * rz);
    const cw = 1 + h2 * (-1 / 2 + h2 * (1 / 24 + h2 * (-1 / 720 + h2 * (1 / 40320 + h2 * (-1 / 3628800 + h2 / 479001600)))));
    const s = 0.5 + h2 * (-1 / 12 + h2 * (1 / 240 + h2 * (-1 / 10080 + h2 * (1 / 725760 + h2 * (-1 / 79833600 + h2 / 12454041600)))));
    const cx = rx * s, cy = ry * s, cz = rz * s;
    const nx = cw * qx + cx * qw + cy * qz - cz * qy;
    const ny = cw * qy - cx * qz + cy * qw + cz * qx;
    const nz = cw * qz + cx * qy - cy * qx + cz * qw;
    const nw = cw * qw - cx * qx - cy * qy - cz * qz;
    const n = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz + nw * nw);
    or[k4] = nx * n; or[k4 + 1] = ny * n; or[k4 + 2] = nz * n; or[k4 + 3] = nw * n;
  }
}

/** Sets every joint's blend direction to the identity (a transition's start: shortest arcs first). */
export function resetDirections(directions: Float64Array): void {
  for (let i = 0; i < directions.length; i += 4) {
    directions[i] = 0; directions[i + 1] = 0; directions[i + 2] = 0; directions[i + 3] = 1;
  }
}

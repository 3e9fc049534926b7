// Inertialization and dead blending in the crowd kernel (docs/transitions.md, docs/crowd-kernel.md): the
// pose difference that captures a velocity or an offset, and the offset added to a pose every frame. The
// same formulas as src/blend/pose-offset.ts; the JS recorder (src/crowd/wasm/record-inertial.ts) decides
// when each runs and with which coefficients, exactly as src/graph/step.ts does.
//
// An offset or velocity vector has the slots' grouping: per group of four joints nine f32x4 planes,
// translation x y z, rotation vector x y z (in the parent's space), scale x y z, then an i32 of flags
// (16 bytes with padding): bit 0 some translation lane is not 0, bit 1 some rotation lane, bit 2 some
// scale lane. Most joints of a character only rotate, and many keep still, so the per-frame offset
// skips what is 0 (and a zeroed vector, OP_ZERO, has no flags).

/** Bytes of one group of an offset or velocity vector. */
export const VECTOR_GROUP: usize = 160;
export const MOVES_T: i32 = 1, MOVES_R: i32 = 2, MOVES_S: i32 = 4;
/** π², the largest squared angle the series below takes (as pose-offset.ts). */
const PI2: f32 = <f32>(Math.PI * Math.PI);

/**
 * out ← (a ⊖ b) · inv, or from − (a ⊖ b) · inv when `from` is not 0 (an offset velocity: the source's
 * velocity less the target's): per joint t_a − t_b, the rotation vector of q_a · q_b⁻¹ (shortest way
 * round), s_a − s_b. Per joint in float64 with atan2, as poseDifferenceAt: it runs once when a
 * transition starts or learns its target's velocity, not per frame. Padding lanes get 0.
 */
export function poseDifference(out: usize, a: usize, b: usize, inv: f64, from: usize, groups: i32, joints: i32): void {
  const rb = <usize>(groups << 6);
  const sb = rb + <usize>(groups * 48);
  for (let j = 0; j < groups << 2; j++) {
    const g = <usize>(j >> 2);
    const lane = <usize>((j & 3) << 2);
    const o = out + g * VECTOR_GROUP + lane;
    if (j >= joints) {
      for (let p = 0; p < 9; p++) store<f32>(o + (<usize>p << 4), 0);
      continue;
    }
    const to = rb + g * 48 + lane, so = sb + g * 48 + lane, ro = (g << 6) + lane;
    if (sameJoint(a, b, ro, to, so)) {
      // A joint both poses hold still (most of a character's, in most clips): a zero difference.
      for (let p = 0; p < 9; p++) {
        const q = <usize>(p << 4);
        store<f32>(o + q, from != 0 ? load<f32>(from + g * VECTOR_GROUP + lane + q) : 0);
      }
      continue;
    }
    for (let c = 0; c < 3; c++) {
      const k = <usize>(c << 4);
      store<f64>(scratch + (<usize>c << 3), (<f64>load<f32>(a + to + k) - <f64>load<f32>(b + to + k)) * inv);
      store<f64>(scratch + (<usize>(c + 6) << 3), (<f64>load<f32>(a + so + k) - <f64>load<f32>(b + so + k)) * inv);
    }
    const ax = <f64>load<f32>(a + ro), ay = <f64>load<f32>(a + ro, 16), az = <f64>load<f32>(a + ro, 32), aw = <f64>load<f32>(a + ro, 48);
    const bx = <f64>load<f32>(b + ro), by = <f64>load<f32>(b + ro, 16), bz = <f64>load<f32>(b + ro, 32), bw = <f64>load<f32>(b + ro, 48);
    // d = a · b⁻¹ (b unit: its inverse is its conjugate).
    let dx = -aw * bx + ax * bw - ay * bz + az * by;
    let dy = -aw * by + ay * bw - az * bx + ax * bz;
    let dz = -aw * bz + az * bw - ax * by + ay * bx;
    let dw = aw * bw + ax * bx + ay * by + az * bz;
    if (dw < 0) {
      dx = -dx; dy = -dy; dz = -dz; dw = -dw;
    }
    const sin = Math.sqrt(dx * dx + dy * dy + dz * dz);
    // angle / sin(angle / 2) = 2·atan2(sin, cos) / sin, → 2 as the angle → 0; below a turn of ~11° by
    // atan's series in t = sin / cos (nine terms: within 1e-19 of atan2, and four times as fast).
    let k: f64;
    if (sin < 0.1 * dw) {
      const t = sin / dw, t2 = t * t;
      k = (2 / dw) * (1 - t2 * (1.0 / 3 - t2 * (1.0 / 5 - t2 * (1.0 / 7 - t2 * (1.0 / 9 - t2 * (1.0 / 11 - t2 * (1.0 / 13 - t2 * (1.0 / 15 - t2 / 17))))))));
    } else k = (2 * Math.atan2(sin, dw)) / sin;
    k *= inv;
    store<f64>(scratch + 24, dx * k);
    store<f64>(scratch + 32, dy * k);
    store<f64>(scratch + 40, dz * k);
    for (let p = 0; p < 9; p++) {
      const v = load<f64>(scratch + (<usize>p << 3));
      const q = <usize>(p << 4);
      store<f32>(o + q, <f32>(from != 0 ? <f64>load<f32>(from + g * VECTOR_GROUP + lane + q) - v : v));
    }
  }
  for (let gi = 0; gi < groups; gi++) {
    const o = out + <usize>gi * VECTOR_GROUP;
    store<i32>(o, (nonZero(o) ? MOVES_T : 0) | (nonZero(o + 48) ? MOVES_R : 0) | (nonZero(o + 96) ? MOVES_S : 0), 144);
  }
}

/** Whether any lane of the three planes at `p` is not 0 (NaN counts). */
// @ts-ignore: decorator
@inline function nonZero(p: usize): bool {
  const z = f32x4.splat(0);
  return v128.any_true(v128.or(v128.or(f32x4.ne(v128.load(p), z), f32x4.ne(v128.load(p, 16), z)), f32x4.ne(v128.load(p, 32), z)));
}

/** Whether one joint (lane offsets ro, to, so) has the same bits in poses a and b. */
// @ts-ignore: decorator
@inline function sameJoint(a: usize, b: usize, ro: usize, to: usize, so: usize): bool {
  let same = true;
  for (let c = 0; c < 4; c++) same = same && load<i32>(a + ro + (<usize>c << 4)) == load<i32>(b + ro + (<usize>c << 4));
  for (let c = 0; c < 3; c++) {
    same = same && load<i32>(a + to + (<usize>c << 4)) == load<i32>(b + to + (<usize>c << 4));
    same = same && load<i32>(a + so + (<usize>c << 4)) == load<i32>(b + so + (<usize>c << 4));
  }
  return same;
}

/** dst ← pose + a·x (+ b·y) over three planes. */
// @ts-ignore: decorator
@inline export function addPlanes(dst: usize, pose: usize, x: usize, y: usize, a: v128, b: v128, hasY: bool): void {
  for (let c = 0; c < 3; c++) {
    const k = <usize>(c << 4);
    let d = f32x4.mul(a, v128.load(x + k));
    if (hasY) d = f32x4.add(d, f32x4.mul(b, v128.load(y + k)));
    v128.store(dst + k, f32x4.add(v128.load(pose + k), d));
  }
}

// @ts-ignore: decorator
@inline export function copyPlanes(dst: usize, src: usize): void {
  v128.store(dst, v128.load(src));
  v128.store(dst, v128.load(src, 16), 16);
  v128.store(dst, v128.load(src, 32), 32);
}

// Nine float64 of one joint's difference; four float32 lanes for the rare large-angle exp.
const scratch = memory.data(72, 16);
const lanes = memory.data(32, 16);

/**
 * dst ← pose ⊕ (c0·x + c1·y) (y = 0: c0·x alone), as addPoseOffsetAt, four joints per f32x4:
 * translations and scales add, the rotation vector r turns the rotation, q ← exp(r) · q. exp by the
 * Taylor series in h² = |r|²/4 up to |r| = π with as few terms as the group's largest angle needs
 * (`expTerms`), sin and cos per lane beyond. Planes whose offset is 0 on every lane (the flags) keep the
 * pose's bits, so a zero offset returns the pose exactly: the end of an inertialization is its target,
 * bit for bit. `dst` may be `pose`.
 */
export function applyOffset(dst: usize, pose: usize, x: usize, y: usize, c0: f32, c1: f32, groups: i32): void {
  const rb = <usize>(groups << 6);
  const sb = rb + <usize>(groups * 48);
  const a = f32x4.splat(c0), b = f32x4.splat(c1);
  for (let gi = 0; gi < groups; gi++) {
    const g = <usize>gi;
    const xo = x + g * VECTOR_GROUP;
    const yo = y + g * VECTOR_GROUP;
    const moves = load<i32>(xo, 144) | (y != 0 ? load<i32>(yo, 144) : 0);
    // Translations (planes 0–2) and scales (6–8); planes whose offset is 0 everywhere keep the pose's bits.
    const to = rb + g * 48, so = sb + g * 48;
    if (moves & MOVES_T) addPlanes(dst + to, pose + to, xo, yo, a, b, y != 0);
    else if (dst != pose) copyPlanes(dst + to, pose + to);
    if (moves & MOVES_S) addPlanes(dst + so, pose + so, xo + 96, yo + 96, a, b, y != 0);
    else if (dst != pose) copyPlanes(dst + so, pose + so);
    const ro = g << 6;
    if (!(moves & MOVES_R)) {
      if (dst != pose) memory.copy(dst + ro, pose + ro, 64);
      continue;
    }
    let rx = f32x4.mul(a, v128.load(xo, 48)), ry = f32x4.mul(a, v128.load(xo, 64)), rz = f32x4.mul(a, v128.load(xo, 80));
    if (y != 0) {
      rx = f32x4.add(rx, f32x4.mul(b, v128.load(yo, 48)));
      ry = f32x4.add(ry, f32x4.mul(b, v128.load(yo, 64)));
      rz = f32x4.add(rz, f32x4.mul(b, v128.load(yo, 80)));
    }
    turn(dst + ro, pose + ro, rx, ry, rz);
  }
}

/**
 * dst ← exp(r) · q for one group of four joints (q at `q`, rotation planes), r the rotation vectors:
 * exp by the Taylor series in h² = |r|²/4 up to |r| = π with as few terms as the largest angle needs
 * (`expTerms`), sin and cos per lane beyond. Not renormalised (pose-offset.ts is, in float64): both
 * factors are unit to float32 rounding, so the product is within ~2e-7 of unit, and a lane with r = 0
 * keeps q's bits exactly (exp(0) = (0, 0, 0, 1) multiplies by ones and adds zeros).
 */
// @ts-ignore: decorator
@inline export function turn(dst: usize, q: usize, rx: v128, ry: v128, rz: v128): void {
  const qx = v128.load(q), qy = v128.load(q, 16), qz = v128.load(q, 32), qw = v128.load(q, 48);
  const a2 = f32x4.add(f32x4.add(f32x4.mul(rx, rx), f32x4.mul(ry, ry)), f32x4.mul(rz, rz));
  const h2 = f32x4.mul(a2, f32x4.splat(0.25));
  const n = expTerms(h2);
  let ew = series(h2, EXP_COS, n);
  let k = series(h2, EXP_SIN, n);
  if (v128.any_true(f32x4.gt(a2, f32x4.splat(PI2)))) {
    // Beyond a half turn the series is no good: sin and cos on those lanes.
    v128.store(lanes, k);
    v128.store(lanes, ew, 16);
    v128.store(scratch, a2);
    for (let l = 0; l < 4; l++) {
      const s2 = load<f32>(scratch + (<usize>l << 2));
      if (!(s2 > PI2)) continue;
      const angle = Math.sqrt(<f64>s2);
      store<f32>(lanes + (<usize>l << 2), <f32>(Math.sin(0.5 * angle) / angle));
      store<f32>(lanes + (<usize>l << 2), <f32>Math.cos(0.5 * angle), 16);
    }
    k = v128.load(lanes);
    ew = v128.load(lanes, 16);
  }
  const ex = f32x4.mul(rx, k), ey = f32x4.mul(ry, k), ez = f32x4.mul(rz, k);
  v128.store(dst, f32x4.sub(f32x4.add(f32x4.add(f32x4.mul(ew, qx), f32x4.mul(ex, qw)), f32x4.mul(ey, qz)), f32x4.mul(ez, qy)));
  v128.store(dst, f32x4.add(f32x4.add(f32x4.sub(f32x4.mul(ew, qy), f32x4.mul(ex, qz)), f32x4.mul(ey, qw)), f32x4.mul(ez, qx)), 16);
  v128.store(dst, f32x4.add(f32x4.sub(f32x4.add(f32x4.mul(ew, qz), f32x4.mul(ex, qy)), f32x4.mul(ey, qx)), f32x4.mul(ez, qw)), 32);
  v128.store(dst, f32x4.sub(f32x4.sub(f32x4.sub(f32x4.mul(ew, qw), f32x4.mul(ex, qx)), f32x4.mul(ey, qy)), f32x4.mul(ez, qz)), 48);
}

// Taylor coefficients in h² of cos h = Σ (−1)^i h^(2i)/(2i)! and of sin(h)/(2h) = ½·Σ (−1)^i h^(2i)/(2i + 1)!
// (exp(r) = (r·sin(h)/(2h), cos h) with h = |r|/2); eight terms each, constant first.
const EXP_COS = memory.data<f32>([
  1, <f32>(-1.0 / 2), <f32>(1.0 / 24), <f32>(-1.0 / 720), <f32>(1.0 / 40320), <f32>(-1.0 / 3628800), <f32>(1.0 / 479001600), <f32>(-1.0 / 87178291200),
]);
const EXP_SIN = memory.data<f32>([
  0.5, <f32>(-0.5 / 6), <f32>(0.5 / 120), <f32>(-0.5 / 5040), <f32>(0.5 / 362880), <f32>(-0.5 / 39916800), <f32>(0.5 / 6227020800), <f32>(-0.5 / 1307674368000),
]);

/** Σ_{i < n} c_i·h2^i over the coefficients at `c`, by Horner. */
// @ts-ignore: decorator
@inline function series(h2: v128, c: usize, n: i32): v128 {
  let s = v128.load32_splat(c + (<usize>(n - 1) << 2));
  for (let i = n - 2; i >= 0; i--) s = f32x4.add(v128.load32_splat(c + (<usize>i << 2)), f32x4.mul(h2, s));
  return s;
}

/**
 * Terms of the exp series the four lanes need: the first left out, h2^n/(2n)!, stays under 1e-8 (below
 * float32's resolution, so the sum matches pose-offset.ts's eight terms in float64): n = 3 up to
 * h2 = 0.01 (a turn of 0.2 rad), 4 to 0.1, 5 to 0.5, else 8. Most offsets are small, and the frame's
 * exp is then half the work.
 */
// @ts-ignore: decorator
@inline function expTerms(h2: v128): i32 {
  if (!v128.any_true(f32x4.gt(h2, f32x4.splat(0.01)))) return 3;
  if (!v128.any_true(f32x4.gt(h2, f32x4.splat(0.1)))) return 4;
  if (!v128.any_true(f32x4.gt(h2, f32x4.splat(0.5)))) return 5;
  return 8;
}

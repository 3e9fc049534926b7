// Inertialization and dead blending in the crowd kernel (docs/transitions.md, docs/crowd-kernel.md): the
// pose difference that captures a velocity or an offset, and the offset added to a pose every frame. The
// same formulas as src/blend/pose-offset.ts; the JS recorder (src/crowd/wasm/record-inertial.ts) decides
// when each runs and with which coefficients, exactly as src/graph/step.ts does.
//
// An offset or velocity vector (9 numbers per joint) is stored plane by plane, by groups of four joints
// as the slots are, with the planes that change least often read least: first an i32 of flags per group
// (padded to 16 bytes) — bit 0 some translation lane is not 0, bit 1 some rotation lane, bit 2 some scale
// lane — then every group's rotation vector x y z (f32x4 planes, in the parent's space), then every
// group's translation x y z, then scale x y z. Most joints of a character only rotate and many keep
// still, so the per-frame offset reads the flags and the rotation planes of the moving groups, a third
// of the vector, contiguous (and a zeroed vector, OP_ZERO, has no flags).

/** Bytes of the flags at the start of a vector of `groups` groups. */
// @ts-ignore: decorator
@inline export function flagBytes(groups: i32): usize {
  return <usize>(((groups << 2) + 15) & ~15);
}
/** Group g's rotation planes in a vector at v; its translation planes are 48·groups further, scale 96·groups. */
// @ts-ignore: decorator
@inline export function rotationAt(v: usize, g: usize, groups: i32): usize {
  return v + flagBytes(groups) + g * 48;
}
export const MOVES_T: i32 = 1, MOVES_R: i32 = 2, MOVES_S: i32 = 4;
/** π², the largest squared angle the series below takes (as pose-offset.ts). */
const PI2: f32 = <f32>(Math.PI * Math.PI);

/**
 * out ← (a ⊖ b) · inv, or ((a ⊖ b) − from) · inv when `from` is not 0 (an offset velocity: the offset
 * one step after its origin less the offset at it, as offsetVelocityAt in pose-offset.ts, with a ⊖ b's
 * rotation vector taken on the side of from's — r or r − 2π·r̂, the nearer): per joint t_a − t_b, the rotation vector of q_a · q_b⁻¹ (shortest way
 * round), s_a − s_b, as poseDifferenceAt. Four joints per f32x4. The product's vector part is taken from
 * δ = q_a − q_b (d = bw·δ − δw·b − δ × b, exact algebra since b × b = 0): a velocity compares two poses a
 * frame apart, whose quaternions agree in their leading digits, and float32 products of the full
 * quaternions would cancel those digits away (a relative error of 1e-5 on a velocity); δ's products keep
 * float32's relative precision, which puts the kernel within a few 1e-7 of the float64 JS. angle/sin by
 * atan's series in t = sin/cos below 11° (five terms, below float32 rounding), float64 atan2 beyond. Still joints
 * (the same bits in both poses) come out exactly 0; padding lanes get 0.
 */
export function poseDifference(out: usize, a: usize, b: usize, inv: f64, from: usize, groups: i32, joints: i32): void {
  const rb = <usize>(groups << 6);
  const sb = rb + <usize>(groups * 48);
  const iv = f32x4.splat(<f32>inv);
  const two = f32x4.splat(2);
  const lanes = i32x4(0, 1, 2, 3);
  const vt = <usize>(groups * 48), vs = <usize>(groups * 96);
  for (let gi = 0; gi < groups; gi++) {
    const g = <usize>gi;
    const o = rotationAt(out, g, groups);
    const f = rotationAt(from, g, groups);
    const live = i32x4.lt_s(lanes, i32x4.splat(joints - (gi << 2)));
    const to = rb + g * 48, so = sb + g * 48, ro = g << 6;
    for (let c = 0; c < 3; c++) {
      const k = <usize>(c << 4);
      let t = f32x4.sub(v128.load(a + to + k), v128.load(b + to + k));
      let s = f32x4.sub(v128.load(a + so + k), v128.load(b + so + k));
      if (from != 0) {
        t = f32x4.sub(t, v128.load(f + vt + k));
        s = f32x4.sub(s, v128.load(f + vs + k));
      }
      t = f32x4.mul(t, iv);
      s = f32x4.mul(s, iv);
      v128.store(o + vt + k, v128.and(t, live));
      v128.store(o + vs + k, v128.and(s, live));
    }
    const bx = v128.load(b + ro), by = v128.load(b + ro, 16), bz = v128.load(b + ro, 32), bw = v128.load(b + ro, 48);
    const ax = v128.load(a + ro), ay = v128.load(a + ro, 16), az = v128.load(a + ro, 32), aw = v128.load(a + ro, 48);
    if (i32x4.all_true(v128.and(v128.and(i32x4.eq(ax, bx), i32x4.eq(ay, by)), v128.and(i32x4.eq(az, bz), i32x4.eq(aw, bw))))) {
      // Four joints with the same rotation bits in both poses (joints a clip leaves still, most of a
      // character's): their difference is exactly 0, as the products below would give, without them.
      // With `from`: (0 − from) / Δt, as below (no wrap: the angle is 0).
      const z = f32x4.splat(0);
      v128.store(o, from != 0 ? v128.and(f32x4.mul(f32x4.sub(z, v128.load(f)), iv), live) : z);
      v128.store(o, from != 0 ? v128.and(f32x4.mul(f32x4.sub(z, v128.load(f, 16)), iv), live) : z, 16);
      v128.store(o, from != 0 ? v128.and(f32x4.mul(f32x4.sub(z, v128.load(f, 32)), iv), live) : z, 32);
      store<i32>(out + (g << 2), (nonZero(o + vt) ? MOVES_T : 0) | (nonZero(o) ? MOVES_R : 0) | (nonZero(o + vs) ? MOVES_S : 0));
      continue;
    }
    const ex = f32x4.sub(ax, bx), ey = f32x4.sub(ay, by), ez = f32x4.sub(az, bz), ew = f32x4.sub(aw, bw);
    let dx = f32x4.sub(f32x4.sub(f32x4.mul(bw, ex), f32x4.mul(ew, bx)), f32x4.sub(f32x4.mul(ey, bz), f32x4.mul(ez, by)));
    let dy = f32x4.sub(f32x4.sub(f32x4.mul(bw, ey), f32x4.mul(ew, by)), f32x4.sub(f32x4.mul(ez, bx), f32x4.mul(ex, bz)));
    let dz = f32x4.sub(f32x4.sub(f32x4.mul(bw, ez), f32x4.mul(ew, bz)), f32x4.sub(f32x4.mul(ex, by), f32x4.mul(ey, bx)));
    let dw = f32x4.add(f32x4.add(f32x4.mul(aw, bw), f32x4.mul(ax, bx)), f32x4.add(f32x4.mul(ay, by), f32x4.mul(az, bz)));
    const flip = v128.and(f32x4.lt(dw, f32x4.splat(0)), i32x4.splat(0x80000000));
    dx = v128.xor(dx, flip); dy = v128.xor(dy, flip); dz = v128.xor(dz, flip); dw = v128.xor(dw, flip);
    const sin = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz)));
    // angle / sin(angle / 2) = 2·atan2(sin, cos) / sin, → 2 as the angle → 0.
    const t = f32x4.div(sin, f32x4.max(dw, f32x4.splat(1e-30)));
    const t2 = f32x4.mul(t, t);
    let p = f32x4.sub(f32x4.splat(<f32>(1.0 / 7)), f32x4.mul(t2, f32x4.splat(<f32>(1.0 / 9))));
    p = f32x4.sub(f32x4.splat(<f32>(1.0 / 5)), f32x4.mul(t2, p));
    p = f32x4.sub(f32x4.splat(<f32>(1.0 / 3)), f32x4.mul(t2, p));
    p = f32x4.sub(f32x4.splat(1), f32x4.mul(t2, p));
    let k = f32x4.div(f32x4.mul(two, p), dw);
    const far = f32x4.ge(sin, f32x4.mul(dw, f32x4.splat(0.1)));
    if (v128.any_true(far)) {
      // Past 11° (an offset between two poses, rarely a velocity): atan2 in float64 on those lanes
      // (float32's atan2 would put its 1e-7 on the whole angle of a large offset), two lanes per f64x2.
      const k01 = halfAngleRatio(f64x2.promote_low_f32x4(sin), f64x2.promote_low_f32x4(dw));
      const k23 = halfAngleRatio(f64x2.promote_low_f32x4(f32x4.shuffle(sin, sin, 2, 3, 0, 1)), f64x2.promote_low_f32x4(f32x4.shuffle(dw, dw, 2, 3, 0, 1)));
      k = v128.bitselect(f32x4.shuffle(f32x4.demote_f64x2_zero(k01), f32x4.demote_f64x2_zero(k23), 0, 1, 4, 5), k, far);
    }
    let rx: v128, ry: v128, rz: v128;
    if (from == 0) {
      k = f32x4.mul(k, iv);
      rx = f32x4.mul(dx, k); ry = f32x4.mul(dy, k); rz = f32x4.mul(dz, k);
    } else {
      rx = f32x4.mul(dx, k); ry = f32x4.mul(dy, k); rz = f32x4.mul(dz, k);
      const fx = v128.load(f), fy = v128.load(f, 16), fz = v128.load(f, 32);
      // Past a quarter turn, r − 2π·r̂ may be nearer from's side (an offset near a half turn).
      const angle = f32x4.mul(k, sin);
      const wrap = f32x4.sub(f32x4.splat(1), f32x4.div(f32x4.splat(<f32>(2 * Math.PI)), f32x4.max(angle, f32x4.splat(1e-30))));
      const wx = f32x4.sub(f32x4.mul(rx, wrap), fx), wy = f32x4.sub(f32x4.mul(ry, wrap), fy), wz = f32x4.sub(f32x4.mul(rz, wrap), fz);
      const nx = f32x4.sub(rx, fx), ny = f32x4.sub(ry, fy), nz = f32x4.sub(rz, fz);
      const nearer = v128.and(f32x4.gt(angle, f32x4.splat(<f32>(0.5 * Math.PI))), f32x4.lt(
        f32x4.add(f32x4.add(f32x4.mul(wx, wx), f32x4.mul(wy, wy)), f32x4.mul(wz, wz)),
        f32x4.add(f32x4.add(f32x4.mul(nx, nx), f32x4.mul(ny, ny)), f32x4.mul(nz, nz))));
      rx = f32x4.mul(v128.bitselect(wx, nx, nearer), iv);
      ry = f32x4.mul(v128.bitselect(wy, ny, nearer), iv);
      rz = f32x4.mul(v128.bitselect(wz, nz, nearer), iv);
    }
    v128.store(o, v128.and(rx, live));
    v128.store(o, v128.and(ry, live), 16);
    v128.store(o, v128.and(rz, live), 32);
    store<i32>(out + (g << 2), (nonZero(o + vt) ? MOVES_T : 0) | (nonZero(o) ? MOVES_R : 0) | (nonZero(o + vs) ? MOVES_S : 0));
  }
}

/**
 * 2·atan2(s, c)/s on two float64 lanes, for s ≥ 0 and c ≥ 0 (a half angle's sine and cosine, the
 * cosine made non-negative): the ratio over the smaller, then atan t = π/4 + atan((t − 1)/(t + 1))
 * above tan(π/8), which leaves |t| ≤ 0.4143 for twelve terms of atan's series (truncation below 2e-10
 * of the angle, far under float32's 6e-8, so the float32 result is Math.atan2's but at the rounding
 * boundary). Replaced a Math.atan2 call per lane: 0.8 → 0.5 µs per large-angle DIFFERENCE in cache.
 */
// @ts-ignore: decorator
@inline function halfAngleRatio(s: v128, c: v128): v128 {
  const one = f64x2.splat(1);
  const swap = f64x2.gt(s, c);
  const num = v128.bitselect(c, s, swap), den = v128.bitselect(s, c, swap);
  let t = f64x2.div(num, f64x2.max(den, f64x2.splat(1e-300)));
  const high = f64x2.gt(t, f64x2.splat(0.41421356237309503));
  t = v128.bitselect(f64x2.div(f64x2.sub(t, one), f64x2.add(t, one)), t, high);
  const t2 = f64x2.mul(t, t);
  let p = f64x2.splat(1.0 / 23);
  p = f64x2.sub(f64x2.splat(1.0 / 21), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 19), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 17), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 15), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 13), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 11), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 9), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 7), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 5), f64x2.mul(t2, p));
  p = f64x2.sub(f64x2.splat(1.0 / 3), f64x2.mul(t2, p));
  p = f64x2.sub(one, f64x2.mul(t2, p));
  let r = f64x2.add(f64x2.mul(t, p), v128.and(f64x2.splat(Math.PI / 4), high));
  r = v128.bitselect(f64x2.sub(f64x2.splat(Math.PI / 2), r), r, swap);
  return f64x2.div(f64x2.add(r, r), s);
}

/** atan2(y, x) on four lanes for y ≥ 0 (so in [0, π]); within 1e-7 of Math.atan2. */
// @ts-ignore: decorator
@inline export function atan2Upper(y: v128, x: v128): v128 {
  const ax = f32x4.abs(x);
  const swap = f32x4.gt(y, ax);
  const num = v128.bitselect(ax, y, swap), den = v128.bitselect(y, ax, swap);
  let a = f32x4.div(num, f32x4.max(den, f32x4.splat(1e-30))); // [0, 1]
  // atan a = π/4 + atan((a − 1)/(a + 1)) above tan(π/8), leaving |t| ≤ 0.4143 for the series.
  const high = f32x4.gt(a, f32x4.splat(0.41421356));
  a = v128.bitselect(f32x4.div(f32x4.sub(a, f32x4.splat(1)), f32x4.add(a, f32x4.splat(1))), a, high);
  const a2 = f32x4.mul(a, a);
  let p = f32x4.splat(<f32>(1.0 / 17));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 15)), f32x4.mul(a2, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 13)), f32x4.mul(a2, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 11)), f32x4.mul(a2, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 9)), f32x4.mul(a2, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 7)), f32x4.mul(a2, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 5)), f32x4.mul(a2, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 3)), f32x4.mul(a2, p));
  p = f32x4.sub(f32x4.splat(1), f32x4.mul(a2, p));
  let r = f32x4.add(f32x4.mul(a, p), v128.and(f32x4.splat(<f32>(Math.PI / 4)), high));
  r = v128.bitselect(f32x4.sub(f32x4.splat(<f32>(Math.PI / 2)), r), r, swap);
  return v128.bitselect(f32x4.sub(f32x4.splat(<f32>Math.PI), r), r, f32x4.lt(x, f32x4.splat(0)));
}

/** Whether any lane of the three planes at `p` is not 0 (NaN counts). */
// @ts-ignore: decorator
@inline function nonZero(p: usize): bool {
  const z = f32x4.splat(0);
  return v128.any_true(v128.or(v128.or(f32x4.ne(v128.load(p), z), f32x4.ne(v128.load(p, 16), z)), f32x4.ne(v128.load(p, 32), z)));
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

// Four float32 lanes for the rare large-angle exp.
const scratch = memory.data(16, 16);
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
  const vt = <usize>(groups * 48), vs = <usize>(groups * 96);
  for (let gi = 0; gi < groups; gi++) {
    const g = <usize>gi;
    const xo = rotationAt(x, g, groups);
    const yo = rotationAt(y, g, groups);
    const moves = load<i32>(x + (g << 2)) | (y != 0 ? load<i32>(y + (g << 2)) : 0);
    // Translations and scales; planes whose offset is 0 everywhere keep the pose's bits.
    const to = rb + g * 48, so = sb + g * 48;
    if (moves & MOVES_T) addPlanes(dst + to, pose + to, xo + vt, yo + vt, a, b, y != 0);
    else if (dst != pose) copyPlanes(dst + to, pose + to);
    if (moves & MOVES_S) addPlanes(dst + so, pose + so, xo + vs, yo + vs, a, b, y != 0);
    else if (dst != pose) copyPlanes(dst + so, pose + so);
    const ro = g << 6;
    if (!(moves & MOVES_R)) {
      if (dst != pose) memory.copy(dst + ro, pose + ro, 64);
      continue;
    }
    let rx = f32x4.mul(a, v128.load(xo)), ry = f32x4.mul(a, v128.load(xo, 16)), rz = f32x4.mul(a, v128.load(xo, 32));
    if (y != 0) {
      rx = f32x4.add(rx, f32x4.mul(b, v128.load(yo)));
      ry = f32x4.add(ry, f32x4.mul(b, v128.load(yo, 16)));
      rz = f32x4.add(rz, f32x4.mul(b, v128.load(yo, 32)));
    }
    turn(dst + ro, pose + ro, rx, ry, rz);
  }
}

/**
 * The per-frame offset, packed (OP_PACK_OFFSET, once per transition, after its offset velocity): the
 * planes of x and y that applyOffset would read — per group, translation, scale and rotation planes
 * whose flags say they move in x or y — copied into one compact record, each kind of a group as one
 * 96-byte entry (x's three planes, then y's). Records lie contiguous across the crowd (one per
 * character and inertializing machine), so a frame's OFFSETs stream one short run of memory per
 * character instead of reading two 1.6 kB vectors at scattered places (docs/crowd-kernel.md).
 * Record: i32 entry count (−1: too many to pack, read x and y themselves), x, y, capacity; then one i32
 * per entry (group · 8 + kind bit), padded to 16 bytes; then the entries.
 */
export function packOffset(record: usize, x: usize, y: usize, groups: i32): void {
  const cap = load<i32>(record, 12);
  const vt = <usize>(groups * 48), vs = <usize>(groups * 96);
  let e = record + packedHeaderBytes(cap);
  let n = 0;
  store<i32>(record, x, 4);
  store<i32>(record, y, 8);
  for (let gi = 0; gi < groups; gi++) {
    const g = <usize>gi;
    const moves = load<i32>(x + (g << 2)) | load<i32>(y + (g << 2));
    if (moves == 0) continue;
    const xo = rotationAt(x, g, groups), yo = rotationAt(y, g, groups);
    for (let bit = 1; bit <= 4; bit <<= 1) {
      if (!(moves & bit)) continue;
      if (n == cap) {
        store<i32>(record, -1);
        return;
      }
      const k: usize = bit == MOVES_T ? vt : bit == MOVES_S ? vs : 0;
      store<i32>(record + 16 + (<usize>n << 2), (gi << 3) | bit);
      copyPlanes(e, xo + k);
      copyPlanes(e + 48, yo + k);
      e += 96;
      n++;
    }
  }
  store<i32>(record, n);
}

/** Bytes of a packed record's header for `cap` entries. */
// @ts-ignore: decorator
@inline export function packedHeaderBytes(cap: i32): usize {
  return <usize>((16 + (cap << 2) + 15) & ~15);
}

/**
 * applyOffset(dst, pose, x, y, c0, c1) from the packed record (packOffset): the same operations on
 * the same planes, so the same bits. `dst` may be `pose`; when it is not, the pose is copied first and
 * the entries applied in place.
 */
export function applyPackedOffset(dst: usize, pose: usize, record: usize, c0: f32, c1: f32, groups: i32): void {
  const n = load<i32>(record);
  if (n < 0) {
    applyOffset(dst, pose, <usize>load<i32>(record, 4), <usize>load<i32>(record, 8), c0, c1, groups);
    return;
  }
  if (dst != pose) memory.copy(dst, pose, <usize>(groups * 160));
  const a = f32x4.splat(c0), b = f32x4.splat(c1);
  const rb = <usize>(groups << 6);
  const sb = rb + <usize>(groups * 48);
  let e = record + packedHeaderBytes(load<i32>(record, 12));
  for (let i = 0; i < n; i++, e += 96) {
    const d = load<i32>(record + 16 + (<usize>i << 2));
    const g = <usize>(d >> 3), bit = d & 7;
    if (bit == MOVES_R) {
      let rx = f32x4.mul(a, v128.load(e)), ry = f32x4.mul(a, v128.load(e, 16)), rz = f32x4.mul(a, v128.load(e, 32));
      rx = f32x4.add(rx, f32x4.mul(b, v128.load(e, 48)));
      ry = f32x4.add(ry, f32x4.mul(b, v128.load(e, 64)));
      rz = f32x4.add(rz, f32x4.mul(b, v128.load(e, 80)));
      turn(dst + (g << 6), dst + (g << 6), rx, ry, rz);
    } else {
      const at = dst + (bit == MOVES_T ? rb : sb) + g * 48;
      addPlanes(at, at, e, e + 48, a, b, true);
    }
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

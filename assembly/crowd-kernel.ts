// The crowd's WebAssembly SIMD kernel (AssemblyScript). It runs a command list that the JS side
// (src/crowd/wasm/record-pose.ts) records by walking each character's graph state: sample a packed
// clip, crossfade two poses, apply a layer, load a pose written by JS, write the local pose and its
// model-space matrices. All memory is laid out by the JS side (src/crowd/wasm/wasm-crowd.ts); this
// module owns no allocator and never grows memory.
//
// Poses ("slots") and packed clip keys share one layout, structure-of-arrays by groups of four joints
// so one f32x4 holds one component of four joints: for G = ceil(J / 4) groups,
//   rotations    [G][x, y, z, w][4 lanes]  (64·G bytes)
//   translations [G][x, y, z][4 lanes]     (48·G bytes)
//   scales       [G][x, y, z][4 lanes]     (48·G bytes)
// 160·G bytes in all. Padding lanes hold the identity so normalising never divides by zero.
//
// Command records are 32 bytes: i32 op, a, b, c, d, e, then f64 x at byte 24.

import { deadBlendFar, deadBlendSide, deadBlendVectors, extrapolate, resetDirections } from "./dead-blend";
import { applyOffset, applyPackedOffset, packOffset, poseDifference } from "./inertial";

const OP_END: i32 = 0;
const OP_SAMPLE: i32 = 1; // a = dst slot, b = clip header, c = rotation mode, x = time
const OP_BLEND: i32 = 2; // a = dst, b = from, c = to, d = rotation mode, e = 1: from (= dst) and to have unit scales, x = weight of `to`
const OP_COPY: i32 = 3; // a = dst, b = src
const OP_LAYER: i32 = 4; // a = base/dst, b = layer slot, c = mask (0: none), d = layer mode, x = weight
const OP_LOAD: i32 = 5; // a = dst slot, b = AoS pose (t 3J, r 4J, s 3J float32)
const OP_OUTPUT: i32 = 6; // a = src slot, b = AoS local pose out (0: skip), c = model matrices out, d = root matrix (0: none)
const OP_SKELETON: i32 = 7; // a = joint count, b = parents (i32 × J)
const OP_STRIP: i32 = 8; // a = slot, b = root-motion block
// Inertialize / deadBlend (assembly/inertial.ts). Offsets and velocities: 9 f32x4 planes per group.
const OP_DIFFERENCE: i32 = 9; // a = out vector, b = pose a, c = pose b, d = vector subtracted from the difference (0: none), x = 1 / seconds
const OP_OFFSET: i32 = 10; // a = dst slot, b = pose slot, c = offset x, d = offset y (0: none), e = c1 (f32 bits), x = c0
const OP_ZERO: i32 = 11; // a = address, b = bytes
// deadBlend (assembly/dead-blend.ts).
const OP_EXTRAPOLATE: i32 = 12; // a = dst slot, b = source slot, c = velocity vector, d = k(τ) at the base rate (f32 bits), e = base rate (f32 bits), x = seconds since the source
const OP_DEAD_BLEND: i32 = 13; // a = target/dst slot, b = extrapolated slot, c = blend directions, x = weight
const OP_RESET_DIRECTIONS: i32 = 14; // a = blend directions
// SAMPLE fused with the LAYER that consumes it (record-pose.ts records it where the layer's pose is one
// sample): each group of four joints is sampled into a 160-byte scratch (or read from the key itself)
// and layered from there, so the layer pose is never written out and read back (same bits; fusing a
// blend operand's SAMPLE with its BLEND the same way measured 5-7 % slower, so that pair stays apart).
const OP_SAMPLE_LAYER: i32 = 15; // a = base/dst, b = clip header, c = mask, d = layer mode | sample rotation mode << 1 | layer rotation mode << 3 | (weight == 1) << 5, e = weight (f32 bits), x = time
// The per-frame offset from a compact record (assembly/inertial.ts, packOffset).
const OP_PACK_OFFSET: i32 = 16; // a = record, b = offset x, c = offset y
const OP_PACKED_OFFSET: i32 = 17; // a = dst slot, b = pose slot, c = record, e = c1 (f32 bits), x = c0

// Rotation modes (the graph's quatMode): 0 nlerp, 1 slerp (Eberly's polynomial, within 2e-7 of exact);
// 2 slerp along the arc the caller chose (no shortest-arc flip; the dead blend's kept side).
const ROT_NLERP: i32 = 0;
const ROT_SLERP_AS_GIVEN: i32 = 2;
// Layer modes: 0 override, 1 additive.
const LAYER_ADDITIVE: i32 = 1;

let jointCount: i32 = 0;
let groups: i32 = 0;
let parentsPtr: usize = 0;

// @ts-ignore: decorator
@inline function rotBytes(): i32 { return groups << 6; }
// @ts-ignore: decorator
@inline function slotBytes(): i32 { return groups * 160; }

// ---------------------------------------------------------------------------------------------------
// Quaternion helpers on four lanes. Each reads its inputs before writing, so out may alias an input.

// Eberly, "A Fast and Accurate Algorithm for Computing SLERP": sin(tA)/sin A as a degree-8
// polynomial in y = 1 − cos A, with the last term scaled by 1 + μ8; exact enough for A ≤ π/4, which the
// half-angle split below guarantees. Same constants as src/math/quat.ts's quatSlerpFast.
// Eberly's coefficient pairs (b_i, a_i) for i = 1..8, term_i = term_{i-1}·(b_i − a_i·t²)·y with
// b_i = i/(2i + 1), a_i = 1/(i(2i + 1)); the last pair of the degree-8 fit is scaled by 1 + μ8.
const EBERLY = memory.data<f32>([
  <f32>(1.0 / 3.0), <f32>(1.0 / 3.0), <f32>(2.0 / 5.0), <f32>(1.0 / 10.0), <f32>(3.0 / 7.0), <f32>(1.0 / 21.0),
  <f32>(4.0 / 9.0), <f32>(1.0 / 36.0), <f32>(5.0 / 11.0), <f32>(1.0 / 55.0), <f32>(6.0 / 13.0), <f32>(1.0 / 78.0),
  <f32>(7.0 / 15.0), <f32>(1.0 / 105.0), <f32>(8.0 / 17.0), <f32>(1.0 / 136.0),
  <f32>(8.0 * 1.9011074535173003 / 17.0), <f32>(1.9011074535173003 / 136.0),
]);

/**
 * sin(tA)/sin A ≈ Σ_{i ≤ n} term_i. With `fitted`, the degree-8 fit (last term scaled by 1 + μ8, for
 * A ≤ π/4); otherwise the plain series truncated after n terms, whose error is at most
 * (y/2)^(n+1)/(1 − y/2) because every factor (i² − t²)/(i(2i + 1)) is below ½.
 */
// @ts-ignore: decorator
@inline function coefficient(t: v128, y: v128, n: i32, fitted: bool): v128 {
  const tt = f32x4.mul(t, t);
  let term = t;
  let sum = t;
  for (let i = 0; i < n; i++) {
    const k = EBERLY + (<usize>(fitted && i == 7 ? 8 : i) << 3);
    term = f32x4.mul(term, f32x4.mul(f32x4.sub(v128.load32_splat(k), f32x4.mul(v128.load32_splat(k, 4), tt)), y));
    sum = f32x4.add(sum, term);
  }
  return sum;
}

const SIGN: v128 = i32x4.splat(0x80000000);

/**
 * Largest y = 1 − cos A for which the plain series with n terms (n = 1 … 6) keeps its truncation bound
 * (y/2)^(n+1)/(1 − y/2) under 2⁻²⁶ (a quarter of float32's unit roundoff); the same bound as
 * src/crowd/wasm/pack-clip.ts's seriesDegree, rounded down to float32.
 */
const SERIES_LIMIT = memory.data<f32>([
  <f32>0.000244125724, <f32>0.00491752941, <f32>0.0220359657, <f32>0.0541117489, <f32>0.0983819738, <f32>0.150681108,
]);

/**
 * Fewest series terms whose bound holds on all four lanes' y, or 0 when one lane needs more than six
 * (the caller then takes the half-angle fit). Chosen per group of four joints at run time: in a
 * crossfade or a clip most groups turn little between the two poses (static joints not at all), and
 * one badly turning joint elsewhere no longer makes every group pay for the degree-8 fit.
 */
// @ts-ignore: decorator
@inline function seriesTerms(y: v128): i32 {
  for (let n = 0; n < 6; n++) {
    if (!v128.any_true(f32x4.gt(y, v128.load32_splat(SERIES_LIMIT + (<usize>n << 2))))) return n + 1;
  }
  return 0;
}

/** The series limit for n terms (1 … 6), for the tests. */
export function seriesLimit(n: i32): f32 {
  return load<f32>(SERIES_LIMIT + (<usize>(n - 1) << 2));
}

/**
 * out = shortest-arc interpolation of quaternions a → b (four joints) with per-lane weight t:
 * nlerp, or slerp — by the plain series when every lane's angle is small enough for at most six
 * terms (`seriesTerms`), else on the half of the arc that contains t, with the degree-8 fit. When
 * a and b are the same bits on all four lanes (joints the clip or both poses leave still), out = a.
 * Inlined at each use: the mode is then a constant or hoisted, and the call's v128 argument and
 * pointer spills go (about 5 % off a synthetic-64 crowd frame in the kernel; a larger module).
 */
// @ts-ignore: decorator
@inline function interpolateRotation(out: usize, a: usize, b: usize, t: v128, mode: i32): void {
  const ax = v128.load(a), ay = v128.load(a, 16), az = v128.load(a, 32), aw = v128.load(a, 48);
  let bx = v128.load(b), by = v128.load(b, 16), bz = v128.load(b, 32), bw = v128.load(b, 48);
  if (i32x4.all_true(v128.and(v128.and(i32x4.eq(ax, bx), i32x4.eq(ay, by)), v128.and(i32x4.eq(az, bz), i32x4.eq(aw, bw))))) {
    // Stored from the registers: memory.copy would call out of the module for 64 bytes, and still
    // groups are most of a character clip's (1.1× on RobotExpressive's SAMPLE commands).
    if (out != a) {
      v128.store(out, ax); v128.store(out, ay, 16); v128.store(out, az, 32); v128.store(out, aw, 48);
    }
    return;
  }
  const d = f32x4.add(f32x4.add(f32x4.mul(ax, bx), f32x4.mul(ay, by)), f32x4.add(f32x4.mul(az, bz), f32x4.mul(aw, bw)));
  const flip = mode == ROT_SLERP_AS_GIVEN ? i32x4.splat(0) : v128.and(f32x4.lt(d, f32x4.splat(0)), SIGN);
  bx = v128.xor(bx, flip); by = v128.xor(by, flip); bz = v128.xor(bz, flip); bw = v128.xor(bw, flip);
  if (mode == ROT_NLERP) {
    const s = f32x4.sub(f32x4.splat(1), t);
    const x = f32x4.add(f32x4.mul(s, ax), f32x4.mul(t, bx));
    const y = f32x4.add(f32x4.mul(s, ay), f32x4.mul(t, by));
    const z = f32x4.add(f32x4.mul(s, az), f32x4.mul(t, bz));
    const w = f32x4.add(f32x4.mul(s, aw), f32x4.mul(t, bw));
    const inv = f32x4.div(f32x4.splat(1), f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(x, x), f32x4.mul(y, y)), f32x4.add(f32x4.mul(z, z), f32x4.mul(w, w)))));
    v128.store(out, f32x4.mul(x, inv));
    v128.store(out, f32x4.mul(y, inv), 16);
    v128.store(out, f32x4.mul(z, inv), 32);
    v128.store(out, f32x4.mul(w, inv), 48);
    return;
  }
  const cosA = f32x4.min(v128.xor(d, flip), f32x4.splat(1)); // |d|, at most 1
  let px = ax, py = ay, pz = az, pw = aw, qx = bx, qy = by, qz = bz, qw = bw, u = t;
  let y = f32x4.sub(f32x4.splat(1), cosA);
  const degree = seriesTerms(y);
  if (degree == 0) {
    // Midpoint h = (a + b)/|a + b|; slerp from a to h or from h to b, at twice the rate.
    const sx = f32x4.add(ax, bx), sy = f32x4.add(ay, by), sz = f32x4.add(az, bz), sw = f32x4.add(aw, bw);
    const inv = f32x4.div(f32x4.splat(1), f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(sx, sx), f32x4.mul(sy, sy)), f32x4.add(f32x4.mul(sz, sz), f32x4.mul(sw, sw)))));
    const hx = f32x4.mul(sx, inv), hy = f32x4.mul(sy, inv), hz = f32x4.mul(sz, inv), hw = f32x4.mul(sw, inv);
    y = f32x4.sub(f32x4.splat(1), f32x4.sqrt(f32x4.mul(f32x4.add(f32x4.splat(1), cosA), f32x4.splat(0.5))));
    const upper = f32x4.gt(t, f32x4.splat(0.5));
    px = v128.bitselect(hx, ax, upper); py = v128.bitselect(hy, ay, upper); pz = v128.bitselect(hz, az, upper); pw = v128.bitselect(hw, aw, upper);
    qx = v128.bitselect(bx, hx, upper); qy = v128.bitselect(by, hy, upper); qz = v128.bitselect(bz, hz, upper); qw = v128.bitselect(bw, hw, upper);
    const t2 = f32x4.add(t, t);
    u = v128.bitselect(f32x4.sub(t2, f32x4.splat(1)), t2, upper);
  }
  const fitted = degree == 0;
  const k0 = coefficient(f32x4.sub(f32x4.splat(1), u), y, fitted ? 8 : degree, fitted);
  const k1 = coefficient(u, y, fitted ? 8 : degree, fitted);
  v128.store(out, f32x4.add(f32x4.mul(k0, px), f32x4.mul(k1, qx)));
  v128.store(out, f32x4.add(f32x4.mul(k0, py), f32x4.mul(k1, qy)), 16);
  v128.store(out, f32x4.add(f32x4.mul(k0, pz), f32x4.mul(k1, qz)), 32);
  v128.store(out, f32x4.add(f32x4.mul(k0, pw), f32x4.mul(k1, qw)), 48);
}

/** out[i] = (1 − t)·a[i] + t·b[i] for `count` f32x4 vectors. */
// @ts-ignore: decorator
@inline function lerpVectors(out: usize, a: usize, b: usize, t: v128, count: i32): void {
  const s = f32x4.sub(f32x4.splat(1), t);
  for (let i = 0; i < count; i++) {
    const o = <usize>(i << 4);
    v128.store(out + o, f32x4.add(f32x4.mul(s, v128.load(a + o)), f32x4.mul(t, v128.load(b + o))));
  }
}

function copyBytes(dst: usize, src: usize, bytes: i32): void {
  if (dst != src) memory.copy(dst, src, <usize>bytes);
}

// ---------------------------------------------------------------------------------------------------
// Commands

/**
 * Clip header (32 bytes): i32 key count n, i32 times pointer (f32 × n, ascending), i32 key data
 * pointer (n keys of 160·G bytes in the slot layout), i32 the clip's worst-case series degree (read by
 * the tests and tools; the kernel picks the degree per group of four joints and key segment at run
 * time, see `seriesTerms`), i32 vector-flags pointer (i32 × G: bit 0, the group's translations differ
 * between keys; bit 1, its scales do; still planes are copied from the key, not interpolated; bit 2, its
 * scales are exactly 1 in every key), i32 1 when every group's scales are exactly 1 in every key.
 * Semantics of src/clip/sample-track.ts for LINEAR keys: held before the first and after the last key,
 * a key's own value at its time.
 */
function sample(dst: usize, clip: usize, time: f64, mode: i32): void {
  const bytes = slotBytes();
  if (!locate(clip, time)) {
    copyBytes(dst, keyAt, bytes);
    return;
  }
  const k0 = keyAt;
  const t = f32x4.splat(keyWeight);
  const k1 = k0 + <usize>bytes;
  const rb = <usize>rotBytes();
  const sb = <usize>(groups * 48);
  const flags = <usize>load<i32>(clip, 16);
  for (let g = 0; g < groups; g++) {
    const o = <usize>(g << 6);
    interpolateRotation(dst + o, k0 + o, k1 + o, t, mode);
    const moves = load<i32>(flags + (<usize>g << 2));
    const to = rb + <usize>(g * 48);
    if (moves & 1) lerpVectors(dst + to, k0 + to, k1 + to, t, 3);
    else copyPlanes(dst + to, k0 + to);
    const so = to + sb;
    if (moves & 2) lerpVectors(dst + so, k0 + so, k1 + so, t, 3);
    else copyPlanes(dst + so, k0 + so);
  }
}

// What `locate` found: the key to copy, or the first of the two keys to interpolate and the weight of
// the second.
let keyAt: usize = 0;
let keyWeight: f32 = 0;

/**
 * Finds `clip`'s keys at `time`: returns false when the pose is one key's (held before the first key and
 * after the last, a key's own time; `keyAt`), true when it lies between keyAt and the next key, at
 * weight `keyWeight` of the next.
 */
function locate(clip: usize, time: f64): bool {
  const n = load<i32>(clip);
  const times = <usize>load<i32>(clip, 4);
  const data = <usize>load<i32>(clip, 8);
  const bytes = slotBytes();
  if (n == 1 || !(time > <f64>load<f32>(times))) {
    keyAt = data;
    return false;
  }
  if (time >= <f64>load<f32>(times + ((<usize>(n - 1)) << 2))) {
    keyAt = data + <usize>((n - 1) * bytes);
    return false;
  }
  // Largest k with times[k] ≤ time (times[0] < time < times[n − 1] here).
  let lo = 0, hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (<f64>load<f32>(times + (<usize>mid << 2)) <= time) lo = mid;
    else hi = mid;
  }
  const tk = <f64>load<f32>(times + (<usize>lo << 2));
  keyAt = data + <usize>(lo * bytes);
  if (time == tk) return false;
  keyWeight = <f32>((time - tk) / (<f64>load<f32>(times + (<usize>(lo + 1) << 2)) - tk));
  return true;
}

// One group of a sampled pose for the fused commands: rotation planes at 0, translation at 64, scale at
// 112; and where each part of the group being sampled is (the scratch, or a key's own planes).
const sampled = memory.data(160, 16);
let sampledR: usize = 0;
let sampledT: usize = 0;
let sampledS: usize = 0;

/**
 * Group g of `clip`'s pose at the time `locate` was last called with (its result `between`): points
 * sampledR/T/S at the key's planes for a key's pose and for still planes, else interpolates into
 * `sampled`, with exactly `sample`'s arithmetic.
 */
// @ts-ignore: decorator
@inline function sampleGroup(clip: usize, g: i32, between: bool, t: v128, mode: i32): void {
  const k0 = keyAt;
  const o = <usize>(g << 6);
  const to = <usize>rotBytes() + <usize>(g * 48);
  const so = to + <usize>(groups * 48);
  if (!between) {
    sampledR = k0 + o; sampledT = k0 + to; sampledS = k0 + so;
    return;
  }
  const k1 = k0 + <usize>slotBytes();
  interpolateRotation(sampled, k0 + o, k1 + o, t, mode);
  sampledR = sampled;
  const moves = load<i32>(<usize>load<i32>(clip, 16) + (<usize>g << 2));
  if (moves & 1) {
    lerpVectors(sampled + 64, k0 + to, k1 + to, t, 3);
    sampledT = sampled + 64;
  } else sampledT = k0 + to;
  if (moves & 2) {
    lerpVectors(sampled + 112, k0 + so, k1 + so, t, 3);
    sampledS = sampled + 112;
  } else sampledS = k0 + so;
}

/** layer(base, clip at `time`, …): SAMPLE into a slot and LAYER, fused. */
function sampleLayer(base: usize, clip: usize, time: f64, mask: usize, modes: i32, weight: f32): void {
  const between = locate(clip, time);
  const tk = f32x4.splat(keyWeight);
  const sampleMode = (modes >> 1) & 3;
  const unitScales = load<i32>(clip, 20) == 1;
  for (let g = 0; g < groups; g++) {
    sampleGroup(clip, g, between, tk, sampleMode);
    layerGroup(base, g, sampledR, sampledT, sampledS, mask, weight, (modes & 32) != 0, modes & 1, (modes >> 3) & 3, unitScales);
  }
}

/** Copies three f32x4 planes (one group's x, y, z): inline, where memory.copy would call out. */
// @ts-ignore: decorator
@inline function copyPlanes(dst: usize, src: usize): void {
  v128.store(dst, v128.load(src));
  v128.store(dst, v128.load(src, 16), 16);
  v128.store(dst, v128.load(src, 32), 32);
}

/**
 * dst = crossfade(from, to, w): w ≤ 0 copies `from`, w ≥ 1 copies `to` (as src/blend/crossfade.ts).
 * With `unitScales` (the recorder knows both poses were sampled from clips whose scales are all exactly
 * 1) and dst = from, the scales are left as they are: (1 − t)·1 + t·1 rounds to exactly 1 in float32 for
 * every t in [0, 1], so the lerp would write the same bits.
 */
function blend(dst: usize, from: usize, to: usize, w: f64, mode: i32, unitScales: bool): void {
  const bytes = slotBytes();
  if (!(w > 0)) {
    copyBytes(dst, from, bytes);
    return;
  }
  if (w >= 1) {
    copyBytes(dst, to, bytes);
    return;
  }
  const t = f32x4.splat(<f32>w);
  for (let g = 0; g < groups; g++) {
    const o = <usize>(g << 6);
    interpolateRotation(dst + o, from + o, to + o, t, mode);
  }
  const rb = <usize>rotBytes();
  lerpVectors(dst + rb, from + rb, to + rb, t, unitScales && dst == from ? groups * 3 : groups * 6);
}

/** Hamilton product of four quaternion pairs, stored at out (x, y, z, w planes). */
// @ts-ignore: decorator
@inline function storeProduct(out: usize, ax: v128, ay: v128, az: v128, aw: v128, bx: v128, by: v128, bz: v128, bw: v128): void {
  v128.store(out, f32x4.add(f32x4.add(f32x4.mul(aw, bx), f32x4.mul(ax, bw)), f32x4.sub(f32x4.mul(ay, bz), f32x4.mul(az, by))));
  v128.store(out, f32x4.add(f32x4.add(f32x4.mul(aw, by), f32x4.mul(ay, bw)), f32x4.sub(f32x4.mul(az, bx), f32x4.mul(ax, bz))), 16);
  v128.store(out, f32x4.add(f32x4.add(f32x4.mul(aw, bz), f32x4.mul(az, bw)), f32x4.sub(f32x4.mul(ax, by), f32x4.mul(ay, bx))), 32);
  v128.store(out, f32x4.sub(f32x4.sub(f32x4.mul(aw, bw), f32x4.mul(ax, bx)), f32x4.add(f32x4.mul(ay, by), f32x4.mul(az, bz))), 48);
}

// Scratch for one group's partial additive rotation, and the identity quaternion planes.
const scratch = memory.data(64, 16);
const identity = memory.data<f32>([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1], 16);

/**
 * Applies a layer onto `base` in place with per-joint weight w_j = weight · mask[j] (mask: f32 × 4G,
 * 0 = every joint 1), as src/blend/apply-layer.ts and apply-additive.ts:
 * override: lerp / shortest-arc rotation by w_j, w_j ≥ 1 takes the layer, w_j ≤ 0 (or NaN) keeps base;
 * additive: t + w·t_add, q · slerp(identity, q_add, w) (w = 1: q · q_add), s · (1 + w·(s_add − 1)),
 * w_j = 0 (or NaN) keeps base. `weight` is the command's float64 weight rounded to float32, and
 * `weightIsOne` whether the float64 was exactly 1 (the plain q · q_add path).
 */
function layer(base: usize, src: usize, mask: usize, weight: f32, weightIsOne: bool, layerMode: i32, rotMode: i32): void {
  const rb = <usize>rotBytes();
  const tb = <usize>(groups * 48);
  for (let g = 0; g < groups; g++) {
    const to = rb + <usize>(g * 48);
    layerGroup(base, g, src + (<usize>g << 6), src + to, src + to + tb, mask, weight, weightIsOne, layerMode, rotMode, false);
  }
}

/**
 * `layer` on group g, the layer's planes at srcR (rotations), srcT (translations), srcS (scales).
 * `unitScales`: the layer's scales are exactly 1, so a full additive layer (s · 1 = s) leaves the base's.
 */
// @ts-ignore: decorator
@inline function layerGroup(base: usize, g: i32, srcR: usize, srcT: usize, srcS: usize, mask: usize, weight: f32, weightIsOne: bool, layerMode: i32, rotMode: i32, unitScales: bool): void {
  const rb = <usize>rotBytes();
  const tb = <usize>(groups * 48);
  const wSplat = f32x4.splat(weight);
  const one = f32x4.splat(1);
  const zero = f32x4.splat(0);
  const additive = layerMode == LAYER_ADDITIVE;
  const w = mask != 0 ? f32x4.mul(wSplat, v128.load(mask + (<usize>g << 4))) : wSplat;
  const ro = <usize>(g << 6);
  const vo = <usize>(g * 48);
  if (additive && mask == 0 && weightIsOne) {
    const bx = v128.load(base + ro), by = v128.load(base + ro, 16), bz = v128.load(base + ro, 32), bw = v128.load(base + ro, 48);
    storeProduct(base + ro, bx, by, bz, bw, v128.load(srcR), v128.load(srcR, 16), v128.load(srcR, 32), v128.load(srcR, 48));
    for (let c = 0; c < 3; c++) {
      const to = rb + vo + <usize>(c << 4);
      const co = <usize>(c << 4);
      v128.store(base + to, f32x4.add(v128.load(base + to), v128.load(srcT + co)));
    }
    if (unitScales) return;
    for (let c = 0; c < 3; c++) {
      const so = rb + vo + <usize>(c << 4) + tb;
      v128.store(base + so, f32x4.mul(v128.load(base + so), v128.load(srcS + <usize>(c << 4))));
    }
    return;
  }
  if (additive) {
    const keep = v128.or(f32x4.eq(w, zero), f32x4.ne(w, w));
    const bx = v128.load(base + ro), by = v128.load(base + ro, 16), bz = v128.load(base + ro, 32), bw = v128.load(base + ro, 48);
    // slerp(identity, q_add, w); lanes with w = 1 take q_add itself (bit-exact q·q_add there).
    interpolateRotation(scratch, identity, srcR, w, rotMode);
    const exact = f32x4.eq(w, one);
    const qx = v128.bitselect(v128.load(srcR), v128.load(scratch), exact);
    const qy = v128.bitselect(v128.load(srcR, 16), v128.load(scratch, 16), exact);
    const qz = v128.bitselect(v128.load(srcR, 32), v128.load(scratch, 32), exact);
    const qw = v128.bitselect(v128.load(srcR, 48), v128.load(scratch, 48), exact);
    storeProduct(scratch, bx, by, bz, bw, qx, qy, qz, qw);
    v128.store(base + ro, v128.bitselect(bx, v128.load(scratch), keep));
    v128.store(base + ro, v128.bitselect(by, v128.load(scratch, 16), keep), 16);
    v128.store(base + ro, v128.bitselect(bz, v128.load(scratch, 32), keep), 32);
    v128.store(base + ro, v128.bitselect(bw, v128.load(scratch, 48), keep), 48);
    for (let c = 0; c < 3; c++) {
      const to = rb + vo + <usize>(c << 4);
      const so = to + tb;
      const co = <usize>(c << 4);
      const bt = v128.load(base + to), bs = v128.load(base + so);
      const t = f32x4.add(bt, f32x4.mul(w, v128.load(srcT + co)));
      const s = f32x4.mul(bs, f32x4.add(one, f32x4.mul(w, f32x4.sub(v128.load(srcS + co), one))));
      v128.store(base + to, v128.bitselect(bt, t, keep));
      v128.store(base + so, v128.bitselect(bs, s, keep));
    }
    return;
  }
  const takeLayer = f32x4.ge(w, one);
  const keepBase = v128.not(f32x4.gt(w, zero));
  const bx = v128.load(base + ro), by = v128.load(base + ro, 16), bz = v128.load(base + ro, 32), bw = v128.load(base + ro, 48);
  interpolateRotation(scratch, base + ro, srcR, w, rotMode);
  for (let c = 0; c < 4; c++) {
    const o = <usize>(c << 4);
    const b = c == 0 ? bx : c == 1 ? by : c == 2 ? bz : bw;
    const mixed = v128.bitselect(v128.load(srcR + o), v128.load(scratch + o), takeLayer);
    v128.store(base + ro + o, v128.bitselect(b, mixed, keepBase));
  }
  const s = f32x4.sub(one, w);
  for (let c = 0; c < 3; c++) {
    const to = rb + vo + <usize>(c << 4);
    const so = to + tb;
    const co = <usize>(c << 4);
    const bt = v128.load(base + to), lt = v128.load(srcT + co);
    const bs = v128.load(base + so), ls = v128.load(srcS + co);
    const t = v128.bitselect(lt, f32x4.add(f32x4.mul(s, bt), f32x4.mul(w, lt)), takeLayer);
    const sc = v128.bitselect(ls, f32x4.add(f32x4.mul(s, bs), f32x4.mul(w, ls)), takeLayer);
    v128.store(base + to, v128.bitselect(bt, t, keepBase));
    v128.store(base + so, v128.bitselect(bs, sc, keepBase));
  }
}

/**
 * The dead blend (src/blend/dead-blend.ts's deadBlendAt; `out` holds the target, `extrapolated` is
 * scratch): translations and scales lerp by k = 1 − w; each rotation is the slerp from q_T to q_E by k
 * on the side the joint's blend direction keeps (Eberly's polynomial, as a crossfade), or deadBlendFar's
 * exact turn for a group with a joint more than a half turn away. w ≥ 1 leaves the target and directions.
 */
function deadBlend(out: usize, extrapolated: usize, directions: usize, w: f64): void {
  if (w >= 1) return;
  const k: f32 = w > 0 ? <f32>(1 - w) : 1;
  deadBlendVectors(out, extrapolated, k, groups);
  const t = f32x4.splat(k);
  for (let g = 0; g < groups; g++) {
    const o = <usize>(g << 6);
    const side = deadBlendSide(out + o, extrapolated + o, directions + o);
    if (side == 1) interpolateRotation(out + o, out + o, extrapolated + o, t, ROT_SLERP_AS_GIVEN);
    else if (side == 2) deadBlendFar(out + o, directions + o, k);
  }
}

/** Gathers an AoS pose (t 3J, r 4J, s 3J float32) into the slot layout. */
function loadPose(dst: usize, aos: usize): void {
  const J = jointCount;
  const rb = <usize>rotBytes();
  const tb = <usize>(groups * 48);
  for (let j = 0; j < J; j++) {
    const g = <usize>(j >> 2);
    const lane = <usize>((j & 3) << 2);
    const r = aos + <usize>((3 * J + 4 * j) << 2);
    const t = aos + <usize>((3 * j) << 2);
    const s = aos + <usize>((7 * J + 3 * j) << 2);
    const ro = dst + (g << 6) + lane;
    store<f32>(ro, load<f32>(r)); store<f32>(ro, load<f32>(r, 4), 16); store<f32>(ro, load<f32>(r, 8), 32); store<f32>(ro, load<f32>(r, 12), 48);
    const to = dst + rb + g * 48 + lane;
    store<f32>(to, load<f32>(t)); store<f32>(to, load<f32>(t, 4), 16); store<f32>(to, load<f32>(t, 8), 32);
    const so = to + tb;
    store<f32>(so, load<f32>(s)); store<f32>(so, load<f32>(s, 4), 16); store<f32>(so, load<f32>(s, 8), 32);
  }
}

// One group's local matrices, 12 planes of four joints: b0 b1 b2 | b4 b5 b6 | b8 b9 b10 | b12 b13 b14.
const local = memory.data(192, 16);

/**
 * Writes the slot's local pose as AoS (if `aos`) and every joint's model-space matrix (column-major,
 * 16 floats per joint) at `model`: M_j = M_parent(j) · L_j, roots M_j = root · L_j (or L_j), as
 * src/pose/local-to-model.ts. Local matrices are built four joints at a time; the parent product is one
 * splat-multiply-add per local coefficient on the parent's columns.
 */
function output(src: usize, aos: usize, model: usize, root: usize): void {
  const J = jointCount;
  const rb = <usize>rotBytes();
  const tb = <usize>(groups * 48);
  for (let g = 0; g < groups; g++) {
    const ro = src + (<usize>g << 6);
    const to = src + rb + <usize>(g * 48);
    const so = to + tb;
    const x = v128.load(ro), y = v128.load(ro, 16), z = v128.load(ro, 32), w = v128.load(ro, 48);
    const sx = v128.load(so), sy = v128.load(so, 16), sz = v128.load(so, 32);
    const x2 = f32x4.add(x, x), y2 = f32x4.add(y, y), z2 = f32x4.add(z, z);
    const xx = f32x4.mul(x, x2), xy = f32x4.mul(x, y2), xz = f32x4.mul(x, z2);
    const yy = f32x4.mul(y, y2), yz = f32x4.mul(y, z2), zz = f32x4.mul(z, z2);
    const wx = f32x4.mul(w, x2), wy = f32x4.mul(w, y2), wz = f32x4.mul(w, z2);
    const one = f32x4.splat(1);
    // Unit scales (most rigs, every joint): x·1 = x exactly, so the nine products are skipped.
    if (i32x4.all_true(v128.and(v128.and(f32x4.eq(sx, one), f32x4.eq(sy, one)), f32x4.eq(sz, one)))) {
      v128.store(local, f32x4.sub(one, f32x4.add(yy, zz)));
      v128.store(local, f32x4.add(xy, wz), 16);
      v128.store(local, f32x4.sub(xz, wy), 32);
      v128.store(local, f32x4.sub(xy, wz), 48);
      v128.store(local, f32x4.sub(one, f32x4.add(xx, zz)), 64);
      v128.store(local, f32x4.add(yz, wx), 80);
      v128.store(local, f32x4.add(xz, wy), 96);
      v128.store(local, f32x4.sub(yz, wx), 112);
      v128.store(local, f32x4.sub(one, f32x4.add(xx, yy)), 128);
    } else {
      v128.store(local, f32x4.mul(f32x4.sub(one, f32x4.add(yy, zz)), sx));
      v128.store(local, f32x4.mul(f32x4.add(xy, wz), sx), 16);
      v128.store(local, f32x4.mul(f32x4.sub(xz, wy), sx), 32);
      v128.store(local, f32x4.mul(f32x4.sub(xy, wz), sy), 48);
      v128.store(local, f32x4.mul(f32x4.sub(one, f32x4.add(xx, zz)), sy), 64);
      v128.store(local, f32x4.mul(f32x4.add(yz, wx), sy), 80);
      v128.store(local, f32x4.mul(f32x4.add(xz, wy), sz), 96);
      v128.store(local, f32x4.mul(f32x4.sub(yz, wx), sz), 112);
      v128.store(local, f32x4.mul(f32x4.sub(one, f32x4.add(xx, yy)), sz), 128);
    }
    v128.store(local, v128.load(to), 144);
    v128.store(local, v128.load(to, 16), 160);
    v128.store(local, v128.load(to, 32), 176);
    const end = min(4, J - (g << 2));
    for (let lane = 0; lane < end; lane++) {
      const j = (g << 2) + lane;
      const l = local + <usize>(lane << 2);
      const o = model + (<usize>j << 6);
      if (aos != 0) {
        const ta = aos + <usize>((3 * j) << 2);
        const ra = aos + <usize>((3 * J + 4 * j) << 2);
        const sa = aos + <usize>((7 * J + 3 * j) << 2);
        const lo = <usize>(lane << 2);
        store<f32>(ta, load<f32>(to + lo)); store<f32>(ta, load<f32>(to + lo, 16), 4); store<f32>(ta, load<f32>(to + lo, 32), 8);
        store<f32>(ra, load<f32>(ro + lo)); store<f32>(ra, load<f32>(ro + lo, 16), 4); store<f32>(ra, load<f32>(ro + lo, 32), 8); store<f32>(ra, load<f32>(ro + lo, 48), 12);
        store<f32>(sa, load<f32>(so + lo)); store<f32>(sa, load<f32>(so + lo, 16), 4); store<f32>(sa, load<f32>(so + lo, 32), 8);
      }
      const p = load<i32>(parentsPtr + (<usize>j << 2));
      const a: usize = p >= 0 ? model + (<usize>p << 6) : root;
      if (a == 0) {
        v128.store(o, f32x4.replace_lane(f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(0), 0, load<f32>(l)), 1, load<f32>(l, 16)), 2, load<f32>(l, 32)));
        v128.store(o, f32x4.replace_lane(f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(0), 0, load<f32>(l, 48)), 1, load<f32>(l, 64)), 2, load<f32>(l, 80)), 16);
        v128.store(o, f32x4.replace_lane(f32x4.replace_lane(f32x4.replace_lane(f32x4.splat(0), 0, load<f32>(l, 96)), 1, load<f32>(l, 112)), 2, load<f32>(l, 128)), 32);
        v128.store(o, f32x4.replace_lane(f32x4.replace_lane(f32x4.replace_lane(one, 0, load<f32>(l, 144)), 1, load<f32>(l, 160)), 2, load<f32>(l, 176)), 48);
        continue;
      }
      const c0 = v128.load(a), c1 = v128.load(a, 16), c2 = v128.load(a, 32), c3 = v128.load(a, 48);
      v128.store(o, f32x4.add(f32x4.add(f32x4.mul(v128.load32_splat(l), c0), f32x4.mul(v128.load32_splat(l, 16), c1)), f32x4.mul(v128.load32_splat(l, 32), c2)));
      v128.store(o, f32x4.add(f32x4.add(f32x4.mul(v128.load32_splat(l, 48), c0), f32x4.mul(v128.load32_splat(l, 64), c1)), f32x4.mul(v128.load32_splat(l, 80), c2)), 16);
      v128.store(o, f32x4.add(f32x4.add(f32x4.mul(v128.load32_splat(l, 96), c0), f32x4.mul(v128.load32_splat(l, 112), c1)), f32x4.mul(v128.load32_splat(l, 128), c2)), 32);
      v128.store(o, f32x4.add(f32x4.add(f32x4.add(f32x4.mul(v128.load32_splat(l, 144), c0), f32x4.mul(v128.load32_splat(l, 160), c1)), f32x4.mul(v128.load32_splat(l, 176), c2)), c3), 48);
    }
  }
}

/**
 * Removes root motion from one joint of a sampled slot, as src/root-motion's stripRootMotion: the
 * joint's travel since the clip's start (keeping the part along `up` when keepVertical) and, with
 * yaw extraction, its twist about `up` replaced by the start twist (r ← startTwist · twist(r)* · r).
 * Block (f32 unless noted): i32 joint, i32 keepVertical, i32 extractYaw, pad, up xyz (+pad),
 * start translation xyz (+pad), start twist xyzw.
 */
function strip(slot: usize, block: usize): void {
  const j = load<i32>(block);
  const g = <usize>(j >> 2);
  const lane = <usize>((j & 3) << 2);
  const ux = load<f32>(block, 16), uy = load<f32>(block, 20), uz = load<f32>(block, 24);
  const t = slot + <usize>rotBytes() + g * 48 + lane;
  let dx = load<f32>(t) - load<f32>(block, 32), dy = load<f32>(t, 16) - load<f32>(block, 36), dz = load<f32>(t, 32) - load<f32>(block, 40);
  if (load<i32>(block, 4)) {
    const v = dx * ux + dy * uy + dz * uz;
    dx -= v * ux; dy -= v * uy; dz -= v * uz;
  }
  store<f32>(t, load<f32>(t) - dx);
  store<f32>(t, load<f32>(t, 16) - dy, 16);
  store<f32>(t, load<f32>(t, 32) - dz, 32);
  if (!load<i32>(block, 8)) return;
  const r = slot + (g << 6) + lane;
  const qx = load<f32>(r), qy = load<f32>(r, 16), qz = load<f32>(r, 32), qw = load<f32>(r, 48);
  const p = qx * ux + qy * uy + qz * uz;
  const n = Mathf.sqrt(p * p + qw * qw);
  // The twist's conjugate c = (−p·u, w)/n (identity when the rotation is a half turn about a horizontal axis).
  let cx: f32 = 0, cy: f32 = 0, cz: f32 = 0, cw: f32 = 1;
  if (n > <f32>1e-12) {
    cx = -p * ux / n; cy = -p * uy / n; cz = -p * uz / n; cw = qw / n;
  }
  const sx = load<f32>(block, 48), sy = load<f32>(block, 52), sz = load<f32>(block, 56), sw = load<f32>(block, 60);
  // m = start · c, then r = m · q.
  const mx = sw * cx + sx * cw + sy * cz - sz * cy;
  const my = sw * cy + sy * cw + sz * cx - sx * cz;
  const mz = sw * cz + sz * cw + sx * cy - sy * cx;
  const mw = sw * cw - sx * cx - sy * cy - sz * cz;
  store<f32>(r, mw * qx + mx * qw + my * qz - mz * qy);
  store<f32>(r, mw * qy + my * qw + mz * qx - mx * qz, 16);
  store<f32>(r, mw * qz + mz * qw + mx * qy - my * qx, 32);
  store<f32>(r, mw * qw - mx * qx - my * qy - mz * qz, 48);
}

/** Runs the command list at `commands` until OP_END; returns the number of commands run. */
export function run(commands: usize): i32 {
  let p = commands;
  let count = 0;
  while (true) {
    const op = load<i32>(p);
    if (op == OP_END) break;
    const a = <usize>load<i32>(p, 4), b = <usize>load<i32>(p, 8), c = load<i32>(p, 12), d = load<i32>(p, 16);
    const x = load<f64>(p, 24);
    if (op == OP_SAMPLE) sample(a, b, x, c);
    else if (op == OP_BLEND) blend(a, b, <usize>c, x, d, load<i32>(p, 20) == 1);
    else if (op == OP_COPY) copyBytes(a, b, slotBytes());
    else if (op == OP_LAYER) layer(a, b, <usize>c, <f32>x, x == 1, d, load<i32>(p, 20));
    else if (op == OP_SAMPLE_LAYER) sampleLayer(a, b, x, <usize>c, d, load<f32>(p, 20));
    else if (op == OP_LOAD) loadPose(a, b);
    else if (op == OP_OUTPUT) output(a, b, <usize>c, <usize>d);
    else if (op == OP_STRIP) strip(a, b);
    else if (op == OP_OFFSET) applyOffset(a, b, <usize>c, <usize>d, <f32>x, load<f32>(p, 20), groups);
    else if (op == OP_PACKED_OFFSET) applyPackedOffset(a, b, <usize>c, <f32>x, load<f32>(p, 20), groups);
    else if (op == OP_PACK_OFFSET) packOffset(a, b, <usize>c, groups);
    else if (op == OP_DIFFERENCE) poseDifference(a, b, <usize>c, x, <usize>d, groups, jointCount);
    else if (op == OP_ZERO) memory.fill(a, 0, b);
    else if (op == OP_EXTRAPOLATE) extrapolate(a, b, <usize>c, <f32>x, load<f32>(p, 20), load<f32>(p, 16), groups);
    else if (op == OP_DEAD_BLEND) deadBlend(a, b, <usize>c, x);
    else if (op == OP_RESET_DIRECTIONS) resetDirections(a, groups);
    else if (op == OP_SKELETON) {
      jointCount = <i32>a;
      groups = (jointCount + 3) >> 2;
      parentsPtr = b;
    } else unreachable();
    p += 32;
    count++;
  }
  return count;
}

/** First byte after the module's static data: the JS side lays out memory from here. */
export function heapBase(): usize {
  return __heap_base;
}

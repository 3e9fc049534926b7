// Dead blending in the crowd kernel: the same formulas as src/blend/dead-blend.ts, four joints per f32x4
// (docs/transitions.md, "deadBlend"). The JS recorder (src/crowd/wasm/kernel-poses.ts) records them when
// step.ts would run extrapolatePoseAt and deadBlendAt.
import { MOVES_R, MOVES_S, MOVES_T, atan2Upper, copyPlanes, rotationAt, turn } from "./inertial";

/** 2 / MAX_EXTRAPOLATED_ANGLE (¾ of a half turn... of a turn: 0.75π), as dead-blend.ts. */
const FAST: f32 = <f32>(2 / (0.75 * Math.PI));
const LN2: f32 = 0.6931471805599453;

/**
 * e^(−x) for x ≥ 0 on four lanes: 2^(−n) · e^(−r) with n = round(x / ln 2), |r| ≤ ln 2 / 2, the series of
 * e^(−r) to r⁸ (error below 3e-9), 2^(−n) by the exponent bits (x beyond 87 gives 0).
 */
// @ts-ignore: decorator
@inline function expNegative(x: v128): v128 {
  const big = f32x4.gt(x, f32x4.splat(87));
  const n = f32x4.nearest(f32x4.mul(x, f32x4.splat(<f32>(1 / Math.LN2))));
  const r = f32x4.sub(x, f32x4.mul(n, f32x4.splat(LN2)));
  let p = f32x4.splat(<f32>(1.0 / 40320));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 5040)), f32x4.mul(r, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 720)), f32x4.mul(r, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 120)), f32x4.mul(r, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 24)), f32x4.mul(r, p));
  p = f32x4.sub(f32x4.splat(<f32>(1.0 / 6)), f32x4.mul(r, p));
  p = f32x4.sub(f32x4.splat(0.5), f32x4.mul(r, p));
  p = f32x4.sub(f32x4.splat(1), f32x4.mul(r, p));
  p = f32x4.sub(f32x4.splat(1), f32x4.mul(r, p));
  const scale = i32x4.shl(i32x4.sub(i32x4.splat(127), i32x4.trunc_sat_f32x4_s(n)), 23);
  return v128.andnot(f32x4.mul(p, scale), big);
}

/**
 * k(τ) per lane for rates λ: (2 − (2 + λτ)·e^(−λτ)) / λ, the integral of the decaying velocity; 0 where
 * λτ ≤ 0. Below λτ = 1 by its series, N(x) = Σ_{n≥1} (−1)^n (n − 2)/n! · xⁿ (n = 1 … 12; the closed form
 * cancels there), above by the closed form.
 */
// @ts-ignore: decorator
@inline function travel(lambda: v128, tau: v128): v128 {
  const x = f32x4.mul(lambda, tau);
  // Horner on Σ c_n xⁿ, c_1 = 1, c_2 = 0, c_n = (−1)^n (n − 2)/n!.
  let s = f32x4.splat(<f32>(10.0 / 479001600));
  s = f32x4.add(f32x4.splat(<f32>(-9.0 / 39916800)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(8.0 / 3628800)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(-7.0 / 362880)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(6.0 / 40320)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(-5.0 / 5040)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(4.0 / 720)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(-3.0 / 120)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(2.0 / 24)), f32x4.mul(x, s));
  s = f32x4.add(f32x4.splat(<f32>(-1.0 / 6)), f32x4.mul(x, s));
  s = f32x4.mul(x, s); // the x² coefficient is 0
  s = f32x4.add(f32x4.splat(1), f32x4.mul(x, s));
  let n = f32x4.mul(x, s);
  const far = f32x4.gt(x, f32x4.splat(1));
  if (v128.any_true(far)) {
    const closed = f32x4.sub(f32x4.splat(2), f32x4.mul(f32x4.add(f32x4.splat(2), x), expNegative(x)));
    n = v128.bitselect(closed, n, far);
  }
  return v128.and(f32x4.div(n, lambda), f32x4.gt(x, f32x4.splat(0)));
}

/**
 * dst ← source ⊕ velocity·k_j(τ) per joint (extrapolatePoseAt): each joint's rate is the transition's
 * `base` or, for a joint turning so fast that it would go more than ¾π in all, 2|ω|/(¾π). `kBase` is
 * k(τ) at the base rate, which JS computes once in float64 for every joint that is not fast.
 */
export function extrapolate(dst: usize, source: usize, velocity: usize, tau: f32, base: f32, kBase: f32, groups: i32): void {
  const rb = <usize>(groups << 6);
  const sb = rb + <usize>(groups * 48);
  const t = f32x4.splat(tau), b = f32x4.splat(base), kb = f32x4.splat(kBase);
  const limit = f32x4.splat(base / FAST);
  const vt = <usize>(groups * 48), vs = <usize>(groups * 96);
  for (let gi = 0; gi < groups; gi++) {
    const g = <usize>gi;
    const vo = rotationAt(velocity, g, groups);
    const moves = load<i32>(velocity + (g << 2));
    const to = rb + g * 48, so = sb + g * 48, ro = g << 6;
    if (moves == 0) {
      copyPlanes(dst + to, source + to);
      copyPlanes(dst + so, source + so);
      memory.copy(dst + ro, source + ro, 64);
      continue;
    }
    const wx = v128.load(vo), wy = v128.load(vo, 16), wz = v128.load(vo, 32);
    const speed2 = f32x4.add(f32x4.add(f32x4.mul(wx, wx), f32x4.mul(wy, wy)), f32x4.mul(wz, wz));
    // A fast lane (|ω|·2/(¾π) > base) has its own rate and travel.
    const fast = f32x4.gt(speed2, f32x4.mul(limit, limit));
    let k = kb;
    if (v128.any_true(fast)) k = v128.bitselect(travel(f32x4.max(b, f32x4.mul(f32x4.sqrt(speed2), f32x4.splat(FAST))), t), kb, fast);
    for (let c = 0; c < 3; c++) {
      const q = <usize>(c << 4);
      if (moves & MOVES_T) v128.store(dst + to + q, f32x4.add(v128.load(source + to + q), f32x4.mul(k, v128.load(vo + vt + q))));
      else v128.store(dst + to + q, v128.load(source + to + q));
      if (moves & MOVES_S) v128.store(dst + so + q, f32x4.add(v128.load(source + so + q), f32x4.mul(k, v128.load(vo + vs + q))));
      else v128.store(dst + so + q, v128.load(source + so + q));
    }
    if (moves & MOVES_R) turn(dst + ro, source + ro, f32x4.mul(k, wx), f32x4.mul(k, wy), f32x4.mul(k, wz));
    else memory.copy(dst + ro, source + ro, 64);
  }
}

/** sin and cos of h ∈ [0, π] per lane (Taylor about π/2, |h − π/2| ≤ π/2, error below 1e-8); sin → `lanes`. */
// @ts-ignore: decorator
@inline function sinCosHalfTurn(h: v128, out: usize): void {
  const u = f32x4.sub(h, f32x4.splat(<f32>(Math.PI / 2)));
  const u2 = f32x4.mul(u, u);
  // cos u (= sin h) and sin u (= −cos h), eight terms each.
  let c = f32x4.splat(<f32>(1.0 / 87178291200));
  c = f32x4.sub(f32x4.splat(<f32>(1.0 / 479001600)), f32x4.mul(u2, c));
  c = f32x4.sub(f32x4.splat(<f32>(1.0 / 3628800)), f32x4.mul(u2, c));
  c = f32x4.sub(f32x4.splat(<f32>(1.0 / 40320)), f32x4.mul(u2, c));
  c = f32x4.sub(f32x4.splat(<f32>(1.0 / 720)), f32x4.mul(u2, c));
  c = f32x4.sub(f32x4.splat(<f32>(1.0 / 24)), f32x4.mul(u2, c));
  c = f32x4.sub(f32x4.splat(0.5), f32x4.mul(u2, c));
  c = f32x4.sub(f32x4.splat(1), f32x4.mul(u2, c));
  let s = f32x4.splat(<f32>(1.0 / 1307674368000));
  s = f32x4.sub(f32x4.splat(<f32>(1.0 / 6227020800)), f32x4.mul(u2, s));
  s = f32x4.sub(f32x4.splat(<f32>(1.0 / 39916800)), f32x4.mul(u2, s));
  s = f32x4.sub(f32x4.splat(<f32>(1.0 / 362880)), f32x4.mul(u2, s));
  s = f32x4.sub(f32x4.splat(<f32>(1.0 / 5040)), f32x4.mul(u2, s));
  s = f32x4.sub(f32x4.splat(<f32>(1.0 / 120)), f32x4.mul(u2, s));
  s = f32x4.sub(f32x4.splat(<f32>(1.0 / 6)), f32x4.mul(u2, s));
  s = f32x4.sub(f32x4.splat(1), f32x4.mul(u2, s));
  v128.store(out, c);
  v128.store(out, f32x4.neg(f32x4.mul(u, s)), 16);
}

const trig = memory.data(32, 16);

/**
 * The dead blend's translations and scales (deadBlendAt; `out` holds the target): t ← t_T + k·(t_E − t_T),
 * k = 1 − w, on every plane.
 */
export function deadBlendVectors(out: usize, extrapolated: usize, k: f32, groups: i32): void {
  const kk = f32x4.splat(k);
  const rb = <usize>(groups << 6);
  for (let i = 0; i < groups * 6; i++) {
    const o = rb + (<usize>i << 4);
    const t = v128.load(out + o);
    v128.store(out + o, f32x4.add(t, f32x4.mul(kk, f32x4.sub(v128.load(extrapolated + o), t))));
  }
}

/**
 * One group's rotation side (deadBlendAt): d = q_E · q_T⁻¹, taken on the side of the previous frame's d
 * (`directions`, rewritten); q_E is flipped in place to the same side, so that the blend is the slerp from
 * q_T to it. Returns 0 when every lane's d has no vector part (the output is q_T), 2 when a lane's d is
 * more than a half turn (its slerp would take the other way: `deadBlendFar`), else 1.
 */
export function deadBlendSide(q: usize, e: usize, d: usize): i32 {
  const qx = v128.load(q), qy = v128.load(q, 16), qz = v128.load(q, 32), qw = v128.load(q, 48);
  const ex = v128.load(e), ey = v128.load(e, 16), ez = v128.load(e, 32), ew = v128.load(e, 48);
  let dx = f32x4.add(f32x4.sub(f32x4.mul(ex, qw), f32x4.mul(ew, qx)), f32x4.sub(f32x4.mul(ez, qy), f32x4.mul(ey, qz)));
  let dy = f32x4.add(f32x4.sub(f32x4.mul(ey, qw), f32x4.mul(ew, qy)), f32x4.sub(f32x4.mul(ex, qz), f32x4.mul(ez, qx)));
  let dz = f32x4.add(f32x4.sub(f32x4.mul(ez, qw), f32x4.mul(ew, qz)), f32x4.sub(f32x4.mul(ey, qx), f32x4.mul(ex, qy)));
  let dw = f32x4.add(f32x4.add(f32x4.mul(ew, qw), f32x4.mul(ex, qx)), f32x4.add(f32x4.mul(ey, qy), f32x4.mul(ez, qz)));
  const dot = f32x4.add(f32x4.add(f32x4.mul(dx, v128.load(d)), f32x4.mul(dy, v128.load(d, 16))), f32x4.add(f32x4.mul(dz, v128.load(d, 32)), f32x4.mul(dw, v128.load(d, 48))));
  const flip = v128.and(f32x4.lt(dot, f32x4.splat(0)), i32x4.splat(0x80000000));
  dx = v128.xor(dx, flip); dy = v128.xor(dy, flip); dz = v128.xor(dz, flip); dw = v128.xor(dw, flip);
  v128.store(d, dx); v128.store(d, dy, 16); v128.store(d, dz, 32); v128.store(d, dw, 48);
  const moving = v128.not(f32x4.lt(f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz)), f32x4.splat(1e-24)));
  if (!v128.any_true(moving)) return 0;
  if (v128.any_true(flip)) {
    v128.store(e, v128.xor(ex, flip)); v128.store(e, v128.xor(ey, flip), 16); v128.store(e, v128.xor(ez, flip), 32); v128.store(e, v128.xor(ew, flip), 48);
  }
  return v128.any_true(v128.and(f32x4.lt(dw, f32x4.splat(0)), moving)) ? 2 : 1;
}

/**
 * One group's rotation when a lane turns more than a half turn from the target (deadBlendAt's own
 * formula, q_T turned by k of d's angle): `deadBlendSide` ran, so d is in `directions` and on its side.
 */
export function deadBlendFar(q: usize, d: usize, k: f32): void {
  const qx = v128.load(q), qy = v128.load(q, 16), qz = v128.load(q, 32), qw = v128.load(q, 48);
  const dx = v128.load(d), dy = v128.load(d, 16), dz = v128.load(d, 32), dw = v128.load(d, 48);
  const sin = f32x4.sqrt(f32x4.add(f32x4.add(f32x4.mul(dx, dx), f32x4.mul(dy, dy)), f32x4.mul(dz, dz)));
  const still = f32x4.lt(sin, f32x4.splat(1e-12));
  sinCosHalfTurn(f32x4.mul(f32x4.splat(k), atan2Upper(sin, dw)), trig);
  const s = f32x4.div(v128.load(trig), sin), cw = v128.load(trig, 16);
  const cx = f32x4.mul(dx, s), cy = f32x4.mul(dy, s), cz = f32x4.mul(dz, s);
  // (c, cw) · q_T: unit times unit, not renormalised (within ~2e-7 of unit).
  const nx = f32x4.sub(f32x4.add(f32x4.add(f32x4.mul(cw, qx), f32x4.mul(cx, qw)), f32x4.mul(cy, qz)), f32x4.mul(cz, qy));
  const ny = f32x4.add(f32x4.add(f32x4.sub(f32x4.mul(cw, qy), f32x4.mul(cx, qz)), f32x4.mul(cy, qw)), f32x4.mul(cz, qx));
  const nz = f32x4.add(f32x4.sub(f32x4.add(f32x4.mul(cw, qz), f32x4.mul(cx, qy)), f32x4.mul(cy, qx)), f32x4.mul(cz, qw));
  const nw = f32x4.sub(f32x4.sub(f32x4.sub(f32x4.mul(cw, qw), f32x4.mul(cx, qx)), f32x4.mul(cy, qy)), f32x4.mul(cz, qz));
  v128.store(q, v128.bitselect(qx, nx, still));
  v128.store(q, v128.bitselect(qy, ny, still), 16);
  v128.store(q, v128.bitselect(qz, nz, still), 32);
  v128.store(q, v128.bitselect(qw, nw, still), 48);
}

/** Every joint's blend direction to the identity (a transition's start: shortest arcs first). */
export function resetDirections(directions: usize, groups: i32): void {
  for (let g = 0; g < groups; g++) {
    const d = directions + (<usize>g << 6);
    v128.store(d, f32x4.splat(0));
    v128.store(d, f32x4.splat(0), 16);
    v128.store(d, f32x4.splat(0), 32);
    v128.store(d, f32x4.splat(1), 48);
  }
}

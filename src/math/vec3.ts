// 3-vector functions on (array, offset) pairs, out-first, no allocation. Each reads its inputs into locals
// before writing, so `out` may alias any input.
import type { QuatArray } from "./quat.ts";

/** Any indexable array of numbers (Float32Array, Float64Array, number[]). */
export type Vec3Array = QuatArray;

/** Writes (x, y, z). */
export function vec3Set<T extends Vec3Array>(out: T, o: number, x: number, y: number, z: number): T {
  out[o] = x;
  out[o + 1] = y;
  out[o + 2] = z;
  return out;
}

/** Copies a[ao..ao+2]. */
export function vec3Copy<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number): T {
  out[o] = a[ao]!;
  out[o + 1] = a[ao + 1]!;
  out[o + 2] = a[ao + 2]!;
  return out;
}

/** out = a + b. */
export function vec3Add<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number): T {
  return vec3Set(out, o, a[ao]! + b[bo]!, a[ao + 1]! + b[bo + 1]!, a[ao + 2]! + b[bo + 2]!);
}

/** out = a − b. */
export function vec3Subtract<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number): T {
  return vec3Set(out, o, a[ao]! - b[bo]!, a[ao + 1]! - b[bo + 1]!, a[ao + 2]! - b[bo + 2]!);
}

/** out = a · k (component-wise by a scalar). */
export function vec3Scale<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, k: number): T {
  return vec3Set(out, o, a[ao]! * k, a[ao + 1]! * k, a[ao + 2]! * k);
}

/** out = a + b · k. */
export function vec3ScaleAndAdd<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number, k: number): T {
  return vec3Set(out, o, a[ao]! + b[bo]! * k, a[ao + 1]! + b[bo + 1]! * k, a[ao + 2]! + b[bo + 2]! * k);
}

/** Linear interpolation out = (1 − t)·a + t·b. */
export function vec3Lerp<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number, t: number): T {
  const s = 1 - t;
  return vec3Set(out, o, s * a[ao]! + t * b[bo]!, s * a[ao + 1]! + t * b[bo + 1]!, s * a[ao + 2]! + t * b[bo + 2]!);
}

/** a · b. */
export function vec3Dot(a: Vec3Array, ao: number, b: Vec3Array, bo: number): number {
  return a[ao]! * b[bo]! + a[ao + 1]! * b[bo + 1]! + a[ao + 2]! * b[bo + 2]!;
}

/** out = a × b. */
export function vec3Cross<T extends Vec3Array>(out: T, o: number, a: Vec3Array, ao: number, b: Vec3Array, bo: number): T {
  const ax = a[ao]!, ay = a[ao + 1]!, az = a[ao + 2]!;
  const bx = b[bo]!, by = b[bo + 1]!, bz = b[bo + 2]!;
  return vec3Set(out, o, ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx);
}

/** Euclidean length |a|. */
export function vec3Length(a: Vec3Array, ao: number): number {
  const x = a[ao]!, y = a[ao + 1]!, z = a[ao + 2]!;
  return Math.sqrt(x * x + y * y + z * z);
}

/** Euclidean distance |a − b|. */
export function vec3Distance(a: Vec3Array, ao: number, b: Vec3Array, bo: number): number {
  const x = a[ao]! - b[bo]!, y = a[ao + 1]! - b[bo + 1]!, z = a[ao + 2]! - b[bo + 2]!;
  return Math.sqrt(x * x + y * y + z * z);
}

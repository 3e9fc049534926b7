import { AnimgraphError } from "./animgraph-error.ts";

// Argument checks for the public API's boundary. Each one is a few typeof/instanceof tests that
// allocate nothing unless they throw, so a function checks its arguments once per call; loops inside
// the library call the unchecked internals. `fn` is the public function's name and `argument` the
// parameter's name as documented, so the message reads `createPose: jointCount must be …; got …`.

/** The typed-array constructors `expectTypedArray` takes as the kind to check for. */
export type TypedArrayKind =
  | Float32ArrayConstructor | Float64ArrayConstructor | Int8ArrayConstructor | Int16ArrayConstructor | Int32ArrayConstructor
  | Uint8ArrayConstructor | Uint8ClampedArrayConstructor | Uint16ArrayConstructor | Uint32ArrayConstructor;

/** A short description of a value for an error message: `undefined`, `the number NaN`, `a Float32Array of length 3`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  switch (typeof value) {
    case "number": return `the number ${String(value)}`;
    case "string": return value.length <= 24 ? `the string ${JSON.stringify(value)}` : `a string of length ${value.length}`;
    case "boolean": return `the boolean ${String(value)}`;
    case "bigint": return `the bigint ${String(value)}n`;
    case "symbol": return "a symbol";
    case "function": return "a function";
    default: break;
  }
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (ArrayBuffer.isView(value)) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? "typed array";
    return `a ${name} of length ${(value as unknown as { length?: number }).length ?? (value as ArrayBufferView).byteLength}`;
  }
  const ctor = (value as { constructor?: { name?: unknown } }).constructor;
  const name = typeof ctor?.name === "string" && ctor.name !== "Object" && ctor.name !== "" ? ctor.name : "";
  return name ? `a ${name}` : "an object";
}

/** The error for a wrong-typed or wrongly shaped argument (ERR_ARGUMENT), for checks the helpers below do not cover. */
export function argumentError(fn: string, argument: string, expected: string, value: unknown): AnimgraphError {
  const received = describeValue(value);
  return new AnimgraphError("ERR_ARGUMENT", `${fn}: ${argument} must be ${expected}; got ${received}`, { argument, expected, received });
}

/** The error for an argument of the right type whose value the call does not accept (ERR_OUT_OF_RANGE). */
export function rangeError(fn: string, argument: string, expected: string, value: unknown): AnimgraphError {
  const received = describeValue(value);
  return new AnimgraphError("ERR_OUT_OF_RANGE", `${fn}: ${argument} must be ${expected}; got ${received}`, { argument, expected, received });
}

/** The error for an argument whose content breaks a rule of the call (ERR_INVALID_VALUE); `why` says which, e.g. `joint name "hip" is used twice`. */
export function invalidValue(fn: string, argument: string, why: string): AnimgraphError {
  return new AnimgraphError("ERR_INVALID_VALUE", `${fn}: ${argument}: ${why}`, { argument });
}

/** A non-null object that is not an array (a spec, an options bag, a character). */
export function expectObject(fn: string, argument: string, value: unknown): asserts value is object {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw argumentError(fn, argument, "an object", value);
}

/** An options bag: undefined, or an object as `expectObject` takes it. */
export function expectOptionalObject(fn: string, argument: string, value: unknown): asserts value is object | undefined {
  if (value !== undefined && (typeof value !== "object" || value === null || Array.isArray(value))) {
    throw argumentError(fn, argument, "an object or undefined", value);
  }
}

/** An array (of anything; elements are the caller's to check). */
export function expectArray(fn: string, argument: string, value: unknown): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw argumentError(fn, argument, "an array", value);
}

/** A string (possibly empty). */
export function expectString(fn: string, argument: string, value: unknown): asserts value is string {
  if (typeof value !== "string") throw argumentError(fn, argument, "a string", value);
}

/** `true` or `false`. */
export function expectBoolean(fn: string, argument: string, value: unknown): asserts value is boolean {
  if (typeof value !== "boolean") throw argumentError(fn, argument, "a boolean", value);
}

/** A function (a callback, a factory). */
export function expectFunction(fn: string, argument: string, value: unknown): asserts value is (...args: never[]) => unknown {
  if (typeof value !== "function") throw argumentError(fn, argument, "a function", value);
}

/** A number (NaN and ±Infinity included: math on them is defined, if rarely wanted). */
export function expectNumber(fn: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== "number") throw argumentError(fn, argument, "a number", value);
}

/**
 * An array of numbers or a typed array holding `size` elements from `offset` on, and that offset an
 * integer ≥ 0 (the math functions' `(array, offset)` pairs). `offsetName` names the offset argument.
 */
export function expectNumberArrayAt(fn: string, argument: string, value: unknown, offsetName: string, offset: unknown, size: number): void {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    throw argumentError(fn, argument, `an array or typed array of at least ${size} numbers`, value);
  }
  if (typeof offset !== "number" || !Number.isInteger(offset) || offset < 0) throw argumentError(fn, offsetName, "an integer offset ≥ 0", offset);
  if ((value as ArrayLike<number>).length < offset + size) {
    throw rangeError(fn, argument, `an array of at least ${offset + size} numbers (${size} from offset ${offset})`, value);
  }
}

/** A finite number (not NaN, not ±Infinity). */
export function expectFiniteNumber(fn: string, argument: string, value: unknown): asserts value is number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw argumentError(fn, argument, "a finite number", value);
}

/** A finite number within [min, max]; a number outside is ERR_OUT_OF_RANGE, a non-number ERR_ARGUMENT. */
export function expectNumberInRange(fn: string, argument: string, value: unknown, min: number, max: number): asserts value is number {
  if (typeof value !== "number" || Number.isNaN(value)) throw argumentError(fn, argument, `a number in [${min}, ${max}]`, value);
  if (!(value >= min && value <= max)) throw rangeError(fn, argument, `a number in [${min}, ${max}]`, value);
}

/** An integer within [min, max] (default: any safe integer ≥ 0). */
export function expectInteger(fn: string, argument: string, value: unknown, min = 0, max = Number.MAX_SAFE_INTEGER): asserts value is number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw argumentError(fn, argument, "an integer", value);
  if (value < min || value > max) {
    throw rangeError(fn, argument, max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${min}` : `an integer in [${min}, ${max}]`, value);
  }
}

/** One of a fixed set of names. */
export function expectOneOf<T extends string>(fn: string, argument: string, value: unknown, allowed: readonly T[]): asserts value is T {
  if (!Array.isArray(allowed)) throw argumentError("expectOneOf", "allowed", "an array of names", allowed);
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw argumentError(fn, argument, `one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`, value);
  }
}

/** %TypedArray%, the constructor every typed-array class extends (for telling a typed-array kind from another function). */
const TYPED_ARRAY = Object.getPrototypeOf(Int8Array) as abstract new () => ArrayBufferView;

/** A typed array of the given kind holding at least `minLength` elements. */
export function expectTypedArray(fn: string, argument: string, value: unknown, kind: TypedArrayKind, minLength = 0): void {
  if (typeof kind !== "function" || !((kind as { prototype?: unknown }).prototype instanceof TYPED_ARRAY)) {
    throw argumentError("expectTypedArray", "kind", "a typed-array constructor such as Float32Array", kind);
  }
  if (typeof minLength !== "number" || !(minLength >= 0)) throw argumentError("expectTypedArray", "minLength", "a number ≥ 0", minLength);
  if (!(value instanceof kind)) {
    throw argumentError(fn, argument, minLength > 0 ? `a ${kind.name} of at least ${minLength} numbers` : `a ${kind.name}`, value);
  }
  if (value.length < minLength) throw rangeError(fn, argument, `a ${kind.name} of at least ${minLength} numbers`, value);
}

/**
 * An array of numbers or any typed array (the math functions' `NumArray`, `QuatArray`, `Vec3Array`)
 * with at least `minLength` elements. Only the container is checked, not every element.
 */
export function expectNumberArray(fn: string, argument: string, value: unknown, minLength = 0): asserts value is ArrayLike<number> {
  if (!(Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))) {
    throw argumentError(fn, argument, minLength > 0 ? `an array or typed array of at least ${minLength} numbers` : "an array or typed array of numbers", value);
  }
  if ((value as ArrayLike<number>).length < minLength) {
    throw rangeError(fn, argument, `an array or typed array of at least ${minLength} numbers`, value);
  }
}

/** An object with a `dispose`d flag (or `disposed` getter): throws ERR_DISPOSED once it is set. */
export function expectNotDisposed(fn: string, argument: string, disposed: boolean): void {
  if (disposed) {
    throw new AnimgraphError("ERR_DISPOSED", `${fn}: ${argument} was disposed and cannot be used any more`, { argument, expected: "an object not yet disposed", received: "a disposed object" });
  }
}

/**
 * A pose as `createPose` makes it (jointCount, and t/r/s Float32Arrays of 3/4/3 floats per joint).
 * With `jointCount`, a pose of another joint count is ERR_SKELETON_MISMATCH: it belongs to another skeleton.
 */
export function expectPose(fn: string, argument: string, value: unknown, jointCount = -1): void {
  const pose = value as { jointCount?: unknown; t?: unknown; r?: unknown; s?: unknown } | null;
  if (typeof pose !== "object" || pose === null || typeof pose.jointCount !== "number"
    || !(pose.t instanceof Float32Array) || !(pose.r instanceof Float32Array) || !(pose.s instanceof Float32Array)) {
    throw argumentError(fn, argument, "a Pose (from createPose)", value);
  }
  const J = pose.jointCount;
  if (!(Number.isInteger(J) && J >= 0) || pose.t.length < 3 * J || pose.r.length < 4 * J || pose.s.length < 3 * J) {
    throw argumentError(fn, argument, "a Pose whose t, r and s hold 3, 4 and 3 floats per joint", value);
  }
  if (jointCount >= 0 && J !== jointCount) {
    throw new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: ${argument} has ${J} joints but the skeleton has ${jointCount}; it is a pose of another skeleton`, {
      argument, expected: `a Pose of ${jointCount} joints`, received: `a Pose of ${J} joints`,
    });
  }
}

/** A skeleton as `createSkeleton` or a loader makes it. */
export function expectSkeleton(fn: string, argument: string, value: unknown): void {
  const skeleton = value as { jointCount?: unknown; names?: unknown; parents?: unknown; rest?: unknown } | null;
  if (typeof skeleton !== "object" || skeleton === null || typeof skeleton.jointCount !== "number"
    || !Array.isArray(skeleton.names) || !(skeleton.parents instanceof Int16Array)
    || skeleton.names.length !== skeleton.jointCount || skeleton.parents.length !== skeleton.jointCount) {
    throw argumentError(fn, argument, "a Skeleton (from createSkeleton or a loader)", value);
  }
  expectPose(fn, `${argument}.rest`, skeleton.rest, skeleton.jointCount);
}

/** A clip as `createClip` or a loader makes it; with `jointCount`, a clip of another skeleton is ERR_SKELETON_MISMATCH. */
export function expectClip(fn: string, argument: string, value: unknown, jointCount = -1): void {
  const clip = value as { name?: unknown; duration?: unknown; tracks?: unknown; skeleton?: { jointCount?: unknown } | null } | null;
  if (typeof clip !== "object" || clip === null || typeof clip.name !== "string" || typeof clip.duration !== "number"
    || !Array.isArray(clip.tracks) || typeof clip.skeleton !== "object" || clip.skeleton === null) {
    throw argumentError(fn, argument, "a Clip (from createClip or a loader)", value);
  }
  const J = clip.skeleton.jointCount;
  if (jointCount >= 0 && J !== jointCount) {
    throw new AnimgraphError("ERR_SKELETON_MISMATCH", `${fn}: ${argument} is a clip of a ${String(J)}-joint skeleton but the call works on ${jointCount} joints`, {
      argument, expected: `a Clip of ${jointCount} joints`, received: `a Clip of ${String(J)} joints`,
    });
  }
}

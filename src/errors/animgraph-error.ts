/** The stable codes of AnimgraphError (docs/api-errors.md). */
export type AnimgraphErrorCode =
  /** An argument has the wrong type or shape (undefined for an object, a string for a Float32Array…). */
  | "ERR_ARGUMENT"
  /** An argument has the right type but a value outside what the call accepts (a negative count, a too-short array). */
  | "ERR_OUT_OF_RANGE"
  /** An argument has the right type, but its content breaks a rule of the call (a joint name used twice, parents after children). */
  | "ERR_INVALID_VALUE"
  /** An object was used after `dispose()` or `terminate()`. */
  | "ERR_DISPOSED"
  /** A pose, clip or mask belongs to a skeleton other than the one the call works on. */
  | "ERR_SKELETON_MISMATCH";

/** Every AnimgraphErrorCode, for exhaustive checks and tests. */
export const ANIMGRAPH_ERROR_CODES: readonly AnimgraphErrorCode[] = Object.freeze([
  "ERR_ARGUMENT", "ERR_OUT_OF_RANGE", "ERR_INVALID_VALUE", "ERR_DISPOSED", "ERR_SKELETON_MISMATCH",
]);

/** The structured parts of an AnimgraphError besides its code and message. */
export interface AnimgraphErrorDetails {
  /** The parameter's name as the function declares it, with a path into it when a part is wrong (`spec.layers`). */
  readonly argument?: string;
  /** What the call accepts, in words (`a Float32Array of 12 numbers`). */
  readonly expected?: string;
  /** What it got, in words (`a string`). */
  readonly received?: string;
  readonly cause?: unknown;
}

/**
 * The one error class every public function throws for a programmer error: a wrong-typed or
 * out-of-range argument, a disposed object, a pose of another skeleton. User data (spec files, JSON,
 * BVH, glTF) never throws; it comes back as diagnostics. `code` is stable across versions, so callers
 * branch on it rather than on the message (docs/api-errors.md lists them).
 */
export class AnimgraphError extends Error {
  /** Stable code to branch on (`ERR_ARGUMENT`, `ERR_OUT_OF_RANGE`, …). */
  readonly code: AnimgraphErrorCode;
  /** The argument at fault (`spec`, `init.parents`), when one is. */
  readonly argument: string | undefined;
  /** What the call accepts, in words. */
  readonly expected: string | undefined;
  /** What it got, in words. */
  readonly received: string | undefined;

  /** Builds the error; public functions build it through the checks of src/errors/check-argument.ts. */
  constructor(code: AnimgraphErrorCode, message: string, details: AnimgraphErrorDetails = {}) {
    // A wrong argument here is itself a programmer error: it gets the error this class stands for
    // (built from valid arguments, so this check does not recurse).
    const wrong = !ANIMGRAPH_ERROR_CODES.includes(code) ? ["code", `one of ${ANIMGRAPH_ERROR_CODES.join(", ")}`, code] as const
      : typeof message !== "string" ? ["message", "a string", message] as const
        : typeof details !== "object" || details === null || Array.isArray(details) ? ["details", "an object or undefined", details] as const
          : undefined;
    if (wrong !== undefined) {
      const [argument, expected, value] = wrong;
      const received = describeSimply(value);
      throw new AnimgraphError("ERR_ARGUMENT", `AnimgraphError: ${argument} must be ${expected}; got ${received}`, { argument, expected, received });
    }
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "AnimgraphError";
    this.code = code;
    this.argument = details.argument;
    this.expected = details.expected;
    this.received = details.received;
  }
}

/** `undefined`, `null`, `the number 3`, `a string`, `an object`: enough for the constructor's own message (check-argument.ts has the full describeValue). */
function describeSimply(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === "number" || typeof value === "boolean") return `the ${typeof value} ${String(value)}`;
  if (typeof value === "string") return value.length <= 24 ? `the string ${JSON.stringify(value)}` : `a string of length ${value.length}`;
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** True for an AnimgraphError, also one thrown by another copy of the package (bundles may hold two). */
export function isAnimgraphError(value: unknown): value is AnimgraphError {
  return value instanceof AnimgraphError
    || (typeof value === "object" && value !== null && (value as { name?: unknown }).name === "AnimgraphError"
      && typeof (value as { code?: unknown }).code === "string");
}

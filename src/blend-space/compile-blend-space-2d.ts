import Delaunator from "delaunator";
import { childPointer, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError } from "../errors/check-argument.ts";
import { expectShape, type FieldKind } from "../errors/check-shape.ts";

/** One sample of a freeform 2D blend space: where its child sits on the two parameter axes. */
export interface BlendSample2D {
  /** Position on the first parameter axis. */
  readonly x: number;
  /** Position on the second parameter axis. */
  readonly y: number;
}

/**
 * How a compiled 2D blend space evaluates, decided by its usable samples (finite, first at their
 * position): `point` (one sample: weight 1), `line` (two, or all collinear: 1D piecewise-linear along
 * the line), `triangles` (Delaunay triangulation: barycentric inside, nearest hull edge outside).
 */
export type BlendSpace2DKind = "point" | "line" | "triangles";

/** A freeform 2D blend space prepared for allocation-free evaluation by `blendSpace2DWeights`. */
export interface CompiledBlendSpace2D {
  readonly kind: BlendSpace2DKind;
  /** Number of samples given (weights arrays hold this many entries, one per sample, in input order). */
  readonly sampleCount: number;
  /** Sample positions, x and y interleaved (2 per sample, input order). */
  readonly coords: Float64Array;
  /**
   * Per sample: 1 if it takes part in blending, 0 if it was dropped (not finite, or a duplicate of an
   * earlier sample's position); dropped samples always get weight 0.
   */
  readonly usable: Uint8Array;
  /**
   * Delaunay triangles, 3 sample indices each, in Delaunator's winding (counter-clockwise with y
   * pointing down, i.e. clockwise with y up); empty unless kind is `triangles`.
   */
  readonly triangles: Uint32Array;
  /**
   * Kind `triangles`: the convex hull as sample indices, in the triangles' winding (samples lying on
   * a hull edge may appear). Kind `line`: the usable samples sorted along the line. Kind `point`: the
   * one sample.
   */
  readonly hull: Uint32Array;
  /** For kind `line`: the position of each `hull` entry along the line (increasing), else empty. */
  readonly lineParams: Float64Array;
  /** For kind `line`: origin (x, y) and unit direction (dx, dy) of the line; zeros otherwise. */
  readonly line: Float64Array;
}

/** Where the samples came from, so diagnostics of `compileBlendSpace2D` point into the user's file. */
export interface CompileBlendSpace2DOptions {
  /** File named in diagnostics; default `<input>`. */
  readonly file?: string;
  /** JSON pointer of the samples array in that file; sample i is reported at `<pointer>/<i>`. Default "". */
  readonly pointer?: string;
}

/** What `compileBlendSpace2D` returns: the compiled space (if any sample is usable) and every problem found. */
export interface CompileBlendSpace2DResult {
  /** The compiled space, or null when no sample is usable (then `diagnostics` says why). */
  readonly compiled: CompiledBlendSpace2D | null;
  /** Dropped samples, collinear samples and an empty space, each at `<pointer>/<i>` of the sample. */
  readonly diagnostics: Diagnostic[];
}

const OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = { file: "string?", pointer: "string?" };

/**
 * The samples as code passes them: an array (or array-like) of `{ x, y }` objects with number
 * coordinates. Their values are data (a NaN or a duplicate is a diagnostic); their types are the
 * caller's (a string coordinate is AnimgraphError ERR_ARGUMENT naming `samples[i].x`).
 */
function expectSamples(samples: unknown): asserts samples is ArrayLike<BlendSample2D> {
  const fn = "compileBlendSpace2D";
  const length = typeof samples === "object" && samples !== null ? (samples as { length?: unknown }).length : undefined;
  if (typeof length !== "number" || !Number.isInteger(length) || length < 0) {
    throw argumentError(fn, "samples", "an array of { x, y } sample positions", samples);
  }
  for (let i = 0; i < length; i++) {
    const sample = (samples as ArrayLike<unknown>)[i] as { x?: unknown; y?: unknown } | null;
    if (typeof sample !== "object" || sample === null) throw argumentError(fn, `samples[${i}]`, "a sample position { x, y }", sample);
    if (typeof sample.x !== "number") throw argumentError(fn, `samples[${i}].x`, "a number", sample.x);
    if (typeof sample.y !== "number") throw argumentError(fn, `samples[${i}].y`, "a number", sample.y);
  }
}

/** Distance from the line, relative to the samples' extent, below which samples count as collinear. */
const COLLINEAR_TOLERANCE = 1e-9;

/**
 * Compiles a freeform 2D blend space (compile time, allocates): drops unusable samples with a
 * diagnostic, triangulates the rest with Delaunator (Delaunay, so triangles are as fat as the samples
 * allow) and records the convex hull. Never throws on user data; diagnostics:
 *
 * - `E_BLEND_SAMPLE_NOT_FINITE` (error): a coordinate is NaN or infinite; the sample is dropped.
 * - `E_BLEND_DUPLICATE_SAMPLE` (error): a sample sits exactly where an earlier one does; it would never
 *   be reached, so it gets weight 0 everywhere.
 * - `E_BLEND_COLLINEAR` (warning): three or more usable samples all lie on one line; the space has no 2D
 *   extent and is evaluated as a 1D blend along that line.
 * - `E_BLEND_EMPTY` (error): no usable sample; `compiled` is null.
 */
export function compileBlendSpace2D(
  samples: ArrayLike<BlendSample2D>,
  options: CompileBlendSpace2DOptions = {},
): CompileBlendSpace2DResult {
  expectSamples(samples);
  expectShape("compileBlendSpace2D", "options", options, "a CompileBlendSpace2DOptions object ({ file?, pointer? })", OPTIONS_SHAPE);
  return compileBlendSpace2DUnchecked(samples, options);
}

/** `compileBlendSpace2D` without the argument checks: what compileGraph and the linter call on a validated spec's samples. */
export function compileBlendSpace2DUnchecked(
  samples: ArrayLike<BlendSample2D>,
  options: CompileBlendSpace2DOptions = {},
): CompileBlendSpace2DResult {
  const file = options.file ?? "<input>";
  const base = options.pointer ?? "";
  const diagnostics: Diagnostic[] = [];
  const n = samples.length;
  const coords = new Float64Array(2 * n);
  const usable = new Uint8Array(n);
  const seen = new Map<string, number>();
  const kept: number[] = [];
  for (let i = 0; i < n; i++) {
    const { x, y } = samples[i]!;
    coords[2 * i] = x;
    coords[2 * i + 1] = y;
    const pointer = childPointer(base, i);
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      diagnostics.push({ code: "E_BLEND_SAMPLE_NOT_FINITE", severity: "error", file, pointer, message: `blend sample ${i} has a non-finite position (${x}, ${y})` });
      continue;
    }
    // Exact position key; +0 normalises -0 so (0, -0) duplicates (0, 0).
    const key = `${x + 0},${y + 0}`;
    const first = seen.get(key);
    if (first !== undefined) {
      diagnostics.push({
        code: "E_BLEND_DUPLICATE_SAMPLE", severity: "error", file, pointer,
        message: `blend sample ${i} at (${x}, ${y}) duplicates sample ${first}; it can never be reached and gets weight 0`,
      });
      continue;
    }
    seen.set(key, i);
    usable[i] = 1;
    kept.push(i);
  }
  const empty = new Uint32Array(0);
  const noFloats = new Float64Array(0);
  if (kept.length === 0) {
    diagnostics.push({ code: "E_BLEND_EMPTY", severity: "error", file, pointer: base, message: "the blend space has no usable sample" });
    return { compiled: null, diagnostics };
  }
  const compiledBase = { sampleCount: n, coords, usable };
  if (kept.length === 1) {
    return {
      compiled: { ...compiledBase, kind: "point", triangles: empty, hull: Uint32Array.of(kept[0]!), lineParams: noFloats, line: new Float64Array(4) },
      diagnostics,
    };
  }
  const line = fitLine(coords, kept);
  const collinear = kept.length === 2 || maxLineDistance(coords, kept, line) <= COLLINEAR_TOLERANCE * line.extent;
  let delaunay: Delaunator<Float64Array> | null = null;
  if (!collinear) {
    const packed = new Float64Array(2 * kept.length);
    kept.forEach((s, k) => {
      packed[2 * k] = coords[2 * s]!;
      packed[2 * k + 1] = coords[2 * s + 1]!;
    });
    delaunay = new Delaunator(packed);
  }
  if (delaunay === null || delaunay.triangles.length === 0) {
    if (kept.length >= 3) {
      diagnostics.push({
        code: "E_BLEND_COLLINEAR", severity: "warning", file, pointer: base,
        message: `all ${kept.length} blend samples lie on one line; the space is evaluated as a 1D blend along it`,
      });
    }
    const order = [...kept].sort((a, b) => paramOf(coords, a, line) - paramOf(coords, b, line));
    return {
      compiled: {
        ...compiledBase,
        kind: "line",
        triangles: empty,
        hull: Uint32Array.from(order),
        lineParams: Float64Array.from(order, (s) => paramOf(coords, s, line)),
        line: Float64Array.of(line.ox, line.oy, line.dx, line.dy),
      },
      diagnostics,
    };
  }
  return {
    compiled: {
      ...compiledBase,
      kind: "triangles",
      triangles: Uint32Array.from(delaunay.triangles, (k) => kept[k]!),
      hull: Uint32Array.from(delaunay.hull, (k) => kept[k]!),
      lineParams: noFloats,
      line: new Float64Array(4),
    },
    diagnostics,
  };
}

interface Line {
  readonly ox: number;
  readonly oy: number;
  readonly dx: number;
  readonly dy: number;
  /** Length of the segment between the two far samples the line runs through. */
  readonly extent: number;
}

/**
 * The line through two far-apart samples (the farthest from the first sample, then the farthest from
 * that one: at least half the diameter), so the direction is well conditioned.
 */
function fitLine(coords: Float64Array, kept: readonly number[]): Line {
  const farthestFrom = (from: number): number => {
    let best = from;
    let bestD = -1;
    for (const s of kept) {
      const d = Math.hypot(coords[2 * s]! - coords[2 * from]!, coords[2 * s + 1]! - coords[2 * from + 1]!);
      if (d > bestD) {
        bestD = d;
        best = s;
      }
    }
    return best;
  };
  const a = farthestFrom(kept[0]!);
  const b = farthestFrom(a);
  const ox = coords[2 * a]!;
  const oy = coords[2 * a + 1]!;
  const extent = Math.hypot(coords[2 * b]! - ox, coords[2 * b + 1]! - oy);
  return { ox, oy, dx: (coords[2 * b]! - ox) / extent, dy: (coords[2 * b + 1]! - oy) / extent, extent };
}

function paramOf(coords: Float64Array, s: number, line: Line): number {
  return (coords[2 * s]! - line.ox) * line.dx + (coords[2 * s + 1]! - line.oy) * line.dy;
}

function maxLineDistance(coords: Float64Array, kept: readonly number[], line: Line): number {
  let max = 0;
  for (const s of kept) {
    const d = Math.abs((coords[2 * s]! - line.ox) * line.dy - (coords[2 * s + 1]! - line.oy) * line.dx);
    if (d > max) max = d;
  }
  return max;
}

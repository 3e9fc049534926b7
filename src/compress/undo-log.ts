/**
 * An undo log for the compressor's trials: before a trial overwrites part of the encoder's state
 * (residuals, decoded keys, compensated targets, candidate poses and model transforms), the slice is
 * copied here; a rejected trial copies every slice back, newest first. Restoring by copy is exact and
 * costs a fraction of recomputing the old state (compensation, re-encoding and model transforms of the
 * whole subtree), which is what a rejected trial used to do. Every value saved (float64, float32, int32,
 * uint8) is held exactly by a float64. Grows by doubling; allocates nothing once warm.
 */
export type Saved = Float64Array | Float32Array | Int32Array | Uint8Array;

export interface UndoLog {
  /** The array of each entry (a plain array of references, reused). */
  readonly arrays: Saved[];
  /** Per entry: offset of the first element, elements per run, runs, stride between runs (4 ints). */
  shape: Int32Array;
  /** The saved values, entry after entry. */
  data: Float64Array;
  /** Entries and values in use. */
  entries: number;
  used: number;
}

/** Runs at least this long are copied with `TypedArray.set` (`subarray` builds a view, dearer than a short loop). */
const BULK = 256;

/** An empty log whose value buffer starts at `capacity` floats (it grows as needed). */
export function createUndoLog(capacity = 1 << 14): UndoLog {
  return { arrays: [], shape: new Int32Array(4 * 64), data: new Float64Array(Math.max(16, capacity)), entries: 0, used: 0 };
}

/** Saves `runs` runs of `width` elements of `array`, the first at `offset`, each `stride` after the last. */
export function saveRuns(log: UndoLog, array: Saved, offset: number, width: number, runs: number, stride: number): void {
  const n = width * runs;
  if (n <= 0) return;
  if (4 * (log.entries + 1) > log.shape.length) {
    const shape = new Int32Array(2 * log.shape.length);
    shape.set(log.shape);
    log.shape = shape;
  }
  if (log.used + n > log.data.length) {
    const data = new Float64Array(Math.max(2 * log.data.length, log.used + n));
    data.set(log.data.subarray(0, log.used));
    log.data = data;
  }
  const e = log.entries++;
  log.arrays[e] = array;
  const shape = log.shape;
  shape[4 * e] = offset;
  shape[4 * e + 1] = width;
  shape[4 * e + 2] = runs;
  shape[4 * e + 3] = stride;
  const u = log.used;
  log.used = u + n;
  if (runs === 1 && width >= BULK) {
    // One copy in the engine instead of element loads that see four array types.
    log.data.set(array.subarray(offset, offset + width), u);
  } else if (array instanceof Float64Array) {
    copyOutF64(log.data, u, array, offset, width, runs, stride);
  } else {
    copyOut(log.data, u, array, offset, width, runs, stride);
  }
}

/** Saves `length` contiguous elements of `array` from `offset`. */
export function saveRange(log: UndoLog, array: Saved, offset: number, length: number): void {
  saveRuns(log, array, offset, length, 1, length);
}

/** Copies every saved slice back, newest first, and empties the log. */
export function undo(log: UndoLog): void {
  const { shape, data } = log;
  let u = log.used;
  for (let e = log.entries - 1; e >= 0; e--) {
    const array = log.arrays[e]!;
    const offset = shape[4 * e]!, width = shape[4 * e + 1]!, runs = shape[4 * e + 2]!, stride = shape[4 * e + 3]!;
    u -= width * runs;
    if (runs === 1 && width >= BULK) array.set(data.subarray(u, u + width), offset);
    else if (array instanceof Float64Array) copyInF64(array, offset, width, runs, stride, data, u);
    else copyIn(array, offset, width, runs, stride, data, u);
  }
  forget(log);
}

/** Empties the log (the trial is kept). */
export function forget(log: UndoLog): void {
  log.entries = 0;
  log.used = 0;
}

// Strided float64 runs (model transforms: 12 floats a frame, 12 × J apart) are most of what is saved:
// they get loops of their own, which see one array type; the generic loops see the short rest.
function copyOutF64(data: Float64Array, u: number, array: Float64Array, offset: number, width: number, runs: number, stride: number): void {
  for (let r = 0; r < runs; r++) {
    const o = offset + r * stride;
    for (let i = 0; i < width; i++) data[u++] = array[o + i]!;
  }
}

function copyInF64(array: Float64Array, offset: number, width: number, runs: number, stride: number, data: Float64Array, u: number): void {
  for (let r = 0; r < runs; r++) {
    const o = offset + r * stride;
    for (let i = 0; i < width; i++) array[o + i] = data[u++]!;
  }
}

function copyOut(data: Float64Array, u: number, array: Saved, offset: number, width: number, runs: number, stride: number): void {
  for (let r = 0; r < runs; r++) {
    const o = offset + r * stride;
    for (let i = 0; i < width; i++) data[u++] = array[o + i]!;
  }
}

function copyIn(array: Saved, offset: number, width: number, runs: number, stride: number, data: Float64Array, u: number): void {
  for (let r = 0; r < runs; r++) {
    const o = offset + r * stride;
    for (let i = 0; i < width; i++) array[o + i] = data[u++]!;
  }
}

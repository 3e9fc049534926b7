import { AnimgraphError } from "../errors/animgraph-error.ts";
import { argumentError, expectInteger, expectOptionalObject, rangeError } from "../errors/check-argument.ts";
import { expectCompiledGraph } from "../graph/check-graph.ts";
import type { Crowd, CrowdOptions } from "./crowd.ts";
import { poseStride } from "./crowd-layout.ts";
import type { SampleCache } from "./sample-cache.ts";

// Boundary checks of the crowd calls, kept out of crowd.ts / evaluate-crowd.ts / sample-cache.ts so
// those files stay about evaluation. The per-frame calls (evaluateCrowd, evaluateCrowdSelected,
// beginFrame) pay one WeakSet lookup or a few typeof tests and allocate nothing unless they throw.

/** The most floats one crowd buffer holds (2^31 − 1, 8 GiB of float32): a count beyond is a mistake, not a crowd. */
const MAX_BUFFER_FLOATS = 0x7fffffff;
/** A kernel crowd lives in one WebAssembly memory, at most 4 GiB. */
const MAX_KERNEL_BYTES = 2 ** 32;

/** Crowds that passed `expectCrowd` once (createCrowd's and any checked before): later calls pay one lookup. */
const checkedCrowds = new WeakSet<object>();

/** A Crowd from createCrowd. */
export function expectCrowd(fn: string, argument: string, value: unknown): asserts value is Crowd {
  if (checkedCrowds.has(value as object)) return;
  const crowd = value as Partial<Crowd> | null;
  if (typeof crowd !== "object" || crowd === null || !Number.isInteger(crowd.count) || !Array.isArray(crowd.instances)
    || crowd.instances.length !== crowd.count || !(crowd.poseBuffer instanceof Float32Array) || !(crowd.model instanceof Float32Array)
    || typeof crowd.cache !== "object" || crowd.cache === null || typeof crowd.graph !== "object" || crowd.graph === null) {
    throw argumentError(fn, argument, "a Crowd (from createCrowd)", value);
  }
  expectCompiledGraph(fn, `${argument}.graph`, crowd.graph);
  checkedCrowds.add(crowd);
}

/** A time step: a finite number of seconds ≥ 0. */
function expectStep(fn: string, argument: string, dt: unknown): void {
  if (typeof dt !== "number") throw argumentError(fn, argument, "a number of seconds", dt);
  if (!(dt >= 0 && dt < Infinity)) throw rangeError(fn, argument, "a finite number of seconds ≥ 0", dt);
}

/** `undefined`, or a value of this typeof. */
function expectOptional(fn: string, argument: string, value: unknown, type: "boolean" | "number", expected: string): void {
  if (value !== undefined && typeof value !== type) throw argumentError(fn, argument, `${expected} or undefined`, value);
}

/** An ArrayBuffer or SharedArrayBuffer of at least `bytes` bytes. */
function expectBuffer(fn: string, argument: string, value: unknown, bytes: number): void {
  const isBuffer = value instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer);
  if (!isBuffer) throw argumentError(fn, argument, "an ArrayBuffer or SharedArrayBuffer", value);
  if (value.byteLength < bytes) {
    const expected = `an ArrayBuffer or SharedArrayBuffer of at least ${bytes} bytes`, received = `a buffer of ${value.byteLength} bytes`;
    throw new AnimgraphError("ERR_OUT_OF_RANGE", `${fn}: ${argument} must be ${expected}; got ${received}`, { argument, expected, received });
  }
}

/** createCrowd's graph, count and options (the buffers large enough for the characters they hold). */
export function expectCreateCrowdArguments(graph: unknown, count: unknown, options: unknown): void {
  const fn = "createCrowd";
  expectCompiledGraph(fn, "graph", graph);
  const J = graph.skeleton.jointCount;
  expectInteger(fn, "count", count, 0, Math.floor(MAX_BUFFER_FLOATS / (16 * Math.max(1, J))));
  expectOptionalObject(fn, "options", options);
  const o = (options ?? {}) as CrowdOptions;
  expectOptional(fn, "options.share", o.share, "boolean", "a boolean");
  expectOptional(fn, "options.shareCursors", o.shareCursors, "boolean", "a boolean");
  expectOptional(fn, "options.localPoses", o.localPoses, "boolean", "a boolean");
  if (o.timeQuantum !== undefined) expectTimeQuantum(fn, "options.timeQuantum", o.timeQuantum);
  if (o.root !== undefined && !(o.root instanceof Float32Array && o.root.length >= 16)) {
    throw argumentError(fn, "options.root", "a Float32Array of 16 numbers (a column-major mat4) or undefined", o.root);
  }
  if (o.kernel !== undefined) {
    const kernel = o.kernel as { module?: unknown; heapBase?: unknown } | null;
    if (typeof kernel !== "object" || kernel === null || !(kernel.module instanceof WebAssembly.Module) || typeof kernel.heapBase !== "number") {
      throw argumentError(fn, "options.kernel", "a CrowdKernel (from loadCrowdKernel or loadCrowdKernelSync) or undefined", o.kernel);
    }
    // Local pose, model matrices and the kernel's scratch per character: 26 floats per joint at least.
    if (count * 104 * Math.max(1, J) > MAX_KERNEL_BYTES) {
      throw rangeError(fn, "count", `at most ${Math.floor(MAX_KERNEL_BYTES / (104 * Math.max(1, J)))} characters of ${J} joints with the kernel (4 GiB of WebAssembly memory)`, count);
    }
  }
  if (o.buffers !== undefined) {
    const b = o.buffers as { pose?: unknown; model?: unknown; first?: unknown } | null;
    if (typeof b !== "object" || b === null) throw argumentError(fn, "options.buffers", "an object { pose, model, first } or undefined", b);
    expectInteger(fn, "options.buffers.first", b.first);
    const end = b.first + count;
    expectBuffer(fn, "options.buffers.pose", b.pose, o.localPoses === false ? 0 : 4 * end * poseStride(J));
    expectBuffer(fn, "options.buffers.model", b.model, 4 * end * 16 * J);
  }
}

/** A shared-sampling time quantum: a finite number of seconds ≥ 0. */
function expectTimeQuantum(fn: string, argument: string, value: unknown): void {
  if (typeof value !== "number") throw argumentError(fn, argument, "a number of seconds ≥ 0", value);
  if (!(value >= 0 && value < Infinity)) throw rangeError(fn, argument, "a finite number of seconds ≥ 0", value);
}

/** createSampleCache's graph, share flag and time quantum. */
export function expectSampleCacheArguments(graph: unknown, share: unknown, timeQuantum: unknown): void {
  const fn = "createSampleCache";
  expectCompiledGraph(fn, "graph", graph);
  if (typeof share !== "boolean") throw argumentError(fn, "share", "a boolean", share);
  expectTimeQuantum(fn, "timeQuantum", timeQuantum);
}

/** A SampleCache (from createSampleCache, or a crowd's `cache`): typeof tests only, as beginFrame runs every frame. */
export function expectSampleCache(fn: string, argument: string, value: unknown): asserts value is SampleCache {
  const cache = value as Partial<SampleCache> | null;
  if (typeof cache !== "object" || cache === null || typeof cache.frame !== "number" || typeof cache.sample !== "function") {
    throw argumentError(fn, argument, "a SampleCache (from createSampleCache or a crowd's cache)", value);
  }
}

/** evaluateCrowd's crowd, step and character range [from, to) within the crowd. */
export function expectEvaluateCrowdArguments(crowd: unknown, dt: unknown, from: unknown, to: unknown): void {
  const fn = "evaluateCrowd";
  expectCrowd(fn, "crowd", crowd);
  expectStep(fn, "dt", dt);
  expectInteger(fn, "from", from, 0, crowd.count);
  if (to !== undefined) expectInteger(fn, "to", to, from, crowd.count);
}

/**
 * evaluateCrowdSelected's crowd, indices, count and per-character steps: every selected index is a
 * character of the crowd (one loop over the selection, no allocation).
 */
export function expectEvaluateSelectedArguments(crowd: unknown, selected: unknown, selectedCount: unknown, dts: unknown): void {
  const fn = "evaluateCrowdSelected";
  expectCrowd(fn, "crowd", crowd);
  if (!(selected instanceof Int32Array)) throw argumentError(fn, "selected", "an Int32Array of character indices", selected);
  expectInteger(fn, "selectedCount", selectedCount, 0, selected.length);
  if (!(dts instanceof Float32Array || dts instanceof Float64Array)) {
    throw argumentError(fn, "dts", `a Float32Array or Float64Array of ${crowd.count} steps (one per character)`, dts);
  }
  if (dts.length < crowd.count) throw rangeError(fn, "dts", `a Float32Array or Float64Array of at least ${crowd.count} steps (one per character)`, dts);
  for (let k = 0; k < selectedCount; k++) {
    const i = selected[k]!;
    if (!(i >= 0 && i < crowd.count)) throw rangeError(fn, `selected[${k}]`, `a character index in [0, ${crowd.count})`, i);
    const dt = dts[i]!;
    if (!(dt >= 0 && dt < Infinity)) throw rangeError(fn, `dts[${i}]`, "a finite number of seconds ≥ 0", dt);
  }
}

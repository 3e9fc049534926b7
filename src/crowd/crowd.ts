import type { CompiledGraph } from "../graph/compiled-graph.ts";
import { createInstance, type GraphInstance, type InertialState, type MachineInstance } from "../graph/graph-instance.ts";
import { createPose, type Pose } from "../pose/pose.ts";
import { poseStride, poseView } from "./crowd-layout.ts";
import { createSampleCache, type SampleCache } from "./sample-cache.ts";
import { expectCreateCrowdArguments } from "./check-crowd-arguments.ts";
import { createSteadyPlan, type SteadyPlan } from "./steady-advance.ts";
import { CrowdMachine } from "./crowd-machine.ts";
import { characterViews, createCrowdState, type CrowdState } from "./crowd-state.ts";
import type { CrowdKernel } from "./wasm/kernel.ts";
import { createKernelPoses, keptMachines, type KernelPoses } from "./wasm/kernel-poses.ts";
import { createWasmCrowd, type WasmCrowd } from "./wasm/wasm-crowd.ts";

export { poseStride, poseView } from "./crowd-layout.ts";

/** How `createCrowd` lays out and evaluates a crowd: sampling sharing, buffers, cursors and the kernel. */
export interface CrowdOptions {
  /**
   * Shared sampling: instances that sample the same keyframed clip at the same (exact) local time in
   * one `evaluateCrowd` call read one sample instead of each sampling it. Default true. The result is
   * bit-for-bit the unshared one (the same sampler on the same inputs; see sample-cache.ts).
   */
  readonly share?: boolean;
  /**
   * Seconds. 0 (default): shared sampling keys on exact times, results bit-identical to `step`. q > 0:
   * quantised sharing — every keyframed clip is sampled at most once per grid time k·q per frame and
   * characters read the sample nearest their time, so out-of-phase crowds share too. An approximation:
   * a character's clip time is off by at most q/2 (e.g. 1/120 s at q = 1/60 s), poses are those of that
   * nearby time. Ignored when `share` is false.
   */
  readonly timeQuantum?: number;
  /**
   * Buffers to build the crowd on, e.g. `SharedArrayBuffer`s so worker threads can write into them
   * (crowd-workers.ts). Lengths in floats: pose 10·J·count, model 16·J·count. Default: fresh
   * ArrayBuffers. `first` is the index of the crowd's first
   * character in those buffers (a worker evaluating characters [first, first + count)).
   */
  readonly buffers?: { readonly pose: ArrayBufferLike; readonly model: ArrayBufferLike; readonly first: number };
  /**
   * One set of clip cursors for the whole crowd instead of one per character. A cursor is only a search
   * hint (sampling gives the same result from any hint), so poses are unchanged; characters out of
   * phase then find their keys by binary search (O(log keys)) instead of O(1), and each character saves
   * 4 bytes per track per state (≈ 5 KiB for the robot graph). Default true.
   */
  readonly shareCursors?: boolean;
  /** Transform above every character's skeleton roots (column-major mat4), as for `localToModel`. */
  readonly root?: Float32Array;
  /**
   * Evaluate with the WebAssembly SIMD kernel (`loadCrowdKernel()` / `loadCrowdKernelSync()`): the
   * graph logic stays in JS, sampling, blending and model-space transforms run in the kernel, within
   * float32 rounding of the JS path (test/crowd/wasm-crowd.test.ts measures it). The crowd's buffers
   * then live in the kernel's memory. With `buffers` (worker threads), the kernel's results are copied
   * into them after each evaluation. Shared sampling (`share`) applies to the JS path only. A graph with
   * IK layers (not disabled) runs on the JS path whatever this says, since the kernel has no IK jobs.
   */
  readonly kernel?: CrowdKernel;
  /**
   * Keep every character's local pose (default true). False keeps only the model-space matrices — what
   * GPU skinning and most renderers consume — and saves 40·J bytes per character: `poseBuffer` is then
   * empty, `poses` too, and every instance's `result.pose` is one scratch pose the crowd reuses from
   * character to character (valid only while that character is being evaluated). With `buffers`, their
   * `pose` is then neither read nor written (worker threads asked for model matrices only).
   */
  readonly localPoses?: boolean;
}

/**
 * A crowd: `count` characters running one compiled graph, their data laid out contiguously.
 * - `poseBuffer` holds every character's local pose (t, r, s for character i at 10·J·i; empty with
 *   `localPoses: false`); `poses[i]` is
 *   a Pose whose arrays are subarray views into it, and is also `instances[i].result.pose`, so
 *   `step` on an instance writes straight into the buffer;
 * - `model` holds every character's model-space matrices (16 floats per joint, column-major), character
 *   i at 16·J·i, written by `evaluateCrowd`;
 * - a machine's `frozen` pose (an interrupted blend frozen in place) is created the first time a
 *   transition freezes one, so a crowd whose graph never freezes carries none (10·J floats saved per
 *   machine and character);
 * - scratch that only lives during one character's evaluation (the instance's pose pool and layer pose)
 *   is one set shared by the whole crowd, which is why a crowd is evaluated by one thread at a time
 *   (split a crowd across threads with `createCrowdWorkers`, each worker owning its own part).
 * Parameters are set per instance (`setParam(graph, crowd.instances[i], name, value)`).
 */
export interface Crowd {
  /** The graph every character runs. */
  readonly graph: CompiledGraph;
  /** Number of characters. */
  readonly count: number;
  /** Joints per character (the graph's skeleton). */
  readonly jointCount: number;
  /** One graph instance per character; set parameters on these. */
  readonly instances: readonly GraphInstance[];
  /** Every character's local pose, 10·J floats each (empty with `localPoses: false`). */
  readonly poseBuffer: Float32Array;
  /** Per character: a Pose viewing its part of `poseBuffer`. */
  readonly poses: readonly Pose[];
  /** Every character's model-space matrices, 16·J floats each (column-major), written by `evaluateCrowd`. */
  readonly model: Float32Array;
  /** The transform above every character's skeleton roots (`CrowdOptions.root`), if given. */
  readonly root: Float32Array | undefined;
  /** Per character: its 16·J model-space floats, a view into `model`. */
  readonly matrices: readonly Float32Array[];
  /** The crowd's sampler: the shared-sampling cache (or a plain sampler when `share` is false). */
  readonly cache: SampleCache;
  /**
   * The kernel side when created with `kernel` (and the graph has no IK layer to run), else null: its
   * memory layout and command recorder, used by `evaluateCrowd` only.
   * @internal
   */
  readonly wasm: WasmCrowd | null;
  /** With `kernel` and `buffers`: the caller's pose and model views the results are copied into. */
  readonly mirror: { readonly pose: Float32Array; readonly model: Float32Array } | null;
  /**
   * What a run of settled characters shares in `evaluateCrowd`'s fast path (steady-advance.ts), or
   * null to send every character through `advanceInstance`.
   * @internal
   */
  readonly steady: SteadyPlan | null;
  /**
   * Every character's parameters, root-motion delta and machine clocks, in one buffer (crowd-state.ts):
   * the instances' typed arrays are views into it, and the settled path indexes it directly.
   * @internal
   */
  readonly state: CrowdState;
}

function copyRest(view: Pose, rest: Pose): void {
  view.t.set(rest.t);
  view.r.set(rest.r);
  view.s.set(rest.s);
}

const NO_JOINTS = createPose(0);
const NO_NUMBERS = new Float64Array(0);

/**
 * An InertialState without poses or vectors: the kernel holds those (kernel-poses.ts), and `times` views
 * the machine's per-frame record in the kernel's memory, where its recorder reads them.
 */
function bookkeepingOnly(times: Float64Array): InertialState {
  return {
    last: NO_JOINTS, previous: NO_JOINTS, times, history: 0, recipes: NO_NUMBERS, source: NO_JOINTS, velocity: NO_NUMBERS,
    offset: NO_NUMBERS, offsetVelocity: NO_NUMBERS, phase: 0, packed: NO_NUMBERS, moving: new Int32Array(0), movingCounts: new Int32Array(2),
    directions: NO_NUMBERS, rates: NO_NUMBERS,
  };
}

/**
 * Rebuilds a fresh instance around the crowd's buffers: its result pose becomes a view, its scratch
 * (pose pool, layer pose) the crowd's shared set and its machines' frozen poses lazy. New objects are
 * made, so no readonly field is written; nested machine instances keep their structure.
 */
function rebind(
  inst: GraphInstance, pose: Pose, pool: Pose[], layerPose: Pose, sampler: SampleCache, cursors: MachineInstance["cursors"][] | null,
  keeper: KernelPoses | undefined, views: ReturnType<typeof characterViews>,
): GraphInstance {
  const J = inst.graph.skeleton.jointCount;
  const machines: MachineInstance[] = new Array<MachineInstance>(inst.machines.length);
  const copy = (mi: MachineInstance): MachineInstance => {
    const id = mi.machine.id;
    const shared = cursors ? (cursors[id] ??= mi.cursors) : mi.cursors;
    const { frozen: _dropped, ...fields } = mi;
    // A machine whose poses the kernel keeps needs only the bookkeeping of its InertialState.
    const inertial = keeper && mi.inertial && keeper.keeps(mi) ? bookkeepingOnly(keeper.timesOf(mi)) : mi.inertial;
    const c: MachineInstance = new CrowdMachine({ ...fields, ...views.machine(mi), inertial, cursors: shared, nested: mi.nested.map((n) => (n ? copy(n) : null)) }, J);
    machines[mi.machine.id] = c;
    return c;
  };
  const layers = inst.layers.map(copy);
  // A literal, not a spread: `time` must start as a double field (0.5 here, reset below) so that
  // `time += dt` updates it in place; a spread copy keeps it tagged and every step would box the sum.
  const out: GraphInstance = {
    graph: inst.graph, params: views.params, layers, machines, time: 0.5, stamp: inst.stamp,
    result: { ...inst.result, pose, rootDelta: views.rootDelta }, pool, poolTop: 0, layerPose, sampler, ik: inst.ik, keeper,
  };
  out.time = inst.time;
  return out;
}

/**
 * Creates `count` characters of `graph` (parameters at their defaults, entry states at time 0) over
 * contiguous buffers. Allocates everything up front; evaluating allocates nothing. Throws (programmer
 * error) for a negative or non-integer count or buffers too small.
 */
export function createCrowd(graph: CompiledGraph, count: number, options: CrowdOptions = {}): Crowd {
  expectCreateCrowdArguments(graph, count, options);
  const J = graph.skeleton.jointCount;
  const M = graph.machines.length;
  const P = poseStride(J);
  const b = options.buffers;
  const first = b ? b.first : 0;
  const local = options.localPoses !== false;
  const external = b
    ? { pose: local ? new Float32Array(b.pose, 4 * first * P, count * P) : new Float32Array(0), model: new Float32Array(b.model, 4 * first * 16 * J, count * 16 * J) }
    : null;
  // The kernel has no IK jobs: a graph with an IK layer that can run plays on the JS path, which runs them
  // (`crowd.wasm` is then null), rather than drawing the crowd without its IK.
  const ikRuns = graph.ik.some((layer) => layer.weight > 0 || layer.weightSlot >= 0);
  const kernelSide = options.kernel && !ikRuns ? createWasmCrowd(options.kernel, graph, count, options.root, local) : null;
  const poseBuffer = kernelSide ? kernelSide.poseBuffer : external ? external.pose : new Float32Array(local ? count * P : 0);
  const scratchPose = local ? null : createPose(J);
  const model = kernelSide ? kernelSide.model : external ? external.model : new Float32Array(count * 16 * J);
  const rest = graph.skeleton.rest;
  const pool: Pose[] = [];
  for (let i = 0; i < 4 + 2 * M; i++) pool.push(createPose(J));
  const layerPose = createPose(J);
  const cache = createSampleCache(graph, options.share !== false, options.timeQuantum ?? 0);
  const poses: Pose[] = [];
  const matrices: Float32Array[] = [];
  const cursors: MachineInstance["cursors"][] | null = options.shareCursors === false ? null : [];
  const instances: GraphInstance[] = [];
  const anyKept = keptMachines(graph).some(Boolean);
  let state: CrowdState | null = null;
  for (let i = 0; i < count; i++) {
    const pose = scratchPose ?? poseView(poseBuffer, i * P, J);
    copyRest(pose, rest);
    if (!scratchPose) poses.push(pose);
    matrices.push(model.subarray(16 * J * i, 16 * J * (i + 1)));
    const keeper = kernelSide && anyKept ? createKernelPoses(kernelSide.wasm, graph, i) : undefined;
    const fresh = createInstance(graph);
    state ??= createCrowdState(fresh, count);
    instances.push(rebind(fresh, pose, pool, layerPose, cache, cursors, keeper, characterViews(state, fresh, i)));
  }
  state ??= createCrowdState(createInstance(graph), 0);
  return {
    graph, count, jointCount: J, instances, poseBuffer, poses, model, matrices, root: options.root, cache,
    wasm: kernelSide ? kernelSide.wasm : null, mirror: kernelSide ? external : null, steady: createSteadyPlan(graph), state,
  };
}

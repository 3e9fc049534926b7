import { createIkRuntime, type IkRuntime } from "./ik-layers.ts";
import { createClipCursor, type ClipCursor } from "../clip/clip-cursor.ts";
import type { Clip } from "../clip/clip.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import { createPose, type Pose } from "../pose/pose.ts";
import { expectCompiledGraph, expectInstance } from "./check-graph.ts";
import type { CompiledGraph, CompiledMachine, CompiledState } from "./compiled-graph.ts";
import { createEventQueue, type EventQueue } from "./graph-events.ts";
import { isProceduralClipUnchecked, type MotionSource } from "./motion-source.ts";

/** One crossfade on a machine's transition stack. */
export interface StackEntry {
  /** Transition index in the machine, or -1 for a travel teleport. */
  transition: number;
  /** The state that was current when it started. */
  from: number;
  /** Its target state. */
  to: number;
  /** Seconds since it started. */
  elapsed: number;
  /** Linear progress s = elapsed / duration in [0, 1]. */
  progress: number;
  /** Curve weight w = curve(s). */
  weight: number;
}

/**
 * What a machine with inertialized or dead-blended transitions keeps (docs/transitions.md): its last two
 * output poses, and the source those transitions start from. Allocated with the instance; only for
 * machines that have such transitions (`CompiledMachine.inertial`).
 */
export interface InertialState {
  /** The machine's last output pose and the one before it. Swapped, never copied, on each evaluation. */
  last: Pose;
  previous: Pose;
  /**
   * Seconds of the machine's own clock: [0] now, [1] when `last` was evaluated, [2] when `previous` was,
   * [3] the entry's elapsed time at the offset's origin (inertialize), [4..7] scratch.
   */
  readonly times: Float64Array;
  /** How many of `last` and `previous` hold an output (0..2; reset with the machine). */
  history: number;
  /**
   * How `last` ([0..4]) and `previous` ([5..9]) were made, when they were not copied: [state, its clip
   * time, 1 if the inertialization's offset was added, c0, c1]; state −1: the pose is in the buffer.
   * A plain clip's sample, with or without the offset, is replayed when a transition needs the history
   * (same calls, same bits), instead of copying every output (step.ts, rememberOutput).
   */
  readonly recipes: Float64Array;
  /** The captured source pose (the output at times[1] when the transition fired). */
  readonly source: Pose;
  /** The source's velocity, 9 per joint (translation, angular as a rotation vector, scale) per second. */
  readonly velocity: Float64Array;
  /** Inertialize: the offset x₀ and its velocity v₀ at the origin, 9 per joint. */
  readonly offset: Float64Array;
  readonly offsetVelocity: Float64Array;
  /** Inertialize: 0 = the offset is not known yet, 1 = x₀ known, v₀ not yet, 2 = both. */
  phase: number;
  /**
   * Inertialize: the offset and its velocity of the joints they move, packed by packOffset
   * (src/blend/pose-offset.ts), which the frame's offset reads: `moving` lists those joints,
   * `movingCounts` how many turn ([0]) and how many shift or scale ([1]).
   */
  readonly packed: Float64Array;
  readonly moving: Int32Array;
  readonly movingCounts: Int32Array;
  /** deadBlend: per joint (4 each) the last frame's rotation from target to extrapolated source (src/blend/dead-blend.ts). */
  readonly directions: Float64Array;
  /** deadBlend: per joint, the rate at which the extrapolated velocity decays (1/s). */
  readonly rates: Float64Array;
}

/**
 * The per-character state of one state machine (a layer's, or a nested one). Plain data.
 * The blend it produces: base = the source state's pose (or `frozen` when `source` is -1), then for each
 * stack entry i from the bottom: pose = blend(pose, pose(entry.to), entry.weight).
 */
export interface MachineInstance {
  readonly machine: CompiledMachine;
  readonly layer: number;
  /** The one current state (the top entry's target while fading). */
  current: number;
  /** Bottom of the blend: a state index, or -1 for the frozen pose. Meaningless when depth is 0. */
  source: number;
  /** Number of live stack entries. */
  depth: number;
  /** Crossfades, bottom first: [0, depth) are live. Grows on first use up to options.maxStackDepth. */
  readonly stack: StackEntry[];
  readonly frozen: Pose;
  /** Per state: its local time in seconds, unwrapped (grows past the cycle; wrapped when sampled). */
  readonly stateTime: Float64Array;
  /** Per state: its time at the start of the current sub-step (for events and root motion). */
  readonly statePrevTime: Float64Array;
  /** Per state: normalised phase, unwrapped, for synchronised blends (cycles completed + fraction). */
  readonly statePhase: Float64Array;
  readonly statePrevPhase: Float64Array;
  /** Per state: the sub-step stamp when it last advanced. */
  readonly advancedAt: Int32Array;
  /** Per state: its influence on this machine's output after the last step (sums to 1 with frozenWeight). */
  readonly stateWeight: Float64Array;
  frozenWeight: number;
  /** Per state: blend child weights (blend1d / blend2d), else an empty array. */
  readonly childWeights: readonly Float64Array[];
  /**
   * All of the float64 arrays above in one view (they are views into the same buffer), for n states:
   * stateTime [0, n), statePrevTime [n, 2n), statePhase [2n, 3n), statePrevPhase [3n, 4n), stateWeight
   * [4n, 5n), then each state's child weights in state order. The crowd's fast path for settled
   * characters reads and writes a machine's clocks through this one object instead of six
   * (src/crowd/steady-advance.ts): fewer objects to reach per character and frame. Made by the crowd
   * (src/crowd/crowd.ts) for its characters only, so it costs the minimal runtime's bundle nothing.
   */
  readonly clocks?: Float64Array;
  /** Grid blends: scratch weights per grid cell. */
  readonly cellWeights: readonly Float64Array[];
  /** Per state and child: a sampling cursor for keyframed clips (null for procedural ones). */
  readonly cursors: readonly (readonly (ClipCursor | null)[])[];
  /** Per state: the nested machine's instance when the state's motion is a machine. */
  readonly nested: readonly (MachineInstance | null)[];
  /** Inertialize / deadBlend bookkeeping, or null for a crossfade-only machine. */
  readonly inertial: InertialState | null;
  /** Pending travel path (transition indices), taken one by one. */
  readonly travelPath: Int32Array;
  travelLength: number;
  travelNext: number;
}

/** Per-layer summary of the last step. */
export interface LayerStepInfo {
  /** Current state of the layer's machine. */
  current: number;
  /** Stack depth (0 = no crossfade). */
  depth: number;
  /** The layer's effective weight this step. */
  weight: number;
}

/** What `step` returns; one object per instance, rewritten by every step. */
export interface StepResult {
  /** The final local pose. */
  readonly pose: Pose;
  /**
   * Root motion during the step: (dx, dy, dz, dyaw) — displacement in model units in the character's
   * frame at the step's start, and yaw change in radians (src/root-motion's convention); procedural
   * clips add their rootVelocity × time × weight. Base layer (layer 0) only.
   */
  readonly rootDelta: Float64Array;
  readonly events: EventQueue;
  readonly layers: readonly LayerStepInfo[];
  /** Sub-steps the step was split into (1 unless dt > maxSubstep). */
  substeps: number;
  /** Transitions fired during the step, all layers and machines. */
  transitionsFired: number;
}

/**
 * A replacement for `sampleClip` that `step` uses when an instance has one (src/crowd's shared-sampling
 * cache). It must write into `out` exactly what `sampleClip(out, clip, time, cursor, quatMode)` writes;
 * it may skip updating the cursor (a cursor is only a search hint).
 */
export interface ClipSampler {
  /** Writes the pose of `clip` at clip-local `time` seconds into `out`, as `sampleClip` would. */
  sample(out: Pose, clip: Clip, time: number, cursor: ClipCursor, quatMode: QuatInterpolation): void;
  /**
   * `sample` at time = times[index], which `step` prefers when present: it computes each clip's time
   * per frame, and V8 boxes a computed double passed to a call it does not inline into a new heap
   * number, so `sample` costs one small allocation per clip sample and this form none (when it passes
   * the slot on to `sampleClipAt`).
   */
  sampleAt?(out: Pose, clip: Clip, times: Float64Array, index: number, cursor: ClipCursor, quatMode: QuatInterpolation): void;
}

/**
 * Keeps the poses of some machines outside the instance: the crowd kernel holds, in its own memory, the
 * output history, captured source, offsets and frozen pose of every machine that inertializes or
 * dead-blends (or contains one), and does their pose work itself (src/crowd/wasm/kernel-poses.ts).
 * `step` asks it for every piece of pose work on such a machine and keeps only the bookkeeping (times,
 * phases, stacks) in JS.
 */
export interface PoseKeeper {
  /** Whether this keeper holds machine `mi`'s poses. */
  keeps(mi: MachineInstance): boolean;
  /** `evaluateMachine`: the machine's output into `out`, remembered as its latest. */
  evaluate(inst: GraphInstance, mi: MachineInstance, out: Pose): void;
  /** An inertialize / deadBlend transition fires: capture the source (step.ts's captureSource). */
  capture(inst: GraphInstance, mi: MachineInstance): void;
  /** Folds the machine's blend into its frozen pose (an interruption that freezes). */
  freeze(inst: GraphInstance, mi: MachineInstance): void;
  /** Folds the source and the oldest stack entry into the frozen pose (the stack is full). */
  collapseOldest(inst: GraphInstance, mi: MachineInstance): void;
}

/** A character's runtime data for one compiled graph. */
export interface GraphInstance {
  readonly graph: CompiledGraph;
  /** Parameter values by slot (bool/trigger as 0/1). */
  readonly params: Float64Array;
  /** One machine instance per layer. */
  readonly layers: readonly MachineInstance[];
  /** Every machine instance by machine id (layer machines and nested ones). */
  readonly machines: readonly MachineInstance[];
  /** Seconds simulated so far (sum of step dt). */
  time: number;
  /** Sub-step counter (stamps state advances). */
  stamp: number;
  readonly result: StepResult;
  /** Scratch poses, used stack-wise during evaluation; grows only on first use of a deeper nesting. */
  readonly pool: Pose[];
  poolTop: number;
  /** Per layer: that layer's pose before it is applied. */
  readonly layerPose: Pose;
  /** Scratch of the graph's IK layers (model frames), or null when it has none. */
  readonly ik: IkRuntime | null;
  /** Optional sampler used instead of `sampleClip` (absent: `sampleClip`). */
  readonly sampler?: ClipSampler;
  /** Optional keeper of some machines' poses (a kernel crowd's character); absent: all in JS. */
  readonly keeper?: PoseKeeper;
  /** True once `disposeInstance` was called: every call taking the instance then throws ERR_DISPOSED. */
  readonly disposed?: boolean;
}

export function motionSources(state: CompiledState): readonly MotionSource[] {
  const m = state.motion;
  if (m.kind === "clip") return [m.source];
  if (m.kind === "machine") return [];
  return m.sources;
}

/** Shared by every state without grid cells (read-only in practice: nothing writes a 0-length array). */
const NO_CELLS = new Float64Array(0);

function createMachineInstance(graph: CompiledGraph, machine: CompiledMachine, layer: number, all: MachineInstance[]): MachineInstance {
  const n = machine.states.length;
  const J = graph.skeleton.jointCount;
  // One buffer per machine, every per-state array a view into it: a typed array with its own buffer
  // costs ~200 bytes of bookkeeping however short it is, and a crowd keeps thousands of these
  // (docs/performance.md, per-character state). Float64 views first, then the int32 ones.
  const childCounts = machine.states.map((s) => motionSources(s).length);
  const cellCounts = machine.states.map((s) => (s.motion.kind === "blend2d" && s.motion.grid ? s.motion.grid.cellSample.length : 0));
  const doubles = 5 * n + childCounts.reduce((a, b) => a + b, 0) + cellCounts.reduce((a, b) => a + b, 0);
  const buffer = new ArrayBuffer(8 * doubles + 4 * (n + Math.max(1, n)));
  let o = 0;
  const take = (k: number): Float64Array => {
    const view = new Float64Array(buffer, 8 * o, k);
    o += k;
    return view;
  };
  const stateTime = take(n), statePrevTime = take(n), statePhase = take(n), statePrevPhase = take(n), stateWeight = take(n);
  const childWeights = childCounts.map(take);
  const cellWeights = cellCounts.map((k) => (k > 0 ? take(k) : NO_CELLS));
  const mi: MachineInstance = {
    machine, layer, current: machine.entry, source: machine.entry, depth: 0,
    stack: [],
    frozen: createPose(J),
    stateTime, statePrevTime, statePhase, statePrevPhase,
    advancedAt: new Int32Array(buffer, 8 * doubles, n).fill(-1),
    stateWeight, frozenWeight: 0,
    childWeights,
    cellWeights,
    cursors: machine.states.map((s) => motionSources(s).map((src) => (isProceduralClipUnchecked(src) ? null : createClipCursor(src)))),
    nested: [],
    inertial: machine.inertial ? createInertialState(J) : null,
    travelPath: new Int32Array(buffer, 8 * doubles + 4 * n, Math.max(1, n)), travelLength: 0, travelNext: 0,
  };
  all[machine.id] = mi;
  (mi as unknown as { nested: (MachineInstance | null)[] }).nested = machine.states.map((s) =>
    s.motion.kind === "machine" ? createMachineInstance(graph, s.motion.machine, layer, all) : null);
  mi.stateWeight[machine.entry] = 1;
  return mi;
}

function createInertialState(J: number): InertialState {
  return {
    last: createPose(J), previous: createPose(J), times: new Float64Array(8), history: 0, recipes: new Float64Array(10),
    source: createPose(J), velocity: new Float64Array(9 * J),
    offset: new Float64Array(9 * J), offsetVelocity: new Float64Array(9 * J), phase: 0,
    packed: new Float64Array(18 * J), moving: new Int32Array(2 * J), movingCounts: new Int32Array(2), directions: new Float64Array(4 * J), rates: new Float64Array(J),
  };
}

/**
 * Creates a character's instance: parameters at their defaults, every machine in its entry state at
 * time 0, and every buffer a step needs (poses, stacks, cursors, the event queue) preallocated.
 */
export function createInstance(graph: CompiledGraph): GraphInstance {
  expectCompiledGraph("createInstance", "graph", graph);
  const J = graph.skeleton.jointCount;
  // Parameters and the root-motion delta share one buffer (see createMachineInstance).
  const numbers = new ArrayBuffer(8 * (graph.params.length + 4));
  const params = new Float64Array(numbers, 0, graph.params.length);
  for (const p of graph.params) params[p.slot] = p.default;
  const machines: MachineInstance[] = new Array(graph.machines.length);
  const layers = graph.layers.map((l) => createMachineInstance(graph, l.machine, l.index, machines));
  const pool: Pose[] = [];
  for (let i = 0; i < 4 + 2 * graph.machines.length; i++) pool.push(createPose(J));
  return {
    graph, params, layers, machines, time: 0, stamp: 0,
    result: {
      pose: createPose(J), rootDelta: new Float64Array(numbers, 8 * graph.params.length, 4), events: createEventQueue(graph.options.eventCapacity),
      layers: graph.layers.map((l) => ({ current: l.machine.entry, depth: 0, weight: l.weight })), substeps: 0, transitionsFired: 0,
    },
    pool, poolTop: 0, layerPose: createPose(J), ik: graph.ik && graph.ik.length > 0 ? createIkRuntime(J) : null, disposed: false,
  };
}

/**
 * Marks an instance as no longer used (a character removed from the scene): any later call that takes
 * it (`step`, `setParam`, …) throws AnimgraphError ERR_DISPOSED instead of animating a removed
 * character. Calling it twice is harmless. The instance's buffers are garbage once unreferenced.
 */
export function disposeInstance(instance: GraphInstance): void {
  if (typeof instance === "object" && instance !== null && instance.disposed === true) return;
  expectInstance("disposeInstance", "instance", instance);
  (instance as { disposed: boolean }).disposed = true;
}

// The crowd's fast path for settled characters. Most characters of a crowd, most frames, are in no
// crossfade, fire no transition and play a clip or a blend whose weights, speed and cycle follow from
// the parameters alone; crowds also tend to share parameter values. For such a character the graph
// logic reduces to advancing its states' clocks (and their events and root motion), and the pose to
// the same few kernel commands. `advanceSteady` does exactly what `advanceInstance` does for it — same
// operations in the same order, so the same bits — but computes what depends on the parameters (state
// speed, cycle, child and layer weights) once per run of characters with identical parameters and
// states (a `SteadyPlan`), instead of two or three times per character. A machine that inertializes or
// dead-blends settles too between its transitions (its clock for the history moves on, and the recorder
// remembers its output). Anything else (a transition running or about to fire, a nested machine, a
// travel, sub-steps) takes the general path. test/crowd/steady-crowd.test.ts holds both paths to equal instance state, events and output.
import type { CompiledGraph } from "../graph/compiled-graph.ts";
import type { GraphInstance } from "../graph/graph-instance.ts";
import type { CrowdState } from "./crowd-state.ts";
import { addBaseRootMotion, layerWeightAt, MAX_STATE_CYCLES, NOW, sortEventsByTime } from "../graph/step.ts";
import { emitCrossings } from "../state-machine/clip-events.ts";
import { NONE, pickTransition } from "../state-machine/select-transition.ts";
import { childWeights, isSyncBlend, stateCycleAt, stateSpeedAt } from "../state-machine/state-clock.ts";

/**
 * What a run of settled characters shares: made from the first character of the run, reused while the
 * next one has the same parameters (Object.is on every slot) and the same current state in every layer.
 */
export interface SteadyPlan {
  /** False until made (and after `invalidatePlan`). */
  valid: boolean;
  /** Counts the times the plan was made: what was derived from one making (a command template) is current while it is unchanged. */
  generation: number;
  /** The parameters it was made with. */
  readonly params: Float64Array;
  /** Per layer: the current state, its speed (clamped ≥ 0), its cycle length and the layer's weight. */
  readonly states: Int32Array;
  readonly speed: Float64Array;
  readonly cycle: Float64Array;
  readonly layerWeight: Float64Array;
  /** Per layer: the state's child weights (blend states; as `childWeights` writes them). */
  readonly childWeights: Float64Array[];
  /**
   * Per layer, what the recorder emits for a blend state (record-pose.ts's `recordState`): the children
   * with weight > 0 in order, and for every one after the first its BLEND weight wc / (running sum).
   */
  readonly childCount: Int32Array;
  readonly children: Int32Array[];
  readonly blendWeight: Float64Array[];
  /** Per layer: where the current state's child weights start in the machine's `clocks`, and how many. */
  readonly childOffset: Int32Array;
  readonly childLength: Int32Array;
}

/** An empty plan for crowds of `graph` (made from the first settled character). */
export function createSteadyPlan(graph: CompiledGraph): SteadyPlan {
  const layers = graph.layers;
  const widest = layers.map((l) => {
    let k = 0;
    for (const st of l.machine.states) {
      const m = st.motion;
      if (m.kind !== "clip" && m.kind !== "machine") k = Math.max(k, m.sources.length);
    }
    return k;
  });
  return {
    valid: false,
    generation: 0,
    params: new Float64Array(graph.params.length),
    states: new Int32Array(layers.length),
    speed: new Float64Array(layers.length),
    cycle: new Float64Array(layers.length),
    layerWeight: new Float64Array(layers.length),
    childWeights: widest.map((k) => new Float64Array(k)),
    childCount: new Int32Array(layers.length),
    children: widest.map((k) => new Int32Array(k)),
    blendWeight: widest.map((k) => new Float64Array(k)),
    childOffset: new Int32Array(layers.length),
    childLength: new Int32Array(layers.length),
  };
}

/** Whether a frame of `dt` seconds can take the fast path at all: one sub-step, a valid dt. */
export function steadyFrame(graph: CompiledGraph, dt: number): boolean {
  return typeof dt === "number" && dt >= 0 && dt <= graph.options.maxSubstep;
}

function planMatches(plan: SteadyPlan, inst: GraphInstance, f64: Float64Array, block: number): boolean {
  if (!plan.valid) return false;
  // The parameters start the character's block (crowd-state.ts): inst.params views them.
  const q = plan.params;
  for (let k = 0; k < q.length; k++) if (!Object.is(f64[block + k], q[k])) return false;
  const layers = inst.layers;
  for (let li = 0; li < layers.length; li++) if (layers[li]!.current !== plan.states[li]) return false;
  return true;
}

/**
 * step.ts's clamp on state clocks (MAX_STATE_CYCLES cycles, or 2^40 s without a finite cycle), as local
 * doubles: an imported binding is read tagged, and a tagged value merged with a computed double boxes it.
 */
const STATE_CYCLES_LIMIT = new Float64Array([MAX_STATE_CYCLES, 2 ** 40]);

/** One double of scratch for the clock calls (they write a slot: a returned double would be boxed). */
const slot = new Float64Array(1);
/** emitCrossings' [n0, n1, cycle, t0, h]. */
const crossing = new Float64Array(5);

function makePlan(plan: SteadyPlan, inst: GraphInstance): void {
  plan.params.set(inst.params);
  const layers = inst.layers;
  for (let li = 0; li < layers.length; li++) {
    const mi = layers[li]!;
    const s = mi.current;
    const st = mi.machine.states[s]!;
    plan.states[li] = s;
    stateSpeedAt(inst, st, slot, 0);
    plan.speed[li] = slot[0]!;
    stateCycleAt(inst, mi, s, slot, 0);
    plan.cycle[li] = slot[0]!;
    layerWeightAt(inst, li, plan.layerWeight, li);
    plan.childCount[li] = 0;
    const current = mi.childWeights[s]!;
    plan.childOffset[li] = (current.byteOffset - mi.clocks!.byteOffset) / 8;
    plan.childLength[li] = current.length;
    const m = st.motion;
    if (m.kind === "clip" || m.kind === "machine") continue;
    const w = childWeights(inst, mi, s);
    const own = plan.childWeights[li]!, children = plan.children[li]!, blend = plan.blendWeight[li]!;
    let count = 0, acc = 0;
    for (let c = 0; c < w.length; c++) {
      const wc = w[c]!;
      own[c] = wc;
      if (!(wc > 0)) continue;
      children[count] = c;
      if (acc === 0) {
        acc = wc;
        blend[count] = 1;
      } else {
        acc += wc;
        blend[count] = wc / acc;
      }
      count++;
    }
    plan.childCount[li] = count;
  }
  plan.valid = true;
  plan.generation++;
}

/**
 * Advances `inst`, character `index` of a crowd whose numbers are in `state`, by `dt` seconds as
 * `advanceInstance(graph, inst, dt)` would, when the character is settled (see the file's comment), and
 * returns true; returns false, having changed nothing, when it is not (the caller then runs
 * `advanceInstance`). `steadyFrame(graph, dt)` must hold. Leaves `plan` made for this character. Its
 * parameters, clocks, advance stamps and root-motion delta are read and written in `state` directly
 * (the instance's typed arrays are views of the same bytes).
 */
export function advanceSteady(graph: CompiledGraph, inst: GraphInstance, dt: number, plan: SteadyPlan, state: CrowdState, index: number): boolean {
  if (inst.disposed === true || inst.graph !== graph) return false;
  const layers = inst.layers;
  for (let li = 0; li < layers.length; li++) {
    const mi = layers[li]!;
    if (mi.depth !== 0 || mi.travelLength !== 0) return false;
    const m = mi.machine;
    if (m.states[mi.current]!.motion.kind === "machine") return false;
    // Transitions only read parameters and the machine's own clock, which the layers before this one
    // do not change: checking every layer first is what each layer's update would find.
    if (m.outgoing[mi.current]!.length !== 0 && pickTransition(inst, mi) !== NONE) return false;
  }
  const f64 = state.f64, i32 = state.i32, block = state.stride * index;
  if (!planMatches(plan, inst, f64, block)) makePlan(plan, inst);
  const res = inst.result;
  res.events.count = 0;
  res.events.dropped = 0;
  for (let k = block + state.rootDeltaAt, end = k + 4; k < end; k++) f64[k] = 0;
  res.transitionsFired = 0;
  // advanceInstance's one sub-step: h = dt / 1, starting at t0 = 0.
  const h = dt / 1;
  for (let li = 0; li < layers.length; li++) {
    const mi = layers[li]!;
    const s = mi.current;
    const states = mi.machine.states;
    const st = states[s]!;
    i32[2 * block + state.layerAdvanced[li]! + s] = ++inst.stamp;
    // updateMachine's clock for the output history (inertialize, deadBlend).
    const ine = mi.inertial;
    if (ine !== null) ine.times[NOW] = ine.times[NOW]! + h;
    const adv = h * plan.speed[li]!;
    const cycle = plan.cycle[li]!;
    const finite = cycle > 0 && cycle < Infinity;
    // The machine's clocks (MachineInstance.clocks) in the crowd's buffer from float64 index c: stateTime,
    // statePrevTime, statePhase, statePrevPhase and stateWeight of n states, then the child weights.
    const c = block + state.layerClocks[li]!, n = states.length;
    const time = f64[c + s]!, phase = f64[c + 2 * n + s]!;
    f64[c + n + s] = time;
    f64[c + 3 * n + s] = phase;
    const maxCycles = STATE_CYCLES_LIMIT[0]!;
    const limit = finite ? maxCycles * cycle : STATE_CYCLES_LIMIT[1]!;
    let nextTime = time + adv;
    if (nextTime > limit) nextTime = limit;
    f64[c + s] = nextTime;
    let nextPhase = finite ? phase + adv / cycle : phase;
    if (nextPhase > maxCycles) nextPhase = maxCycles;
    f64[c + 2 * n + s] = nextPhase;
    // A blend's child weights, which the general path leaves in the instance (its clock computes them).
    if (st.motion.kind !== "clip") {
      const planned = plan.childWeights[li]!;
      for (let k = 0, o = c + plan.childOffset[li]!, end = plan.childLength[li]!; k < end; k++) f64[o + k] = planned[k]!;
    }
    if (finite && adv > 0) {
      const sync = isSyncBlend(st);
      crossing[0] = sync ? phase : time / cycle;
      crossing[1] = sync ? nextPhase : nextTime / cycle;
      crossing[2] = cycle;
      crossing[3] = 0 * h;
      crossing[4] = h;
      emitCrossings(inst, mi, st, crossing);
    }
    // computeWeights for a machine in no crossfade: its current state alone.
    for (let k = c + 4 * n, end = c + 5 * n; k < end; k++) f64[k] = 0;
    mi.frozenWeight = 0;
    f64[c + 4 * n + s] = 1;
  }
  sortEventsByTime(res.events, 0);
  // dt, not h (the same value): a computed double passed to a call V8 does not inline is boxed, while
  // the caller's own argument passes through as it came.
  if (graph.rootJoint >= 0 || graph.hasProcedural) addBaseRootMotion(inst, dt);
  res.substeps = 1;
  inst.time += dt;
  for (let li = 0; li < layers.length; li++) {
    const info = res.layers[li]!;
    const mi = layers[li]!;
    info.current = mi.current;
    info.depth = mi.depth;
    info.weight = plan.layerWeight[li]!;
  }
  return true;
}

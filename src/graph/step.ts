import { argumentError, rangeError } from "../errors/check-argument.ts";
import { expectCompiledGraph, expectInstance } from "./check-graph.ts";
import { applyLayerAt } from "../blend/apply-layer.ts";
import { crossfadeAt } from "../blend/crossfade.ts";
import { addPackedOffsetAt, inertialDecayAt, offsetVelocityAt, packOffset, poseDifferenceAt } from "../blend/pose-offset.ts";
import { deadBlendAt, deadBlendWeightAt, extrapolatePoseAt, extrapolationRatesInto, resetDirections } from "../blend/dead-blend.ts";
import { applyIkLayers } from "./ik-layers.ts";
import { sampleClipAt } from "../clip/sample-clip.ts";
import { wrapTimeAt } from "../clip/wrap-time.ts";
import { evaluateCurveAt } from "../math/curves.ts";
import { copyPose, createPose, type Pose } from "../pose/pose.ts";
import { extractRootMotionAt, stripRootMotionUnchecked } from "../root-motion/root-motion.ts";
import { emitCrossings } from "../state-machine/clip-events.ts";
import { NONE, pickTransition } from "../state-machine/select-transition.ts";
import { childWeights, isSyncBlend, normalizedTimeAt, stateCycleAt, stateSpeedAt } from "../state-machine/state-clock.ts";
import { computeWeights, dropBottom } from "../state-machine/transition-stack.ts";
import { BLEND, type CompiledGraph, type CompiledState } from "./compiled-graph.ts";
import { queueEvent, type EventQueue, type GraphEvent } from "./graph-events.ts";
import type { GraphInstance, InertialState, MachineInstance, StackEntry, StepResult } from "./graph-instance.ts";
import { isProceduralClipUnchecked, type MotionSource } from "./motion-source.ts";

// Allocation: the per-frame path allocates nothing once V8 has optimised it (docs/performance.md,
// "Allocation"). Doubles travel in Float64Array slots, never as arguments or return values of this
// module's functions or of the ones it calls: V8 passes both tagged, so a computed double that crosses a
// call the optimiser did not inline is boxed into a fresh 16-byte heap number, and what it inlines
// depends on code sizes, call frequencies and budgets, not on us. A callee copies the slots it is given
// into locals before calling anything that could reuse them; a caller that changes a slot for a nested
// call restores it. Event times are stored by the code that computes them (queueEvent). Module scratch:
// `step` is not re-entrant.

/** The sub-step a machine update runs: [T0] its start, in seconds since the step's start, and [H] its length in that machine's time. */
const clock = new Float64Array(2);
const T0 = 0, H = 1;
/** Root motion's recursion: [SCALE] the machine's weight in the result and [H] its time step. */
const motion = new Float64Array(2);
const SCALE = 0;
/** Values handed to and received from the calls below, by slot (TIME + 1 is childTimeAt's scratch). */
const val = new Float64Array(7);
const SPEED = 0, CYCLE = 1, NORM = 2, TIME = 3, WEIGHT = 5, LAYER_WEIGHT = 6;
/** emitCrossings' [n0, n1, cycle, t0, h]. */
const crossing = new Float64Array(5);
/** Clip times [u0, u1] for extractRootMotionAt. */
const rootSpan = new Float64Array(2);

/**
 * Advances a character by `dt` seconds and evaluates its pose. Per layer machine and sub-step:
 *
 * 1. transitions: a pending travel step, else the first transition (priority order) whose exit time and
 *    conditions hold; zero-duration transitions may chain (at most `maxChain`);
 * 2. time: every running crossfade's elapsed time and every contributing state's time advance
 *    (state time by dt × speed; a fading-out source holds its time when `sourceTime` is "freeze");
 *    events at crossed clip times and loop points are queued;
 * 3. finished crossfades (s ≥ 1) are popped, collapsing everything beneath them.
 *
 * dt longer than `maxSubstep` is split into ceil(dt / maxSubstep) equal sub-steps (at most
 * `maxSubsteps`), so a frame spike fires the transitions it spans, in order. Then the layers are
 * evaluated and combined into `result.pose`. Returns the instance's reusable StepResult; allocates
 * nothing once warm. Throws (a programmer error) when `dt` is negative or not finite, or when the
 * instance belongs to another graph.
 */
export function step(graph: CompiledGraph, instance: GraphInstance, dt: number): StepResult {
  const res = advanceInstance(graph, instance, dt);
  evaluatePose(instance);
  return res;
}

/**
 * `step` without the pose evaluation: transitions, time, events, root motion and the per-layer
 * summary, leaving `result.pose` as it was. For evaluators that build the pose themselves from the
 * machine state (src/crowd's batch path); `step` = `advanceInstance` + the pose. Same errors as `step`.
 */
export function advanceInstance(graph: CompiledGraph, instance: GraphInstance, dt: number): StepResult {
  expectCompiledGraph("step", "graph", graph);
  expectInstance("step", "instance", instance, graph);
  // typeof first: "0.1", null, true and [0.1] all pass a bare `dt >= 0` by coercion.
  if (typeof dt !== "number") throw argumentError("step", "dt", "a number of seconds", dt);
  if (!(dt >= 0 && dt < Infinity)) throw rangeError("step", "dt", "a finite number of seconds ≥ 0", dt);
  const opts = graph.options;
  const res = instance.result;
  res.events.count = 0;
  res.events.dropped = 0;
  res.rootDelta.fill(0);
  res.transitionsFired = 0;
  let n = 1;
  if (dt > opts.maxSubstep) n = Math.min(Math.ceil(dt / opts.maxSubstep), opts.maxSubsteps);
  // dt / n even for n = 1 (where it is dt exactly): `n === 1 ? dt : dt / n` merges the tagged argument
  // with a computed double, which V8 keeps tagged, boxing dt / n on every sub-stepped frame.
  const h = dt / n;
  const layers = instance.layers;
  for (let i = 0; i < n; i++) {
    const t0 = i * h;
    const firstEvent = res.events.count;
    for (let li = 0; li < layers.length; li++) {
      clock[T0] = t0;
      clock[H] = h;
      updateMachine(instance, layers[li]!);
    }
    sortEventsByTime(res.events, firstEvent);
    if (graph.rootJoint >= 0 || graph.hasProcedural) {
      const base = layers[0];
      if (base) {
        motion[SCALE] = 1;
        motion[H] = h;
        rootMotion(instance, base, res.rootDelta);
      }
    }
  }
  res.substeps = n;
  instance.time += dt;
  // The layer summary reads machine state only, which evaluating the pose does not change.
  for (let li = 0; li < layers.length; li++) {
    const info = res.layers[li]!;
    const mi = layers[li]!;
    info.current = mi.current;
    info.depth = mi.depth;
    layerWeightAt(instance, li, val, LAYER_WEIGHT);
    info.weight = val[LAYER_WEIGHT]!;
  }
  return res;
}

/**
 * Stable insertion sort of queue items [from, count) by time: within a sub-step, layers and states
 * emit in turn, so their events interleave in time. Swaps the preallocated objects; no allocation.
 */
export function sortEventsByTime(q: EventQueue, from: number): void {
  const items = q.items as GraphEvent[];
  for (let i = from + 1; i < q.count; i++) {
    const e = items[i]!;
    let j = i - 1;
    while (j >= from && items[j]!.time > e.time) {
      items[j + 1] = items[j]!;
      j--;
    }
    items[j + 1] = e;
  }
}

/** Layer `li`'s effective weight: its constant, or its weight parameter clamped to [0, 1]. */
export function layerWeight(inst: GraphInstance, li: number): number {
  layerWeightAt(inst, li, layerWeightResult, 0);
  return layerWeightResult[0]!;
}
const layerWeightResult = new Float64Array(1);

/** `layerWeight` written to out[o], for per-frame callers (a double result would be boxed). */
export function layerWeightAt(inst: GraphInstance, li: number, out: Float64Array, o: number): void {
  const layer = inst.graph.layers[li]!;
  if (layer.weightSlot < 0) {
    out[o] = layer.weight;
    return;
  }
  const w = inst.params[layer.weightSlot]!;
  out[o] = w > 0 ? (w < 1 ? w : 1) : 0;
}

// ---------------------------------------------------------------------------------------------------
// Machine update

/** Updates a machine over the sub-step in `clock`. */
function updateMachine(inst: GraphInstance, mi: MachineInstance): void {
  const t0 = clock[T0]!, h = clock[H]!;
  const opts = inst.graph.options;
  const stamp = ++inst.stamp;
  for (let chain = 0; chain < opts.maxChain; chain++) {
    const code = pickTransition(inst, mi);
    if (code === NONE) break;
    inst.result.transitionsFired++;
    if (fire(inst, mi, code)) break;
  }
  for (let i = 0; i < mi.depth; i++) mi.stack[i]!.elapsed += h;
  if (mi.inertial) mi.inertial.times[NOW] = mi.inertial.times[NOW]! + h;
  const freeze = opts.sourceTime === "freeze";
  if (mi.depth === 0) {
    advanceState(inst, mi, mi.current, stamp);
  } else {
    if (mi.source >= 0 && !freeze) advanceState(inst, mi, mi.source, stamp);
    for (let i = 0; i < mi.depth; i++) {
      const to = mi.stack[i]!.to;
      if (!freeze || to === mi.current) advanceState(inst, mi, to, stamp);
    }
  }
  // Pop finished crossfades: the highest finished entry makes everything beneath it invisible.
  let done = -1;
  for (let i = 0; i < mi.depth; i++) {
    const e = mi.stack[i]!;
    const transition = e.transition >= 0 ? mi.machine.transitions[e.transition]! : null;
    if (!transition || e.elapsed >= transition.duration) done = i;
  }
  if (done >= 0) {
    for (let i = 0; i <= done; i++) {
      const e = mi.stack[i]!;
      const ev = queueEvent(inst.result.events, "transitionEnded", mi.layer, mi.machine.id, e.to, e.from, e.transition, "");
      if (ev) ev.time = t0 + h;
    }
    mi.source = mi.stack[done]!.to;
    dropBottom(mi, done + 1);
  }
  for (let i = 0; i < mi.depth; i++) {
    const e = mi.stack[i]!;
    const tr = mi.machine.transitions[e.transition]!;
    const d = tr.duration;
    e.progress = e.elapsed >= d ? 1 : e.elapsed / d;
    val[WEIGHT] = e.progress;
    if (tr.blend === BLEND.deadBlend) deadBlendWeightAt(tr.curve, val, WEIGHT);
    else evaluateCurveAt(tr.curve, val, WEIGHT);
    // An inertialization shows its target alone (plus the decaying offset): the target has all the weight.
    e.weight = tr.blend === BLEND.inertialize ? 1 : val[WEIGHT]!;
  }
  computeWeights(mi);
}

/**
 * Fires transition `code` (≥ 0), or teleports to state −1 − code, at the sub-step start clock[T0];
 * returns whether a crossfade started (a duration > 0).
 */
function fire(inst: GraphInstance, mi: MachineInstance, code: number): boolean {
  const m = mi.machine;
  const events = inst.result.events;
  const t0 = clock[T0]!;
  let ev: GraphEvent | null;
  const t = code >= 0 ? m.transitions[code]! : null;
  const to = t ? t.to : -1 - code;
  const duration = t ? t.duration : 0;
  const from = mi.current;
  // Inertialize and deadBlend start from the machine's output as it is, whatever is running: captured
  // before anything changes, then the stack is dropped (its pose lives on in the capture).
  const inertial = t !== null && duration > 0 && t.blend !== BLEND.crossfade && mi.inertial !== null;
  const keeper = inst.keeper !== undefined && inst.keeper.keeps(mi) ? inst.keeper : null;
  if (inertial && keeper) keeper.capture(inst, mi);
  else if (inertial) {
    captureSource(inst, mi, mi.inertial!);
    if (t.blend === BLEND.deadBlend) {
      // The source's velocity decays at the transition's rate (halved after half its duration), or
      // faster for a joint that would otherwise turn more than ⅜ of a turn (src/blend/dead-blend.ts).
      const times = mi.inertial!.times;
      times[SCRATCH] = HALF_DECAY / (DEAD_BLEND_HALFLIFE * duration);
      extrapolationRatesInto(mi.inertial!.rates, mi.inertial!.velocity, times, SCRATCH);
    }
  }
  if (t) for (let i = 0; i < t.triggerSlots.length; i++) inst.params[t.triggerSlots[i]!] = 0;
  if (mi.depth > 0) {
    const top = mi.stack[mi.depth - 1]!;
    ev = queueEvent(events, "transitionInterrupted", mi.layer, m.id, top.to, top.from, top.transition, "");
    if (ev) ev.time = t0;
    if (inertial) {
      mi.depth = 0;
      mi.source = from;
    } else if (inst.graph.options.interruptMode === "cut") {
      mi.depth = 0;
      mi.source = from;
    } else if (top.transition >= 0 && m.transitions[top.transition]!.freeze) {
      if (keeper) keeper.freeze(inst, mi);
      else foldMachine(inst, mi, mi.frozen);
      mi.depth = 0;
      mi.source = -1;
    }
  } else {
    mi.source = from;
  }
  ev = queueEvent(events, "transitionStarted", mi.layer, m.id, to, from, t ? t.index : -1, "");
  if (ev) ev.time = t0;
  ev = queueEvent(events, "stateExited", mi.layer, m.id, from, -1, -1, "");
  if (ev) ev.time = t0;
  ev = queueEvent(events, "stateEntered", mi.layer, m.id, to, -1, -1, "");
  if (ev) ev.time = t0;
  enterState(inst, mi, to, from, t ? t.index : -1, !inertial && duration > 0);
  mi.current = to;
  if (duration <= 0) {
    mi.depth = 0;
    mi.source = to;
    ev = queueEvent(events, "transitionEnded", mi.layer, m.id, to, from, t ? t.index : -1, "");
    if (ev) ev.time = t0;
  } else {
    if (mi.depth === inst.graph.options.maxStackDepth) collapseOldest(inst, mi);
    // Entries are made the first time the stack grows this deep, then reused (no steady-state allocation).
    if (mi.depth === mi.stack.length) mi.stack.push({ transition: -1, from: -1, to: -1, elapsed: 0, progress: 0, weight: 0 });
    const e = mi.stack[mi.depth++]!;
    e.transition = t!.index;
    e.from = from;
    e.to = to;
    e.elapsed = 0;
    e.progress = 0;
    e.weight = 0;
  }
  computeWeights(mi);
  return duration > 0;
}

/**
 * Whether state `s` is in the machine's blend: its bottom (the live source, or the current state when
 * nothing fades) or a stack entry's target. Integers only: `fire` runs too rarely to be optimised, and an
 * unoptimised read of a float (a weight) allocates a number.
 */
function showsState(mi: MachineInstance, s: number): boolean {
  if (mi.source === s) return true;
  for (let i = 0; i < mi.depth; i++) if (mi.stack[i]!.to === s) return true;
  return false;
}

/** Folds the machine's blend into its frozen pose, which becomes the bottom of an empty stack. */
function freezeBlend(inst: GraphInstance, mi: MachineInstance): void {
  if (inst.keeper !== undefined && inst.keeper.keeps(mi)) inst.keeper.freeze(inst, mi);
  else foldMachine(inst, mi, mi.frozen);
  mi.depth = 0;
  mi.source = -1;
}

/** Folds the source and the oldest entry into the frozen pose (the stack is full). */
function collapseOldest(inst: GraphInstance, mi: MachineInstance): void {
  const e = mi.stack[0]!;
  if (inst.keeper !== undefined && inst.keeper.keeps(mi)) {
    inst.keeper.collapseOldest(inst, mi);
  } else if (firstBlend(mi) !== BLEND.crossfade) {
    evaluateFirstEntry(inst, mi, e, mi.frozen);
  } else {
    if (mi.source >= 0) evaluateState(inst, mi, mi.source, mi.frozen);
    const tmp = acquire(inst);
    evaluateState(inst, mi, e.to, tmp);
    val[WEIGHT] = e.weight;
    crossfadeAt(mi.frozen, mi.frozen, tmp, val, WEIGHT, inst.graph.options.quatMode);
    release(inst);
  }
  mi.source = -1;
  dropBottom(mi, 1);
}

/**
 * Enters state `to` from `from` by transition `transition` (−1: a teleport, offset 0); `crossfading`: the
 * transition fades the blend as it is into `to`.
 */
function enterState(inst: GraphInstance, mi: MachineInstance, to: number, from: number, transition: number, crossfading: boolean): void {
  const st = mi.machine.states[to]!;
  if (inst.graph.options.targetTime === "resume") return;
  // A state has one clock, so a crossfade into a state that still shows in the blend (a transition to the
  // same state, or back to a state that is fading out) would restart it under every entry that plays it:
  // the pose jumps. Freeze the blend first, as an interruption with `freeze` does: the fade starts from
  // the pose on screen.
  if (crossfading && showsState(mi, to)) freezeBlend(inst, mi);
  const offset = transition >= 0 ? mi.machine.transitions[transition]!.offset : 0;
  stateCycleAt(inst, mi, to, val, CYCLE);
  const cycle = val[CYCLE]!;
  const fromState = mi.machine.states[from]!;
  if (st.syncGroup >= 0 && st.syncGroup === fromState.syncGroup && from !== to) {
    normalizedTimeAt(inst, mi, from, val, NORM);
    const n = val[NORM]!;
    const phase = n - Math.floor(n);
    mi.statePhase[to] = phase;
    mi.stateTime[to] = cycle > 0 && cycle < Infinity ? phase * cycle : 0;
  } else {
    mi.stateTime[to] = offset;
    mi.statePhase[to] = cycle > 0 && cycle < Infinity ? offset / cycle : 0;
  }
  mi.statePrevTime[to] = mi.stateTime[to]!;
  mi.statePrevPhase[to] = mi.statePhase[to]!;
  const nested = mi.nested[to];
  if (nested) resetMachine(nested);
}

function resetMachine(mi: MachineInstance): void {
  if (mi.inertial) mi.inertial.history = 0;
  mi.current = mi.machine.entry;
  mi.source = mi.current;
  mi.depth = 0;
  mi.travelLength = mi.travelNext = 0;
  mi.stateTime.fill(0);
  mi.statePrevTime.fill(0);
  mi.statePhase.fill(0);
  mi.statePrevPhase.fill(0);
  for (let s = 0; s < mi.nested.length; s++) {
    const n = mi.nested[s];
    if (n) resetMachine(n);
  }
  computeWeights(mi);
}

/** Advances state `s` over the sub-step in `clock` (once per stamp). */
function advanceState(inst: GraphInstance, mi: MachineInstance, s: number, stamp: number): void {
  if (mi.advancedAt[s] === stamp) return;
  mi.advancedAt[s] = stamp;
  const t0 = clock[T0]!, h = clock[H]!;
  const st = mi.machine.states[s]!;
  stateSpeedAt(inst, st, val, SPEED);
  const adv = h * val[SPEED]!;
  stateCycleAt(inst, mi, s, val, CYCLE);
  const cycle = val[CYCLE]!;
  mi.statePrevTime[s] = mi.stateTime[s]!;
  mi.statePrevPhase[s] = mi.statePhase[s]!;
  mi.stateTime[s] = mi.stateTime[s]! + adv;
  if (cycle > 0 && cycle < Infinity) mi.statePhase[s] = mi.statePhase[s]! + adv / cycle;
  clampStateClock(mi, s);
  const nested = mi.nested[s];
  if (nested) {
    clock[H] = adv;
    updateMachine(inst, nested);
    clock[H] = h;
  }
  if (cycle > 0 && cycle < Infinity && adv > 0) {
    const sync = isSyncBlend(st);
    crossing[0] = sync ? mi.statePrevPhase[s]! : mi.statePrevTime[s]! / cycle;
    crossing[1] = sync ? mi.statePhase[s]! : mi.stateTime[s]! / cycle;
    crossing[2] = cycle;
    crossing[3] = t0;
    crossing[4] = h;
    emitCrossings(inst, mi, st, crossing);
  }
}

/**
 * Most cycles a state's clock counts (2^40: 35,000 years of a one-second loop). Past about 2^52 cycles a
 * double cannot hold a position within the cycle, so a clock that would run further (a huge speed or
 * dt, a clip a few ulps long) stops there and the state holds its pose: documented in docs/runtime.md.
 */
export const MAX_STATE_CYCLES = 2 ** 40;
/** The same bound for a state without a finite cycle (procedural motion), seconds. */
const MAX_STATE_SECONDS = 2 ** 40;

/** Clamps state s's clock; its cycle is in val[CYCLE] (not an argument: V8 would box the double). */
function clampStateClock(mi: MachineInstance, s: number): void {
  const cycle = val[CYCLE]!;
  const limit = cycle > 0 && cycle < Infinity ? MAX_STATE_CYCLES * cycle : MAX_STATE_SECONDS;
  if (mi.stateTime[s]! > limit) mi.stateTime[s] = limit;
  if (mi.statePhase[s]! > MAX_STATE_CYCLES) mi.statePhase[s] = MAX_STATE_CYCLES;
}

// ---------------------------------------------------------------------------------------------------
// Root motion

const rmDelta = new Float64Array(4);

/**
 * The base layer's root motion over one sub-step of `h` seconds, added to `result.rootDelta`: what
 * `advanceInstance` does after each sub-step, for src/crowd's settled-character path. `h` is passed
 * through as received (a double computed and passed here would be boxed when the call is not inlined).
 */
export function addBaseRootMotion(instance: GraphInstance, h: number): void {
  const base = instance.layers[0];
  if (!base) return;
  motion[SCALE] = 1;
  motion[H] = h;
  rootMotion(instance, base, instance.result.rootDelta);
}

/** Adds machine `mi`'s root motion, weighted by motion[SCALE], over motion[H] seconds of its time, to `out`. */
function rootMotion(inst: GraphInstance, mi: MachineInstance, out: Float64Array): void {
  const scale = motion[SCALE]!, h = motion[H]!;
  const states = mi.machine.states;
  for (let s = 0; s < states.length; s++) {
    const w = scale * mi.stateWeight[s]!;
    if (!(w > 0)) continue;
    const st = states[s]!;
    const m = st.motion;
    if (m.kind === "machine") {
      stateSpeedAt(inst, st, val, SPEED);
      motion[SCALE] = w;
      motion[H] = h * val[SPEED]!;
      rootMotion(inst, mi.nested[s]!, out);
      motion[SCALE] = scale;
      motion[H] = h;
      continue;
    }
    const sources = m.kind === "clip" ? null : m.sources;
    const cw = m.kind === "clip" ? null : childWeights(inst, mi, s);
    const count = sources ? sources.length : 1;
    const sync = isSyncBlend(st);
    for (let c = 0; c < count; c++) {
      const src = sources ? sources[c]! : (m as { source: MotionSource }).source;
      const wc = w * (cw ? cw[c]! : 1);
      if (!(wc > 0)) continue;
      if (isProceduralClipUnchecked(src)) {
        const v = src.rootVelocity;
        if (v) {
          stateSpeedAt(inst, st, val, SPEED);
          const k = wc * h * val[SPEED]!;
          out[0] = out[0]! + k * v[0];
          out[1] = out[1]! + k * v[1];
          out[2] = out[2]! + k * v[2];
        }
        continue;
      }
      const extractor = inst.graph.rootExtractors.get(src);
      if (!extractor) continue;
      const dur = src.duration;
      const u0 = sync ? mi.statePrevPhase[s]! * dur : mi.statePrevTime[s]!;
      const u1 = sync ? mi.statePhase[s]! * dur : mi.stateTime[s]!;
      if (u1 === u0) continue;
      rootSpan[0] = u0;
      rootSpan[1] = u1;
      extractRootMotionAt(rmDelta, extractor, rootSpan, 0, st.loop);
      for (let k = 0; k < 4; k++) out[k] = out[k]! + wc * rmDelta[k]!;
    }
  }
}
// ---------------------------------------------------------------------------------------------------
// Evaluation

function acquire(inst: GraphInstance): Pose {
  if (inst.poolTop === inst.pool.length) inst.pool.push(createPose(inst.graph.skeleton.jointCount));
  return inst.pool[inst.poolTop++]!;
}

function release(inst: GraphInstance): void {
  inst.poolTop--;
}

/** Samples child `c` of state `s` at the clip time ts[ti] into `out`. */
function sampleSource(inst: GraphInstance, out: Pose, src: MotionSource, mi: MachineInstance, s: number, c: number, ts: Float64Array, ti: number): void {
  if (isProceduralClipUnchecked(src)) {
    src.sample(out, ts[ti]!); // the callback takes a number: one heap number per sample (docs/performance.md)
    return;
  }
  const cursor = mi.cursors[s]![c]!;
  const sampler = inst.sampler;
  if (sampler) {
    if (sampler.sampleAt) sampler.sampleAt(out, src, ts, ti, cursor, inst.graph.options.quatMode);
    else sampler.sample(out, src, ts[ti]!, cursor, inst.graph.options.quatMode);
  } else sampleClipAt(out, src, ts, ti, cursor, inst.graph.options.quatMode);
  const extractor = inst.graph.rootExtractors.get(src);
  if (extractor) stripRootMotionUnchecked(out, extractor);
}

/** Writes the local playback time of `src`, a child of state `s`, to out[o] (out[o + 1] is scratch). */
export function childTimeAt(mi: MachineInstance, st: CompiledState, s: number, src: MotionSource, sync: boolean, out: Float64Array, o: number): void {
  const dur = src.duration;
  if (dur === Infinity) {
    out[o] = mi.stateTime[s]!; // an endless procedural motion takes the unwrapped time
    return;
  }
  out[o] = sync ? mi.statePhase[s]! * dur : mi.stateTime[s]!;
  out[o + 1] = dur;
  wrapTimeAt(out, o, st.loop);
}

function evaluateState(inst: GraphInstance, mi: MachineInstance, s: number, out: Pose): void {
  const st = mi.machine.states[s]!;
  const m = st.motion;
  if (m.kind === "clip") {
    childTimeAt(mi, st, s, m.source, false, val, TIME);
    sampleSource(inst, out, m.source, mi, s, 0, val, TIME);
    return;
  }
  if (m.kind === "machine") {
    evaluateMachineUnchecked(inst, mi.nested[s]!, out);
    return;
  }
  const w = childWeights(inst, mi, s);
  let acc = 0;
  for (let c = 0; c < m.sources.length; c++) {
    const wc = w[c]!;
    if (!(wc > 0)) continue;
    const src = m.sources[c]!;
    childTimeAt(mi, st, s, src, m.sync, val, TIME);
    if (acc === 0) {
      sampleSource(inst, out, src, mi, s, c, val, TIME);
      acc = wc;
    } else {
      const tmp = acquire(inst);
      sampleSource(inst, tmp, src, mi, s, c, val, TIME);
      acc += wc;
      val[WEIGHT] = wc / acc;
      crossfadeAt(out, out, tmp, val, WEIGHT, inst.graph.options.quatMode);
      release(inst);
    }
  }
  if (acc === 0) copyPose(out, inst.graph.skeleton.rest);
}

/**
 * `evaluateMachine` (evaluate-machine.ts) without the argument checks: writes a machine's output pose
 * into `out` and, for inertialized or dead-blended transitions, remembers it as its latest output.
 * `step` calls this once per machine per frame.
 */
export function evaluateMachineUnchecked(inst: GraphInstance, mi: MachineInstance, out: Pose): void {
  if (inst.keeper !== undefined && inst.keeper.keeps(mi)) {
    inst.keeper.evaluate(inst, mi, out);
    return;
  }
  foldMachine(inst, mi, out);
  if (mi.inertial) rememberOutput(inst, mi, mi.inertial, out);
}

/** The blend mode of the bottom stack entry (crossfade for crossfade-only machines and teleports). */
export function firstBlend(mi: MachineInstance): number {
  if (!mi.inertial || mi.depth === 0) return BLEND.crossfade;
  const e = mi.stack[0]!;
  return e.transition >= 0 ? mi.machine.transitions[e.transition]!.blend : BLEND.crossfade;
}

/** The machine's pose without remembering it (evaluateMachine's work). */
function foldMachine(inst: GraphInstance, mi: MachineInstance, out: Pose): void {
  if (mi.depth === 0) {
    evaluateState(inst, mi, mi.current, out);
    return;
  }
  let first = 0;
  if (firstBlend(mi) !== BLEND.crossfade) {
    evaluateFirstEntry(inst, mi, mi.stack[0]!, out);
    first = 1;
  } else if (mi.source >= 0) evaluateState(inst, mi, mi.source, out);
  else copyPose(out, mi.frozen);
  const quatMode = inst.graph.options.quatMode;
  for (let i = first; i < mi.depth; i++) {
    const e = mi.stack[i]!;
    const tmp = acquire(inst);
    evaluateState(inst, mi, e.to, tmp);
    val[WEIGHT] = e.weight;
    crossfadeAt(out, out, tmp, val, WEIGHT, quatMode);
    release(inst);
  }
}

/** The layered pose of an instance after `advanceInstance` (step = advanceInstance + this). */
export function evaluatePose(inst: GraphInstance): void {
  const graph = inst.graph;
  const out = inst.result.pose;
  const rest = graph.skeleton.rest;
  const quatMode = graph.options.quatMode;
  for (let li = 0; li < inst.layers.length; li++) {
    const layer = graph.layers[li]!;
    const mi = inst.layers[li]!;
    layerWeightAt(inst, li, val, LAYER_WEIGHT);
    const w = val[LAYER_WEIGHT]!;
    if (li === 0 && layer.mode === "override" && w >= 1 && layer.mask === null) {
      evaluateMachineUnchecked(inst, mi, out);
      continue;
    }
    if (li === 0) copyPose(out, rest);
    if (!(w > 0)) continue;
    evaluateMachineUnchecked(inst, mi, inst.layerPose);
    val[LAYER_WEIGHT] = w; // evaluating may have reused the slot
    applyLayerAt(out, out, inst.layerPose, val, LAYER_WEIGHT, layer.mask ?? undefined, layer.mode, quatMode);
  }
  if (inst.ik) applyIkLayers(graph.ik, graph.skeleton, out, inst.params, inst.ik);
}

// ---------------------------------------------------------------------------------------------------
// Inertialization and dead blending (docs/transitions.md)

/** InertialState.times slots (the crowd kernel's recorder, src/crowd/wasm/kernel-poses.ts, shares them). */
export const NOW = 0, LAST = 1, PREVIOUS = 2, ORIGIN = 3, SOURCE_TIME = 4, SCRATCH = 6;
/** History older than this (machine seconds) is not the motion on screen: the source is evaluated afresh. */
export const STALE_HISTORY = 0.25;
/** deadBlend's source velocity is halved after duration × this. */
export const DEAD_BLEND_HALFLIFE = 0.5;
/** x where (1 + x)·e^(−x) = ½. */
export const HALF_DECAY = 1.6783469900166608;

/**
 * Keeps `out` as the machine's latest output (the previous one moves down; a repeat at one time
 * replaces). An output that is a plain clip's sample, alone or under the inertialization's offset, is
 * kept as how it was made (its recipe, five numbers) instead of its 1.7 kB pose: most outputs are never
 * read (a transition reads the last two), and copying each one cost an inertializing crowd more than a
 * crossfade's second clip.
 */
function rememberOutput(inst: GraphInstance, mi: MachineInstance, ine: InertialState, out: Pose): void {
  const times = ine.times, r = ine.recipes;
  if (ine.history === 0 || times[NOW]! > times[LAST]!) {
    const oldest = ine.previous;
    ine.previous = ine.last;
    ine.last = oldest;
    for (let k = 0; k < 5; k++) r[5 + k] = r[k]!;
    times[PREVIOUS] = times[LAST]!;
    if (ine.history < 2) ine.history++;
  }
  times[LAST] = times[NOW]!;
  const s = mi.depth === 0 ? mi.current : mi.depth === 1 && firstBlend(mi) === BLEND.inertialize ? mi.stack[0]!.to : -1;
  const m = s >= 0 ? mi.machine.states[s]!.motion : null;
  if (m === null || m.kind !== "clip" || isProceduralClipUnchecked(m.source)) {
    copyPose(ine.last, out);
    r[0] = -1;
    return;
  }
  r[0] = s;
  childTimeAt(mi, mi.machine.states[s]!, s, m.source, false, r, 1);
  // evaluateFirstEntry left the offset's coefficients in times[SCRATCH], times[SCRATCH + 1].
  r[2] = mi.depth;
  r[3] = times[SCRATCH]!;
  r[4] = times[SCRATCH + 1]!;
}

/**
 * Makes the history entry at recipes[k] (0: `last`, 5: `previous`) a pose in `pose` if it is a recipe:
 * the clip sampled at its time, the offset (as packed now: a capture replays before a new offset is
 * packed) added with its coefficients.
 */
function replayOutput(inst: GraphInstance, mi: MachineInstance, ine: InertialState, k: number, pose: Pose): void {
  const r = ine.recipes;
  const s = r[k]!;
  if (s < 0) return;
  sampleSource(inst, pose, (mi.machine.states[s]!.motion as { source: MotionSource }).source, mi, s, 0, r, k + 1);
  if (r[k + 2] === 1) addPackedOffsetAt(pose, ine.packed, ine.moving, ine.movingCounts, r, k + 3);
  r[k] = -1;
}

/**
 * Captures the pose an inertialize / deadBlend transition starts from: the machine's last output and its
 * velocity from the output before it; without a recent output, the machine's pose now, at rest.
 */
function captureSource(inst: GraphInstance, mi: MachineInstance, ine: InertialState): void {
  const times = ine.times;
  ine.phase = 0;
  resetDirections(ine.directions);
  // Both kept outputs become poses before this transition's offset replaces the one they were made with.
  if (ine.history > 0) replayOutput(inst, mi, ine, 0, ine.last);
  if (ine.history > 1) replayOutput(inst, mi, ine, 5, ine.previous);
  if (ine.history === 0 || times[NOW]! - times[LAST]! > STALE_HISTORY) {
    foldMachine(inst, mi, ine.source);
    times[SOURCE_TIME] = times[NOW]!;
    ine.velocity.fill(0);
    return;
  }
  copyPose(ine.source, ine.last);
  times[SOURCE_TIME] = times[LAST]!;
  times[SCRATCH] = times[LAST]! - times[PREVIOUS]!;
  if (ine.history >= 2 && times[SCRATCH]! > 0) poseDifferenceAt(ine.velocity, ine.last, ine.previous, times, SCRATCH);
  else ine.velocity.fill(0);
}

/** Evaluates the bottom stack entry when it inertializes or dead-blends, into `out`. */
function evaluateFirstEntry(inst: GraphInstance, mi: MachineInstance, e: StackEntry, out: Pose): void {
  const ine = mi.inertial!;
  const times = ine.times;
  const tr = mi.machine.transitions[e.transition]!;
  // τ: seconds since the captured source pose.
  times[SCRATCH] = times[NOW]! - times[SOURCE_TIME]!;
  if (tr.blend === BLEND.deadBlend) {
    // E(τ): the source drifting on with its decaying velocity; then the blend from E to the target.
    const ext = acquire(inst);
    extrapolatePoseAt(ext, ine.source, ine.velocity, ine.rates, times, SCRATCH);
    evaluateState(inst, mi, e.to, out);
    val[WEIGHT] = e.weight;
    deadBlendAt(out, out, ext, ine.directions, val, WEIGHT);
    release(inst);
    return;
  }
  evaluateState(inst, mi, e.to, out);
  if (ine.phase === 0) {
    // The origin: x₀ = (source extrapolated to now) ⊖ target, so the output starts on the source's path.
    const ext = extrapolatedSource(inst, ine);
    times[SCRATCH] = 1;
    poseDifferenceAt(ine.offset, ext, out, times, SCRATCH);
    release(inst);
    times[ORIGIN] = e.elapsed;
    ine.offsetVelocity.fill(0);
    packOffset(ine.packed, ine.moving, ine.movingCounts, ine.offset, null);
    ine.phase = 1;
  } else if (ine.phase === 1 && e.elapsed > times[ORIGIN]!) {
    // One evaluation later: v₀ = ((source extrapolated to now) ⊖ target − x₀) / Δt, the offset's own
    // velocity (offsetVelocityAt: for a rotation, not v_source − v_target).
    const ext = extrapolatedSource(inst, ine);
    times[SCRATCH] = e.elapsed - times[ORIGIN]!;
    offsetVelocityAt(ine.offsetVelocity, ext, out, ine.offset, times, SCRATCH);
    release(inst);
    packOffset(ine.packed, ine.moving, ine.movingCounts, ine.offset, ine.offsetVelocity);
    ine.phase = 2;
  }
  // x(u) = x₀·h₀(u) + v₀·D·h₁(u), u = (elapsed − origin) / D, D = duration − origin.
  times[SCRATCH + 1] = tr.duration - times[ORIGIN]!;
  times[SCRATCH] = times[SCRATCH + 1]! > 0 ? (e.elapsed - times[ORIGIN]!) / times[SCRATCH + 1]! : 1;
  inertialDecayAt(times, SCRATCH);
  addPackedOffsetAt(out, ine.packed, ine.moving, ine.movingCounts, times, SCRATCH);
}

/**
 * A pool pose holding the captured source moved on by its velocity for times[SCRATCH] seconds (release
 * it). Only the joints that move: `ine.packed` serves as scratch, before the offset is packed into it.
 */
function extrapolatedSource(inst: GraphInstance, ine: InertialState): Pose {
  const ext = acquire(inst);
  copyPose(ext, ine.source);
  packOffset(ine.packed, ine.moving, ine.movingCounts, ine.velocity, null);
  ine.times[SCRATCH + 1] = 0;
  addPackedOffsetAt(ext, ine.packed, ine.moving, ine.movingCounts, ine.times, SCRATCH);
  return ext;
}

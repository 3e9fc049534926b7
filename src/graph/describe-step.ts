import type { CompiledGraph } from "./compiled-graph.ts";
import type { GraphInstance, MachineInstance, StepResult } from "./graph-instance.ts";
import { echo } from "../diagnostics/diagnostic.ts";
import { expectCompiledGraph, expectInstance, expectStepResult } from "./check-graph.ts";
import { expectNumber, expectNumberArray } from "../errors/check-argument.ts";
import { expectArrayOfShape, expectShape, type FieldKind } from "../errors/check-shape.ts";
import type { TransitionBlend } from "../spec/graph-spec.ts";

/** A plain, JSON-ready picture of one step (for tools: the CLI's `run`, the studio). Allocates. */
export interface StepSnapshot {
  /** One per layer, bottom first. */
  readonly layers: readonly LayerSnapshot[];
  /** The events of the step, in the order they happened. */
  readonly events: readonly EventSnapshot[];
  /** [dx, dy, dz, dyaw] of the step. */
  readonly rootDelta: readonly number[];
  /** Sub-steps the step was split into (1 unless dt > maxSubstep). */
  readonly substeps: number;
}

/** One layer in a {@link StepSnapshot}: its weight, current state, running crossfades and state weights. */
export interface LayerSnapshot {
  /** The layer's name. */
  readonly name: string;
  /** The layer's effective weight this step, 0..1. */
  readonly weight: number;
  /** The current state of the layer's machine. */
  readonly state: string;
  /**
   * Running transitions, oldest first: their states, linear progress s in 0..1, curve weight w = curve(s)
   * (1 for an inertialization, which shows the target alone plus a decaying offset) and blend mode. `from`
   * is the transition's own source (an any-state transition's: the state it left); when it fired from the
   * source state of a running fade (A → C during A → B), `interrupted` names that fade ("A→B"), as
   * `run --explain` does, instead of the live pair B → C.
   */
  readonly transitions: readonly { readonly from: string; readonly to: string; readonly progress: number; readonly weight: number; readonly blend: TransitionBlend; readonly interrupted?: string }[];
  /** Influence of each contributing state (and "(frozen)" for a captured pose); sums to 1. */
  readonly weights: Readonly<Record<string, number>>;
  /** Nested machines' current states, "Outer/Inner" paths. */
  readonly nested: readonly string[];
}

/** One event in a {@link StepSnapshot}, with names instead of indices. */
export interface EventSnapshot {
  /** The event type, a `GraphEventType` (`stateEntered`, `transitionStarted`, `clipLooped`, `notify`, …). */
  readonly type: string;
  /** The layer's name. */
  readonly layer: string;
  /** Machine path ("base", "base/Combat"). */
  readonly machine: string;
  /** The state the event is about (for transition events, the target). */
  readonly state: string;
  /** Transition events: the transition's source state (an any-state transition's: the state left). */
  readonly from?: string;
  /** transitionStarted from the source state of a running fade (A → C during A → B): that fade, "A→B". */
  readonly interrupted?: string;
  /** notify: the event name. */
  readonly name?: string;
  /** Seconds into the step. */
  readonly time: number;
}

function nestedStates(mi: MachineInstance, prefix: string, out: string[]): void {
  const nested = mi.nested[mi.current];
  if (!nested) return;
  const path = `${prefix}/${nested.machine.states[nested.current]!.name}`;
  out.push(path);
  nestedStates(nested, path, out);
}

/** Describes the instance right after `step` returned `result`. */
export function describeStep(graph: CompiledGraph, instance: GraphInstance, result: StepResult): StepSnapshot {
  expectCompiledGraph("describeStep", "graph", graph);
  expectInstance("describeStep", "instance", instance, graph);
  expectStepResult("describeStep", "result", result, instance);
  const layers = instance.layers.map((mi, li): LayerSnapshot => {
    const names = mi.machine.states.map((s) => s.name);
    const weights: Record<string, number> = {};
    mi.stateWeight.forEach((w, s) => { if (w > 0) weights[names[s]!] = w; });
    if (mi.frozenWeight > 0) weights["(frozen)"] = mi.frozenWeight;
    const nested: string[] = [];
    nestedStates(mi, names[mi.current]!, nested);
    return {
      name: graph.layers[li]!.name,
      weight: result.layers[li]!.weight,
      state: names[mi.current]!,
      transitions: mi.stack.slice(0, mi.depth).map((e) => ({
        ...ownStates(names, mi.machine.transitions[e.transition]?.from ?? -1, e.from), to: names[e.to]!, progress: e.progress, weight: e.weight,
        blend: e.transition >= 0 ? mi.machine.transitions[e.transition]!.blendName : "crossfade",
      })),
      weights,
      nested,
    };
  });
  const events = result.events.items.slice(0, result.events.count).map((e): EventSnapshot => {
    const machine = graph.machines[e.machine]!;
    const base = { type: e.type, layer: graph.layers[e.layer]!.name, machine: machine.path, state: machine.states[e.state]?.name ?? "", time: e.time };
    if (e.type === "notify") return { ...base, name: e.name };
    if (e.type.startsWith("transition") && e.from >= 0) {
      const { from, interrupted } = ownStates(machine.states.map((st) => st.name), machine.transitions[e.transition]?.from ?? -1, e.from);
      return { ...base, from, ...(interrupted && e.type === "transitionStarted" ? { interrupted } : {}) };
    }
    if (e.type.startsWith("transition")) return { ...base, from: "" };
    return base;
  });
  return { layers, events, rootDelta: [...result.rootDelta], substeps: result.substeps };
}

/**
 * A transition labelled by its own source `own` rather than the state `left` the machine was in: they
 * differ when it fired from the source state of the fade into `left`, which it interrupted.
 */
function ownStates(names: readonly string[], own: number, left: number): { from: string; interrupted?: string } {
  return own >= 0 && own !== left ? { from: names[own]!, interrupted: `${names[own]}→${names[left]}` } : { from: names[left]! };
}

function fixed(v: number, digits: number): string {
  const s = v.toFixed(digits);
  return s.startsWith("-") && Number(s) === 0 ? s.slice(1) : s;
}

const SNAPSHOT_SHAPE: Readonly<Record<string, FieldKind>> = { layers: "array", events: "array" };
const LAYER_SHAPE: Readonly<Record<string, FieldKind>> = { name: "string", weight: "number", state: "string", transitions: "array", nested: "array" };
const EVENT_SHAPE: Readonly<Record<string, FieldKind>> = { type: "string" };

/** One human-readable line per step: time, each layer's state and crossfades, the events, the root motion. */
export function formatStepLine(t: number, snap: StepSnapshot): string {
  const fn = "formatStepLine";
  expectNumber(fn, "t", t);
  expectShape(fn, "snap", snap, "a StepSnapshot (from describeStep)", SNAPSHOT_SHAPE);
  expectArrayOfShape(fn, "snap.layers", snap.layers, "LayerSnapshot", LAYER_SHAPE);
  expectArrayOfShape(fn, "snap.events", snap.events, "EventSnapshot", EVENT_SHAPE);
  expectNumberArray(fn, "snap.rootDelta", snap.rootDelta, 4);
  const layers = snap.layers.map((l) => {
    const fades = l.transitions.map((x) => ` [${x.from}→${x.to} s=${fixed(x.progress, 2)} w=${fixed(x.weight, 2)}${x.blend === "crossfade" ? "" : ` ${x.blend}`}${x.interrupted ? `, interrupting ${x.interrupted}` : ""}]`).join("");
    const weight = l.weight === 1 ? "" : `(${fixed(l.weight, 2)})`;
    const nested = l.nested.length ? ` {${l.nested.join(", ")}}` : "";
    return `${l.name}${weight}: ${l.state}${nested}${fades}`;
  }).join("  ");
  const events = snap.events.map((e) => {
    if (e.type === "notify") return `notify ${e.name} (${e.machine}/${e.state})`;
    if (e.from !== undefined) return `${e.type} ${e.machine} ${e.from}→${e.state}${e.interrupted ? ` (interrupting ${e.interrupted})` : ""}`;
    return `${e.type} ${e.machine}/${e.state}`;
  });
  const r = snap.rootDelta;
  const root = `root=(${fixed(r[0]!, 4)} ${fixed(r[1]!, 4)} ${fixed(r[2]!, 4)} yaw ${fixed(r[3]!, 4)})`;
  // Names come from the spec and the clips: control characters are escaped so one step stays one line.
  return echo(`t=${fixed(t, 3)}  ${layers}  ${root}${events.length ? `  | ${events.join("; ")}` : ""}`, Number.MAX_SAFE_INTEGER);
}

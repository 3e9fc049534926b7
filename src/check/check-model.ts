import type { CompiledGraph, CompiledMachine } from "../graph/compiled-graph.ts";
import type { GraphInstance, MachineInstance } from "../graph/graph-instance.ts";
import { normalizedTimeAt } from "../state-machine/state-clock.ts";
import type { CompiledProperty } from "./explore.ts";

/** Tolerance of the runtime's exit-time comparison (select-transition.ts). */
export const EXIT_EPSILON = 1e-9;

/**
 * Layers that must be explored together: those linked by a trigger they both test (the first to fire on
 * it consumes it). Layers that share no trigger cannot affect each other's machines (parameters are
 * the player's to set at any time), so each group is explored on its own and the configurations of
 * different groups never multiply.
 */
export interface LayerGroup {
  readonly layers: readonly number[];
  /** Every machine of those layers (nested ones too), outermost first. */
  readonly machines: readonly number[];
  /** Trigger slots tested in those layers. */
  readonly triggers: readonly number[];
}

/** Where a nested machine sits: its parent machine and the state that plays it (-1 for a layer's machine). */
export interface MachinePlace {
  readonly parent: number;
  readonly state: number;
  readonly layer: number;
}

export interface CheckModel {
  readonly graph: CompiledGraph;
  readonly groups: readonly LayerGroup[];
  readonly places: readonly MachinePlace[];
  /** Per machine, per state: the exit times of the transitions that may leave it, ascending, unique. */
  readonly thresholds: readonly (readonly Float64Array[])[];
  /** Per machine: a readable path ("base", "base/Locomotion"). */
  readonly paths: readonly string[];
}

/** The model; a property's states (and trigger) put their layers in one group. */
export function buildCheckModel(graph: CompiledGraph, properties: readonly CompiledProperty[] = []): CheckModel {
  const places: MachinePlace[] = new Array(graph.machines.length);
  const visit = (m: CompiledMachine, parent: number, state: number, layer: number): void => {
    places[m.id] = { parent, state, layer };
    m.states.forEach((s, i) => {
      if (s.motion.kind === "machine") visit(s.motion.machine, m.id, i, layer);
    });
  };
  graph.layers.forEach((l) => visit(l.machine, -1, -1, l.index));
  const thresholds = graph.machines.map((m) => m.states.map((_, s) => {
    const set = new Set<number>();
    for (const ti of m.outgoing[s]!) {
      const t = m.transitions[ti]!;
      if (t.exitTime >= 0) set.add(t.exitTime);
    }
    // A fading-out state can be left by "source" interruptions that carry exit times too: already in outgoing.
    return Float64Array.from([...set].sort((a, b) => a - b));
  }));
  // Union-find of layers over shared triggers.
  const root = graph.layers.map((_, i) => i);
  const find = (i: number): number => (root[i] === i ? i : (root[i] = find(root[i]!)));
  const triggerLayer = new Map<number, number>();
  const layerTriggers = graph.layers.map(() => new Set<number>());
  for (const m of graph.machines) {
    const layer = places[m.id]!.layer;
    for (const t of m.transitions) {
      for (const slot of t.triggerSlots) {
        layerTriggers[layer]!.add(slot);
        const other = triggerLayer.get(slot);
        if (other === undefined) triggerLayer.set(slot, layer);
        else root[find(layer)] = find(other);
      }
    }
  }
  for (const p of properties) {
    const refs = p.kind === "reachable" ? [...p.from, ...p.to] : p.kind === "eventually" && p.entering ? [...p.states, p.entering] : p.states;
    const layers = refs.map((r) => places[r.machine]!.layer);
    if (p.kind === "eventually" && p.trigger >= 0) {
      const tl = triggerLayer.get(p.trigger);
      if (tl !== undefined) layers.push(tl);
      for (const l of layers) layerTriggers[l]!.add(p.trigger);
    }
    for (const l of layers) root[find(l)] = find(layers[0]!);
  }
  const byRoot = new Map<number, number[]>();
  graph.layers.forEach((_, i) => {
    const r = find(i);
    const list = byRoot.get(r) ?? [];
    list.push(i);
    byRoot.set(r, list);
  });
  const groups: LayerGroup[] = [...byRoot.values()].map((layers) => {
    const machines = graph.machines.filter((m) => layers.includes(places[m.id]!.layer)).map((m) => m.id);
    const triggers = new Set<number>();
    for (const l of layers) for (const slot of layerTriggers[l]!) triggers.add(slot);
    return { layers, machines, triggers: [...triggers].sort((a, b) => a - b) };
  });
  return { graph, groups, places, thresholds, paths: graph.machines.map((m) => m.path) };
}

/**
 * Whether a machine instance is running: a layer's machine always; a nested one while the state that
 * plays it is current or part of its parent's running crossfade (the states `step` advances).
 */
export function isActive(model: CheckModel, inst: GraphInstance, id: number): boolean {
  const place = model.places[id]!;
  if (place.parent < 0) return true;
  if (!isActive(model, inst, place.parent)) return false;
  const p = inst.machines[place.parent]!;
  if (p.current === place.state) return true;
  if (p.depth === 0) return false;
  if (p.source === place.state) return true;
  for (let i = 0; i < p.depth; i++) if (p.stack[i]!.to === place.state) return true;
  return false;
}

const scratch = new Float64Array(1);

/** State s's normalised time, as the runtime's exit-time test reads it. */
export function normalizedTime(inst: GraphInstance, mi: MachineInstance, s: number): number {
  normalizedTimeAt(inst, mi, s, scratch, 0);
  return scratch[0]!;
}

/** How many of state s's exit times its clock has reached (the exit-phase region). */
export function exitRegion(model: CheckModel, mi: MachineInstance, s: number, n: number): number {
  const th = model.thresholds[mi.machine.id]![s]!;
  let r = 0;
  while (r < th.length && n >= th[r]! - EXIT_EPSILON) r++;
  return r;
}

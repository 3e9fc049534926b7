import { OP, type CompiledCondition, type CompiledGraph } from "../graph/compiled-graph.ts";
import type { GraphSpec } from "../spec/graph-spec.ts";
import { conditionHolds } from "../state-machine/condition.ts";

/**
 * The values the checker sets a parameter to: one representative of every region of its range that the
 * graph's conditions tell apart (each threshold itself, a value between each pair, one beyond either
 * end, kept inside the declared min/max and whole for int parameters). Two values are in one region
 * when every condition on the parameter gives the same answer for both; speed parameters also tell
 * "stopped" (≤ 0) from "playing", and blend parameters the nearest child when the children's lengths
 * differ (the cycle length decides when exit times come).
 */
export interface ParamRegions {
  /** The parameter's slot. */
  readonly slot: number;
  /** Representative values, one per region, in ascending order. */
  readonly values: readonly number[];
  /** For each value, its answer to each condition on the slot (in `conditions` order) and the extra tags. */
  readonly signatures: readonly string[];
}

/** Conditions on one slot, gathered from every machine (and from the user's properties). */
export function conditionsBySlot(graph: CompiledGraph, extra: readonly CompiledCondition[]): Map<number, CompiledCondition[]> {
  const out = new Map<number, CompiledCondition[]>();
  const add = (c: CompiledCondition): void => {
    let list = out.get(c.slot);
    if (!list) out.set(c.slot, (list = []));
    list.push(c);
  };
  for (const m of graph.machines) for (const t of m.transitions) for (const c of t.conditions) add(c);
  for (const c of extra) add(c);
  return out;
}

/** Slots read as a state's playback rate, and slots positioning a blend whose children differ in length. */
export function timingSlots(graph: CompiledGraph): { speed: Set<number>; blend: Map<number, number[]> } {
  const speed = new Set<number>();
  const blend = new Map<number, number[]>();
  for (const m of graph.machines) {
    for (const s of m.states) {
      if (s.speedSlot >= 0) speed.add(s.speedSlot);
      const mo = s.motion;
      if (mo.kind !== "blend1d" && mo.kind !== "blend2d") continue;
      const d = mo.durations;
      let differ = false;
      for (let i = 1; i < d.length; i++) if (d[i] !== d[0]) differ = true;
      if (!differ) continue;
      if (mo.kind === "blend1d") addAll(blend, mo.slot, [...mo.positions]);
      else {
        const xs = mo.grid ? [...mo.grid.xs] : [];
        const ys = mo.grid ? [...mo.grid.ys] : [];
        addAll(blend, mo.slotX, xs);
        addAll(blend, mo.slotY, ys);
      }
    }
  }
  return { speed, blend };
}

function addAll(map: Map<number, number[]>, slot: number, values: number[]): void {
  const list = map.get(slot) ?? [];
  list.push(...values);
  map.set(slot, list);
}

/** Every non-trigger parameter's regions (triggers are set, not valued). */
export function paramRegions(graph: CompiledGraph, spec: GraphSpec, extra: readonly CompiledCondition[]): ParamRegions[] {
  const bySlot = conditionsBySlot(graph, extra);
  const timing = timingSlots(graph);
  const out: ParamRegions[] = [];
  for (const p of graph.params) {
    if (p.type === "trigger") continue;
    const conditions = bySlot.get(p.slot) ?? [];
    if (p.type === "bool") {
      out.push({ slot: p.slot, values: [0, 1], signatures: ["0", "1"] });
      continue;
    }
    const ps = spec.parameters.get(p.name);
    const lo = ps?.min ?? -Infinity;
    const hi = ps?.max ?? Infinity;
    const marks = new Set<number>(conditions.map((c) => c.value));
    if (timing.speed.has(p.slot)) marks.add(0);
    const blendMarks = timing.blend.get(p.slot) ?? [];
    for (const b of blendMarks) marks.add(b);
    if (Number.isFinite(lo)) marks.add(lo);
    if (Number.isFinite(hi)) marks.add(hi);
    marks.add(p.default);
    const sorted = [...marks].sort((a, b) => a - b);
    const candidates: number[] = [];
    for (let i = 0; i < sorted.length; i++) {
      const v = sorted[i]!;
      candidates.push(v);
      if (i + 1 < sorted.length) candidates.push((v + sorted[i + 1]!) / 2);
    }
    if (sorted.length > 0) {
      candidates.push(sorted[0]! - 1, sorted[sorted.length - 1]! + 1);
      if (p.type === "int") for (const v of sorted) candidates.push(v - 1, v + 1);
    } else candidates.push(0);
    const seen = new Map<string, number>();
    const probe = new Float64Array(graph.params.length);
    for (let v of candidates) {
      if (p.type === "int") v = Math.round(v);
      if (v < lo) v = lo;
      if (v > hi) v = hi;
      if (!Number.isFinite(v)) continue;
      probe[p.slot] = v;
      let sig = conditions.map((c) => (conditionHolds(probe, c) ? "1" : "0")).join("");
      if (timing.speed.has(p.slot)) sig += v > 0 ? "+" : "0";
      if (blendMarks.length > 0) sig += `@${nearest(blendMarks, v)}`;
      // The first candidate of a region wins: thresholds come before the values between them.
      if (!seen.has(sig)) seen.set(sig, v);
    }
    const entries = [...seen].sort((a, b) => a[1] - b[1]);
    out.push({ slot: p.slot, values: entries.map((e) => e[1]), signatures: entries.map((e) => e[0]) });
  }
  return out;
}

function nearest(points: readonly number[], v: number): number {
  let best = 0;
  for (let i = 1; i < points.length; i++) if (Math.abs(points[i]! - v) < Math.abs(points[best]! - v)) best = i;
  return points[best]!;
}

/** The representative values of `regions` that the given conditions (and timing flags) still tell apart. */
export function distinguishedValues(regions: ParamRegions, conditions: readonly CompiledCondition[], speed: boolean, blend: readonly number[] | undefined, paramCount: number): number[] {
  const probe = new Float64Array(paramCount);
  const seen = new Set<string>();
  const out: number[] = [];
  for (const v of regions.values) {
    probe[regions.slot] = v;
    let sig = conditions.map((c) => (conditionHolds(probe, c) ? "1" : "0")).join("");
    if (speed) sig += v > 0 ? "+" : "0";
    if (blend && blend.length > 0) sig += `@${nearest(blend, v)}`;
    if (seen.has(sig)) continue;
    seen.add(sig);
    out.push(v);
  }
  return out;
}

/** Whether an op code compares for equality (used to print conditions). */
export const OP_TEXT = [">", ">=", "<", "<=", "==", "!="] as const;
export { OP };

import type { CompiledGraph } from "../graph/compiled-graph.ts";
import { createInstance, type GraphInstance, type StepResult } from "../graph/graph-instance.ts";
import { runTimeline } from "../graph/run-timeline.ts";
import { parseTimeline } from "../graph/timeline.ts";
import { parseJsonText } from "../json/index.ts";
import { pickTransition, type ScanTrace } from "../state-machine/select-transition.ts";
import type { InputAction } from "./explore.ts";

/** A stretch of a path: an input applied (-1: nothing changed, the last input held) and the steps taken with it. */
export interface Segment {
  readonly input: number;
  readonly steps: number;
}

/** One event of a witness timeline, exactly as `animgraph run --script` reads it. */
export type WitnessEvent =
  | { readonly t: number; readonly set: Readonly<Record<string, number | boolean>> }
  | { readonly t: number; readonly trigger: string };

/** A witness timeline (docs/runtime.md, "Timeline format"). */
export interface WitnessTimeline {
  readonly description: string;
  readonly dt: string | number;
  readonly duration: number;
  readonly events: readonly WitnessEvent[];
}

/** Turns a path of segments into a timeline: each input becomes `set`/`trigger` events at its step's time. */
export function buildTimeline(graph: CompiledGraph, inputs: readonly InputAction[], segments: readonly Segment[], dtText: string | number, dt: number, description: string): { timeline: WitnessTimeline; steps: number } {
  const values = Float64Array.from(graph.params.map((p) => p.default));
  const events: WitnessEvent[] = [];
  let k = 0;
  for (const seg of segments) {
    if (seg.input >= 0) {
      const inp = inputs[seg.input]!;
      const set: Record<string, number | boolean> = {};
      let any = false;
      for (let i = 0; i < inp.slots.length; i++) {
        const slot = inp.slots[i]!;
        const v = inp.values[i]!;
        if (values[slot] === v) continue;
        values[slot] = v;
        const p = graph.params[slot]!;
        set[p.name] = p.type === "bool" ? v !== 0 : v;
        any = true;
      }
      const t = k * dt;
      if (any) events.push({ t, set });
      if (inp.trigger >= 0) events.push({ t, trigger: graph.params[inp.trigger]!.name });
    }
    k += seg.steps;
  }
  return { timeline: { description, dt: dtText, duration: k * dt, events }, steps: k };
}

/** What a replay looks at: called before and after every step of the run. */
export interface ReplayProbe {
  before?(k: number, inst: GraphInstance): void;
  after(k: number, inst: GraphInstance, result: StepResult): void;
  /** null when the run showed what the witness claims, else what it showed instead. */
  verdict(steps: number, inst: GraphInstance): string | null;
}

/**
 * Replays a witness the way `animgraph run --script` does: the timeline is written as JSON text, read
 * back by the timeline parser and played by runTimeline (which calls `step`) on a new instance.
 */
export function replayWitness(graph: CompiledGraph, timeline: WitnessTimeline, probe: ReplayProbe): string | null {
  const doc = parseJsonText(JSON.stringify(timeline), "<witness>");
  const parsed = parseTimeline(doc, graph);
  if (!parsed.timeline) return `the timeline did not parse: ${parsed.diagnostics.map((d) => d.message).join("; ")}`;
  const inst = createInstance(graph);
  let steps = 0;
  runTimeline(graph, inst, parsed.timeline, (k, _t, result) => {
    probe.after(k, inst, result);
    steps = k + 1;
  }, undefined, probe.before ? (k) => probe.before!(k, inst) : undefined);
  return probe.verdict(steps, inst);
}

/** The runtime's selection scan, traced: per transition looked at, whether conditions and exit time hold, and which is chosen. */
export function traceSelection(inst: GraphInstance, machine: number): Map<number, { ok: boolean; exit: boolean; self: boolean; chosen: boolean }> {
  const out = new Map<number, { ok: boolean; exit: boolean; self: boolean; chosen: boolean }>();
  const tr: ScanTrace = {
    visit(t, self, _position, exit, ok, chosen) {
      if (!out.has(t)) out.set(t, { ok, exit, self, chosen });
    },
  };
  pickTransition(inst, inst.machines[machine]!, tr);
  return out;
}

/** Transitions fired in a step by machine: [machine id, transition index, from state] per transitionStarted event. */
export function firedInStep(result: StepResult): { machine: number; transition: number; from: number }[] {
  const out: { machine: number; transition: number; from: number }[] = [];
  const q = result.events;
  for (let i = 0; i < q.count; i++) {
    const e = q.items[i]!;
    if (e.type === "transitionStarted") out.push({ machine: e.machine, transition: e.transition, from: e.from });
  }
  return out;
}

/** The machines' current states and crossfade stacks (the part of a configuration a replay can compare). */
export function structuralKey(inst: GraphInstance, machines: readonly number[]): string {
  const parts: number[] = [];
  for (const id of machines) {
    const mi = inst.machines[id]!;
    parts.push(mi.current, mi.depth);
    for (let i = 0; i < mi.depth; i++) parts.push(mi.stack[i]!.transition);
  }
  return parts.join(",");
}

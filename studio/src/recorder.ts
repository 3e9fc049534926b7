// Record and rewind. The studio simulates in fixed steps of STEP seconds, so a recording — each step's
// parameter values before it runs and the travel() commands issued — replays bit for bit: the same
// inputs, in the same order, on a fresh instance of the same graph give the same poses. It converts to
// and from an `animgraph run` timeline (dt "1/60", set / trigger / travel events at k · dt).
import { applyCommand, createInstance, step, type CompiledGraph, type GraphInstance, type Timeline } from "animgraph";

export const STEP = 1 / 60;
/** Steps kept: 10 minutes at 60 Hz. Recording stops there (the studio says so). */
export const MAX_RECORDED_STEPS = 36_000;

export interface TravelCommand { readonly layer: number; readonly state: string }

export interface Recording {
  readonly graph: CompiledGraph;
  /** Per step: the parameter values the step saw (a copy of instance.params). */
  readonly params: Float64Array[];
  /** Per step: travel() commands issued just before it. */
  readonly travels: (readonly TravelCommand[])[];
  /** Per step: a checksum of the pose it produced (to prove replays exact). */
  readonly poseSums: number[];
}

export function createRecording(graph: CompiledGraph): Recording {
  return { graph, params: [], travels: [], poseSums: [] };
}

/** FNV-1a over the pose's float bits: equal poses, equal sums; a one-ulp change changes it. */
export function poseChecksum(instance: GraphInstance): number {
  const pose = instance.result.pose;
  let h = 0x811c9dc5;
  for (const arr of [pose.t, pose.r, pose.s]) {
    const bits = new Uint32Array(arr.buffer, arr.byteOffset, arr.length);
    for (let i = 0; i < bits.length; i++) h = Math.imul(h ^ bits[i]!, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * Records the step about to run (its parameters, then the travels queued for it), applies the travels,
 * runs it and records its pose checksum. Past MAX_RECORDED_STEPS it only runs the step (returns false).
 */
export function recordStep(rec: Recording, instance: GraphInstance, travels: readonly TravelCommand[]): boolean {
  const recording = rec.params.length < MAX_RECORDED_STEPS;
  if (recording) {
    rec.params.push(Float64Array.from(instance.params));
    rec.travels.push(travels.slice());
  }
  for (const t of travels) applyCommand(instance, { kind: "travel", t: 0, pointer: "", layer: t.layer, state: t.state });
  step(rec.graph, instance, STEP);
  if (recording) rec.poseSums.push(poseChecksum(instance));
  return recording;
}

/** A fresh instance replayed through the first `count` recorded steps. */
export function replay(rec: Recording, count: number): GraphInstance {
  const instance = createInstance(rec.graph);
  for (let k = 0; k < count && k < rec.params.length; k++) replayStep(rec, instance, k);
  return instance;
}

/** Re-runs recorded step k on `instance` (which must have replayed steps 0..k−1). */
export function replayStep(rec: Recording, instance: GraphInstance, k: number): void {
  instance.params.set(rec.params[k]!);
  for (const t of rec.travels[k]!) applyCommand(instance, { kind: "travel", t: 0, pointer: "", layer: t.layer, state: t.state });
  step(rec.graph, instance, STEP);
}

/** Steps whose replayed pose differs from the recorded one (0 when the replay is exact). */
export function verifyReplay(rec: Recording): number {
  const instance = createInstance(rec.graph);
  let mismatches = 0;
  for (let k = 0; k < rec.params.length; k++) {
    replayStep(rec, instance, k);
    if (poseChecksum(instance) !== rec.poseSums[k]) mismatches++;
  }
  return mismatches;
}

/**
 * The recording as an `animgraph run` timeline (JSON text). The recording is replayed alongside, so each
 * event is a difference between what a step saw and what the previous step left (a trigger consumed and
 * set again is a new trigger event).
 */
export function toTimelineJson(rec: Recording): string {
  const events: Record<string, unknown>[] = [];
  const instance = createInstance(rec.graph);
  rec.params.forEach((values, k) => {
    const t = Number((k * STEP).toFixed(6));
    const set: Record<string, number | boolean> = {};
    for (const p of rec.graph.params) {
      const v = values[p.slot]!;
      if (v === instance.params[p.slot]) continue;
      if (p.type === "trigger") {
        if (v !== 0) events.push({ t, trigger: p.name });
      } else set[p.name] = p.type === "bool" ? v !== 0 : v;
    }
    if (Object.keys(set).length > 0) events.push({ t, set });
    for (const tr of rec.travels[k]!) events.push({ t, travel: tr.state, layer: rec.graph.layers[tr.layer]!.name });
    replayStep(rec, instance, k);
  });
  return `${JSON.stringify({ dt: "1/60", duration: Number((rec.params.length * STEP).toFixed(6)), events }, null, 2)}\n`;
}

/** A recording made by running a timeline (imported): the same steps `animgraph run` takes at dt 1/60. */
export function fromTimeline(graph: CompiledGraph, timeline: Timeline): Recording {
  const rec = createRecording(graph);
  const instance = createInstance(graph);
  const steps = Math.min(MAX_RECORDED_STEPS, Math.round(timeline.duration / STEP));
  let next = 0;
  for (let k = 0; k < steps; k++) {
    const t = k * STEP;
    const travels: TravelCommand[] = [];
    while (next < timeline.commands.length && timeline.commands[next]!.t <= t + 1e-9 * STEP) {
      const c = timeline.commands[next++]!;
      if (c.kind === "travel") travels.push({ layer: c.layer, state: c.state });
      else applyCommand(instance, c);
    }
    rec.params.push(Float64Array.from(instance.params));
    rec.travels.push(travels);
    for (const tr of travels) applyCommand(instance, { kind: "travel", t, pointer: "", layer: tr.layer, state: tr.state });
    step(graph, instance, STEP);
    rec.poseSums.push(poseChecksum(instance));
  }
  return rec;
}

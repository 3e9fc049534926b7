import { childPointer, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { JsonReader, type JsonNode } from "../json/index.ts";
import { toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import { argumentError } from "../errors/check-argument.ts";
import { expectCompiledGraph } from "./check-graph.ts";
import type { CompiledGraph } from "./compiled-graph.ts";

/**
 * A scripted run: parameter changes, triggers and travel requests at given times, simulated at a fixed
 * dt. JSON form (docs/runtime.md, "Timeline format"):
 *
 *   { "dt": 0.0333 | "1/30", "duration": 10,
 *     "events": [ { "t": 0.5, "set": { "speed": 2, "grounded": true } },
 *                 { "t": 1.0, "trigger": "jump" },
 *                 { "t": 2, "travel": "Punch", "layer": "base" } ] }
 */
export interface Timeline {
  /** The file the timeline came from (for messages). */
  readonly file: string;
  /** Seconds per step (> 0). */
  readonly dt: number;
  /** Seconds simulated (≥ 0); the run takes round(duration / dt) steps. */
  readonly duration: number;
  /** Commands sorted by time (stable: file order within one time). */
  readonly commands: readonly TimelineCommand[];
}

/**
 * One timeline event at time `t` (seconds): set a parameter, set a trigger, or travel a layer's machine
 * to a state (`layer` is the layer index). `pointer` is the event's JSON pointer in the timeline file.
 */
export type TimelineCommand =
  | { readonly kind: "set"; readonly t: number; readonly pointer: string; readonly param: string; readonly value: number | boolean }
  | { readonly kind: "trigger"; readonly t: number; readonly pointer: string; readonly param: string }
  | { readonly kind: "travel"; readonly t: number; readonly pointer: string; readonly layer: number; readonly state: string };

/** What `parseTimeline` returns: the timeline (when it is valid for the graph) and every problem found. */
export interface ParseTimelineResult {
  /** Absent when any diagnostic is an error. */
  readonly timeline?: Timeline;
  /** Every problem, at its JSON pointer in the timeline file. */
  readonly diagnostics: Diagnostic[];
}

const EVENT_KEYS = new Set(["t", "set", "trigger", "travel", "layer"]);
const ROOT_KEYS = new Set(["$schema", "description", "dt", "duration", "events"]);
const DECIMAL = "(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?";
// Plain decimal numbers only: Number() would also read "0x10" as 16, "Infinity" and "1_0" as nothing.
const NUMBER = new RegExp(`^${DECIMAL}$`);
const FRACTION = new RegExp(`^(${DECIMAL})/(${DECIMAL})$`);

/** Most steps one timeline run may take (`E_TIMELINE_LIMIT`): 27 minutes at 60 Hz. */
export const MAX_TIMELINE_STEPS = 100_000;

/**
 * Parses a dt given as a number or as text — a decimal number ("0.016", "1e-3") or a fraction of two
 * ("1/60"), spaces around the parts allowed — into seconds; undefined when it is not that grammar or
 * not a positive finite number.
 */
export function parseDt(text: string | number): number | undefined {
  let v: number;
  if (typeof text === "number") v = text;
  else if (typeof text !== "string") throw argumentError("parseDt", "text", "a number or a string such as \"1/60\"", text);
  else {
    const compact = text.replace(/\s+/g, "");
    const m = FRACTION.exec(compact);
    v = m ? Number(m[1]) / Number(m[2]) : NUMBER.test(compact) ? Number(compact) : NaN;
  }
  return v > 0 && Number.isFinite(v) ? v : undefined;
}

/** The E_TIMELINE_LIMIT message when `duration / dt` is more steps than a run may take, else undefined. */
export function timelineLimitProblem(duration: number, dt: number): string | undefined {
  const steps = Math.round(duration / dt);
  if (steps <= MAX_TIMELINE_STEPS) return undefined;
  return `${duration} s at dt = ${dt} s is ${steps > 1e15 ? steps.toExponential(3) : steps} steps; the limit is ${MAX_TIMELINE_STEPS} (shorten the run or use a larger dt)`;
}

/**
 * Validates a timeline document against a compiled graph: every parameter, trigger, layer and state
 * it names must exist and values must fit the parameter types. Returns every problem with its JSON
 * pointer (codes in docs/runtime.md); never throws on user data.
 */
export function parseTimeline(timeline: JsonInput, graph: CompiledGraph): ParseTimelineResult {
  expectCompiledGraph("parseTimeline", "graph", graph);
  const doc = toJsonDocument("parseTimeline", "timeline", timeline, "<timeline>");
  const r = new JsonReader({ ...doc, diagnostics: [...doc.diagnostics] });
  const root = r.object(doc.root);
  if (!root) {
    if (doc.root) return { diagnostics: r.diagnostics };
    return { diagnostics: r.diagnostics };
  }
  for (const [key, node] of root.members) if (!ROOT_KEYS.has(key)) r.report(node, "E_TIMELINE_KEY", `unknown key "${key}" (expected dt, duration, events)`);
  let dt: number | undefined;
  const dtNode = r.member(root, "dt");
  if (dtNode) {
    if (dtNode.kind === "string" || dtNode.kind === "number") {
      dt = parseDt(dtNode.kind === "string" ? dtNode.value : dtNode.value);
      if (dt === undefined) r.report(dtNode, "E_TIMELINE_DT", `dt must be a number > 0 or a fraction such as "1/60"`);
    } else r.report(dtNode, "E_WRONG_TYPE", "expected a number or a fraction string");
  }
  const durationNode = r.member(root, "duration");
  const duration = r.number(durationNode);
  if (duration !== undefined && !(duration >= 0 && duration <= 86400)) {
    r.report(durationNode, "E_TIMELINE_RANGE", `duration must be between 0 and 86400 seconds, got ${duration}`);
  }
  if (dt !== undefined && duration !== undefined && duration >= 0 && duration <= 86400) {
    const problem = timelineLimitProblem(duration, dt);
    if (problem) r.report(durationNode, "E_TIMELINE_LIMIT", problem);
  }
  const commands: TimelineCommand[] = [];
  const events = r.array(r.member(root, "events"));
  for (const item of events?.items ?? []) readEvent(r, item, graph, duration ?? Infinity, commands);
  const ok = !r.diagnostics.some((d) => d.severity === "error") && dt !== undefined && duration !== undefined;
  if (!ok) return { diagnostics: r.diagnostics };
  const sorted = commands.map((c, i) => [c, i] as const).sort((a, b) => a[0].t - b[0].t || a[1] - b[1]).map(([c]) => c);
  return { timeline: { file: doc.file, dt: dt!, duration: duration!, commands: sorted }, diagnostics: r.diagnostics };
}

function readEvent(r: JsonReader, node: JsonNode, graph: CompiledGraph, duration: number, out: TimelineCommand[]): void {
  const obj = r.object(node);
  if (!obj) return;
  for (const [key, n] of obj.members) if (!EVENT_KEYS.has(key)) r.report(n, "E_TIMELINE_KEY", `unknown key "${key}" (expected t and one of set, trigger, travel)`);
  const tNode = r.member(obj, "t");
  const t = r.number(tNode);
  if (t !== undefined && !(t >= 0)) r.report(tNode, "E_TIMELINE_RANGE", `t must be ≥ 0, got ${t}`);
  if (t !== undefined && t > duration) r.report(tNode, "W_TIMELINE_AFTER_END", `t = ${t} is after the end of the run (${duration} s); it never applies`, "warning");
  const actions = ["set", "trigger", "travel"].filter((k) => obj.members.has(k));
  if (actions.length !== 1) {
    r.report(obj, "E_TIMELINE_ACTION", actions.length === 0 ? "an event needs one of set, trigger, travel" : `an event has one action; found ${actions.join(", ")}`);
    return;
  }
  const time = t ?? 0;
  if (obj.members.has("layer") && actions[0] !== "travel") r.report(obj.members.get("layer"), "E_TIMELINE_KEY", `"layer" applies to travel only`);
  if (actions[0] === "set") {
    const set = r.object(obj.members.get("set"));
    if (!set) return;
    if (set.members.size === 0) r.report(set, "E_TIMELINE_ACTION", "set names no parameter");
    for (const [name, vNode] of set.members) {
      const pointer = vNode.pointer;
      const slot = graph.paramIndex.get(name);
      if (slot === undefined) {
        r.report(vNode, "E_UNKNOWN_PARAM", `unknown parameter "${name}"`);
        continue;
      }
      const type = graph.params[slot]!.type;
      if (type === "trigger") {
        r.report(vNode, "E_PARAM_TYPE", `"${name}" is a trigger: use { "trigger": "${name}" }`);
      } else if (type === "bool") {
        const v = r.boolean(vNode);
        if (v !== undefined) out.push({ kind: "set", t: time, pointer, param: name, value: v });
      } else {
        const v = r.number(vNode);
        if (v === undefined) continue;
        if (type === "int" && !Number.isSafeInteger(v)) r.report(vNode, "E_PARAM_TYPE", `"${name}" is an int parameter; ${v} is not an integer`);
        else out.push({ kind: "set", t: time, pointer, param: name, value: v });
      }
    }
  } else if (actions[0] === "trigger") {
    const tn = obj.members.get("trigger")!;
    const names: { name: string; node: JsonNode }[] = [];
    if (tn.kind === "array") {
      if (tn.items.length === 0) r.report(tn, "E_TIMELINE_ACTION", "trigger names no trigger (an empty list)");
      for (const item of tn.items) { const s = r.string(item); if (s !== undefined) names.push({ name: s, node: item }); }
    }
    else { const s = r.string(tn); if (s !== undefined) names.push({ name: s, node: tn }); }
    for (const { name, node: n } of names) {
      const slot = graph.paramIndex.get(name);
      if (slot === undefined) r.report(n, "E_UNKNOWN_PARAM", `unknown parameter "${name}"`);
      else if (graph.params[slot]!.type !== "trigger") r.report(n, "E_PARAM_TYPE", `"${name}" is a ${graph.params[slot]!.type} parameter, not a trigger`);
      else out.push({ kind: "trigger", t: time, pointer: n.pointer, param: name });
    }
  } else {
    const stateNode = obj.members.get("travel")!;
    const state = r.string(stateNode);
    let layer = 0;
    const layerNode = obj.members.get("layer");
    if (layerNode) {
      if (layerNode.kind === "string") {
        layer = graph.layers.findIndex((l) => l.name === layerNode.value);
        if (layer < 0) r.report(layerNode, "E_UNKNOWN_LAYER", `unknown layer "${layerNode.value}"`);
      } else if (layerNode.kind === "number" && Number.isInteger(layerNode.value)) {
        layer = layerNode.value;
        if (layer < 0 || layer >= graph.layers.length) {
          r.report(layerNode, "E_UNKNOWN_LAYER", `layer ${layer} does not exist (the graph has ${graph.layers.length})`);
          layer = -1;
        }
      } else {
        r.report(layerNode, "E_WRONG_TYPE", "expected a layer name or index");
        layer = -1;
      }
    }
    if (state === undefined || layer < 0) return;
    const machine = graph.layers[layer]!.machine;
    if (!machine.stateIndex.has(state)) {
      r.report(stateNode, "E_UNKNOWN_STATE", `layer "${graph.layers[layer]!.name}" has no state "${state}"`);
      return;
    }
    out.push({ kind: "travel", t: time, pointer: childPointer(obj.pointer, "travel"), layer, state });
  }
}


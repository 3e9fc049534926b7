import { argumentError, invalidValue, rangeError } from "../errors/check-argument.ts";
import { expectInstance } from "./check-graph.ts";
import type { GraphInstance, MachineInstance } from "./graph-instance.ts";

function slotOf(instance: GraphInstance, param: string | number, fn: string): number {
  expectInstance(fn, "instance", instance);
  const graph = instance.graph;
  if (typeof param === "number") {
    if (!Number.isInteger(param) || param < 0 || param >= graph.params.length) {
      throw rangeError(fn, "param", `a parameter name or a slot in [0, ${graph.params.length - 1}]`, param);
    }
    return param;
  }
  if (typeof param !== "string") throw argumentError(fn, "param", "a parameter name (string) or slot (integer)", param);
  const slot = graph.paramIndex.get(param);
  if (slot === undefined) throw invalidValue(fn, "param", `unknown parameter "${param}" (graph "${graph.name}" has ${[...graph.paramIndex.keys()].map((k) => `"${k}"`).join(", ") || "none"})`);
  return slot;
}

/**
 * Sets a parameter by name or slot. Rejected with an Error, changing nothing, when the value does not
 * fit the parameter's type: a float needs a finite number (NaN and ±Infinity are rejected), an int a
 * safe integer, a bool a boolean; triggers are set with `trigger`. Out-of-range values (min/max in the
 * spec) are accepted: ranges are authoring hints for the linter and sliders.
 */
export function setParam(instance: GraphInstance, param: string | number, value: number | boolean): void {
  const slot = slotOf(instance, param, "setParam");
  const p = instance.graph.params[slot]!;
  switch (p.type) {
    case "float":
      if (typeof value !== "number" || !Number.isFinite(value)) {
        throw argumentError("setParam", "value", `a finite number (float parameter "${p.name}")`, value);
      }
      break;
    case "int":
      if (typeof value !== "number" || !Number.isSafeInteger(value)) {
        throw argumentError("setParam", "value", `a safe integer (int parameter "${p.name}")`, value);
      }
      break;
    case "bool":
      if (typeof value !== "boolean") throw argumentError("setParam", "value", `a boolean (bool parameter "${p.name}")`, value);
      break;
    case "trigger":
      throw invalidValue("setParam", "param", `"${p.name}" is a trigger; use trigger(instance, "${p.name}")`);
  }
  instance.params[slot] = typeof value === "boolean" ? (value ? 1 : 0) : value;
}

/** A parameter's value (bool and trigger as booleans). */
export function getParam(instance: GraphInstance, param: string | number): number | boolean {
  const slot = slotOf(instance, param, "getParam");
  const type = instance.graph.params[slot]!.type;
  const v = instance.params[slot]!;
  return type === "bool" || type === "trigger" ? v !== 0 : v;
}

/**
 * Sets a trigger. It stays set until a transition that tests it fires (which consumes it) or
 * `resetTrigger` clears it.
 */
export function trigger(instance: GraphInstance, param: string | number): void {
  const slot = slotOf(instance, param, "trigger");
  const p = instance.graph.params[slot]!;
  if (p.type !== "trigger") throw invalidValue("trigger", "param", `"${p.name}" is a ${p.type} parameter, not a trigger; use setParam`);
  instance.params[slot] = 1;
}

/** Clears a trigger without firing anything (throws AnimgraphError ERR_INVALID_VALUE when `param` is not a trigger). */
export function resetTrigger(instance: GraphInstance, param: string | number): void {
  const slot = slotOf(instance, param, "resetTrigger");
  const p = instance.graph.params[slot]!;
  if (p.type !== "trigger") throw invalidValue("resetTrigger", "param", `"${p.name}" is a ${p.type} parameter, not a trigger`);
  instance.params[slot] = 0;
}

/** What `travel` planned. */
export interface TravelPlan {
  /** "path": transitions will be taken one by one; "here": already there; "teleport": no path, switched directly on the next step. */
  readonly kind: "path" | "here" | "teleport";
  /** State names along the path, from the current state to the destination. */
  readonly states: readonly string[];
}

/**
 * Plans a walk to `stateName` in a layer's machine (like Godot's AnimationNodeStateMachinePlayback.travel):
 * the shortest path in number of transitions (breadth-first over the transition graph, "*" transitions
 * included, ties broken by transition priority order), then on each following step, whenever the
 * machine is not crossfading, the path's next transition fires, its conditions and exit time ignored,
 * with its own duration and curve. When no path exists the state is entered directly on the next step
 * (a "teleport": a transition of duration 0, time reset). A new travel or a fired transition
 * not on the path (the path is abandoned) replaces the plan. Throws on an unknown layer or state.
 */
export function travel(instance: GraphInstance, layer: number | string, stateName: string): TravelPlan {
  expectInstance("travel", "instance", instance);
  if (typeof layer !== "number" && typeof layer !== "string") throw argumentError("travel", "layer", "a layer name (string) or index (integer)", layer);
  if (typeof stateName !== "string") throw argumentError("travel", "stateName", "a state name (string)", stateName);
  const li = typeof layer === "number" ? layer : instance.graph.layers.findIndex((l) => l.name === layer);
  const mi = Number.isInteger(li) ? instance.layers[li] : undefined;
  if (!mi) throw invalidValue("travel", "layer", `unknown layer ${JSON.stringify(layer)}`);
  const m = mi.machine;
  const goal = m.stateIndex.get(stateName);
  if (goal === undefined) throw invalidValue("travel", "stateName", `layer "${instance.graph.layers[li]!.name}" has no state "${stateName}"`);
  const names = m.states.map((s) => s.name);
  mi.travelLength = 0;
  mi.travelNext = 0;
  if (goal === mi.current) return { kind: "here", states: [stateName] };
  const path = shortestPath(mi, goal);
  if (!path) {
    mi.travelPath[0] = -1 - goal; // encoded teleport target
    mi.travelLength = 1;
    return { kind: "teleport", states: [names[mi.current]!, stateName] };
  }
  path.forEach((t, i) => (mi.travelPath[i] = t));
  mi.travelLength = path.length;
  return { kind: "path", states: [names[mi.current]!, ...path.map((t) => names[m.transitions[t]!.to]!)] };
}

function shortestPath(mi: MachineInstance, goal: number): number[] | null {
  const m = mi.machine;
  const via = new Int32Array(m.states.length).fill(-2); // transition that first reached the state
  const prev = new Int32Array(m.states.length).fill(-1); // the state it came from
  via[mi.current] = -1;
  const queue = [mi.current];
  for (let qi = 0; qi < queue.length; qi++) {
    const s = queue[qi]!;
    for (const ti of m.outgoing[s]!) {
      const to = m.transitions[ti]!.to;
      if (via[to] !== -2) continue;
      via[to] = ti;
      prev[to] = s;
      if (to === goal) {
        const path: number[] = [];
        for (let at = goal; at !== mi.current; at = prev[at]!) path.unshift(via[at]!);
        return path;
      }
      queue.push(to);
    }
  }
  return null;
}

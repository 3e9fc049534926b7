import { describeKind, type JsonNode, type JsonObjectNode } from "../json/index.ts";
import type {
  Blend1DSpec, Blend2DSpec, ConditionSpec, EventSpec, MachineSpec, MotionSpec, ParamRef, StateSpec, TransitionSpec,
} from "./graph-spec.ts";
import { ANY_STATE, SPEC_DEFAULTS } from "./spec-keys.ts";
import type { SpecReader } from "./spec-reader.ts";

const MOTION_KEYS = ["clip", "blend1d", "blend2d", "machine"] as const;
const ORDERING_OPS: ReadonlySet<string> = new Set([">", ">=", "<", "<="]);
/** Upper bounds that keep arithmetic on durations and times meaningful (an hour; a million frames). */
const MAX_SECONDS = 3600;
const MAX_FRAMES = 1_000_000;

/** `{ "param": name }`: a value read from a parameter at run time. */
export function readParamRef(r: SpecReader, node: JsonObjectNode): ParamRef | undefined {
  const obj = r.specObject(node, "paramRef");
  const param = r.name(r.member(obj, "param"));
  return param === undefined ? undefined : { param };
}

/**
 * A state machine at nesting `depth` (a layer's machine is depth 1). Past `limits.maxMachineDepth`
 * the machine is reported (E_SPEC_LIMIT) and not read, so hostile nesting costs nothing.
 */
export function readMachine(r: SpecReader, node: JsonNode | undefined, depth: number, frameRate: number): MachineSpec | undefined {
  if (!node) return undefined;
  if (depth > r.limits.maxMachineDepth) {
    r.report(node, "E_SPEC_LIMIT", `state machines nested deeper than ${r.limits.maxMachineDepth} levels`);
    return undefined;
  }
  const obj = r.specObject(node, "machine");
  if (!obj) return undefined;
  const entry = r.name(r.member(obj, "entry"));
  const states = new Map<string, StateSpec>();
  const statesObj = r.object(r.member(obj, "states"));
  let ok = entry !== undefined && statesObj !== undefined;
  if (statesObj) {
    if (statesObj.members.size === 0) r.report(statesObj, "E_SPEC_EMPTY", "a state machine needs at least one state");
    for (const [name, stateNode] of statesObj.members) {
      r.stateCount++;
      if (!r.within("states", r.stateCount, r.limits.maxStates, stateNode, "states in the graph")) return undefined;
      if (!r.checkName(name, stateNode)) ok = false;
      if (name === ANY_STATE) {
        r.report(stateNode, "E_SPEC_RESERVED_NAME", `"${ANY_STATE}" means "any state" in transitions and cannot name a state`);
        ok = false;
      }
      const state = readState(r, name, stateNode, depth, frameRate);
      if (state) states.set(name, state);
      else ok = false;
    }
  }
  const transitions: TransitionSpec[] = [];
  const transitionsNode = r.optional(obj, "transitions");
  const arr = transitionsNode ? r.array(transitionsNode) : undefined;
  if (transitionsNode && !arr) ok = false;
  for (const item of arr?.items ?? []) {
    r.transitionCount++;
    if (!r.within("transitions", r.transitionCount, r.limits.maxTransitions, item, "transitions in the graph")) return undefined;
    const t = readTransition(r, item, frameRate);
    if (t) transitions.push(t);
    else ok = false;
  }
  return ok && entry !== undefined ? { pointer: obj.pointer, entry, states, transitions } : undefined;
}

function readState(r: SpecReader, name: string, node: JsonNode, depth: number, frameRate: number): StateSpec | undefined {
  const obj = r.specObject(node, "state");
  if (!obj) return undefined;
  const present = MOTION_KEYS.filter((k) => obj.members.has(k));
  let motion: MotionSpec | undefined;
  if (present.length === 0) {
    r.report(obj, "E_SPEC_MOTION", `state "${name}" has no motion: give exactly one of "clip", "blend1d", "blend2d" or "machine"`);
  } else if (present.length > 1) {
    r.report(obj.members.get(present[1]!), "E_SPEC_MOTION", `state "${name}" has more than one motion (${present.map((k) => `"${k}"`).join(", ")}); give exactly one`);
  } else {
    motion = readMotion(r, obj, present[0]!, depth, frameRate);
  }
  const mirrorNode = r.optional(obj, "mirror");
  const mirror = r.flag(mirrorNode, SPEC_DEFAULTS.mirror);
  if (mirrorNode && present.length === 1 && present[0] !== "clip") {
    r.report(mirrorNode, "E_SPEC_NOT_ALLOWED", `"mirror" applies to a state that plays a clip; mark the blend's children or samples (or the nested machine's states) instead`);
    return undefined;
  }
  if (motion?.kind === "clip" && mirror === true) motion = { ...motion, mirror: true };
  const speedNode = r.optional(obj, "speed");
  let speed: number | ParamRef | undefined = SPEC_DEFAULTS.speed;
  // Playback runs forwards only (the runtime treats a negative rate as 0), so a negative constant is an error.
  if (speedNode) speed = speedNode.kind === "object" ? readParamRef(r, speedNode) : r.numberIn(speedNode, 0, 1000);
  const loopNode = r.optional(obj, "loop");
  const loop = loopNode ? r.enumValue(loopNode, "loop", "loop") : undefined;
  const events = readEvents(r, r.optional(obj, "events"));
  const final = r.flag(r.optional(obj, "final"), false);
  const syncNode = r.optional(obj, "syncGroup");
  const syncGroup = syncNode ? r.name(syncNode) : undefined;
  if (!motion || speed === undefined || (loopNode && !loop) || !events || final === undefined || (syncNode && syncGroup === undefined) || mirror === undefined) {
    return undefined;
  }
  return {
    pointer: node.pointer, name, motion, speed, events, final,
    ...(loop !== undefined ? { loop } : {}),
    ...(syncGroup !== undefined ? { syncGroup } : {}),
  };
}

function readEvents(r: SpecReader, node: JsonNode | undefined): EventSpec[] | undefined {
  if (!node) return [];
  const arr = r.array(node);
  if (!arr) return undefined;
  if (!r.within(`events${arr.pointer}`, arr.items.length, r.limits.maxEvents, arr, "events in one state")) return undefined;
  const out: EventSpec[] = [];
  let ok = true;
  for (const item of arr.items) {
    const obj = r.specObject(item, "event");
    const name = r.name(r.member(obj, "name"));
    const time = r.numberIn(r.member(obj, "time"), 0, MAX_SECONDS);
    if (name === undefined || time === undefined) ok = false;
    else out.push({ pointer: item.pointer, name, time });
  }
  return ok ? out : undefined;
}

function readMotion(r: SpecReader, state: JsonObjectNode, key: (typeof MOTION_KEYS)[number], depth: number, frameRate: number): MotionSpec | undefined {
  const node = state.members.get(key)!;
  switch (key) {
    case "clip": {
      const clip = r.name(node);
      return clip === undefined ? undefined : { kind: "clip", clip, pointer: node.pointer };
    }
    case "blend1d":
      return readBlend1D(r, node);
    case "blend2d":
      return readBlend2D(r, node);
    case "machine": {
      const machine = readMachine(r, node, depth + 1, frameRate);
      return machine ? { kind: "machine", machine, pointer: node.pointer } : undefined;
    }
  }
}

/** The items of a non-empty, bounded array of children or samples. */
function blendItems(r: SpecReader, node: JsonNode | undefined, what: string): readonly JsonNode[] | undefined {
  const arr = r.array(node);
  if (!arr) return undefined;
  if (arr.items.length === 0) {
    r.report(arr, "E_SPEC_EMPTY", `a blend needs at least one ${what}`);
    return undefined;
  }
  if (!r.within(`blend${arr.pointer}`, arr.items.length, r.limits.maxBlendChildren, arr, `${what}s in one blend`)) return undefined;
  return arr.items;
}

function readBlend1D(r: SpecReader, node: JsonNode): Blend1DSpec | undefined {
  const obj = r.specObject(node, "blend1d");
  if (!obj) return undefined;
  const param = r.name(r.member(obj, "param"));
  const weighting = r.enumValue(r.optional(obj, "weighting"), "weighting", SPEC_DEFAULTS.weighting);
  const sync = r.flag(r.optional(obj, "sync"), SPEC_DEFAULTS.sync);
  const items = blendItems(r, r.member(obj, "children"), "child");
  const children: Blend1DSpec["children"][number][] = [];
  let ok = items !== undefined;
  for (const item of items ?? []) {
    const c = r.specObject(item, "blend1dChild");
    const at = r.number(r.member(c, "at"));
    const clip = r.name(r.member(c, "clip"));
    const mirror = r.flag(r.optional(c, "mirror"), SPEC_DEFAULTS.mirror);
    if (at === undefined || clip === undefined || mirror === undefined) ok = false;
    else children.push({ at, clip, ...(mirror ? { mirror } : {}), pointer: item.pointer });
  }
  if (!ok || param === undefined || weighting === undefined || sync === undefined) return undefined;
  return { kind: "blend1d", pointer: obj.pointer, param, weighting, sync, children };
}

function readBlend2D(r: SpecReader, node: JsonNode): Blend2DSpec | undefined {
  const obj = r.specObject(node, "blend2d");
  if (!obj) return undefined;
  const paramsArr = r.array(r.member(obj, "params"));
  let params: [string, string] | undefined;
  if (paramsArr) {
    if (paramsArr.items.length !== 2) {
      r.report(paramsArr, "E_SPEC_ARITY", `a 2D blend space needs exactly two parameters [x, y], found ${paramsArr.items.length}`);
    } else {
      const x = r.name(paramsArr.items[0]);
      const y = r.name(paramsArr.items[1]);
      if (x !== undefined && y !== undefined) params = [x, y];
    }
  }
  const mode = r.enumValue(r.optional(obj, "mode"), "blend2dMode", SPEC_DEFAULTS.blend2dMode);
  const sync = r.flag(r.optional(obj, "sync"), SPEC_DEFAULTS.sync);
  const items = blendItems(r, r.member(obj, "samples"), "sample");
  const samples: Blend2DSpec["samples"][number][] = [];
  let ok = items !== undefined;
  for (const item of items ?? []) {
    const s = r.specObject(item, "blend2dSample");
    const x = r.number(r.member(s, "x"));
    const y = r.number(r.member(s, "y"));
    const clip = r.name(r.member(s, "clip"));
    const mirror = r.flag(r.optional(s, "mirror"), SPEC_DEFAULTS.mirror);
    if (x === undefined || y === undefined || clip === undefined || mirror === undefined) ok = false;
    else samples.push({ x, y, clip, ...(mirror ? { mirror } : {}), pointer: item.pointer });
  }
  if (!ok || !params || mode === undefined || sync === undefined) return undefined;
  return { kind: "blend2d", pointer: obj.pointer, params, mode, sync, samples };
}

/** Reads one of two mutually exclusive members; reports E_SPEC_CONFLICT when both are present. */
function eitherOf(r: SpecReader, obj: JsonObjectNode, a: string, b: string): { key: string; node: JsonNode } | undefined {
  const na = obj.members.get(a);
  const nb = obj.members.get(b);
  if (na && nb) {
    r.report(nb, "E_SPEC_CONFLICT", `give either "${a}" or "${b}", not both`);
    return undefined;
  }
  if (na) return { key: a, node: na };
  if (nb) return { key: b, node: nb };
  return undefined;
}

function readTransition(r: SpecReader, node: JsonNode, frameRate: number): TransitionSpec | undefined {
  const obj = r.specObject(node, "transition");
  if (!obj) return undefined;
  let ok = true;
  const from = r.name(r.member(obj, "from"));
  const to = r.name(r.member(obj, "to"));
  if (to === ANY_STATE) {
    r.report(obj.members.get("to"), "E_SPEC_RESERVED_NAME", `"${ANY_STATE}" can only be a transition's "from"`);
    ok = false;
  }

  const conditions: ConditionSpec[] = [];
  const condNode = r.optional(obj, "conditions");
  const condArr = condNode ? r.array(condNode) : undefined;
  if (condNode && !condArr) ok = false;
  if (condArr && !r.within(`conditions${condArr.pointer}`, condArr.items.length, r.limits.maxConditions, condArr, "conditions on one transition")) ok = false;
  else {
    for (const item of condArr?.items ?? []) {
      const c = readCondition(r, item);
      if (c) conditions.push(c);
      else ok = false;
    }
  }

  if (obj.members.has("duration") && obj.members.has("durationFrames")) ok = false;
  const dur = eitherOf(r, obj, "duration", "durationFrames");
  let duration: number | undefined = SPEC_DEFAULTS.duration;
  let durationFrames: number | undefined;
  if (dur?.key === "duration") duration = r.numberIn(dur.node, 0, MAX_SECONDS);
  else if (dur?.key === "durationFrames") {
    durationFrames = r.integerIn(dur.node, 0, MAX_FRAMES);
    duration = durationFrames === undefined ? undefined : durationFrames / frameRate;
  }

  if (obj.members.has("exitTime") && obj.members.has("exitPermille")) ok = false;
  const exit = eitherOf(r, obj, "exitTime", "exitPermille");
  let exitTime: number | undefined;
  if (exit?.key === "exitTime") {
    exitTime = r.numberIn(exit.node, 0, MAX_FRAMES);
    if (exitTime === undefined) ok = false;
  } else if (exit?.key === "exitPermille") {
    const permille = r.integerIn(exit.node, 0, 1_000_000_000);
    if (permille === undefined) ok = false;
    else exitTime = permille / 1000;
  }

  const curve = r.enumValue(r.optional(obj, "curve"), "curve", SPEC_DEFAULTS.curve);
  const blend = r.enumValue(r.optional(obj, "blend"), "transitionBlend", SPEC_DEFAULTS.blend);
  const offsetNode = r.optional(obj, "offset");
  const offset = offsetNode ? r.numberIn(offsetNode, 0, MAX_SECONDS) : SPEC_DEFAULTS.offset;
  const interruption = readInterruption(r, r.optional(obj, "interruption"));
  const canTransitionToSelf = r.flag(r.optional(obj, "canTransitionToSelf"), false);
  if (!ok || from === undefined || to === undefined || duration === undefined || curve === undefined || blend === undefined || offset === undefined || !interruption || canTransitionToSelf === undefined) {
    return undefined;
  }
  return {
    pointer: node.pointer, from, to, conditions, duration,
    ...(durationFrames !== undefined ? { durationFrames } : {}),
    curve, blend,
    ...(exitTime !== undefined ? { exitTime, ...(exit?.key === "exitPermille" ? { exitPermille: true } : {}) } : {}),
    offset, interruption, canTransitionToSelf,
  };
}

function readInterruption(r: SpecReader, node: JsonNode | undefined): TransitionSpec["interruption"] | undefined {
  if (!node) return SPEC_DEFAULTS.interruption;
  const obj = r.specObject(node, "interruption");
  if (!obj) return undefined;
  const source = r.enumValue(r.optional(obj, "source"), "interruptionSource", SPEC_DEFAULTS.interruption.source);
  const freeze = r.flag(r.optional(obj, "freeze"), SPEC_DEFAULTS.interruption.freeze);
  return source === undefined || freeze === undefined ? undefined : { source, freeze };
}

/**
 * `{ "param", "op"?, "value"? }`. Without `op` the test is `==`; without `value` an `==`/`!=` test
 * compares with true (so `{ "param": "grounded" }` means grounded is true, and a trigger's
 * `{ "param": "jump" }` means jump is set). An ordering op (`>`, `>=`, `<`, `<=`) needs a value.
 */
function readCondition(r: SpecReader, node: JsonNode): ConditionSpec | undefined {
  const obj = r.specObject(node, "condition");
  if (!obj) return undefined;
  const param = r.name(r.member(obj, "param"));
  const op = r.enumValue(r.optional(obj, "op"), "op", SPEC_DEFAULTS.op);
  const valueNode = r.optional(obj, "value");
  let value: number | boolean | undefined;
  if (!valueNode) {
    if (op !== undefined && ORDERING_OPS.has(op)) {
      r.report(obj, "E_MISSING_KEY", `missing required key "value" (op "${op}" compares with a number)`);
    } else value = true;
  } else if (valueNode.kind === "boolean") value = valueNode.value;
  else if (valueNode.kind === "number") value = r.number(valueNode);
  else r.report(valueNode, "E_WRONG_TYPE", `expected a number or a boolean, found ${describeKind(valueNode)}`);
  if (param === undefined || op === undefined || value === undefined) return undefined;
  return { pointer: node.pointer, param, op, value };
}

// The graph editor's operations on the JSON document. Each takes the parsed document (a plain JSON value,
// which it changes in place: `editDocument` hands it a fresh copy) and keeps the document a graph spec an
// animator would have written by hand: references follow a rename, conditions follow a retype, a
// deleted state takes its transitions with it. Positions live in the `x-pos` extension key of a state
// ([x, y] in graph pixels), so the spec stays the single source of truth and the runtime ignores them.
// No DOM: these run and are tested in Node.
import { ANY_STATE } from "animgraph";

export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
export interface JsonObject { [key: string]: JsonValue }

/** A machine of the document: the layer's, or one nested in its states (`path`: state names downward). */
export interface MachineLocation {
  readonly layer: number;
  readonly path: readonly string[];
}

/** What a new state plays. */
export type MotionKind = "clip" | "blend1d" | "blend2d" | "machine";
export const MOTION_KINDS: readonly MotionKind[] = ["clip", "blend1d", "blend2d", "machine"];

export type ParamType = "float" | "int" | "bool" | "trigger";
export const PARAM_TYPES: readonly ParamType[] = ["float", "int", "bool", "trigger"];

/** The extension key that keeps a state's place on the graph. */
export const POSITION_KEY = "x-pos";

/** An edit that does not apply (an unknown state, a taken name): the message says why, for the status line. */
export class EditError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EditError";
  }
}

export const isObject = (v: JsonValue | undefined): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const objectAt = (v: JsonValue | undefined, what: string): JsonObject => {
  if (!isObject(v)) throw new EditError(`${what} is not a JSON object`);
  return v;
};
const arrayAt = (parent: JsonObject, key: string): JsonValue[] => {
  const v = parent[key];
  if (v === undefined) { const a: JsonValue[] = []; parent[key] = a; return a; }
  if (!Array.isArray(v)) throw new EditError(`"${key}" is not a JSON array`);
  return v;
};

/** Parses a document text for editing (a text that is not a JSON object cannot be edited on the graph). */
export function parseDocument(text: string): JsonObject {
  let v: JsonValue;
  try {
    v = JSON.parse(text) as JsonValue;
  } catch (e) {
    throw new EditError(`the JSON does not parse (${(e as Error).message}): fix it in the editor first`);
  }
  return objectAt(v, "the document");
}

/** The text the editor writes: two-space JSON, short number arrays (positions) on one line. */
export function formatDocument(doc: JsonObject): string {
  return `${JSON.stringify(doc, null, 2).replace(/\[\n\s+(-?[\d.e+-]+),\n\s+(-?[\d.e+-]+)\n\s+\]/g, "[$1, $2]")}\n`;
}

/** Applies `edit` to a copy of the document in `text`; the new text and what the edit returned. */
export function editDocument<T>(text: string, edit: (doc: JsonObject) => T): { text: string; result: T } {
  const doc = parseDocument(text);
  const result = edit(doc);
  return { text: formatDocument(doc), result };
}

/** An empty graph: one base layer whose machine has no states yet. */
export function emptyGraph(name: string): JsonObject {
  return { animgraph: 1, name, parameters: {}, layers: [{ name: "base", machine: { entry: "", states: {}, transitions: [] } }] };
}

/** A graph with one state per clip (the first is the entry), in rows, and no transitions yet. */
export function graphFromClips(name: string, clips: readonly string[]): JsonObject {
  const doc = emptyGraph(name);
  clips.forEach((clip, i) => {
    addState(doc, { layer: 0, path: [] }, { kind: "clip", clip, name: clip || "State", at: [90 + (i % 4) * 170, 60 + Math.floor(i / 4) * 80] });
  });
  return doc;
}

/** The machine object at `loc`. */
export function machineAt(doc: JsonObject, loc: MachineLocation): JsonObject {
  const layers = doc["layers"];
  if (!Array.isArray(layers) || !isObject(layers[loc.layer])) throw new EditError(`the graph has no layer ${loc.layer}`);
  let machine = objectAt((layers[loc.layer] as JsonObject)["machine"], `layer ${loc.layer}'s machine`);
  for (const name of loc.path) {
    const state = statesOf(machine)[name];
    if (!isObject(state) || !isObject(state["machine"])) throw new EditError(`state "${name}" holds no machine`);
    machine = state["machine"];
  }
  return machine;
}

const statesOf = (machine: JsonObject): JsonObject => {
  if (machine["states"] === undefined) machine["states"] = {};
  return objectAt(machine["states"], "the machine's states");
};
const transitionsOf = (machine: JsonObject): JsonValue[] => arrayAt(machine, "transitions");
const stateAt = (machine: JsonObject, name: string): JsonObject => {
  const s = statesOf(machine)[name];
  if (!isObject(s)) throw new EditError(`no state "${name}"`);
  return s;
};
const transitionAt = (machine: JsonObject, index: number): JsonObject => {
  const t = transitionsOf(machine)[index];
  if (!isObject(t)) throw new EditError(`no transition ${index}`);
  return t;
};

/** `base`, else `base 2`, `base 3`… — the first not in `taken`. */
export function uniqueName(base: string, taken: (name: string) => boolean): string {
  const stem = base.trim() || "State";
  if (!taken(stem)) return stem;
  for (let i = 2; ; i++) if (!taken(`${stem} ${i}`)) return `${stem} ${i}`;
}

/** Replaces an object's key in place (keeping the order of its keys). */
function renameKey(obj: JsonObject, from: string, to: string): void {
  const entries = Object.entries(obj);
  for (const [k] of entries) delete obj[k];
  for (const [k, v] of entries) obj[k === from ? to : k] = v;
}

const checkStateName = (name: string): void => {
  if (name.trim() === "" || name !== name.trim()) throw new EditError(`a state name may not be empty or start or end with a space`);
  if (name === ANY_STATE) throw new EditError(`"${ANY_STATE}" means any state; it cannot be a state's name`);
};

// ---- Parameters ----------------------------------------------------------------------------------

const paramsOf = (doc: JsonObject): JsonObject => {
  if (doc["parameters"] === undefined) doc["parameters"] = {};
  return objectAt(doc["parameters"], "parameters");
};

/** The declared parameters: name and type (a declaration with no valid type counts as float). */
export function declaredParams(doc: JsonObject): { name: string; type: ParamType }[] {
  const params = isObject(doc["parameters"]) ? doc["parameters"] : {};
  return Object.entries(params).map(([name, p]) => {
    const type = isObject(p) && PARAM_TYPES.includes(p["type"] as ParamType) ? p["type"] as ParamType : "float";
    return { name, type };
  });
}

/** A parameter declaration of `type` with the usual defaults. */
function declaration(type: ParamType): JsonObject {
  if (type === "trigger") return { type };
  if (type === "bool") return { type, default: false };
  if (type === "int") return { type, default: 0, min: 0, max: 10 };
  return { type, default: 0, min: 0, max: 1 };
}

/** Declares a parameter; returns its name (made unique). */
export function addParam(doc: JsonObject, name: string, type: ParamType): string {
  const params = paramsOf(doc);
  const unique = uniqueName(name || type, (n) => n in params);
  params[unique] = declaration(type);
  return unique;
}

/** Sets (or, with undefined, removes) a parameter's default, min or max. */
export function setParamField(doc: JsonObject, name: string, key: "default" | "min" | "max", value: number | boolean | undefined): void {
  const p = paramsOf(doc)[name];
  if (!isObject(p)) throw new EditError(`no parameter "${name}"`);
  if (p["type"] === "trigger") throw new EditError("a trigger has no default, min or max");
  if (p["type"] === "bool" && key !== "default") throw new EditError("a bool has no min or max");
  if (value === undefined) delete p[key];
  else p[key] = p["type"] === "int" && typeof value === "number" ? Math.round(value) : value;
}

/** Every machine of the document, with its JSON pointer (layers' machines and those nested in states). */
export function forEachMachine(doc: JsonObject, fn: (machine: JsonObject, pointer: string) => void): void {
  const layers = Array.isArray(doc["layers"]) ? doc["layers"] : [];
  const visit = (machine: JsonValue | undefined, pointer: string): void => {
    if (!isObject(machine)) return;
    fn(machine, pointer);
    const states = isObject(machine["states"]) ? machine["states"] : {};
    for (const [name, s] of Object.entries(states)) {
      if (isObject(s)) visit(s["machine"], `${pointer}/states/${escapePointer(name)}/machine`);
    }
  };
  layers.forEach((layer, i) => { if (isObject(layer)) visit(layer["machine"], `/layers/${i}/machine`); });
}

export const escapePointer = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");

/** Where a parameter is read: JSON pointers of conditions, blend axes, state speeds, layer weights, IK values. */
export function paramReferences(doc: JsonObject, param: string): string[] {
  const out: string[] = [];
  visitParamRefs(doc, (holder, key, pointer) => { if (holder[key] === param) out.push(pointer); });
  return out;
}

/** Calls `fn` on every place a parameter name is written: `holder[key]` is the name. */
type Holder = Record<string | number, JsonValue>;
function visitParamRefs(doc: JsonObject, fn: (holder: Holder, key: string | number, pointer: string) => void): void {
  const layers = Array.isArray(doc["layers"]) ? doc["layers"] : [];
  layers.forEach((layer, i) => {
    if (isObject(layer) && isObject(layer["weight"]) && typeof layer["weight"]["param"] === "string") fn(layer["weight"], "param", `/layers/${i}/weight/param`);
  });
  // IK layers: the weight, each target coordinate, the ground's height and normal.
  const ik = Array.isArray(doc["ik"]) ? doc["ik"] : [];
  const ref = (v: JsonValue | undefined, pointer: string): void => {
    if (isObject(v) && typeof v["param"] === "string") fn(v, "param", `${pointer}/param`);
  };
  const vector = (v: JsonValue | undefined, pointer: string): void => {
    if (Array.isArray(v)) v.forEach((x, k) => ref(x, `${pointer}/${k}`));
  };
  ik.forEach((layer, i) => {
    if (!isObject(layer)) return;
    ref(layer["weight"], `/ik/${i}/weight`);
    vector(layer["target"], `/ik/${i}/target`);
    const ground = layer["ground"];
    if (isObject(ground)) {
      ref(ground["height"], `/ik/${i}/ground/height`);
      vector(ground["normal"], `/ik/${i}/ground/normal`);
    }
  });
  forEachMachine(doc, (machine, pointer) => {
    const states = isObject(machine["states"]) ? machine["states"] : {};
    for (const [name, s] of Object.entries(states)) {
      if (!isObject(s)) continue;
      const at = `${pointer}/states/${escapePointer(name)}`;
      if (isObject(s["speed"]) && typeof s["speed"]["param"] === "string") fn(s["speed"], "param", `${at}/speed/param`);
      const b1 = s["blend1d"];
      if (isObject(b1) && typeof b1["param"] === "string") fn(b1, "param", `${at}/blend1d/param`);
      const b2 = s["blend2d"];
      if (isObject(b2) && Array.isArray(b2["params"])) {
        const axes = b2["params"];
        axes.forEach((p, k) => { if (typeof p === "string") fn(axes as unknown as Holder, k, `${at}/blend2d/params/${k}`); });
      }
    }
    const transitions = Array.isArray(machine["transitions"]) ? machine["transitions"] : [];
    transitions.forEach((t, ti) => {
      if (!isObject(t) || !Array.isArray(t["conditions"])) return;
      t["conditions"].forEach((c, ci) => {
        if (isObject(c) && typeof c["param"] === "string") fn(c, "param", `${pointer}/transitions/${ti}/conditions/${ci}/param`);
      });
    });
  });
}

/** Renames a parameter and every reference to it. */
export function renameParam(doc: JsonObject, from: string, to: string): void {
  const params = paramsOf(doc);
  if (!(from in params)) throw new EditError(`no parameter "${from}"`);
  if (from === to) return;
  if (to.trim() === "" || to !== to.trim()) throw new EditError("a parameter name may not be empty or start or end with a space");
  if (to in params) throw new EditError(`there is already a parameter "${to}"`);
  renameKey(params, from, to);
  visitParamRefs(doc, (holder, key) => {
    if (holder[key] === from) holder[key] = to;
  });
}

/** The comparison operators a condition on a parameter of `type` may use (none: the parameter itself). */
export function operatorsFor(type: ParamType): readonly string[] {
  if (type === "trigger") return [];
  if (type === "bool") return ["==", "!="];
  return [">", ">=", "<", "<=", "==", "!="];
}

/** A condition on `param` of `type` rewritten to fit the type, keeping what it can of the old one. */
function fitCondition(c: JsonObject, type: ParamType): void {
  const op = typeof c["op"] === "string" ? c["op"] : undefined;
  const value = c["value"];
  if (type === "trigger") {
    delete c["op"];
    delete c["value"];
  } else if (type === "bool") {
    // The condition holds when the parameter equals `truth`: a bare test is true, a number is true above 0.
    let truth = value === undefined ? true : typeof value === "boolean" ? value : Number(value) > 0;
    if (op === "!=") truth = !truth;
    delete c["op"];
    delete c["value"];
    if (!truth) { c["op"] = "=="; c["value"] = false; }
  } else {
    // A bare bool or trigger test becomes "> 0"; a compared value keeps its operator where it fits.
    const bare = value === undefined;
    const n = typeof value === "number" ? value : value === true ? 1 : 0;
    c["op"] = !bare && op && operatorsFor(type).includes(op) ? op : ">";
    c["value"] = type === "int" ? Math.round(n) : n;
  }
}

/**
 * Changes a parameter's type: its declaration gets the new type's defaults (numbers kept where they
 * fit) and every condition on it is rewritten to fit. Returns the references that cannot follow (a blend
 * axis, a speed or a layer weight now on a bool or trigger): the linter flags them.
 */
export function retypeParam(doc: JsonObject, name: string, type: ParamType): string[] {
  const params = paramsOf(doc);
  const old = params[name];
  if (!isObject(old)) throw new EditError(`no parameter "${name}"`);
  const next = declaration(type);
  if ((type === "float" || type === "int") && (old["type"] === "float" || old["type"] === "int")) {
    for (const k of ["default", "min", "max"]) {
      if (typeof old[k] === "number") next[k] = type === "int" ? Math.round(old[k]) : old[k];
    }
  }
  params[name] = next;
  const flagged: string[] = [];
  visitParamRefs(doc, (holder, key, pointer) => {
    if (holder[key] !== name) return;
    if (pointer.includes("/conditions/")) fitCondition(holder as JsonObject, type);
    else if (type === "bool" || type === "trigger") flagged.push(pointer);
  });
  return flagged;
}

/**
 * Deletes a parameter and the conditions that test it (as Unity does). Returns the references that
 * remain (blend axes, speeds, layer weights): the linter flags them until they name another parameter.
 */
export function deleteParam(doc: JsonObject, name: string): string[] {
  const params = paramsOf(doc);
  if (!(name in params)) throw new EditError(`no parameter "${name}"`);
  delete params[name];
  forEachMachine(doc, (machine) => {
    const transitions = Array.isArray(machine["transitions"]) ? machine["transitions"] : [];
    for (const t of transitions) {
      if (isObject(t) && Array.isArray(t["conditions"])) t["conditions"] = t["conditions"].filter((c) => !(isObject(c) && c["param"] === name));
    }
  });
  return paramReferences(doc, name);
}

/** The first declared parameter of one of `types`, else a new float one named `fallback`. */
function paramFor(doc: JsonObject, types: readonly ParamType[], fallback: string, not: readonly string[] = []): string {
  const found = declaredParams(doc).find((p) => types.includes(p.type) && !not.includes(p.name));
  return found ? found.name : addParam(doc, fallback, "float");
}

// ---- States --------------------------------------------------------------------------------------

export interface NewState {
  readonly kind: MotionKind;
  /** The clip it plays (a blend's samples and a nested machine's first state play it too). */
  readonly clip?: string;
  /** Its name (made unique); default the clip's name or the kind's. */
  readonly name?: string;
  /** Where on the graph. */
  readonly at?: readonly [number, number];
}

/** The motion object of a new state of `kind`. */
function motionOf(doc: JsonObject, kind: MotionKind, clip: string): JsonObject {
  if (kind === "clip") return { clip };
  if (kind === "blend1d") {
    const param = paramFor(doc, ["float", "int"], "blend");
    return { blend1d: { param, children: [{ at: 0, clip }, { at: 1, clip }] } };
  }
  if (kind === "blend2d") {
    const x = paramFor(doc, ["float", "int"], "blendX");
    const y = paramFor(doc, ["float", "int"], "blendY", [x]);
    return { blend2d: { params: [x, y], samples: [{ x: 0, y: 0, clip }, { x: 1, y: 0, clip }, { x: 0, y: 1, clip }] } };
  }
  return { machine: { entry: "State", states: { State: { clip, [POSITION_KEY]: [90, 60] } }, transitions: [] } };
}

const MOTION_KEYS = ["clip", "blend1d", "blend2d", "machine"] as const;

/** The kind of a state's motion (by the key it has). */
export function motionKind(state: JsonObject): MotionKind | undefined {
  return MOTION_KEYS.find((k) => k in state);
}

/** The clip a state's motion plays first (its clip, its first sample's, its nested entry's). */
export function firstClip(state: JsonObject): string {
  if (typeof state["clip"] === "string") return state["clip"];
  const b1 = state["blend1d"], b2 = state["blend2d"], m = state["machine"];
  const first = isObject(b1) && Array.isArray(b1["children"]) ? b1["children"][0] : isObject(b2) && Array.isArray(b2["samples"]) ? b2["samples"][0] : undefined;
  if (isObject(first) && typeof first["clip"] === "string") return first["clip"];
  if (isObject(m) && isObject(m["states"])) {
    const inner = Object.values(m["states"])[0];
    if (isObject(inner)) return firstClip(inner);
  }
  return "";
}

/** Adds a state; the first state of a machine becomes its entry. Returns its name. */
export function addState(doc: JsonObject, loc: MachineLocation, spec: NewState): string {
  const machine = machineAt(doc, loc);
  const states = statesOf(machine);
  const clip = spec.clip ?? "";
  const base = spec.name ?? (spec.kind === "clip" ? clip || "State" : spec.kind === "machine" ? "Machine" : "Blend");
  checkStateName(base.trim() || "State");
  const name = uniqueName(base, (n) => n in states || n === ANY_STATE);
  const state = motionOf(doc, spec.kind, clip);
  if (spec.at) state[POSITION_KEY] = [Math.round(spec.at[0]), Math.round(spec.at[1])];
  states[name] = state;
  if (typeof machine["entry"] !== "string" || !(machine["entry"] in states) || machine["entry"] === name) machine["entry"] = name;
  if (machine["transitions"] === undefined) machine["transitions"] = [];
  return name;
}

/** Places states on the graph (rounded to whole pixels). */
export function placeStates(doc: JsonObject, loc: MachineLocation, places: ReadonlyMap<string, readonly [number, number]>): void {
  const machine = machineAt(doc, loc);
  for (const [name, [x, y]] of places) stateAt(machine, name)[POSITION_KEY] = [Math.round(x), Math.round(y)];
}

/** Deletes states and every transition from or to them; a deleted entry passes to the first state left. */
export function deleteStates(doc: JsonObject, loc: MachineLocation, names: readonly string[]): void {
  const machine = machineAt(doc, loc);
  const states = statesOf(machine);
  for (const name of names) {
    stateAt(machine, name);
    delete states[name];
  }
  machine["transitions"] = transitionsOf(machine).filter((t) => !(isObject(t) && (names.includes(t["from"] as string) || names.includes(t["to"] as string))));
  if (typeof machine["entry"] !== "string" || names.includes(machine["entry"])) machine["entry"] = Object.keys(states)[0] ?? "";
}

/** Renames a state; the entry and the machine's transitions follow it. */
export function renameState(doc: JsonObject, loc: MachineLocation, from: string, to: string): void {
  const machine = machineAt(doc, loc);
  const states = statesOf(machine);
  stateAt(machine, from);
  if (from === to) return;
  checkStateName(to);
  if (to in states) throw new EditError(`there is already a state "${to}"`);
  renameKey(states, from, to);
  if (machine["entry"] === from) machine["entry"] = to;
  for (const t of transitionsOf(machine)) {
    if (!isObject(t)) continue;
    if (t["from"] === from) t["from"] = to;
    if (t["to"] === from) t["to"] = to;
  }
}

export function setEntry(doc: JsonObject, loc: MachineLocation, name: string): void {
  const machine = machineAt(doc, loc);
  stateAt(machine, name);
  machine["entry"] = name;
}

/** Sets (or, with undefined, removes) a key of a state: speed, loop, final… */
export function setStateField(doc: JsonObject, loc: MachineLocation, name: string, key: string, value: JsonValue | undefined): void {
  const state = stateAt(machineAt(doc, loc), name);
  if (value === undefined) delete state[key];
  else state[key] = value;
}

/** Changes what a state plays, keeping its clip where the new kind has one. */
export function setMotion(doc: JsonObject, loc: MachineLocation, name: string, kind: MotionKind, clip?: string): void {
  const state = stateAt(machineAt(doc, loc), name);
  const current = motionKind(state);
  if (current === kind && kind === "clip" && clip !== undefined) { state["clip"] = clip; return; }
  if (current === kind) return;
  const keep = clip ?? firstClip(state);
  const entries = Object.entries(state);
  for (const [k] of entries) delete state[k];
  // The motion first, as people write it; then the state's other keys in their order.
  Object.assign(state, motionOf(doc, kind, keep));
  for (const [k, v] of entries) if (!(MOTION_KEYS as readonly string[]).includes(k)) state[k] = v;
}

// ---- Blend samples -------------------------------------------------------------------------------

/** The samples of a state's blend: a 1D blend's children or a 2D one's samples. */
function samplesOf(state: JsonObject): { list: JsonValue[]; dims: 1 | 2; blend: JsonObject } {
  if (isObject(state["blend1d"])) return { list: arrayAt(state["blend1d"], "children"), dims: 1, blend: state["blend1d"] };
  if (isObject(state["blend2d"])) return { list: arrayAt(state["blend2d"], "samples"), dims: 2, blend: state["blend2d"] };
  throw new EditError("the state is not a blend");
}

/** Sets a sample's place ([at] on a 1D line, [x, y] on a 2D plane) and/or clip. */
export function setSample(doc: JsonObject, loc: MachineLocation, name: string, index: number, patch: { at?: readonly number[]; clip?: string }): void {
  const { list, dims } = samplesOf(stateAt(machineAt(doc, loc), name));
  const sample = list[index];
  if (!isObject(sample)) throw new EditError(`no sample ${index}`);
  const round = (v: number): number => Math.round(v * 1000) / 1000;
  if (patch.at && dims === 1) sample["at"] = round(patch.at[0]!);
  if (patch.at && dims === 2) { sample["x"] = round(patch.at[0]!); sample["y"] = round(patch.at[1]!); }
  if (patch.clip !== undefined) sample["clip"] = patch.clip;
}

/** Adds a sample after the last one (one unit further on, or at an empty corner); returns its index. */
export function addSample(doc: JsonObject, loc: MachineLocation, name: string, clip?: string): number {
  const state = stateAt(machineAt(doc, loc), name);
  const { list, dims } = samplesOf(state);
  const last = list[list.length - 1];
  const c = clip ?? (isObject(last) && typeof last["clip"] === "string" ? last["clip"] : firstClip(state));
  if (dims === 1) {
    const at = list.reduce<number>((m, s) => Math.max(m, isObject(s) && typeof s["at"] === "number" ? s["at"] : -Infinity), -Infinity);
    list.push({ at: Number.isFinite(at) ? at + 1 : 0, clip: c });
  } else {
    const taken = (x: number, y: number): boolean => list.some((s) => isObject(s) && s["x"] === x && s["y"] === y);
    let k = 0;
    while (taken(k % 3, Math.floor(k / 3))) k++;
    list.push({ x: k % 3, y: Math.floor(k / 3), clip: c });
  }
  return list.length - 1;
}

export function removeSample(doc: JsonObject, loc: MachineLocation, name: string, index: number): void {
  const { list } = samplesOf(stateAt(machineAt(doc, loc), name));
  if (index < 0 || index >= list.length) throw new EditError(`no sample ${index}`);
  list.splice(index, 1);
}

/** Sets the parameter of a 1D blend (`axis` 0) or of a 2D blend's x (0) or y (1) axis. */
export function setBlendParam(doc: JsonObject, loc: MachineLocation, name: string, axis: 0 | 1, param: string): void {
  const { dims, blend } = samplesOf(stateAt(machineAt(doc, loc), name));
  if (dims === 1) blend["param"] = param;
  else arrayAt(blend, "params")[axis] = param;
}

// ---- Transitions ---------------------------------------------------------------------------------

/** What a new transition gets: Unity's defaults (an exit time when it leaves a state, a 0.25 s blend). */
export function addTransition(doc: JsonObject, loc: MachineLocation, from: string, to: string): number {
  const machine = machineAt(doc, loc);
  if (from !== ANY_STATE) stateAt(machine, from);
  stateAt(machine, to);
  const t: JsonObject = { from, to, conditions: [], duration: 0.25 };
  if (from !== ANY_STATE) t["exitTime"] = 0.75;
  const list = transitionsOf(machine);
  list.push(t);
  return list.length - 1;
}

export function deleteTransitions(doc: JsonObject, loc: MachineLocation, indices: readonly number[]): void {
  const machine = machineAt(doc, loc);
  for (const i of indices) transitionAt(machine, i);
  machine["transitions"] = transitionsOf(machine).filter((_, i) => !indices.includes(i));
}

/** Sets (or, with undefined, removes) a key of a transition: duration, curve, exitTime, blend… */
export function setTransitionField(doc: JsonObject, loc: MachineLocation, index: number, key: string, value: JsonValue | undefined): void {
  const t = transitionAt(machineAt(doc, loc), index);
  if (key === "from" || key === "to") throw new EditError("reconnect a transition by deleting it and drawing a new one");
  if (value === undefined) delete t[key];
  else t[key] = value;
}

/** Sets the interruption source ("none" removes the key: it is the default). */
export function setInterruption(doc: JsonObject, loc: MachineLocation, index: number, source: string): void {
  const t = transitionAt(machineAt(doc, loc), index);
  const old = isObject(t["interruption"]) ? t["interruption"] : {};
  const next: JsonObject = { ...old, source };
  if (source === "none") delete next["source"];
  if (Object.keys(next).length === 0 || (Object.keys(next).length === 1 && next["freeze"] === false)) delete t["interruption"];
  else t["interruption"] = next;
}

/**
 * Moves a transition up (-1) or down (+1) in priority among the transitions from the same state (the
 * first whose conditions hold fires). Returns its new index (the same when it is already first or last).
 */
export function moveTransition(doc: JsonObject, loc: MachineLocation, index: number, direction: -1 | 1): number {
  const machine = machineAt(doc, loc);
  const list = transitionsOf(machine);
  const from = transitionAt(machine, index)["from"];
  for (let j = index + direction; j >= 0 && j < list.length; j += direction) {
    const other = list[j];
    if (isObject(other) && other["from"] === from) {
      [list[index], list[j]] = [list[j]!, list[index]!];
      return j;
    }
  }
  return index;
}

/** Adds a condition on `param` (default: the first declared parameter), fitted to its type. Returns its index. */
export function addCondition(doc: JsonObject, loc: MachineLocation, index: number, param?: string): number {
  const t = transitionAt(machineAt(doc, loc), index);
  const params = declaredParams(doc);
  const p = params.find((x) => x.name === param) ?? params[0];
  if (!p) throw new EditError("declare a parameter first: conditions test parameters");
  const c: JsonObject = { param: p.name };
  if (p.type === "float" || p.type === "int") { c["op"] = ">"; c["value"] = 0; }
  const list = arrayAt(t, "conditions");
  list.push(c);
  return list.length - 1;
}

/**
 * Sets a condition's parameter, operator or value. A new parameter refits the operator and value to its
 * type; a bool condition written `== true` is kept as the bare `{ "param": … }`.
 */
export function setCondition(doc: JsonObject, loc: MachineLocation, index: number, k: number, patch: { param?: string; op?: string; value?: number | boolean }): void {
  const t = transitionAt(machineAt(doc, loc), index);
  const c = arrayAt(t, "conditions")[k];
  if (!isObject(c)) throw new EditError(`no condition ${k}`);
  const params = declaredParams(doc);
  if (patch.param !== undefined) {
    const p = params.find((x) => x.name === patch.param);
    if (!p) throw new EditError(`no parameter "${patch.param}"`);
    c["param"] = p.name;
    fitCondition(c, p.type);
  }
  const type = params.find((x) => x.name === c["param"])?.type ?? "float";
  if (patch.op !== undefined) {
    if (!operatorsFor(type).includes(patch.op)) throw new EditError(`"${patch.op}" does not apply to a ${type} parameter`);
    c["op"] = patch.op;
    if (c["value"] === undefined) c["value"] = type === "bool" ? true : 0;
  }
  if (patch.value !== undefined) {
    if (type === "trigger") throw new EditError("a trigger condition has no value");
    c["value"] = type === "bool" ? Boolean(patch.value) : type === "int" ? Math.round(Number(patch.value)) : Number(patch.value);
    if (c["op"] === undefined) c["op"] = "==";
  }
  if (type === "bool" && c["op"] === "==" && c["value"] === true) { delete c["op"]; delete c["value"]; }
}

export function removeCondition(doc: JsonObject, loc: MachineLocation, index: number, k: number): void {
  const list = arrayAt(transitionAt(machineAt(doc, loc), index), "conditions");
  if (k < 0 || k >= list.length) throw new EditError(`no condition ${k}`);
  list.splice(k, 1);
}

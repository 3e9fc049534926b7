// The IK layers panel's operations on the JSON document's top-level `ik` array (docs/ik.md): add a layer
// of each solver with joints found in the character's skeleton, remove, reorder, rename, enable, bind a
// value (weight, target coordinate, ground height or normal) to a parameter or a number, pick joints,
// set a solver's settings. Like graph-edits.ts, each takes the parsed document and changes it in place,
// keeps it a spec an animator would write by hand (defaults left out), and has no DOM.
import { legsPelvis, legsUp } from "animgraph";
import { addParam, declaredParams, EditError, isObject, uniqueName, type JsonObject, type JsonValue } from "./graph-edits.ts";

export type IkSolver = "twoBone" | "aim" | "footPlacement";
export const IK_SOLVERS: readonly IkSolver[] = ["twoBone", "aim", "footPlacement"];
export const IK_SOLVER_LABELS: Readonly<Record<IkSolver, string>> = { twoBone: "Two-bone IK", aim: "Aim (look-at)", footPlacement: "Foot placement" };

/** What the operations need of the character's skeleton. */
export interface IkSkeleton {
  readonly names: readonly string[];
  /** Parent index per joint, −1 for a root. */
  readonly parents: ArrayLike<number>;
  /** Model-space positions of the rest pose, 3 per joint: a new target starts where its joint is. */
  readonly rest?: ArrayLike<number>;
  /** Model-space rotations of the rest pose (x, y, z, w), 4 per joint: a new aim target lies on the aiming axis. */
  readonly restRotations?: ArrayLike<number>;
}

/** A value of a layer that is a number or a float/int parameter, by its path inside the layer. */
export type IkValueSlot = "weight" | "target/0" | "target/1" | "target/2" | "ground/height" | "ground/normal/0" | "ground/normal/1" | "ground/normal/2";
export type IkValueInput = number | { readonly param: string };

/** The values a layer of `solver` has. */
export function ikValueSlots(solver: IkSolver): IkValueSlot[] {
  if (solver === "footPlacement") return ["weight", "ground/height", "ground/normal/0", "ground/normal/1", "ground/normal/2"];
  return ["weight", "target/0", "target/1", "target/2"];
}

/** Settings (numbers or number vectors, never parameters) and the solvers they belong to, with their ranges. */
const SETTINGS: Readonly<Record<string, { solvers: readonly IkSolver[]; min?: number; max?: number; vector?: true; list?: true }>> = {
  pole: { solvers: ["twoBone"], vector: true },
  poleWeight: { solvers: ["twoBone"], min: 0, max: 1 },
  softness: { solvers: ["twoBone", "footPlacement"], min: 0, max: 0.5 },
  axis: { solvers: ["aim"], vector: true },
  maxAngle: { solvers: ["aim"], min: 0, max: 180, list: true },
  jointWeights: { solvers: ["aim"], min: 0, max: 1, list: true },
  up: { solvers: ["footPlacement"], vector: true },
  floor: { solvers: ["footPlacement"] },
  maxPelvisDrop: { solvers: ["footPlacement"], min: 0 },
  alignToNormal: { solvers: ["footPlacement"], min: 0, max: 1 },
};
export type IkSetting = keyof typeof SETTINGS;

/** The document's IK layers (the array itself; empty when there is none). */
export function ikLayers(doc: JsonObject): readonly JsonValue[] {
  return Array.isArray(doc["ik"]) ? doc["ik"] : [];
}

const ikArray = (doc: JsonObject): JsonValue[] => {
  if (doc["ik"] === undefined) doc["ik"] = [];
  const a = doc["ik"];
  if (!Array.isArray(a)) throw new EditError('"ik" is not a JSON array');
  return a;
};
const layerAt = (doc: JsonObject, index: number): JsonObject => {
  const l = ikLayers(doc)[index];
  if (!isObject(l)) throw new EditError(`no IK layer ${index + 1}`);
  return l;
};

/** The solver a layer names (undefined for a name the spec does not know). */
export function solverOf(layer: JsonObject): IkSolver | undefined {
  return IK_SOLVERS.find((s) => s === layer["solver"]);
}
const solverAt = (doc: JsonObject, index: number): [JsonObject, IkSolver] => {
  const layer = layerAt(doc, index);
  const solver = solverOf(layer);
  if (!solver) throw new EditError(`IK layer ${index + 1} has no known solver`);
  return [layer, solver];
};

const layerNames = (doc: JsonObject): string[] => ikLayers(doc).flatMap((l) => (isObject(l) && typeof l["name"] === "string" ? [l["name"]] : []));
const round = (v: number): number => Math.round(v * 1000) / 1000 || 0;

// ---- Chains in the skeleton ----------------------------------------------------------------------

const depthOf = (sk: IkSkeleton, j: number): number => {
  let d = 0;
  for (let p = sk.parents[j]!; p >= 0; p = sk.parents[p]!) d++;
  return d;
};
const ancestors = (sk: IkSkeleton, j: number): number[] => {
  const out: number[] = [];
  for (let p = sk.parents[j]!; p >= 0; p = sk.parents[p]!) out.push(p);
  return out;
};
/** `count` joints ending at `end`, base first; undefined when `end` is not that deep. */
const chainTo = (sk: IkSkeleton, end: number, count: number): number[] | undefined => {
  const chain = [end];
  while (chain.length < count) {
    const p = sk.parents[chain[0]!]!;
    if (p === undefined || p < 0) return undefined;
    chain.unshift(p);
  }
  return chain;
};
const HAND = /hand|wrist|palm/i;
const FOOT = /foot|ankle/i;
const NOT_END = /finger|thumb|index|middle|ring|pinky|toe|end|nub|top|ik|pole|target/i;
/** Three-joint limbs whose end joint's name matches `end` (and whose joints above do not), in joint order. */
function limbs(sk: IkSkeleton, end: RegExp): number[][] {
  const out: number[][] = [];
  sk.names.forEach((name, j) => {
    if (!end.test(name) || NOT_END.test(name)) return;
    let chain = chainTo(sk, j, 3);
    // The upper joint hangs from something (a hip, a shoulder): a limb, not the skeleton's root.
    if (!chain || sk.parents[chain[0]!]! < 0 || chain.slice(0, 2).some((c) => end.test(sk.names[c]!))) chain = end === FOOT ? looseLeg(sk, j, out) : undefined;
    if (!chain || out.some((o) => o[0] === chain[0])) return;
    out.push(chain);
  });
  return out;
}

const distance = (sk: IkSkeleton, a: number, b: number): number => Math.hypot(...[0, 1, 2].map((c) => restAt(sk, a)[c]! - restAt(sk, b)[c]!) as [number, number, number]);
const isAbove = (sk: IkSkeleton, a: number, t: number): boolean => ancestors(sk, t).includes(a);

/**
 * An IK rig's leg (RobotExpressive's): the foot hangs from above the leg (the root bone), and the leg is an
 * upper joint and a lower joint that ends the branch (a leaf) beside it, as compileGraph accepts. Of the
 * leaves whose parent hangs below the foot's parent, the one nearest the foot in the rest pose, when the foot
 * is within two of its bone's lengths (a finger or a head is far from the foot for its short bone).
 */
function looseLeg(sk: IkSkeleton, foot: number, taken: readonly number[][]): number[] | undefined {
  if (!sk.rest) return undefined;
  const hangs = sk.parents[foot]!;
  let best: number[] | undefined, bestDistance = Infinity;
  sk.names.forEach((name, m) => {
    const u = sk.parents[m]!;
    if (m === foot || u < 0 || hangs < 0 || !isAbove(sk, hangs, u) || FOOT.test(name) || NOT_END.test(name)) return;
    if (Array.prototype.some.call(sk.parents, (p: number) => p === m) || taken.some((l) => l[1] === m)) return;
    const d = distance(sk, m, foot);
    if (d < bestDistance && d <= 2 * distance(sk, u, m)) { best = [u, m, foot]; bestDistance = d; }
  });
  return best;
}

/**
 * Legs of a rig whose joints say nothing (CesiumMan's "#7"): the two leaves farthest from the root in the rest
 * pose (the toes, further than the hands of an A- or T-pose), each leg the first three joints below the
 * joint where their branches meet (hip, knee, ankle).
 */
function unnamedLegs(sk: IkSkeleton): number[][] {
  if (!sk.rest) return [];
  const root = sk.parents.length > 0 ? 0 : -1;
  const leaves = sk.names.map((_, j) => j).filter((j) => !Array.prototype.some.call(sk.parents, (p: number) => p === j));
  const far = leaves.sort((a, b) => distance(sk, b, root) - distance(sk, a, root)).slice(0, 2);
  if (far.length < 2) return [];
  const meet = legsPelvis(sk.parents, far);
  const legs = far.map((leaf) => {
    const path = [leaf, ...ancestors(sk, leaf)];
    const below = path.slice(0, path.indexOf(meet)).reverse();
    return below.length >= 3 ? below.slice(0, 3) : undefined;
  });
  return meet >= 0 && legs.every((l) => l) ? (legs as number[][]).sort((a, b) => a[0]! - b[0]!) : [];
}
/** The deepest chain of three joints (any skeleton has one unless it is flat). */
function deepestChain(sk: IkSkeleton): number[] {
  let best = -1;
  sk.names.forEach((_, j) => { if (best < 0 || depthOf(sk, j) > depthOf(sk, best)) best = j; });
  const chain = best >= 0 ? chainTo(sk, best, 3) : undefined;
  if (!chain) throw new EditError("the skeleton has no chain of three joints to solve");
  return chain;
}
const nameOf = (sk: IkSkeleton, j: number): string => sk.names[j]!;
const restAt = (sk: IkSkeleton, j: number): [number, number, number] =>
  sk.rest ? [sk.rest[3 * j]!, sk.rest[3 * j + 1]!, sk.rest[3 * j + 2]!] : [0, 0, 0];

/** Rotates v by the unit quaternion q[o..o+3] (x, y, z, w). */
function rotate(q: ArrayLike<number>, o: number, v: readonly number[]): [number, number, number] {
  const x = q[o]!, y = q[o + 1]!, z = q[o + 2]!, w = q[o + 3]!;
  const tx = 2 * (y * v[2]! - z * v[1]!), ty = 2 * (z * v[0]! - x * v[2]!), tz = 2 * (x * v[1]! - y * v[0]!);
  return [v[0]! + w * tx + (y * tz - z * ty), v[1]! + w * ty + (z * tx - x * tz), v[2]! + w * tz + (x * ty - y * tx)];
}

// ---- Layers ----------------------------------------------------------------------------------------

/** A new layer of `solver`, its joints found in the skeleton and its target where the pose already is. */
function newLayer(doc: JsonObject, solver: IkSolver, sk: IkSkeleton, name: string | undefined): JsonObject {
  const taken = layerNames(doc);
  const unique = (base: string): string => uniqueName(name ?? base, (n) => taken.includes(n));
  if (solver === "twoBone") {
    const chain = limbs(sk, HAND)[0] ?? limbs(sk, FOOT)[0] ?? deepestChain(sk);
    const end = chain[2]!;
    return { name: unique(`${nameOf(sk, end)} IK`), solver, joints: chain.map((j) => nameOf(sk, j)), target: restAt(sk, end).map(round) };
  }
  if (solver === "aim") {
    const head = sk.names.findIndex((n) => /head/i.test(n) && !NOT_END.test(n));
    const tip = head >= 0 ? head : deepestChain(sk)[2]!;
    const chain = chainTo(sk, tip, 3) ?? chainTo(sk, tip, 2) ?? [tip];
    // The target on the tip's aiming axis (local +Z, the spec's default), a few chain lengths away: the layer starts by changing nothing.
    const p = restAt(sk, tip);
    const span = Math.max(1e-3, Math.hypot(...[0, 1, 2].map((c) => p[c]! - restAt(sk, chain[0]!)[c]!) as [number, number, number]));
    const dir = sk.restRotations ? rotate(sk.restRotations, 4 * tip, [0, 0, 1]) : [0, 0, 1];
    return { name: unique(`${nameOf(sk, tip)} aim`), solver, chain: chain.map((j) => nameOf(sk, j)), target: p.map((x, c) => round(x + 4 * span * dir[c]!)) };
  }
  const named = limbs(sk, FOOT).slice(0, 2);
  const legs = named.length > 0 ? named : unnamedLegs(sk);
  if (legs.length === 0) throw new EditError("no leg found in the skeleton (a foot or ankle joint under a lower and an upper leg): foot placement needs one");
  // Pelvis and up as compileGraph would find them, written so the panel shows them.
  const pelvis = legsPelvis(sk.parents, legs.map((l) => l[0]!));
  if (pelvis < 0) throw new EditError("the legs have no joint above them to lower (a pelvis)");
  const up = sk.rest ? legsUp(sk.rest, legs.flat()) : undefined;
  return {
    name: unique("Foot placement"), solver, pelvis: nameOf(sk, pelvis), legs: legs.map((l) => l.map((j) => nameOf(sk, j))),
    ...(up ? { up: up.up.map((x) => Math.round(x * 1e4) / 1e4 || 0) } : {}),
  };
}

/** Adds a layer of `solver` at the end (it runs last); returns its index. */
export function addIkLayer(doc: JsonObject, solver: IkSolver, skeleton: IkSkeleton, name?: string): number {
  if (!IK_SOLVERS.includes(solver)) throw new EditError(`no IK solver "${String(solver)}"`);
  const layer = newLayer(doc, solver, skeleton, name);
  const list = ikArray(doc);
  list.push(layer);
  return list.length - 1;
}

/** Removes a layer (the `ik` key goes with the last one, as a hand-written spec without IK has none). */
export function removeIkLayer(doc: JsonObject, index: number): void {
  layerAt(doc, index);
  const list = ikArray(doc);
  list.splice(index, 1);
  if (list.length === 0) delete doc["ik"];
}

/** Moves a layer up (−1: runs earlier) or down (+1); returns its new index (the same at either end). */
export function moveIkLayer(doc: JsonObject, index: number, direction: -1 | 1): number {
  layerAt(doc, index);
  const list = ikArray(doc);
  const to = index + direction;
  if (to < 0 || to >= list.length) return index;
  [list[index], list[to]] = [list[to]!, list[index]!];
  return to;
}

export function renameIkLayer(doc: JsonObject, index: number, name: string): void {
  const layer = layerAt(doc, index);
  if (layer["name"] === name) return;
  if (name.trim() === "" || name !== name.trim()) throw new EditError("an IK layer's name may not be empty or start or end with a space");
  if (layerNames(doc).includes(name)) throw new EditError(`there is already an IK layer "${name}"`);
  layer["name"] = name;
}

/** Enables (the default: the key goes) or disables a layer. */
export function setIkEnabled(doc: JsonObject, index: number, enabled: boolean): void {
  const layer = layerAt(doc, index);
  if (enabled) delete layer["enabled"];
  else layer["enabled"] = false;
}

// ---- Values: a number or a parameter ---------------------------------------------------------------

/**
 * The layer's up: as written, else what compileGraph finds from the legs in the skeleton's rest pose (the
 * robot's [0, 0, 1]), else [0, 1, 0]: a ground normal filled in from it then faces the way the layer plays.
 */
function upOf(layer: JsonObject, sk?: IkSkeleton): JsonValue[] {
  if (Array.isArray(layer["up"]) && layer["up"].length === 3) return layer["up"];
  const legs = Array.isArray(layer["legs"]) ? layer["legs"].flatMap((l) => (Array.isArray(l) ? l.map((n) => sk?.names.indexOf(String(n)) ?? -1) : [-1])) : [];
  const found = sk?.rest && legs.length > 0 && legs.every((j) => j >= 0) ? legsUp(sk.rest, legs) : undefined;
  return found ? [...found.up] : [0, 1, 0];
}

/** The value at `slot`, with the spec's defaults (weight 1, ground height 0, normal = up, a missing coordinate 0). */
export function ikValue(layer: JsonObject, slot: IkValueSlot, skeleton?: IkSkeleton): JsonValue {
  if (slot === "weight") return layer["weight"] ?? 1;
  const [head, key, k] = slot.split("/");
  if (head === "target") return (Array.isArray(layer["target"]) ? layer["target"][Number(key)] : undefined) ?? 0;
  const ground = isObject(layer["ground"]) ? layer["ground"] : {};
  if (key === "height") return ground["height"] ?? 0;
  return (Array.isArray(ground["normal"]) ? ground["normal"][Number(k)] : undefined) ?? upOf(layer, skeleton)[Number(k)] ?? 0;
}

/** The parameter a value reads, if it reads one. */
export function ikValueParam(value: JsonValue): string | undefined {
  return isObject(value) && typeof value["param"] === "string" ? value["param"] : undefined;
}

const checkSlot = (solver: IkSolver, slot: IkValueSlot): void => {
  if (!ikValueSlots(solver).includes(slot)) throw new EditError(`a ${solver} IK layer has no ${slot.replace(/\//g, " ")}`);
};

/** Sets a value to a number or to a declared float/int parameter. */
export function setIkValue(doc: JsonObject, index: number, slot: IkValueSlot, value: IkValueInput, skeleton?: IkSkeleton): void {
  const [layer, solver] = solverAt(doc, index);
  checkSlot(solver, slot);
  let v: JsonValue;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new EditError("a value must be a finite number");
    if (slot === "weight" && (value < 0 || value > 1)) throw new EditError("a weight is from 0 to 1");
    v = value;
  } else {
    const p = declaredParams(doc).find((x) => x.name === value.param);
    if (!p) throw new EditError(`no parameter "${value.param}"`);
    if (p.type !== "float" && p.type !== "int") throw new EditError(`"${p.name}" is a ${p.type}: IK values read a float or int parameter`);
    v = { param: p.name };
  }
  if (slot === "weight") {
    if (v === 1) delete layer["weight"];
    else layer["weight"] = v;
    return;
  }
  const [head, key, k] = slot.split("/");
  if (head === "target") {
    const t = Array.isArray(layer["target"]) && layer["target"].length === 3 ? layer["target"] : [0, 0, 0];
    t[Number(key)] = v;
    layer["target"] = t;
    return;
  }
  if (!isObject(layer["ground"])) layer["ground"] = {};
  const ground = layer["ground"];
  if (key === "height") { ground["height"] = v; return; }
  const up = upOf(layer, skeleton);
  const n = Array.isArray(ground["normal"]) && ground["normal"].length === 3 ? [...ground["normal"]] : [...up];
  n[Number(k)] = v;
  const problem = groundNormalProblem(n, up);
  if (problem) throw new EditError(`the ground normal (${n.join(", ")}) ${problem}`);
  ground["normal"] = n;
}

/**
 * Why a constant ground normal is no ground — no direction, or facing across or against up — as the spec
 * reader refuses it (E_SPEC_BAD_VALUE), so the panel refuses the edit with the reason instead of writing a
 * graph that no longer compiles. A normal that reads a parameter is checked as it plays.
 */
function groundNormalProblem(n: readonly JsonValue[], up: readonly JsonValue[]): string {
  if (![...n, ...up].every((x) => typeof x === "number")) return "";
  const [x, y, z] = n as number[], [ux, uy, uz] = up as number[];
  const square = x! * x! + y! * y! + z! * z!;
  if (!(square > 0 && square < Infinity)) return `has no direction (its squared length is ${square})`;
  return (x! * ux! + y! * uy! + z! * uz!) / Math.sqrt(square) / Math.hypot(ux!, uy!, uz!) > 1e-6 ? "" : `faces across or against up (${up.join(", ")})`;
}

const SLOT_WORDS: Readonly<Record<IkValueSlot, string>> = {
  "weight": "weight", "target/0": "x", "target/1": "y", "target/2": "z",
  "ground/height": "ground height", "ground/normal/0": "ground nx", "ground/normal/1": "ground ny", "ground/normal/2": "ground nz",
};

/**
 * Declares a float parameter and binds `slot` to it: named after the layer and the value ("Palm2.L IK x"),
 * starting at the value's current number, over `range` (default: 0..1 for a weight, −1..1 for a normal,
 * the value ± 1 otherwise). Returns the parameter's name.
 */
export function bindIkValueToNewParam(doc: JsonObject, index: number, slot: IkValueSlot, options: { name?: string; range?: readonly [number, number] } = {}, skeleton?: IkSkeleton): string {
  const [layer, solver] = solverAt(doc, index);
  checkSlot(solver, slot);
  const current = ikValue(layer, slot, skeleton);
  const start = typeof current === "number" ? current : slot === "weight" ? 1 : 0;
  const [min, max] = options.range ?? (slot === "weight" ? [0, 1] : slot.startsWith("ground/normal") ? [-1, 1] : [start - 1, start + 1]);
  if (!(min <= start && start <= max)) throw new EditError(`the range ${min}..${max} does not hold the value ${start}`);
  const name = addParam(doc, options.name ?? `${String(layer["name"] ?? "IK")} ${SLOT_WORDS[slot]}`, "float");
  (doc["parameters"] as JsonObject)[name] = { type: "float", default: round(start), min: round(min), max: round(max) };
  setIkValue(doc, index, slot, { param: name }, skeleton);
  return name;
}

// ---- Joints --------------------------------------------------------------------------------------

/** Where a joint name sits in a layer: ["joints", k], ["chain", k], ["pelvis"] or ["legs", leg, k]. */
export type IkJointPath = readonly ["joints" | "chain", number] | readonly ["pelvis"] | readonly ["legs", number, number];

/** Sets one joint of a layer (the linter and the compiler check the chain). */
export function setIkJoint(doc: JsonObject, index: number, path: IkJointPath, joint: string): void {
  const [layer, solver] = solverAt(doc, index);
  if (joint === "") throw new EditError("pick a joint");
  const want: IkSolver = path[0] === "joints" ? "twoBone" : path[0] === "chain" ? "aim" : "footPlacement";
  if (want !== solver) throw new EditError(`a ${solver} IK layer has no ${path[0]}`);
  if (path[0] === "pelvis") { layer["pelvis"] = joint; return; }
  const list = path[0] === "legs" ? (Array.isArray(layer["legs"]) ? layer["legs"][path[1]] : undefined) : layer[path[0]];
  const k = path[0] === "legs" ? path[2] : path[1];
  if (!Array.isArray(list) || k < 0 || k >= list.length) throw new EditError(`no joint ${path.join("/")}`);
  list[k] = joint;
}

/** Extends an aim chain at its base with the first joint's parent (the spine under the neck). */
export function addAimJoint(doc: JsonObject, index: number, skeleton: IkSkeleton): void {
  const [layer, solver] = solverAt(doc, index);
  if (solver !== "aim" || !Array.isArray(layer["chain"])) throw new EditError("only an aim layer has a chain");
  const chain = layer["chain"];
  if (chain.length >= 32) throw new EditError("an aim chain has at most 32 joints");
  const first = skeleton.names.indexOf(String(chain[0]));
  const parent = first >= 0 ? skeleton.parents[first]! : -1;
  if (parent < 0) throw new EditError(`"${String(chain[0])}" has no parent joint to add below it`);
  chain.unshift(skeleton.names[parent]!);
  // Per-joint lists keep one entry per joint: the new base turns least.
  if (Array.isArray(layer["jointWeights"])) layer["jointWeights"].unshift(0);
  if (Array.isArray(layer["maxAngle"])) layer["maxAngle"].unshift(180);
}

/** Removes joint k of an aim chain (one is left at least). */
export function removeAimJoint(doc: JsonObject, index: number, k: number): void {
  const [layer, solver] = solverAt(doc, index);
  const chain = layer["chain"];
  if (solver !== "aim" || !Array.isArray(chain)) throw new EditError("only an aim layer has a chain");
  if (chain.length <= 1) throw new EditError("an aim chain needs a joint");
  if (k < 0 || k >= chain.length) throw new EditError(`no joint ${k + 1} in the chain`);
  chain.splice(k, 1);
  for (const key of ["jointWeights", "maxAngle"]) {
    const list = layer[key];
    if (Array.isArray(list) && list.length === chain.length + 1) list.splice(k, 1);
  }
}

/** Adds a leg to a foot-placement layer: one the skeleton has that the layer does not (else a copy of the last). */
export function addLeg(doc: JsonObject, index: number, skeleton: IkSkeleton): number {
  const [layer, solver] = solverAt(doc, index);
  if (solver !== "footPlacement" || !Array.isArray(layer["legs"])) throw new EditError("only a foot-placement layer has legs");
  const legs = layer["legs"];
  if (legs.length >= 8) throw new EditError("a foot-placement layer places at most 8 legs");
  const used = new Set(legs.flatMap((l) => (Array.isArray(l) ? l.map(String) : [])));
  const fresh = limbs(skeleton, FOOT).find((l) => !l.some((j) => used.has(skeleton.names[j]!)));
  const last = legs[legs.length - 1];
  const leg = fresh ? fresh.map((j) => skeleton.names[j]!) : Array.isArray(last) ? [...last] : undefined;
  if (!leg) throw new EditError("no leg found in the skeleton to add");
  legs.push(leg);
  return legs.length - 1;
}

export function removeLeg(doc: JsonObject, index: number, leg: number): void {
  const [layer, solver] = solverAt(doc, index);
  const legs = layer["legs"];
  if (solver !== "footPlacement" || !Array.isArray(legs)) throw new EditError("only a foot-placement layer has legs");
  if (legs.length <= 1) throw new EditError("a foot-placement layer needs a leg");
  if (leg < 0 || leg >= legs.length) throw new EditError(`no leg ${leg + 1}`);
  legs.splice(leg, 1);
}

// ---- Settings ------------------------------------------------------------------------------------

/**
 * Sets (or, with undefined, removes: the default) a setting of the layer's solver: pole, poleWeight,
 * softness, axis, maxAngle (a number or one per chain joint), jointWeights, up, floor, maxPelvisDrop,
 * alignToNormal. Values out of the spec's range are refused.
 */
export function setIkSetting(doc: JsonObject, index: number, key: IkSetting, value: number | readonly number[] | undefined): void {
  const [layer, solver] = solverAt(doc, index);
  const rule = SETTINGS[key];
  if (!rule || !rule.solvers.includes(solver)) throw new EditError(`"${key}" does not apply to a ${solver} IK layer`);
  if (value === undefined) { delete layer[key]; return; }
  const numbers = typeof value === "number" ? [value] : [...value];
  if (numbers.some((x) => !Number.isFinite(x))) throw new EditError(`${key} takes finite numbers`);
  const range = `${rule.min ?? "−∞"} to ${rule.max ?? "∞"}`;
  if (numbers.some((x) => (rule.min !== undefined && x < rule.min) || (rule.max !== undefined && x > rule.max))) throw new EditError(`${key} is from ${range}`);
  if (rule.vector) {
    if (numbers.length !== 3) throw new EditError(`${key} is a direction: x, y and z`);
    if (numbers.every((x) => x === 0)) throw new EditError(`${key} cannot be (0, 0, 0)`);
    layer[key] = numbers;
    return;
  }
  if (rule.list) {
    const n = Array.isArray(layer["chain"]) ? layer["chain"].length : 0;
    if (typeof value !== "number" || key === "jointWeights") {
      if (numbers.length !== n) throw new EditError(`${key} needs one number per chain joint (${n})`);
      layer[key] = numbers;
      return;
    }
  }
  if (typeof value !== "number") throw new EditError(`${key} is one number`);
  layer[key] = value;
}

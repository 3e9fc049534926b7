import type { JsonNode } from "../json/index.ts";
import type { ParamRef } from "./graph-spec.ts";
import type { IkLayerSpec, IkValue } from "./ik-spec.ts";
import { readParamRef } from "./parse-machine.ts";
import type { SpecReader } from "./spec-reader.ts";

const MAX_CHAIN = 32;
const MAX_LEGS = 8;

/** The top-level `ik` array: IK layers in order, each with its own pointer; duplicates reported. */
export function readIkLayers(r: SpecReader, node: JsonNode | undefined): IkLayerSpec[] {
  const out: IkLayerSpec[] = [];
  const arr = r.array(node);
  if (!arr || !r.within("ik", arr.items.length, r.limits.maxLayers, arr, "IK layers")) return out;
  const seen = new Map<string, string>();
  for (const item of arr.items) {
    const layer = readIkLayer(r, item);
    if (!layer) continue;
    const first = seen.get(layer.name);
    if (first !== undefined) r.report(item, "E_SPEC_DUPLICATE_NAME", `IK layer name "${layer.name}" is already used by ${first}`);
    else seen.set(layer.name, layer.pointer);
    out.push(layer);
  }
  return out;
}

function readIkLayer(r: SpecReader, node: JsonNode): IkLayerSpec | undefined {
  const obj = r.specObject(node, "ikLayer");
  if (!obj) return undefined;
  const name = r.name(r.member(obj, "name"));
  const solver = r.enumValue(r.member(obj, "solver"), "ikSolver", "twoBone");
  const enabled = r.flag(r.optional(obj, "enabled"), true);
  const weightNode = r.optional(obj, "weight");
  const weight = weightNode ? (weightNode.kind === "object" ? readParamRef(r, weightNode) : r.numberIn(weightNode, 0, 1)) : 1;
  if (!r.optional(obj, "solver") || name === undefined || solver === undefined || weight === undefined || enabled === undefined) return undefined;
  const only = (keys: readonly string[]): void => {
    for (const key of ["joints", "pole", "poleWeight", "chain", "jointWeights", "maxAngle", "axis", "pelvis", "legs", "ground", "up", "floor", "maxPelvisDrop", "alignToNormal"]) {
      if (!keys.includes(key)) r.notAllowed(r.optional(obj, key), `"${key}" does not apply to a ${solver} IK layer`);
    }
  };
  const base = { pointer: node.pointer, name, enabled, weight };
  switch (solver) {
    case "twoBone": {
      only(["joints", "pole", "poleWeight"]);
      const joints = readNames(r, r.member(obj, "joints"), 3, 3);
      const target = readVector(r, r.member(obj, "target"));
      const pole = readConstVector(r, r.optional(obj, "pole"), [0, 0, 1]);
      const poleWeight = readNumber(r, r.optional(obj, "poleWeight"), 0, 1, 1);
      const softness = readNumber(r, r.optional(obj, "softness"), 0, 0.5, 0.02);
      if (!joints || !target || !pole || poleWeight === undefined || softness === undefined) return undefined;
      return { ...base, solver, joints: [joints[0]!, joints[1]!, joints[2]!], target, pole, poleWeight, softness };
    }
    case "aim": {
      only(["chain", "jointWeights", "maxAngle", "axis"]);
      const chain = readNames(r, r.member(obj, "chain"), 1, MAX_CHAIN);
      const target = readVector(r, r.member(obj, "target"));
      const axis = readConstVector(r, r.optional(obj, "axis"), [0, 0, 1]);
      r.notAllowed(r.optional(obj, "softness"), '"softness" does not apply to an aim IK layer');
      if (!chain || !target || !axis) return undefined;
      const n = chain.length;
      const weightsNode = r.optional(obj, "jointWeights");
      const jointWeights = weightsNode ? readNumbers(r, weightsNode, n, 0, 1, "jointWeights") : chain.map((_, i) => 1 / (n - i));
      const maxNode = r.optional(obj, "maxAngle");
      let maxAngles: number[] | undefined = chain.map(() => Math.PI);
      if (maxNode) {
        const one = maxNode.kind === "number" ? r.numberIn(maxNode, 0, 180) : undefined;
        const degrees = maxNode.kind === "number" ? (one === undefined ? undefined : chain.map(() => one)) : readNumbers(r, maxNode, n, 0, 180, "maxAngle");
        maxAngles = degrees?.map((d) => (d * Math.PI) / 180);
      }
      if (!jointWeights || !maxAngles) return undefined;
      return { ...base, solver, chain, jointWeights, maxAngles, axis, target };
    }
    case "footPlacement": {
      only(["pelvis", "legs", "ground", "up", "floor", "maxPelvisDrop", "alignToNormal"]);
      const pelvisNode = r.optional(obj, "pelvis");
      const pelvis = pelvisNode ? r.name(pelvisNode) : undefined;
      const legsArr = r.array(r.member(obj, "legs"));
      let legs: [string, string, string][] | undefined = [];
      if (legsArr) {
        if (legsArr.items.length === 0 || legsArr.items.length > MAX_LEGS) r.report(legsArr, "E_OUT_OF_RANGE", `a foot-placement layer places 1 to ${MAX_LEGS} legs, got ${legsArr.items.length}`);
        for (const item of legsArr.items.slice(0, MAX_LEGS)) {
          const leg = readNames(r, item, 3, 3);
          if (leg) legs?.push([leg[0]!, leg[1]!, leg[2]!]);
          else legs = undefined;
        }
      } else legs = undefined;
      // No up: compileGraph finds it from the legs' rest pose (a constant normal is then checked there).
      const upNode = r.optional(obj, "up");
      const up = upNode ? readConstVector(r, upNode, [0, 1, 0]) : undefined;
      const groundObj = r.specObject(r.optional(obj, "ground"), "ikGround");
      const heightNode = groundObj ? r.optional(groundObj, "height") : undefined;
      const height = heightNode ? readValue(r, heightNode) : 0;
      const normalNode = groundObj ? r.optional(groundObj, "normal") : undefined;
      let normal = normalNode ? readVector(r, normalNode) : undefined;
      // A constant normal of no direction, or facing across or against up, is no ground: refused here, once,
      // since the plane would silently count as flat (a normal from parameters is checked as it plays).
      if (normalNode && normal && normal.every((x) => typeof x === "number")) {
        const problem = groundNormalProblem(normal as readonly number[], up);
        if (problem) {
          r.report(normalNode, "E_SPEC_BAD_VALUE", problem);
          normal = undefined;
        }
      }
      const floor = readNumber(r, r.optional(obj, "floor"), -Number.MAX_VALUE, Number.MAX_VALUE, 0);
      const dropNode = r.optional(obj, "maxPelvisDrop");
      const maxPelvisDrop = dropNode ? r.numberIn(dropNode, 0) : undefined;
      const alignToNormal = readNumber(r, r.optional(obj, "alignToNormal"), 0, 1, 1);
      const softness = readNumber(r, r.optional(obj, "softness"), 0, 0.5, 0.02);
      if ((pelvisNode && pelvis === undefined) || !legs || (upNode && !up) || height === undefined || (normalNode && !normal) || floor === undefined || (dropNode && maxPelvisDrop === undefined) || alignToNormal === undefined || softness === undefined) return undefined;
      return {
        ...base, solver, legs, ground: { height, ...(normal ? { normal } : {}) }, floor, alignToNormal, softness,
        ...(pelvis !== undefined ? { pelvis } : {}), ...(up ? { up } : {}), ...(maxPelvisDrop !== undefined ? { maxPelvisDrop } : {}),
      };
    }
  }
}

/**
 * Why a constant ground normal is no ground (the message of E_SPEC_BAD_VALUE), or "": no direction, or —
 * when up is known (given, or found by compileGraph) — facing across or against it, since such a plane
 * would silently play as flat ground.
 */
export function groundNormalProblem(n: readonly number[], up: readonly number[] | undefined, upSays = ""): string {
  const [x, y, z] = n as [number, number, number];
  const square = x * x + y * y + z * z;
  const problem = !(square > 0 && square < Infinity) ? `has no direction (its squared length is ${square})`
    : !up || (x * up[0]! + y * up[1]! + z * up[2]!) / Math.sqrt(square) / Math.hypot(up[0]!, up[1]!, up[2]!) > 1e-6 ? "" : `faces across or against up (${up.join(", ")})${upSays}`;
  return problem && `the ground normal (${x}, ${y}, ${z}) ${problem}`;
}

function readNumber(r: SpecReader, node: JsonNode | undefined, min: number, max: number, fallback: number): number | undefined {
  return node ? r.numberIn(node, min, max) : fallback;
}

/** A number or `{ "param": name }`. */
function readValue(r: SpecReader, node: JsonNode): IkValue | undefined {
  if (node.kind === "object") return readParamRef(r, node) as ParamRef | undefined;
  return r.number(node);
}

/** Three values, each a number or a parameter reference. */
function readVector(r: SpecReader, node: JsonNode | undefined): readonly [IkValue, IkValue, IkValue] | undefined {
  const arr = r.array(node);
  if (!arr) return undefined;
  if (arr.items.length !== 3) {
    r.report(arr, "E_SPEC_ARITY", `expected 3 values (x, y, z), got ${arr.items.length}`);
    return undefined;
  }
  const v = arr.items.map((item) => readValue(r, item));
  return v.every((x) => x !== undefined) ? [v[0]!, v[1]!, v[2]!] : undefined;
}

/** Three numbers, not all zero; `fallback` when absent. */
function readConstVector(r: SpecReader, node: JsonNode | undefined, fallback: readonly [number, number, number]): readonly [number, number, number] | undefined {
  if (!node) return fallback;
  const v = readNumbers(r, node, 3, -Number.MAX_VALUE, Number.MAX_VALUE, "a vector");
  if (!v) return undefined;
  if (!(Math.hypot(v[0]!, v[1]!, v[2]!) > 0)) {
    r.report(node, "E_SPEC_BAD_VALUE", "a direction cannot be (0, 0, 0)");
    return undefined;
  }
  return [v[0]!, v[1]!, v[2]!];
}

function readNumbers(r: SpecReader, node: JsonNode, count: number, min: number, max: number, what: string): number[] | undefined {
  const arr = r.array(node);
  if (!arr) return undefined;
  if (arr.items.length !== count) {
    r.report(arr, "E_SPEC_ARITY", `${what} needs ${count} numbers, got ${arr.items.length}`);
    return undefined;
  }
  const v = arr.items.map((item) => r.numberIn(item, min, max));
  return v.every((x) => x !== undefined) ? (v as number[]) : undefined;
}

function readNames(r: SpecReader, node: JsonNode | undefined, min: number, max: number): string[] | undefined {
  const arr = r.array(node);
  if (!arr) return undefined;
  if (arr.items.length < min || arr.items.length > max) {
    r.report(arr, "E_SPEC_ARITY", min === max ? `expected ${min} joint names, got ${arr.items.length}` : `expected ${min} to ${max} joint names, got ${arr.items.length}`);
    return undefined;
  }
  const names = arr.items.map((item) => r.name(item));
  return names.every((x) => x !== undefined) ? (names as string[]) : undefined;
}

import { childPointer } from "../diagnostics/diagnostic.ts";
import { aimChainIkUnchecked } from "../ik/aim-chain-ik.ts";
import { footPlacementUnchecked, type FootPlacementSettings, type GroundFunction } from "../ik/foot-placement.ts";
import { legsPelvisUnchecked, legsPelvisMessage, legsUpUnchecked, legsUpMessage } from "../ik/legs-up.ts";
import { solveTwoBoneIk, TWO_BONE_POLE_WEIGHT, TWO_BONE_SOFTNESS, type TwoBoneIkSettings } from "../ik/two-bone-ik.ts";
import { CHANGED_POSITION, CHANGED_ROTATION, writeModelPoseUnchecked } from "../ik/write-model-pose.ts";
import type { Pose } from "../pose/pose.ts";
import { modelFrames } from "../retarget/model-frames.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { ParamRef } from "../spec/graph-spec.ts";
import type { IkLayerSpec, IkSolverName, IkValue } from "../spec/ik-spec.ts";
import { groundNormalProblem } from "../spec/parse-ik.ts";

/** An IK layer resolved to joint indices and parameter slots (built by `compileGraph` from the spec's `ik`). */
export interface CompiledIkLayer {
  /** Index in `CompiledGraph.ik`. */
  readonly index: number;
  /** The layer's name in the spec. */
  readonly name: string;
  /** JSON pointer of the layer in the spec file. */
  readonly pointer: string;
  /** Which job runs. */
  readonly solver: IkSolverName;
  /** Constant weight 0..1, used when weightSlot is -1. */
  readonly weight: number;
  /** Slot of the float/int parameter driving the weight (clamped to 0..1), or -1. */
  readonly weightSlot: number;
  /** twoBone: upper, middle, end; aim: the chain; footPlacement: the pelvis, then upper, middle, end per leg. */
  readonly joints: Int32Array;
  /** footPlacement: upper, middle, end per leg (`joints` without the pelvis); empty otherwise. */
  readonly legs: Int32Array;
  /** The values read each frame (twoBone/aim: the target x, y, z; footPlacement: height, normal x, y, z): constants… */
  readonly values: Float64Array;
  /** …or, where ≥ 0, the parameter slot that gives the value. */
  readonly slots: Int32Array;
  /** twoBone: the pole direction; aim: the aiming axis; footPlacement: up. */
  readonly direction: Float64Array;
  /** aim: per chain joint, the share of the remaining turn it takes (0–1). */
  readonly jointWeights: Float64Array;
  /** aim: per chain joint, the most it turns (radians). */
  readonly maxAngles: Float64Array;
  /** twoBone: pole weight and softness. */
  readonly twoBone: TwoBoneIkSettings;
  /** footPlacement: its settings (up, floor, pelvis drop, alignment, softness). */
  readonly footPlacement: FootPlacementSettings;
  /** Per joint of the skeleton: which model-space parts this layer sets (CHANGED_ROTATION | CHANGED_POSITION). */
  readonly changed: Uint8Array;
}

/** Per-character scratch of the IK layers (model frames, the current values), made by `createIkRuntime`. */
export interface IkRuntime {
  /** Model rotations, 4 per joint. */
  readonly q: Float64Array;
  /** Model positions, 3 per joint. */
  readonly p: Float64Array;
  /** Model uniform scales, 1 per joint. */
  readonly s: Float64Array;
  /** The layer's values this frame (4 numbers) and the ground plane read by `ground`. */
  readonly values: Float64Array;
  /** The two-bone job's output (two rotations). */
  readonly out: Float64Array;
  /** The ground plane of foot-placement layers, as the job's ground function. */
  readonly ground: GroundFunction;
  /** The jobs' numbers in and out (weights, settings, results), so no double crosses a call. */
  readonly args: Float64Array;
}

/**
 * Resolves the spec's IK layers against the skeleton: joint names to indices (E_UNKNOWN_JOINT at the name's
 * pointer), chains checked (E_IK_NOT_A_CHAIN: each joint must be an ancestor of the next, the pelvis of
 * each leg), parameters to slots through `param` (which reports unknown or mistyped ones). A foot-placement
 * layer without `pelvis` or `up` gets them from the rig (the joint above its legs; the legs' rest direction,
 * `legsUp`), each reported through `info` (I_IK_PELVIS_DERIVED, I_IK_UP_DERIVED at the key's pointer).
 */
export function compileIkLayers(
  specs: readonly IkLayerSpec[],
  skeleton: Skeleton,
  param: (ref: ParamRef, pointer: string, what: string) => number,
  error: (code: string, pointer: string, message: string) => void,
  info: (code: string, pointer: string, message: string) => void,
): CompiledIkLayer[] {
  const out: CompiledIkLayer[] = [];
  specs.forEach((spec, index) => {
    let ok = true;
    const joint = (name: string, pointer: string): number => {
      const j = skeleton.indexOf.get(name);
      if (j === undefined) {
        error("E_UNKNOWN_JOINT", pointer, `IK layer "${spec.name}": the skeleton has no joint "${name}"`);
        ok = false;
        return -1;
      }
      return j;
    };
    // footLoose: a leg whose foot hangs from above the leg (an IK rig's foot, RobotExpressive's Foot.L under
    // the root) rather than below its middle joint: the job carries it as the middle joint's end.
    const chainOf = (names: readonly string[], pointer: string, footLoose = false): number[] => {
      const joints = names.map((n, i) => joint(n, childPointer(pointer, i)));
      for (let i = 1; i < joints.length; i++) {
        const loose = footLoose && i === 2 && joints[0]! >= 0 && isAncestor(skeleton, skeleton.parents[joints[2]!]!, joints[0]!);
        if (joints[i - 1]! >= 0 && joints[i]! >= 0 && !loose && !isAncestor(skeleton, joints[i - 1]!, joints[i]!)) {
          error("E_IK_NOT_A_CHAIN", childPointer(pointer, i), `IK layer "${spec.name}": "${names[i - 1]}" is not an ancestor of "${names[i]}"`);
          ok = false;
        }
      }
      return joints;
    };
    const valueOf = (v: IkValue, pointer: string, what: string): [number, number] => {
      if (typeof v === "number") return [v, -1];
      const slot = param(v, childPointer(pointer, "param"), what);
      if (slot < 0) ok = false;
      return [0, slot];
    };
    const weightPointer = childPointer(spec.pointer, "weight");
    const [given, givenSlot] = typeof spec.weight === "number" ? [spec.weight, -1] : valueOf(spec.weight, weightPointer, "an IK layer's weight");
    // A disabled layer is still resolved (so its findings show) but weighs 0: it costs nothing per frame.
    const [weight, weightSlot] = spec.enabled === false ? [0, -1] : [given, givenSlot];
    const values = new Float64Array(4), slots = new Int32Array(4).fill(-1);
    const direction = new Float64Array(3);
    const changed = new Uint8Array(skeleton.jointCount);
    let joints: number[] = [];
    let jointWeights = new Float64Array(0), maxAngles = new Float64Array(0);
    let twoBone: TwoBoneIkSettings = {};
    let footPlacement: FootPlacementSettings = {};
    const vector = (v: readonly IkValue[], pointer: string, at: number, what: string): void => {
      v.forEach((x, i) => {
        [values[at + i], slots[at + i]] = valueOf(x, childPointer(pointer, i), what);
      });
    };
    switch (spec.solver) {
      case "twoBone":
        joints = chainOf(spec.joints, childPointer(spec.pointer, "joints"));
        vector(spec.target, childPointer(spec.pointer, "target"), 0, "an IK target");
        direction.set(spec.pole);
        twoBone = { poleWeight: spec.poleWeight, softness: spec.softness };
        for (const j of joints.slice(0, 2)) if (j >= 0) changed[j] = CHANGED_ROTATION;
        break;
      case "aim":
        joints = chainOf(spec.chain, childPointer(spec.pointer, "chain"));
        vector(spec.target, childPointer(spec.pointer, "target"), 0, "an IK target");
        direction.set(spec.axis);
        jointWeights = Float64Array.from(spec.jointWeights);
        maxAngles = Float64Array.from(spec.maxAngles);
        for (const j of joints) if (j >= 0) changed[j] = CHANGED_ROTATION;
        break;
      case "footPlacement": {
        const legsPointer = childPointer(spec.pointer, "legs");
        const chains = spec.legs.map((leg, i) => chainOf(leg, childPointer(legsPointer, i), true));
        const resolved = chains.every((c) => c.every((j) => j >= 0));
        let pelvis = -1;
        if (spec.pelvis !== undefined) pelvis = joint(spec.pelvis, childPointer(spec.pointer, "pelvis"));
        else if (resolved) {
          pelvis = legsPelvisUnchecked(skeleton.parents, chains.map((c) => c[0]!));
          const message = legsPelvisMessage(spec.name, skeleton.names[pelvis]);
          if (pelvis < 0) {
            error("E_IK_NOT_A_CHAIN", childPointer(spec.pointer, "pelvis"), message);
            ok = false;
          } else info("I_IK_PELVIS_DERIVED", childPointer(spec.pointer, "pelvis"), message);
        }
        joints = [pelvis];
        chains.forEach((chain, i) => {
          if (spec.pelvis !== undefined && pelvis >= 0 && chain[0]! >= 0 && !isAncestor(skeleton, pelvis, chain[0]!)) {
            error("E_IK_NOT_A_CHAIN", childPointer(childPointer(legsPointer, i), 0), `IK layer "${spec.name}": the pelvis "${spec.pelvis}" is not an ancestor of "${spec.legs[i]![0]}"`);
            ok = false;
          }
          joints.push(...chain);
          for (const j of chain) if (j >= 0) changed[j] = CHANGED_ROTATION;
          // A foot that does not hang from its leg is placed: its position is written too.
          if (chain[2]! >= 0 && chain[1]! >= 0 && !isAncestor(skeleton, chain[1]!, chain[2]!)) changed[chain[2]!] = CHANGED_ROTATION | CHANGED_POSITION;
        });
        if (pelvis >= 0) changed[pelvis] = changed[pelvis]! | CHANGED_POSITION;
        const ground = childPointer(spec.pointer, "ground");
        [values[0], slots[0]] = valueOf(spec.ground.height, childPointer(ground, "height"), "a ground height");
        // No up: the legs' rest direction (hips above feet), snapped to an axis near it (compile time, once).
        let up: readonly number[] = spec.up ?? [0, 1, 0];
        if (!spec.up && resolved) {
          const J = skeleton.jointCount, rest = new Float64Array(3 * J);
          modelFrames(new Float64Array(4 * J), rest, new Float64Array(J), skeleton, skeleton.rest);
          const found = legsUpUnchecked(rest, chains.flat());
          if (found) up = found.up;
          info("I_IK_UP_DERIVED", childPointer(spec.pointer, "up"), legsUpMessage(spec.name, found));
        }
        const len = Math.hypot(up[0]!, up[1]!, up[2]!);
        direction.set(up.map((x) => x / len));
        const normal = spec.ground.normal;
        if (normal) {
          vector(normal, childPointer(ground, "normal"), 1, "a ground normal");
          const problem = !spec.up && normal.every((x) => typeof x === "number") ? groundNormalProblem(normal as readonly number[], [...direction], ", found from the legs") : "";
          if (problem) {
            error("E_SPEC_BAD_VALUE", childPointer(ground, "normal"), problem);
            ok = false;
          }
        } else values.set(direction, 1);
        footPlacement = {
          up: direction, floor: spec.floor, alignToNormal: spec.alignToNormal, softness: spec.softness,
          ...(spec.maxPelvisDrop !== undefined ? { maxPelvisDrop: spec.maxPelvisDrop } : {}),
        };
        break;
      }
    }
    if (!ok) return;
    out.push(Object.freeze({
      index, name: spec.name, pointer: spec.pointer, solver: spec.solver, weight, weightSlot, joints: Int32Array.from(joints),
      legs: spec.solver === "footPlacement" ? Int32Array.from(joints.slice(1)) : new Int32Array(0),
      values, slots, direction, jointWeights, maxAngles, twoBone: Object.freeze(twoBone), footPlacement: Object.freeze(footPlacement), changed,
    }));
  });
  return out;
}

/** The per-character scratch of the IK layers (allocated once, with the instance). */
export function createIkRuntime(jointCount: number): IkRuntime {
  const values = new Float64Array(8);
  const ground: GroundFunction = (out, o, p, po) => groundPlane(values, out, o, p, po);
  return { q: new Float64Array(4 * jointCount), p: new Float64Array(3 * jointCount), s: new Float64Array(jointCount), values, out: new Float64Array(8), ground, args: new Float64Array(4) };
}

/**
 * Runs the IK layers over a pose, in order, after the animation layers: the model frames are computed once,
 * each job changes its joints in model space, and `writeModelPose` writes them back (and brings the other
 * joints' model frames up to date for the next layer). Layers whose weight is 0 cost nothing. No allocation.
 */
export function applyIkLayers(layers: readonly CompiledIkLayer[], skeleton: Skeleton, pose: Pose, params: Float64Array, rt: IkRuntime): void {
  let framed = false;
  for (let li = 0; li < layers.length; li++) {
    const layer = layers[li]!;
    const args = rt.args;
    if (layer.weightSlot >= 0) {
      const x = params[layer.weightSlot]!;
      args[0] = x > 0 ? (x < 1 ? x : 1) : 0;
    } else args[0] = layer.weight;
    if (!(args[0]! > 0)) continue;
    if (!framed) {
      modelFrames(rt.q, rt.p, rt.s, skeleton, pose);
      framed = true;
    }
    const v = rt.values;
    for (let i = 0; i < 4; i++) v[i] = layer.slots[i]! >= 0 ? params[layer.slots[i]!]! : layer.values[i]!;
    const joints = layer.joints;
    switch (layer.solver) {
      case "twoBone": {
        const a = joints[0]!, b = joints[1]!, e = joints[2]!;
        args[TWO_BONE_POLE_WEIGHT] = layer.twoBone.poleWeight ?? 0;
        args[TWO_BONE_SOFTNESS] = layer.twoBone.softness ?? 0;
        solveTwoBoneIk(rt.out, 0, rt.p, 3 * a, 3 * b, 3 * e, rt.q, 4 * a, 4 * b, v, 0, layer.direction, 0, args);
        for (let c = 0; c < 4; c++) {
          rt.q[4 * a + c] = rt.out[c]!;
          rt.q[4 * b + c] = rt.out[4 + c]!;
        }
        break;
      }
      case "aim":
        aimChainIkUnchecked(rt.q, rt.p, joints, layer.jointWeights, layer.maxAngles, layer.direction, 0, v, 0, args);
        break;
      case "footPlacement": {
        // The plane: v[0] height, v[1..3] normal; the up axis for the ground function in v[4..6].
        for (let c = 0; c < 3; c++) v[4 + c] = layer.direction[c]!;
        footPlacementUnchecked(rt.q, rt.p, joints[0]!, layer.legs, rt.ground, args, layer.footPlacement);
        break;
      }
    }
    writeModelPoseUnchecked(pose, skeleton, rt.q, rt.p, rt.s, layer.changed);
  }
}

/**
 * The ground plane through height v[0] along up (v[4..6]) with normal v[1..3]: under point p its height is
 * h − (n · p⊥) / (n · up), p⊥ the point's part across up. A normal (nearly) across up counts as flat.
 */
function groundPlane(v: Float64Array, out: Float64Array, o: number, p: Float64Array, po: number): void {
  const ux = v[4]!, uy = v[5]!, uz = v[6]!;
  let nx = v[1]!, ny = v[2]!, nz = v[3]!;
  let nl = Math.sqrt(nx * nx + ny * ny + nz * nz);
  let nu = (nx * ux + ny * uy + nz * uz) / nl;
  if (!(nu > 1e-6)) {
    nx = ux; ny = uy; nz = uz; nl = 1; nu = 1;
  }
  nx /= nl; ny /= nl; nz /= nl;
  const hp = p[po]! * ux + p[po + 1]! * uy + p[po + 2]! * uz;
  const px = p[po]! - hp * ux, py = p[po + 1]! - hp * uy, pz = p[po + 2]! - hp * uz;
  out[o] = v[0]! - (nx * px + ny * py + nz * pz) / nu;
  out[o + 1] = nx;
  out[o + 2] = ny;
  out[o + 3] = nz;
}

function isAncestor(skeleton: Skeleton, a: number, t: number): boolean {
  for (let p = skeleton.parents[t]!; p >= 0; p = skeleton.parents[p]!) if (p === a) return true;
  return false;
}

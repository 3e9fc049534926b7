import { childPointer } from "../diagnostics/diagnostic.ts";
import { LEGS_UP_SNAP_DEGREES, legsPelvisUnchecked, legsPelvisMessage, legsUpUnchecked } from "../ik/legs-up.ts";
import type { GraphSpec } from "../spec/graph-spec.ts";
import { checkIkChain } from "./ik-chain-rule.ts";
import type { LintSink } from "./lint-sink.ts";

/**
 * An `up` given to a foot-placement layer more than this many degrees from the legs' rest direction (feet to
 * hips) is warned about: the legs hang across it (~90°, RobotExpressive's Z-up skeleton with the default
 * [0, 1, 0]) or against it (~180°), and the layer would lift the feet sideways or push them down.
 */
export const UP_ACROSS_LEGS_DEGREES = 45;

const vec = (v: ArrayLike<number>): string => `[${Array.from(v, (x) => Math.round(x * 1e3) / 1e3 || 0).join(", ")}]`;

/**
 * With the skeleton's joints and their parents, each IK layer's chains are checked as `compileGraph`
 * checks them (E_IK_NOT_A_CHAIN), so a graph that lints clean against a character compiles against it.
 * A foot-placement layer without a pelvis is checked with the one compileGraph finds (none: E_IK_NOT_A_CHAIN
 * at its pointer). With the rest pose's model positions too (`rest`), a layer whose `up` its legs hang across
 * or against is warned (W_IK_UP_ACROSS_LEGS). What compileGraph finds for an absent pelvis or up it reports
 * itself (I_IK_PELVIS_DERIVED, I_IK_UP_DERIVED): as lint findings they would fail a clean graph (exit 1).
 */
export function checkIkHierarchy(spec: GraphSpec, joints: readonly string[] | undefined, parents: ArrayLike<number> | undefined, rest: ArrayLike<number> | undefined, sink: LintSink): void {
  if (!joints || !parents || !spec.ik || spec.ik.length === 0) return;
  const index = new Map<string, number>();
  joints.forEach((name, j) => {
    if (!index.has(name)) index.set(name, j);
  });
  const error = (code: string, pointer: string, message: string): void => sink.add(code, pointer, message);
  for (const layer of spec.ik) {
    const check = (names: readonly string[], pointer: string, shift: number): void => {
      checkIkChain(layer.name, names, names.map((n) => index.get(n) ?? -1), parents, pointer, shift, error);
    };
    if (layer.solver === "twoBone") check(layer.joints, childPointer(layer.pointer, "joints"), 0);
    else if (layer.solver === "aim") check(layer.chain, childPointer(layer.pointer, "chain"), 0);
    else {
      const legs = layer.legs.map((leg) => leg.map((n) => index.get(n) ?? -1));
      const resolved = legs.every((leg) => leg.every((j) => j >= 0));
      let pelvis = layer.pelvis;
      if (pelvis === undefined) {
        if (!resolved) continue;
        const found = legsPelvisUnchecked(parents, legs.map((leg) => leg[0]!));
        pelvis = joints[found];
        if (pelvis === undefined) {
          sink.add("E_IK_NOT_A_CHAIN", childPointer(layer.pointer, "pelvis"), legsPelvisMessage(layer.name, pelvis));
          continue;
        }
      }
      // A leg is a chain below the pelvis.
      const pelvisName = pelvis;
      layer.legs.forEach((leg, i) => check([pelvisName, ...leg], childPointer(childPointer(layer.pointer, "legs"), i), 1));
      if (!rest || !resolved || !layer.up) continue;
      const found = legsUpUnchecked(rest, legs.flat());
      if (!found) continue;
      const u = layer.up, m = found.measured;
      const degrees = (Math.acos(Math.max(-1, Math.min(1, (u[0] * m[0] + u[1] * m[1] + u[2] * m[2]) / Math.hypot(...u)))) * 180) / Math.PI;
      if (degrees > UP_ACROSS_LEGS_DEGREES) {
        sink.add("W_IK_UP_ACROSS_LEGS", childPointer(layer.pointer, "up"),
          `IK layer "${layer.name}": up ${vec(u)} is ${degrees.toFixed(0)}° from the legs' rest direction (feet to hips ${vec(m)}): the legs hang ${degrees > 135 ? "against" : "across"} it; use "up": ${vec(found.up)}${found.degrees > 0 ? ` (the axis within ${LEGS_UP_SNAP_DEGREES}°)` : ""}, or leave "up" out to have it found`);
      }
    }
  }
}

import { childPointer } from "../diagnostics/diagnostic.ts";
import type { GraphSpec, MachineSpec, ParamRef, ParamSpec, ParamType, StateSpec } from "../spec/graph-spec.ts";
import { ANY_STATE } from "../spec/spec-keys.ts";
import { clip } from "../spec/spec-reader.ts";
import { conditionTypeError } from "./condition-domain.ts";
import type { LintClipInfo } from "./lint-options.ts";
import type { LintSink } from "./lint-sink.ts";

const NUMERIC: readonly ParamType[] = ["float", "int"];

/**
 * Names used across the spec: states (E_UNKNOWN_STATE), parameters (E_UNKNOWN_PARAM, E_PARAM_TYPE,
 * E_CONDITION_TYPE), masks (E_UNKNOWN_MASK), clips (E_UNKNOWN_CLIP, W_EVENT_OUT_OF_RANGE — with
 * clips), joints (E_UNKNOWN_JOINT — with a skeleton), and what is declared but never used
 * (W_UNUSED_PARAM, W_UNUSED_MASK).
 */
export function checkReferences(
  spec: GraphSpec,
  clips: ReadonlyMap<string, LintClipInfo> | undefined,
  joints: ReadonlySet<string> | undefined,
  sink: LintSink,
): void {
  const usedParams = new Set<string>();
  const usedMasks = new Set<string>();

  const param = (name: string, pointer: string, what: string, types: readonly ParamType[]): ParamSpec | undefined => {
    usedParams.add(name);
    const p = spec.parameters.get(name);
    if (!p) {
      sink.add("E_UNKNOWN_PARAM", pointer, `unknown parameter "${clip(name)}"${suggest(name, spec.parameters.keys())}`);
      return undefined;
    }
    if (!types.includes(p.type)) {
      sink.add("E_PARAM_TYPE", pointer, `${what} needs a ${types.join(" or ")} parameter; "${clip(name)}" is a ${p.type}`);
    }
    return p;
  };
  const paramRef = (v: number | ParamRef, pointer: string, what: string): void => {
    if (typeof v !== "number") param(v.param, childPointer(pointer, "param"), what, NUMERIC);
  };
  const clipRef = (name: string, pointer: string): void => {
    if (clips && !clips.has(name)) sink.add("E_UNKNOWN_CLIP", pointer, `unknown clip "${clip(name)}"${suggest(name, clips.keys())}`);
  };

  const visitState = (s: StateSpec): void => {
    paramRef(s.speed, childPointer(s.pointer, "speed"), "a state's speed");
    const m = s.motion;
    switch (m.kind) {
      case "clip": {
        clipRef(m.clip, m.pointer);
        const info = clips?.get(m.clip);
        if (info) {
          for (const e of s.events) {
            if (e.time > info.duration) {
              sink.add("W_EVENT_OUT_OF_RANGE", childPointer(e.pointer, "time"), `event "${clip(e.name)}" at ${e.time} s is past the end of clip "${clip(m.clip)}" (${info.duration} s): it never fires`);
            }
          }
        }
        break;
      }
      case "blend1d":
        param(m.param, childPointer(m.pointer, "param"), "a 1D blend tree", NUMERIC);
        for (const c of m.children) clipRef(c.clip, childPointer(c.pointer, "clip"));
        break;
      case "blend2d":
        m.params.forEach((p, i) => param(p, childPointer(childPointer(m.pointer, "params"), i), "a 2D blend space", NUMERIC));
        for (const c of m.samples) clipRef(c.clip, childPointer(c.pointer, "clip"));
        break;
      case "machine":
        visitMachine(m.machine);
        break;
    }
  };

  const visitMachine = (m: MachineSpec): void => {
    if (!m.states.has(m.entry)) {
      sink.add("E_UNKNOWN_STATE", childPointer(m.pointer, "entry"), `unknown entry state "${clip(m.entry)}"${suggest(m.entry, m.states.keys())}`);
    }
    for (const s of m.states.values()) visitState(s);
    for (const t of m.transitions) {
      if (t.from !== ANY_STATE && !m.states.has(t.from)) {
        sink.add("E_UNKNOWN_STATE", childPointer(t.pointer, "from"), `unknown state "${clip(t.from)}"${suggest(t.from, m.states.keys())}`);
      }
      if (!m.states.has(t.to)) {
        sink.add("E_UNKNOWN_STATE", childPointer(t.pointer, "to"), `unknown state "${clip(t.to)}"${suggest(t.to, m.states.keys())}`);
      }
      for (const c of t.conditions) {
        const p = param(c.param, childPointer(c.pointer, "param"), "a condition", ["float", "int", "bool", "trigger"]);
        const problem = p && conditionTypeError(c, p);
        if (problem) sink.add("E_CONDITION_TYPE", c.pointer, problem);
      }
    }
  };

  for (const layer of spec.layers) {
    paramRef(layer.weight, childPointer(layer.pointer, "weight"), "a layer's weight");
    if (layer.mask !== undefined) {
      usedMasks.add(layer.mask);
      if (!spec.masks.has(layer.mask)) {
        sink.add("E_UNKNOWN_MASK", childPointer(layer.pointer, "mask"), `unknown mask "${clip(layer.mask)}"${suggest(layer.mask, spec.masks.keys())}`);
      }
    }
    visitMachine(layer.machine);
  }

  // IK layers: their weight and values read float/int parameters; their joints must exist (with a skeleton).
  for (const layer of spec.ik ?? []) {
    paramRef(layer.weight, childPointer(layer.pointer, "weight"), "an IK layer's weight");
    const values = (list: readonly (number | ParamRef)[], pointer: string, what: string): void => {
      list.forEach((v, i) => paramRef(v, childPointer(pointer, i), what));
    };
    const names = (list: readonly string[], pointer: string): void => {
      if (!joints) return;
      list.forEach((joint, i) => {
        if (!joints.has(joint)) sink.add("E_UNKNOWN_JOINT", childPointer(pointer, i), `unknown joint "${clip(joint)}"${suggest(joint, joints)}`);
      });
    };
    switch (layer.solver) {
      case "twoBone":
        values(layer.target, childPointer(layer.pointer, "target"), "an IK target");
        names(layer.joints, childPointer(layer.pointer, "joints"));
        break;
      case "aim":
        values(layer.target, childPointer(layer.pointer, "target"), "an IK target");
        names(layer.chain, childPointer(layer.pointer, "chain"));
        break;
      case "footPlacement": {
        const ground = childPointer(layer.pointer, "ground");
        paramRef(layer.ground.height, childPointer(ground, "height"), "a ground height");
        if (layer.ground.normal) values(layer.ground.normal, childPointer(ground, "normal"), "a ground normal");
        if (joints && layer.pelvis !== undefined && !joints.has(layer.pelvis)) {
          sink.add("E_UNKNOWN_JOINT", childPointer(layer.pointer, "pelvis"), `unknown joint "${clip(layer.pelvis)}"${suggest(layer.pelvis, joints)}`);
        }
        layer.legs.forEach((leg, i) => names(leg, childPointer(childPointer(layer.pointer, "legs"), i)));
        break;
      }
    }
  }

  for (const mask of spec.masks.values()) {
    if (!usedMasks.has(mask.name)) sink.add("W_UNUSED_MASK", mask.pointer, `mask "${clip(mask.name)}" is not used by any layer`);
    if (!joints) continue;
    for (const key of ["include", "exclude"] as const) {
      mask[key].forEach((joint, i) => {
        if (!joints.has(joint)) {
          sink.add("E_UNKNOWN_JOINT", childPointer(childPointer(mask.pointer, key), i), `unknown joint "${clip(joint)}"${suggest(joint, joints)}`);
        }
      });
    }
  }
  for (const p of spec.parameters.values()) {
    if (!usedParams.has(p.name)) sink.add("W_UNUSED_PARAM", p.pointer, `parameter "${clip(p.name)}" is not used by any condition, blend, speed, weight or IK layer`);
  }
}

/** `; did you mean "X"?` for a known name equal ignoring case or one edit (or one swap of neighbours) away. */
function suggest(name: string, known: Iterable<string>): string {
  if (name.length > 64) return "";
  const lower = name.toLowerCase();
  let count = 0;
  for (const k of known) {
    if (++count > 10_000) break;
    if (k.toLowerCase() === lower || (Math.abs(k.length - name.length) <= 1 && k.length <= 64 && withinOneEdit(k, name))) {
      return `; did you mean "${clip(k)}"?`;
    }
  }
  return "";
}

function withinOneEdit(a: string, b: string): boolean {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const restA = a.slice(i);
  const restB = b.slice(i);
  const swapped = restA.length >= 2 && restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2);
  return swapped || restA.slice(1) === restB.slice(1) || restA.slice(1) === restB || restA === restB.slice(1);
}

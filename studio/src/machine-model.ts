// What the state graph draws, read from the document's JSON (not from the compiled graph): a machine
// being built does not compile yet — no states, a state without a clip — and must still be drawn and
// edited. The findings the linter reports on a state or a transition are attached here by JSON pointer.
import type { Diagnostic } from "animgraph";
import {
  declaredParams, escapePointer, isObject, machineAt, motionKind, POSITION_KEY, type JsonObject, type MachineLocation, type MotionKind, type ParamType,
} from "./graph-edits.ts";

export interface ModelFinding { readonly severity: Diagnostic["severity"]; readonly message: string }

export interface ModelState {
  readonly name: string;
  readonly kind: MotionKind | undefined;
  /** A clip state marked `"mirror": true`: it plays its clip's mirror image. */
  readonly mirror: boolean;
  /** Its place from `x-pos`, when the document has one. */
  readonly pos: { x: number; y: number } | undefined;
  readonly findings: readonly ModelFinding[];
}

export interface ModelTransition {
  /** Index in the machine's `transitions` array (its priority). */
  readonly index: number;
  /** A state's name, or "*" (any state). */
  readonly from: string;
  readonly to: string;
  /** The conditions and exit time in short ("speed > 0.5 ∧ exit 90%"). */
  readonly label: string;
  readonly duration: number | undefined;
  readonly findings: readonly ModelFinding[];
}

export interface MachineModel {
  readonly loc: MachineLocation;
  /** The JSON pointer of the machine ("/layers/0/machine", "/layers/0/machine/states/Air/machine"). */
  readonly pointer: string;
  readonly entry: string;
  readonly states: readonly ModelState[];
  readonly transitions: readonly ModelTransition[];
  /** Findings on the machine itself (no entry, no states…). */
  readonly findings: readonly ModelFinding[];
}

const OPS: Record<string, string> = { ">": ">", ">=": "≥", "<": "<", "<=": "≤", "==": "=", "!=": "≠" };

/** One condition in short: `speed > 0.5`, `grounded`, `!grounded`, `jump!` (a trigger). */
export function conditionLabel(c: JsonObject, types: ReadonlyMap<string, ParamType>): string {
  const param = typeof c["param"] === "string" ? c["param"] : "?";
  const type = types.get(param);
  if (type === "trigger") return `${param}!`;
  const op = typeof c["op"] === "string" ? c["op"] : undefined;
  const value = c["value"];
  if (type === "bool" || typeof value === "boolean") {
    const truth = (value === undefined || value === true) !== (op === "!=");
    return truth ? param : `!${param}`;
  }
  return `${param} ${OPS[op ?? "=="] ?? op} ${typeof value === "number" ? +value.toFixed(3) : String(value)}`;
}

/** The machine at `loc` of a document as the graph draws it; undefined when there is none there. */
export function machineModel(doc: JsonObject, loc: MachineLocation, diagnostics: readonly Diagnostic[]): MachineModel | undefined {
  let machine: JsonObject;
  try {
    machine = machineAt(doc, loc);
  } catch {
    return undefined;
  }
  const pointer = `/layers/${loc.layer}/machine${loc.path.map((n) => `/states/${escapePointer(n)}/machine`).join("")}`;
  // A nested machine's own findings show when it is opened, not on its state.
  const findingsAt = (prefix: string): ModelFinding[] =>
    diagnostics.filter((d) => (d.pointer === prefix || d.pointer.startsWith(`${prefix}/`)) && !d.pointer.startsWith(`${prefix}/machine/`))
      .map((d) => ({ severity: d.severity, message: `${d.message} [${d.code}]` }));
  const types = new Map(declaredParams(doc).map((p) => [p.name, p.type] as const));
  const statesObj = isObject(machine["states"]) ? machine["states"] : {};
  const states = Object.entries(statesObj).map(([name, s]): ModelState => {
    const at = `${pointer}/states/${escapePointer(name)}`;
    const raw = isObject(s) ? s[POSITION_KEY] : undefined;
    const pos = Array.isArray(raw) && typeof raw[0] === "number" && typeof raw[1] === "number" ? { x: raw[0], y: raw[1] } : undefined;
    return { name, kind: isObject(s) ? motionKind(s) : undefined, mirror: isObject(s) && s["mirror"] === true, pos, findings: findingsAt(at) };
  });
  const list = Array.isArray(machine["transitions"]) ? machine["transitions"] : [];
  const transitions = list.map((t, index): ModelTransition => {
    const o = isObject(t) ? t : {};
    const conditions = Array.isArray(o["conditions"]) ? o["conditions"].filter(isObject).map((c) => conditionLabel(c, types)) : [];
    if (typeof o["exitTime"] === "number") conditions.push(`exit ${Math.round(o["exitTime"] * 100)}%`);
    if (typeof o["exitPermille"] === "number") conditions.push(`exit ${o["exitPermille"] / 10}%`);
    return {
      index,
      from: typeof o["from"] === "string" ? o["from"] : "?",
      to: typeof o["to"] === "string" ? o["to"] : "?",
      label: conditions.join(" ∧ "),
      duration: typeof o["duration"] === "number" ? o["duration"] : undefined,
      findings: findingsAt(`${pointer}/transitions/${index}`),
    };
  });
  const machineFindings = diagnostics.filter((d) => d.pointer === pointer || d.pointer === `${pointer}/entry` || d.pointer === `${pointer}/states`)
    .map((d) => ({ severity: d.severity, message: `${d.message} [${d.code}]` }));
  return { loc, pointer, entry: typeof machine["entry"] === "string" ? machine["entry"] : "", states, transitions, findings: machineFindings };
}

import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { expectObject } from "../errors/check-argument.ts";
import { JsonReader, type JsonDocument } from "../json/index.ts";
import type { MirrorPair } from "./find-mirror-pairs.ts";
import type { MirrorAxis } from "./mirror-map.ts";

/** A mirror settings file as `readMirrorSettings` returns it (every field optional, as in the file). */
export interface MirrorSettings {
  /** The mirror plane's normal, when the file gives one. */
  readonly axis?: MirrorAxis;
  /** Joint pairs that override the names. */
  readonly pairs: readonly MirrorPair[];
  /** Whether the other joints are paired by name; absent = true. */
  readonly detect?: boolean;
}

/** What `readMirrorSettings` returns: the settings (absent on errors) and every problem, at its JSON pointer. */
export interface MirrorSettingsReadResult {
  readonly settings?: MirrorSettings;
  readonly diagnostics: Diagnostic[];
}

const KEYS = new Set(["axis", "pairs", "detect"]);
const AXES: readonly string[] = ["x", "y", "z"];

/**
 * Reads a pairs file (`animgraph mirror --pairs`), the same shape as a graph spec's `mirror` object:
 * `{ "axis": "x", "pairs": [["Hand_A", "Hand_B"], ["Eye.L", "Eye.L"]], "detect": true }`, or just the
 * array of pairs. Codes: E_WRONG_TYPE, E_MIRROR_PAIR_ARITY, E_MIRROR_AXIS, W_MIRROR_UNKNOWN_KEY (a
 * key it does not know, ignored), at the JSON pointer of the value; joint names are checked when the
 * pairs are used (findMirrorPairs).
 */
export function readMirrorSettings(doc: JsonDocument): MirrorSettingsReadResult {
  expectObject("readMirrorSettings", "doc", doc);
  const r = new JsonReader(doc);
  const root = doc.root;
  if (!root) return { diagnostics: r.diagnostics };
  let pairsNode = root;
  let axis: MirrorAxis | undefined;
  let detect: boolean | undefined;
  let ok = true;
  if (root.kind === "object") {
    for (const [key, node] of root.members) {
      if (!KEYS.has(key)) r.report(node, "W_MIRROR_UNKNOWN_KEY", `unknown key "${key}" (known: axis, pairs, detect); ignored`, "warning");
    }
    const axisNode = r.optional(root, "axis");
    const a = r.string(axisNode);
    if (a !== undefined && !AXES.includes(a)) {
      r.report(axisNode, "E_MIRROR_AXIS", `axis must be "x", "y" or "z", found "${a}"`);
      ok = false;
    } else if (a !== undefined) axis = a as MirrorAxis;
    if (axisNode && a === undefined) ok = false;
    const detectNode = r.optional(root, "detect");
    detect = r.boolean(detectNode);
    if (detectNode && detect === undefined) ok = false;
    const p = r.optional(root, "pairs");
    if (!p) return ok ? { settings: { ...(axis ? { axis } : {}), pairs: [], ...(detect !== undefined ? { detect } : {}) }, diagnostics: r.diagnostics } : { diagnostics: r.diagnostics };
    pairsNode = p;
  }
  const arr = r.array(pairsNode);
  if (!arr) return { diagnostics: r.diagnostics };
  const pairs: MirrorPair[] = [];
  for (const item of arr.items) {
    const pair = r.array(item);
    if (!pair) {
      ok = false;
      continue;
    }
    if (pair.items.length !== 2) {
      r.report(pair, "E_MIRROR_PAIR_ARITY", `a pair names exactly two joints [left, right] (or one joint twice to keep it on the plane), found ${pair.items.length}`);
      ok = false;
      continue;
    }
    const a = r.string(pair.items[0]);
    const b = r.string(pair.items[1]);
    if (a === undefined || b === undefined) ok = false;
    else pairs.push([a, b]);
  }
  if (!ok) return { diagnostics: r.diagnostics };
  return { settings: { ...(axis ? { axis } : {}), pairs, ...(detect !== undefined ? { detect } : {}) }, diagnostics: r.diagnostics };
}

import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { expectSkeleton } from "../errors/check-argument.ts";
import { toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import { JsonReader, type JsonNode, type JsonObjectNode } from "../json/index.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { proposeBoneMap, type BoneMap, type BoneMapEntry } from "./propose-bone-map.ts";

/** Settings a bone-map file may carry besides the bones (the rich form). */
export interface BoneMapSettings {
  /** Overrides the root trajectory scale (default: the hip-height ratio target / source). */
  readonly rootMotionScale?: number;
  /** Overrides `RetargetOptions.alignRest`. */
  readonly alignRest?: boolean;
  /** The target joint that carries the trajectory (CompileBoneMapOptions.targetRoot). */
  readonly root?: string;
}

/** What `readBoneMap` returns: the map (when the file is usable), its settings and every problem found. */
export interface BoneMapReadResult {
  /** Absent when the file has errors. */
  readonly map?: BoneMap;
  /** The rich form's settings (empty for a flat map), to pass on to `compileBoneMap`. */
  readonly settings: BoneMapSettings;
  /** Every problem, at the JSON pointer of the offending value. */
  readonly diagnostics: Diagnostic[];
}

/** Range of a bone map's `rootMotionScale`: wide enough for any unit change (mm ↔ km), finite output. */
export const MIN_ROOT_MOTION_SCALE = 1e-6;
export const MAX_ROOT_MOTION_SCALE = 1e6;

const RICH_KEYS = new Set(["bones", "auto", "rootMotionScale", "alignRest", "root"]);
/** Keys `animgraph map --json` adds for people; read back without a warning and ignored. */
const INFO_KEYS = new Set(["source", "target", "entries", "unmappedSource", "unmappedTarget", "proposedRootMotionScale"]);

/**
 * Reads a bone map from a parsed JSON document and checks it against the two skeletons. Two forms:
 * a flat object `{ "<source bone>": "<target bone>" | null, … }`, or the rich form
 * `{ "bones": { … }, "auto": true, "rootMotionScale": 0.5, "alignRest": true }` where `auto` fills the
 * bones the file does not list from `proposeBoneMap` (a `null` value keeps a bone out of it). Codes:
 * E_BONEMAP_UNKNOWN_SOURCE, E_BONEMAP_UNKNOWN_TARGET, E_BONEMAP_DUPLICATE_TARGET, W_BONEMAP_UNKNOWN_KEY
 * (warning), E_OUT_OF_RANGE, and JsonReader's type codes — each at the JSON pointer of the value.
 */
export function readBoneMap(map: JsonInput, source: Skeleton, target: Skeleton): BoneMapReadResult {
  expectSkeleton("readBoneMap", "source", source);
  expectSkeleton("readBoneMap", "target", target);
  const doc = toJsonDocument("readBoneMap", "map", map, "<bone map>");
  const reader = new JsonReader({ ...doc, diagnostics: [...doc.diagnostics] });
  const settings: { rootMotionScale?: number; alignRest?: boolean; root?: string } = {};
  const root = reader.object(doc.root);
  if (!root) return { settings, diagnostics: reader.diagnostics };
  let bonesNode: JsonObjectNode | undefined = root;
  let auto = false;
  const richBones = root.members.get("bones");
  if (richBones?.kind === "object") {
    bonesNode = richBones;
    for (const [key, node] of root.members) {
      if (!RICH_KEYS.has(key) && !INFO_KEYS.has(key)) reader.report(node, "W_BONEMAP_UNKNOWN_KEY", `unknown key "${key}" (known: ${[...RICH_KEYS].join(", ")})`, "warning");
    }
    auto = reader.boolean(reader.optional(root, "auto")) ?? false;
    const scaleNode = reader.optional(root, "rootMotionScale");
    const scale = reader.number(scaleNode);
    if (scale !== undefined) {
      if (scale >= MIN_ROOT_MOTION_SCALE && scale <= MAX_ROOT_MOTION_SCALE) settings.rootMotionScale = scale;
      else reader.report(scaleNode, "E_OUT_OF_RANGE", `rootMotionScale must be in [${MIN_ROOT_MOTION_SCALE}, ${MAX_ROOT_MOTION_SCALE}], found ${scale}`);
    }
    const align = reader.boolean(reader.optional(root, "alignRest"));
    if (align !== undefined) settings.alignRest = align;
    const rootNode = reader.optional(root, "root");
    const rootName = reader.string(rootNode);
    if (rootName !== undefined) {
      if (target.indexOf.has(rootName)) settings.root = rootName;
      else reader.report(rootNode, "E_BONEMAP_UNKNOWN_TARGET", `root "${rootName}" is not a bone of the target skeleton`);
    }
  }

  const entries: BoneMapEntry[] = [];
  const excluded = new Set<string>();
  const targetUsedAt = new Map<string, JsonNode>();
  for (const [sourceName, node] of bonesNode.members) {
    if (!source.indexOf.has(sourceName)) {
      reader.report(node, "E_BONEMAP_UNKNOWN_SOURCE", `"${sourceName}" is not a bone of the source skeleton`);
      continue;
    }
    if (node.kind === "null") {
      excluded.add(sourceName);
      continue;
    }
    const targetName = reader.string(node);
    if (targetName === undefined) continue;
    if (!target.indexOf.has(targetName)) {
      reader.report(node, "E_BONEMAP_UNKNOWN_TARGET", `"${targetName}" is not a bone of the target skeleton`);
      continue;
    }
    const first = targetUsedAt.get(targetName);
    if (first) {
      reader.report(node, "E_BONEMAP_DUPLICATE_TARGET", `target bone "${targetName}" is already driven by ${first.pointer}`);
      continue;
    }
    targetUsedAt.set(targetName, node);
    entries.push({ source: sourceName, target: targetName, confidence: 1, reason: "explicit" });
  }
  if (reader.diagnostics.some((d) => d.severity === "error")) return { settings, diagnostics: reader.diagnostics };
  if (auto) {
    const listedSources = new Set(bonesNode.members.keys());
    for (const e of proposeBoneMap(source, target).entries) {
      if (listedSources.has(e.source) || excluded.has(e.source) || targetUsedAt.has(e.target)) continue;
      entries.push(e);
    }
  }
  return { map: { entries }, settings, diagnostics: reader.diagnostics };
}


import { childPointer } from "../../diagnostics/diagnostic.ts";
import { isObject, ptr, type DiagnosticSink, type JsonObject } from "../gltf/gltf-json.ts";
import {
  VRM_EXPRESSION_PRESETS, VRM_REQUIRED_BONES, VRMA_FORBIDDEN_BONES, VRMA_FORBIDDEN_EXPRESSIONS,
  isVrmHumanBoneName, type VrmHumanBoneName,
} from "./vrm-human-bones.ts";

/** The glTF extension that makes a file a VRM animation. */
export const VRMA_EXTENSION = "VRMC_vrm_animation";
/** Spec versions read: the release and the draft three-vrm still accepts. */
const SPEC_VERSIONS = new Set(["1.0", "1.0-draft"]);

/** One expression of a .vrma: its weight is the x of its node's translation. */
export interface VrmaExpression {
  readonly name: string;
  /** True for VRM's preset expressions (`happy`, `blink`, `aa`, …), false for custom ones. */
  readonly preset: boolean;
  /** glTF node index. */
  readonly node: number;
}

/** The look-at (eye gaze) definition of a .vrma. */
export interface VrmaLookAt {
  /** glTF node whose rotation is the gaze direction (from +Z); absent when the file gives none. */
  readonly node?: number;
  /** Gaze origin relative to the head bone (metres), when given. */
  readonly offsetFromHeadBone?: readonly [number, number, number];
}

/** `VRMC_vrm_animation` as read and checked. */
export interface VrmaExtension {
  readonly specVersion: string;
  /** VRM humanoid bone name → glTF node index. */
  readonly humanBones: ReadonlyMap<VrmHumanBoneName, number>;
  readonly expressions: readonly VrmaExpression[];
  readonly lookAt?: VrmaLookAt;
}

/** A JSON pointer below the extension. */
const at = (...tokens: string[]): string => ptr("extensions", VRMA_EXTENSION, ...tokens);

/**
 * Reads `extensions.VRMC_vrm_animation` of glTF JSON whose nodes the glTF validator has already
 * checked. Errors (the file is then not a usable VRM animation), each at its JSON pointer:
 * E_VRMA_MISSING (no extension), E_VRMA_SPEC_VERSION (a version other than 1.0), E_VRMA_EXTENSION (a
 * value of the wrong type, a node index out of range, one node given two meanings). Warnings for what
 * the spec forbids but a reader can skip (W_VRMA_IGNORED: an unknown bone, the eyes, look-direction
 * expressions) and for required bones that are absent (W_VRMA_MISSING_BONE).
 */
export function readVrmaExtension(json: JsonObject, sink: DiagnosticSink): VrmaExtension | undefined {
  const errorsBefore = sink.errorCount;
  const ext = isObject(json["extensions"]) ? json["extensions"][VRMA_EXTENSION] : undefined;
  if (ext === undefined) {
    sink.error("E_VRMA_MISSING", "/extensions", `the file has no ${VRMA_EXTENSION} extension: it is a glTF, not a VRM animation (load it with loadGltf)`);
    return undefined;
  }
  if (!isObject(ext)) {
    sink.error("E_VRMA_EXTENSION", at(), `${VRMA_EXTENSION} must be an object`);
    return undefined;
  }
  const nodeCount = Array.isArray(json["nodes"]) ? json["nodes"].length : 0;
  let specVersion = "1.0";
  const version = ext["specVersion"];
  if (version === undefined) {
    sink.warning("W_VRMA_SPEC_VERSION", at("specVersion"), "specVersion is missing; read as 1.0");
  } else if (typeof version !== "string" || !SPEC_VERSIONS.has(version)) {
    sink.error("E_VRMA_SPEC_VERSION", at("specVersion"), `specVersion ${JSON.stringify(version)} is not one animgraph reads (1.0)`);
    return undefined;
  } else {
    specVersion = version;
  }

  // Which pointer first claimed each node: one node cannot be a bone and an expression at once.
  const claimed = new Map<number, string>();
  const readNode = (holder: unknown, pointer: string): number | undefined => {
    if (!isObject(holder)) {
      sink.error("E_VRMA_EXTENSION", pointer, "must be an object with a node index");
      return undefined;
    }
    const node = holder["node"];
    if (typeof node !== "number" || !Number.isInteger(node) || node < 0 || node >= nodeCount) {
      sink.error("E_VRMA_EXTENSION", childPointer(pointer, "node"), `node ${JSON.stringify(node)} is not an index into the file's ${nodeCount} nodes`);
      return undefined;
    }
    const other = claimed.get(node);
    if (other !== undefined) {
      sink.error("E_VRMA_EXTENSION", childPointer(pointer, "node"), `node ${node} is already used by ${other}`);
      return undefined;
    }
    claimed.set(node, pointer);
    return node;
  };
  const objectAt = (value: unknown, pointer: string): JsonObject | undefined => {
    if (value === undefined) return undefined;
    if (isObject(value)) return value;
    sink.error("E_VRMA_EXTENSION", pointer, "must be an object");
    return undefined;
  };

  const humanBones = new Map<VrmHumanBoneName, number>();
  const humanoid = objectAt(ext["humanoid"], at("humanoid"));
  if (humanoid) {
    const bones = objectAt(humanoid["humanBones"], at("humanoid", "humanBones"));
    if (!bones && humanoid["humanBones"] === undefined) sink.error("E_VRMA_EXTENSION", at("humanoid"), "humanoid has no humanBones");
    for (const [name, bone] of Object.entries(bones ?? {})) {
      const pointer = at("humanoid", "humanBones", name);
      if (!isVrmHumanBoneName(name)) {
        sink.warning("W_VRMA_IGNORED", pointer, `"${name}" is not a VRM 1.0 humanoid bone; ignored`);
        continue;
      }
      if (VRMA_FORBIDDEN_BONES.has(name)) {
        sink.warning("W_VRMA_IGNORED", pointer, `a VRM animation may not animate ${name} (look-at does); ignored`);
        continue;
      }
      const node = readNode(bone, pointer);
      if (node !== undefined) humanBones.set(name, node);
    }
    const missing = VRM_REQUIRED_BONES.filter((b) => !humanBones.has(b));
    if (missing.length > 0 && bones) {
      sink.warning("W_VRMA_MISSING_BONE", at("humanoid", "humanBones"), `VRM requires ${missing.join(", ")}; they are not mapped, so they stay at rest when retargeted`);
    }
  }

  const expressions: VrmaExpression[] = [];
  const exprs = objectAt(ext["expressions"], at("expressions"));
  for (const group of ["preset", "custom"] as const) {
    const list = objectAt(exprs?.[group], at("expressions", group));
    for (const [name, def] of Object.entries(list ?? {})) {
      const pointer = at("expressions", group, name);
      const isPreset = VRM_EXPRESSION_PRESETS.has(name);
      if (group === "preset" && !isPreset) {
        sink.warning("W_VRMA_IGNORED", pointer, `"${name}" is not a VRM preset expression; it is read as a custom one`);
      } else if (group === "custom" && isPreset) {
        sink.warning("W_VRMA_IGNORED", pointer, `custom expression "${name}" has a preset's name; it is read as the preset`);
      }
      if (VRMA_FORBIDDEN_EXPRESSIONS.has(name)) {
        sink.warning("W_VRMA_IGNORED", pointer, `a VRM animation may not animate ${name} (look-at does); ignored`);
        continue;
      }
      if (expressions.some((e) => e.name === name)) {
        sink.error("E_VRMA_EXTENSION", pointer, `expression "${name}" is defined twice`);
        continue;
      }
      const node = readNode(def, pointer);
      if (node !== undefined) expressions.push({ name, preset: isPreset, node });
    }
  }

  let lookAt: VrmaLookAt | undefined;
  const look = objectAt(ext["lookAt"], at("lookAt"));
  if (look) {
    const node = look["node"] === undefined ? undefined : readNode(look, at("lookAt"));
    const offset = look["offsetFromHeadBone"];
    let offsetFromHeadBone: [number, number, number] | undefined;
    if (offset !== undefined) {
      if (Array.isArray(offset) && offset.length === 3 && offset.every((x) => typeof x === "number" && Number.isFinite(x))) {
        offsetFromHeadBone = [offset[0] as number, offset[1] as number, offset[2] as number];
      } else {
        sink.error("E_VRMA_EXTENSION", at("lookAt", "offsetFromHeadBone"), "offsetFromHeadBone must be three finite numbers");
      }
    }
    lookAt = { ...(node !== undefined ? { node } : {}), ...(offsetFromHeadBone ? { offsetFromHeadBone } : {}) };
  }

  if (sink.errorCount > errorsBefore) return undefined;
  return { specVersion, humanBones, expressions, ...(lookAt ? { lookAt } : {}) };
}

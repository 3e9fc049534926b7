import { hasErrorsUnchecked, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { expectOptionalObject, expectString } from "../errors/check-argument.ts";
import { toJsonDocument, type JsonInput } from "../json/document-from-value.ts";
import { type JsonDocument, type JsonLimits, type JsonNode } from "../json/index.ts";
import type { GraphSpec, LayerSpec, MaskSpec, MirrorSpec, ParamRef, ParamSpec } from "./graph-spec.ts";
import { readIkLayers } from "./parse-ik.ts";
import { readMachine, readParamRef } from "./parse-machine.ts";
import { SPEC_DEFAULTS } from "./spec-keys.ts";
import { DEFAULT_SPEC_LIMITS, type SpecLimits } from "./spec-limits.ts";
import { SpecReader } from "./spec-reader.ts";

/** Options of `parseGraphSpec`: the size limits a hostile or runaway spec is held to. */
export interface ParseGraphSpecOptions {
  /** Overrides of {@link DEFAULT_SPEC_LIMITS}. */
  readonly limits?: Partial<SpecLimits>;
  /** The name diagnostics give the spec when it is text or an object (a document has its own). Default `<spec>`. */
  readonly file?: string;
  /** Limits on JSON text (size, nesting depth), when the spec is text or an object. */
  readonly json?: JsonLimits;
}

/** The outcome of parsing a graph spec. */
export interface ParseGraphSpecResult {
  /**
   * The spec with every default filled in; undefined when any error was found. Its shape is checked;
   * the names it uses (states, parameters, masks, clips, joints) are checked by `lintGraph`.
   */
  readonly spec?: GraphSpec;
  /** Every problem found, the document's own (syntax, W_BOM, …) first, each with its JSON pointer. */
  readonly diagnostics: Diagnostic[];
}

/** What `readGraphSpec` returns: the parse result plus the JSON document it was parsed from. */
export interface ReadGraphSpecResult extends ParseGraphSpecResult {
  /** The parsed document, to position later diagnostics (lint findings) by line and column. */
  readonly document: JsonDocument;
}

/** True for a spec `parseGraphSpec` built (its collections are Maps), as opposed to the JSON form an app writes. */
export function isGraphSpec(value: unknown): value is GraphSpec {
  if (typeof value !== "object" || value === null) return false;
  const spec = value as Partial<GraphSpec>;
  return spec.version === 1 && typeof spec.file === "string" && spec.parameters instanceof Map && spec.masks instanceof Map && Array.isArray(spec.layers);
}

/**
 * Turns a graph spec into a {@link GraphSpec}, reporting every structural problem at once with its JSON
 * pointer (codes in docs/spec-format.md). The spec may be JSON text, a document from `parseJsonText`
 * (diagnostics then carry line and column), or a plain object built in code or by `JSON.parse`
 * (diagnostics carry the JSON pointer). Never throws on any spec: objects are read through Maps (keys
 * such as `__proto__` are plain data) and sizes are bounded by {@link SpecLimits}. Only a missing spec
 * (`undefined`) or options that are not an object throw AnimgraphError.
 */
export function parseGraphSpec(spec: JsonInput, options: ParseGraphSpecOptions = {}): ParseGraphSpecResult {
  expectOptionalObject("parseGraphSpec", "options", options);
  if (options.file !== undefined) expectString("parseGraphSpec", "options.file", options.file);
  // A spec parsed already comes back as it is, so the call is safe to repeat.
  if (isGraphSpec(spec)) return { spec, diagnostics: [] };
  const doc: JsonDocument = toJsonDocument("parseGraphSpec", "spec", spec, options.file ?? "<spec>", options.json);
  const limits: SpecLimits = { ...DEFAULT_SPEC_LIMITS, ...options.limits };
  // A copy of the document's list, so parsing the same document twice does not duplicate findings.
  const r = new SpecReader({ ...doc, diagnostics: [...doc.diagnostics] }, limits);
  if (!doc.root) return { diagnostics: r.diagnostics };
  const parsed = readRoot(r, doc.root, doc.file);
  return hasErrorsUnchecked(r.diagnostics) ? { diagnostics: r.diagnostics } : { spec: parsed, diagnostics: r.diagnostics };
}


/** Builds the spec; parts that failed hold placeholders, and the caller drops the spec if anything failed. */
function readRoot(r: SpecReader, root: JsonNode, file: string): GraphSpec {
  const obj = r.specObject(root, "root");
  const versionNode = r.member(obj, "animgraph");
  if (versionNode && !(versionNode.kind === "number" && versionNode.integer === 1n)) {
    r.report(versionNode, "E_SPEC_VERSION", `unsupported format version ${versionNode.kind === "number" ? versionNode.raw : "(not a number)"}; this version of animgraph reads "animgraph": 1`);
  }
  r.string(r.optional(obj, "$schema"));
  r.string(r.optional(obj, "description"));
  const nameNode = r.optional(obj, "name");
  const name = nameNode ? (r.name(nameNode) ?? "") : defaultName(file);
  const frameRateNode = r.optional(obj, "frameRate");
  const frameRate = frameRateNode ? (r.numberIn(frameRateNode, 0, 1000, true) ?? SPEC_DEFAULTS.frameRate) : SPEC_DEFAULTS.frameRate;

  const budgetObj = r.specObject(r.optional(obj, "transitionBudget"), "transitionBudget");
  let transitionBudget: GraphSpec["transitionBudget"];
  if (budgetObj) {
    const minFrames = r.integerIn(r.member(budgetObj, "minFrames"), 0, 1_000_000);
    const maxFrames = r.integerIn(r.member(budgetObj, "maxFrames"), 0, 1_000_000);
    if (minFrames !== undefined && maxFrames !== undefined) {
      if (minFrames > maxFrames) r.report(budgetObj, "E_SPEC_RANGE", `minFrames ${minFrames} is greater than maxFrames ${maxFrames}`);
      transitionBudget = { minFrames, maxFrames, pointer: budgetObj.pointer };
    }
  }

  const parameters = new Map<string, ParamSpec>();
  const paramsObj = r.object(r.optional(obj, "parameters"));
  if (paramsObj && r.within("parameters", paramsObj.members.size, r.limits.maxParameters, paramsObj, "parameters")) {
    for (const [key, node] of paramsObj.members) {
      if (!r.checkName(key, node)) continue;
      const p = readParam(r, key, node);
      if (p) parameters.set(key, p);
    }
  }

  const masks = new Map<string, MaskSpec>();
  const masksObj = r.object(r.optional(obj, "masks"));
  if (masksObj && r.within("masks", masksObj.members.size, r.limits.maxMasks, masksObj, "masks")) {
    for (const [key, node] of masksObj.members) {
      if (!r.checkName(key, node)) continue;
      const m = readMask(r, key, node);
      if (m) masks.set(key, m);
    }
  }

  const layers: LayerSpec[] = [];
  const layersArr = r.array(r.member(obj, "layers"));
  if (layersArr) {
    if (layersArr.items.length === 0) r.report(layersArr, "E_SPEC_EMPTY", "a graph needs at least one layer");
    if (r.within("layers", layersArr.items.length, r.limits.maxLayers, layersArr, "layers")) {
      const seen = new Map<string, string>();
      for (const node of layersArr.items) {
        const layer = readLayer(r, node, frameRate);
        if (!layer) continue;
        const first = seen.get(layer.name);
        if (first !== undefined) r.report(node, "E_SPEC_DUPLICATE_NAME", `layer name "${layer.name}" is already used by ${first}`);
        else seen.set(layer.name, layer.pointer);
        layers.push(layer);
      }
    }
  }
  const mirror = readMirror(r, r.optional(obj, "mirror"));
  const ik = readIkLayers(r, r.optional(obj, "ik"));
  return { file, version: 1, name, frameRate, transitionBudget, parameters, masks, layers, ik, ...(mirror ? { mirror } : {}) };
}

/** Most mirror pairs a spec may list: one per joint of the largest skeleton (32,767 joints). */
const MAX_MIRROR_PAIRS = 0x7fff;

/** The graph's mirror settings: `{ "axis": "x", "pairs": [["Hand_A", "Hand_B"]], "detect": true }`. */
function readMirror(r: SpecReader, node: JsonNode | undefined): MirrorSpec | undefined {
  const obj = r.specObject(node, "mirror");
  if (!obj) return undefined;
  const axis = r.enumValue(r.optional(obj, "axis"), "mirrorAxis", SPEC_DEFAULTS.mirrorAxis);
  const detect = r.flag(r.optional(obj, "detect"), true);
  const pairs: [string, string][] = [];
  const pairsArr = r.array(r.optional(obj, "pairs"));
  let ok = axis !== undefined && detect !== undefined && (pairsArr !== undefined || !obj.members.has("pairs"));
  if (pairsArr && r.within("mirror pairs", pairsArr.items.length, MAX_MIRROR_PAIRS, pairsArr, "mirror pairs")) {
    for (const item of pairsArr.items) {
      const pair = r.array(item);
      if (!pair) {
        ok = false;
        continue;
      }
      if (pair.items.length !== 2) {
        r.report(pair, "E_SPEC_ARITY", `a mirror pair names exactly two joints [left, right] (or one joint twice), found ${pair.items.length}`);
        ok = false;
        continue;
      }
      const a = r.name(pair.items[0]);
      const b = r.name(pair.items[1]);
      if (a === undefined || b === undefined) ok = false;
      else pairs.push([a, b]);
    }
  }
  return ok ? { pointer: obj.pointer, axis: axis!, pairs, detect: detect! } : undefined;
}

function defaultName(file: string): string {
  return baseName(file).replace(/(\.animgraph)?\.json$/i, "");
}

function readParam(r: SpecReader, name: string, node: JsonNode): ParamSpec | undefined {
  const obj = r.specObject(node, "parameter");
  if (!obj) return undefined;
  const type = r.enumValue(r.member(obj, "type"), "paramType", "float");
  if (!r.optional(obj, "type") || type === undefined) return undefined;
  const defNode = r.optional(obj, "default");
  const minNode = r.optional(obj, "min");
  const maxNode = r.optional(obj, "max");
  if (type === "bool" || type === "trigger") {
    r.notAllowed(minNode, `"min" applies to float and int parameters, not ${type}`);
    r.notAllowed(maxNode, `"max" applies to float and int parameters, not ${type}`);
    const def = defNode ? r.boolean(defNode) : false;
    if (def === undefined) return undefined;
    if (type === "trigger" && def) {
      r.report(defNode, "E_SPEC_BAD_VALUE", "a trigger starts unset: its default can only be false");
      return undefined;
    }
    return { pointer: node.pointer, name, type, default: def };
  }
  const readNum = (n: JsonNode | undefined): number | undefined =>
    type === "int" ? r.integerIn(n, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) : r.number(n);
  const min = minNode ? readNum(minNode) : undefined;
  const max = maxNode ? readNum(maxNode) : undefined;
  if ((minNode && min === undefined) || (maxNode && max === undefined)) return undefined;
  if (min !== undefined && max !== undefined && min > max) {
    r.report(obj, "E_SPEC_RANGE", `min ${min} is greater than max ${max}`);
    return undefined;
  }
  let def: number;
  if (defNode) {
    const v = readNum(defNode);
    if (v === undefined) return undefined;
    if ((min !== undefined && v < min) || (max !== undefined && v > max)) {
      r.report(defNode, "E_OUT_OF_RANGE", `default ${v} is outside the parameter's range ${min ?? "−∞"}..${max ?? "∞"}`);
      return undefined;
    }
    def = v;
  } else {
    // Documented default: 0, brought into [min, max] (the nearest bound when 0 is outside).
    def = clampDefault(min, max);
  }
  const p: ParamSpec = { pointer: node.pointer, name, type, default: def };
  return { ...p, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}) };
}

/** 0 if it lies in [min, max], else the nearest bound. */
function clampDefault(min: number | undefined, max: number | undefined): number {
  if (min !== undefined && min > 0) return min;
  if (max !== undefined && max < 0) return max;
  return 0;
}

function readMask(r: SpecReader, name: string, node: JsonNode): MaskSpec | undefined {
  const obj = r.specObject(node, "mask");
  if (!obj) return undefined;
  const include = readNames(r, r.member(obj, "include"));
  const excludeNode = r.optional(obj, "exclude");
  const exclude = excludeNode ? readNames(r, excludeNode) : [];
  const weightNode = r.optional(obj, "weight");
  const weight = weightNode ? r.numberIn(weightNode, 0, 1) : SPEC_DEFAULTS.maskWeight;
  if (!include || !exclude || weight === undefined) return undefined;
  return { pointer: node.pointer, name, include, exclude, weight };
}

function readNames(r: SpecReader, node: JsonNode | undefined): string[] | undefined {
  const arr = r.array(node);
  if (!arr) return undefined;
  const out: string[] = [];
  let ok = true;
  for (const item of arr.items) {
    const s = r.name(item);
    if (s === undefined) ok = false;
    else out.push(s);
  }
  return ok ? out : undefined;
}

function readLayer(r: SpecReader, node: JsonNode, frameRate: number): LayerSpec | undefined {
  const obj = r.specObject(node, "layer");
  if (!obj) return undefined;
  const name = r.name(r.member(obj, "name"));
  const weightNode = r.optional(obj, "weight");
  const weight = weightNode ? readWeightOrParam(r, weightNode) : SPEC_DEFAULTS.layerWeight;
  const mode = r.enumValue(r.optional(obj, "mode"), "layerMode", SPEC_DEFAULTS.layerMode);
  const maskNode = r.optional(obj, "mask");
  const mask = maskNode ? r.name(maskNode) : undefined;
  const machine = readMachine(r, r.member(obj, "machine"), 1, frameRate);
  if (name === undefined || weight === undefined || mode === undefined || (maskNode && mask === undefined) || !machine) return undefined;
  return { pointer: node.pointer, name, weight, mode, ...(mask !== undefined ? { mask } : {}), machine };
}

/** A weight 0..1 or `{ "param": name }`. */
function readWeightOrParam(r: SpecReader, node: JsonNode): number | ParamRef | undefined {
  if (node.kind === "object") return readParamRef(r, node);
  return r.numberIn(node, 0, 1);
}


/** The last path segment (either separator), without node:path so the parser also runs in browsers. */
function baseName(file: string): string {
  return file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
}

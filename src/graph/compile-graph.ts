import { compileBlendSpace2DUnchecked } from "../blend-space/compile-blend-space-2d.ts";
import { childPointer, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { createRootMotionExtractorUnchecked } from "../root-motion/root-motion.ts";
import { additiveClip } from "../clip/additive-clip.ts";
import { descendantsOf, type Skeleton } from "../skeleton/skeleton.ts";
import type {
  CompareOp, GraphSpec, MachineSpec, MotionSpec, ParamRef, ParamType, StateSpec,
} from "../spec/graph-spec.ts";
import {
  BLEND, INTERRUPT, OP,
  type CompiledCondition, type CompiledGraph, type CompiledLayer, type CompiledMachine, type CompiledMotion,
  type CompiledParam, type CompiledState, type CompiledTransition, type ResolvedRuntimeOptions, type RuntimeOptions,
} from "./compiled-graph.ts";
import { compileIkLayers } from "./ik-layers.ts";
import { isProceduralClipUnchecked, type MotionSource } from "./motion-source.ts";
import { appendAll } from "../diagnostics/append-all.ts";
import { conditionTypeError } from "../lint/condition-domain.ts";
import { lintGraph } from "../lint/lint-graph.ts";
import { compileMirrorMap, type MirrorMap } from "../mirror/mirror-map.ts";
import { mirrorClipWithMap } from "../mirror/mirror-clip.ts";
import { mirrorProceduralClip } from "../mirror/mirror-procedural-clip.ts";
import { argumentError, expectOneOf, expectOptionalObject, expectSkeleton, rangeError } from "../errors/check-argument.ts";
import { locateDiagnosticsUnchecked } from "../spec/locate-pointer.ts";
import { resolveGraphSpec, type GraphSpecInput } from "../spec/resolve-graph-spec.ts";

/** What `compileGraph` returns: the compiled graph (when nothing is an error) and every finding. */
export interface CompileGraphResult {
  /** The compiled graph, absent when any diagnostic is an error. */
  readonly graph?: CompiledGraph;
  /** Compile errors and the linter's findings, each at its JSON pointer in the spec. */
  readonly diagnostics: Diagnostic[];
}

const OPS: Record<CompareOp, number> = { ">": OP.gt, ">=": OP.ge, "<": OP.lt, "<=": OP.le, "==": OP.eq, "!=": OP.ne };

/** Resolves runtime options to their defaults; throws on out-of-range values (a programmer error). */
export function resolveRuntimeOptions(options: RuntimeOptions = {}): ResolvedRuntimeOptions {
  const fn = "resolveRuntimeOptions";
  expectOptionalObject(fn, "options", options);
  if (options.deterministic !== undefined && typeof options.deterministic !== "boolean") throw argumentError(fn, "options.deterministic", "a boolean", options.deterministic);
  if (options.sourceTime !== undefined) expectOneOf(fn, "options.sourceTime", options.sourceTime, ["advance", "freeze"]);
  if (options.targetTime !== undefined) expectOneOf(fn, "options.targetTime", options.targetTime, ["reset", "resume"]);
  if (options.interruptMode !== undefined) expectOneOf(fn, "options.interruptMode", options.interruptMode, ["stack", "cut"]);
  if (options.additiveReference !== undefined) expectOneOf(fn, "options.additiveReference", options.additiveReference, ["firstFrame", "rest"]);
  const deterministic = options.deterministic ?? false;
  const resolved: ResolvedRuntimeOptions = {
    deterministic,
    quatMode: deterministic ? "fastSlerp" : "slerp",
    sourceTime: options.sourceTime ?? "advance",
    targetTime: options.targetTime ?? "reset",
    interruptMode: options.interruptMode ?? "stack",
    maxStackDepth: options.maxStackDepth ?? 8,
    maxSubstep: options.maxSubstep ?? 0.1,
    maxSubsteps: options.maxSubsteps ?? 16,
    maxChain: options.maxChain ?? 8,
    eventCapacity: options.eventCapacity ?? 256,
    additiveReference: options.additiveReference ?? "firstFrame",
  };
  // Upper bounds keep a typo from allocating gigabytes (stack entries, events) or looping for ever.
  const intOk = (v: number, min: number, max: number): boolean => Number.isInteger(v) && v >= min && v <= max;
  if (!intOk(resolved.maxStackDepth, 1, 1024)) throw rangeError(fn, "options.maxStackDepth", "an integer in [1, 1024]", resolved.maxStackDepth);
  if (!intOk(resolved.maxSubsteps, 1, 1_000_000)) throw rangeError(fn, "options.maxSubsteps", "an integer in [1, 1000000]", resolved.maxSubsteps);
  if (!intOk(resolved.maxChain, 1, 1_000_000)) throw rangeError(fn, "options.maxChain", "an integer in [1, 1000000]", resolved.maxChain);
  if (!intOk(resolved.eventCapacity, 1, 1 << 24)) throw rangeError(fn, "options.eventCapacity", "an integer in [1, 16777216]", resolved.eventCapacity);
  if (!(typeof resolved.maxSubstep === "number" && resolved.maxSubstep > 0 && Number.isFinite(resolved.maxSubstep))) throw rangeError(fn, "options.maxSubstep", "a finite number of seconds > 0", resolved.maxSubstep);
  return Object.freeze(resolved);
}

/**
 * Compiles a validated GraphSpec against a skeleton and its clips: every name (parameter, state, clip,
 * mask joint) becomes an index, masks become per-joint Float32Arrays, 2D blend spaces are triangulated
 * (freeform) or indexed (grid), and each state gets its transition table in priority order. Never
 * throws on user data; problems come back as diagnostics (codes in docs/runtime.md) and no graph.
 * `clips` may be an array (keyed by clip name) or a Map from name to a Clip or a ProceduralClip.
 *
 * Every error the linter finds refuses the graph too (instant cycles, budgets, contradictory
 * conditions …), so a lint-clean graph always compiles and a graph that compiles is lint-clean.
 */
export function compileGraph(
  spec: GraphSpecInput,
  skeleton: Skeleton,
  clips: readonly MotionSource[] | ReadonlyMap<string, MotionSource>,
  options: RuntimeOptions = {},
): CompileGraphResult {
  return compileInput("compileGraph", spec, skeleton, clips, options, lintGraph);
}

/**
 * `compileGraph` without the linter's authoring rules, for a spec your build has already linted
 * (`animgraph lint` in CI): it leaves the linter out of a browser bundle (about 14 kB minified).
 * Everything the runtime relies on is still checked (names, types, ranges, masks, blend spaces);
 * what it skips are findings about the graph's design (an instant cycle still cannot hang a step:
 * `maxChain` bounds it).
 */
export function compileLintedGraph(
  spec: GraphSpecInput,
  skeleton: Skeleton,
  clips: readonly MotionSource[] | ReadonlyMap<string, MotionSource>,
  options: RuntimeOptions = {},
): CompileGraphResult {
  return compileInput("compileLintedGraph", spec, skeleton, clips, options, undefined);
}

/**
 * The checks and the spec forms both entries share: a spec that is text, a document or a plain object
 * is parsed first (its problems are the result's diagnostics, with line and column for text); a wrong
 * skeleton, clip list or options object throws AnimgraphError.
 */
function compileInput(
  fn: string,
  input: GraphSpecInput,
  skeleton: Skeleton,
  clips: readonly MotionSource[] | ReadonlyMap<string, MotionSource>,
  options: RuntimeOptions,
  lint: typeof lintGraph | undefined,
): CompileGraphResult {
  expectSkeleton(fn, "skeleton", skeleton);
  if (!Array.isArray(clips) && !(clips instanceof Map)) throw argumentError(fn, "clips", "an array of clips or a Map from name to clip", clips);
  for (const clip of clips instanceof Map ? clips.values() : clips) {
    const c = clip as Partial<MotionSource> | null;
    if (typeof c !== "object" || c === null || typeof c.name !== "string" || typeof c.duration !== "number") {
      throw argumentError(fn, "clips", "clips (from createClip, a loader or createProceduralClip)", clip);
    }
  }
  expectOptionalObject(fn, "options", options);
  const resolved = resolveGraphSpec(fn, "spec", input);
  if (!resolved.spec) return { diagnostics: resolved.diagnostics };
  const result = compile(resolved.spec, skeleton, clips, options, lint);
  if (!resolved.document) return result;
  // Parsed here from text or an object: its findings get the document's positions.
  const diagnostics = [...resolved.diagnostics, ...locateDiagnosticsUnchecked(resolved.document, result.diagnostics)];
  return result.graph ? { graph: result.graph, diagnostics } : { diagnostics };
}

function compile(
  spec: GraphSpec,
  skeleton: Skeleton,
  clips: readonly MotionSource[] | ReadonlyMap<string, MotionSource>,
  options: RuntimeOptions,
  lint: typeof lintGraph | undefined,
): CompileGraphResult {
  const file = spec.file;
  const graphSpec = spec;
  const diagnostics: Diagnostic[] = [];
  const error = (code: string, pointer: string, message: string): void => {
    diagnostics.push({ code, severity: "error", file, pointer, message });
  };
  const resolvedOptions = resolveRuntimeOptions(options);

  const clipMap = new Map<string, MotionSource>();
  if (clips instanceof Map) for (const [name, clip] of clips) clipMap.set(name, clip);
  else for (const clip of clips as readonly MotionSource[]) if (!clipMap.has(clip.name)) clipMap.set(clip.name, clip);
  const sourceList: MotionSource[] = [];
  const sourceIds = new Map<MotionSource, number>();
  // Clips played by additive layers are converted once into delta clips (makeAdditiveClip).
  const additiveOf = new Map<MotionSource, MotionSource>();
  let inAdditiveLayer = false;
  // Clips marked `mirror` are mirrored once, at compile time, into clips of their own (src/mirror), so
  // playing one costs what playing any clip does. The map is made on first use.
  let mirrorMap: MirrorMap | null | undefined;
  const mirrorOf = new Map<MotionSource, MotionSource>();
  const mirrorSource = (source: MotionSource, name: string, pointer: string): MotionSource | null => {
    if (mirrorMap === undefined) {
      const settings = spec.mirror;
      const r = compileMirrorMap(skeleton, {
        ...(settings?.axis ? { axis: settings.axis } : {}), pairs: settings?.pairs ?? [], detect: settings?.detect ?? true,
        file, pairsFile: file, pairsPointer: settings ? childPointer(settings.pointer, "pairs") : "/mirror/pairs",
      });
      // Findings about the skeleton's names are placed at the first `mirror` flag that needs them.
      for (const d of r.diagnostics) diagnostics.push(d.pointer === "" ? { ...d, pointer } : d);
      mirrorMap = r.map ?? null;
    }
    if (!mirrorMap) return null;
    const done = mirrorOf.get(source);
    if (done) return done;
    let mirrored: MotionSource;
    if (isProceduralClipUnchecked(source)) mirrored = mirrorProceduralClip(source, mirrorMap);
    else if (source.skeleton.names.some((n, j) => n !== skeleton.names[j])) {
      error("E_CLIP_SKELETON", pointer, `clip "${name}" is bound to a skeleton whose joint names differ from the graph's; a mirrored clip must use the graph's joints`);
      return null;
    } else mirrored = mirrorClipWithMap(source, mirrorMap, `${source.name} (mirrored)`);
    mirrorOf.set(source, mirrored);
    return mirrored;
  };
  const resolveClip = (name: string, pointer: string, mirror = false, mirrorPointer?: string): { source: MotionSource; index: number } | null => {
    let source = clipMap.get(name);
    if (!source) {
      error("E_UNKNOWN_CLIP", pointer, `unknown clip "${name}"`);
      return null;
    }
    if (!isProceduralClipUnchecked(source) && source.skeleton !== skeleton && source.skeleton.jointCount !== skeleton.jointCount) {
      error("E_CLIP_SKELETON", pointer, `clip "${name}" is bound to a skeleton with ${source.skeleton.jointCount} joints, not ${skeleton.jointCount}`);
      return null;
    }
    if (mirror) {
      const m = mirrorSource(source, name, mirrorPointer ?? pointer);
      if (!m) return null;
      source = m;
    }
    if (inAdditiveLayer && !isProceduralClipUnchecked(source)) {
      const original = source;
      source = additiveOf.get(original) ?? additiveClip(original, resolvedOptions.additiveReference === "rest" ? { kind: "rest" } : { kind: "firstFrame" }, `${original.name}+additive`);
      additiveOf.set(original, source);
    }
    let index = sourceIds.get(source);
    if (index === undefined) {
      index = sourceList.length;
      sourceList.push(source);
      sourceIds.set(source, index);
    }
    return { source, index };
  };

  // Parameters.
  const params: CompiledParam[] = [];
  const paramIndex = new Map<string, number>();
  for (const p of spec.parameters.values()) {
    const def = typeof p.default === "boolean" ? (p.default ? 1 : 0) : p.default;
    paramIndex.set(p.name, params.length);
    params.push({ name: p.name, type: p.type, slot: params.length, default: p.type === "trigger" ? 0 : def });
  }
  const paramSlot = (name: string, pointer: string, allowed: readonly ParamType[], what: string): number => {
    const slot = paramIndex.get(name);
    if (slot === undefined) {
      error("E_UNKNOWN_PARAM", pointer, `unknown parameter "${name}"`);
      return -1;
    }
    const type = params[slot]!.type;
    if (!allowed.includes(type)) {
      error("E_PARAM_TYPE", pointer, `${what} needs a ${allowed.join(" or ")} parameter; "${name}" is a ${type}`);
      return -1;
    }
    return slot;
  };
  const numberOrParam = (v: number | ParamRef, pointer: string, what: string): { value: number; slot: number } => {
    if (typeof v === "number") return { value: v, slot: -1 };
    return { value: 1, slot: paramSlot(v.param, pointer, ["float", "int"], what) };
  };

  // Masks.
  const maskArrays = new Map<string, Float32Array>();
  for (const m of spec.masks.values()) {
    const arr = new Float32Array(skeleton.jointCount);
    const mark = (names: readonly string[], listName: string, value: number): void => {
      names.forEach((jointName, i) => {
        const j = skeleton.indexOf.get(jointName);
        if (j === undefined) {
          error("E_UNKNOWN_JOINT", childPointer(childPointer(m.pointer, listName), i), `mask "${m.name}": the skeleton has no joint "${jointName}"`);
          return;
        }
        for (const d of descendantsOf(skeleton, j)) arr[d] = value;
      });
    };
    mark(m.include, "include", m.weight);
    mark(m.exclude, "exclude", 0);
    maskArrays.set(m.name, arr);
  }

  const groupIds = new Map<string, number>();
  const machines: CompiledMachine[] = [];

  const compileMotion = (motion: MotionSpec, path: string, depth: number): CompiledMotion | null => {
    switch (motion.kind) {
      case "clip": {
        const c = resolveClip(motion.clip, motion.pointer, motion.mirror === true, childPointer(motion.pointer.slice(0, motion.pointer.lastIndexOf("/")), "mirror"));
        return c ? { kind: "clip", source: c.source, sourceIndex: c.index, ...(motion.mirror === true ? { mirrored: true } : {}) } : null;
      }
      case "blend1d": {
        const slot = paramSlot(motion.param, childPointer(motion.pointer, "param"), ["float", "int"], "a 1D blend");
        const sources: MotionSource[] = [];
        const indices: number[] = [];
        const positions = new Float64Array(motion.children.length);
        motion.children.forEach((child, i) => {
          positions[i] = child.at;
          const c = resolveClip(child.clip, childPointer(child.pointer, "clip"), child.mirror === true, childPointer(child.pointer, "mirror"));
          if (c) {
            sources.push(c.source);
            indices.push(c.index);
          }
        });
        if (motion.children.length === 0) error("E_BLEND_EMPTY", motion.pointer, "a 1D blend needs at least one child");
        if (slot < 0 || sources.length !== motion.children.length || sources.length === 0) return null;
        return {
          kind: "blend1d", slot, weighting: motion.weighting, sync: motion.sync, positions, sources,
          sourceIndices: Int32Array.from(indices), durations: Float64Array.from(sources, (c) => c.duration),
        };
      }
      case "blend2d": {
        const slotX = paramSlot(motion.params[0], childPointer(childPointer(motion.pointer, "params"), 0), ["float", "int"], "a 2D blend");
        const slotY = paramSlot(motion.params[1], childPointer(childPointer(motion.pointer, "params"), 1), ["float", "int"], "a 2D blend");
        const sources: MotionSource[] = [];
        const indices: number[] = [];
        for (const s of motion.samples) {
          const c = resolveClip(s.clip, childPointer(s.pointer, "clip"), s.mirror === true, childPointer(s.pointer, "mirror"));
          if (c) {
            sources.push(c.source);
            indices.push(c.index);
          }
        }
        if (slotX < 0 || slotY < 0 || sources.length !== motion.samples.length) return null;
        const samplesPointer = childPointer(motion.pointer, "samples");
        if (motion.mode === "freeform") {
          const r = compileBlendSpace2DUnchecked(motion.samples, { file, pointer: samplesPointer });
          appendAll(diagnostics, r.diagnostics);
          if (!r.compiled) return null;
          return { kind: "blend2d", slotX, slotY, mode: "freeform", sync: motion.sync, sources, sourceIndices: Int32Array.from(indices), durations: Float64Array.from(sources, (c) => c.duration), space: r.compiled, grid: null };
        }
        const xs = [...new Set(motion.samples.map((s) => s.x))].sort((a, b) => a - b);
        const ys = [...new Set(motion.samples.map((s) => s.y))].sort((a, b) => a - b);
        const cellSample = new Int32Array(xs.length * ys.length).fill(-1);
        let ok = true;
        motion.samples.forEach((s, i) => {
          const cell = ys.indexOf(s.y) * xs.length + xs.indexOf(s.x);
          if (cellSample[cell] !== -1) {
            error("E_BLEND_DUPLICATE_SAMPLE", childPointer(samplesPointer, i), `grid sample ${i} at (${s.x}, ${s.y}) duplicates sample ${cellSample[cell]}`);
            ok = false;
          } else cellSample[cell] = i;
        });
        if (ok && cellSample.includes(-1)) {
          error("E_BLEND_GRID_INCOMPLETE", samplesPointer, `a grid blend needs one sample at every (x, y) of its ${xs.length} × ${ys.length} grid; ${cellSample.filter((c) => c === -1).length} missing`);
          ok = false;
        }
        if (!ok) return null;
        return {
          kind: "blend2d", slotX, slotY, mode: "grid", sync: motion.sync, sources, sourceIndices: Int32Array.from(indices),
          durations: Float64Array.from(sources, (c) => c.duration), space: null,
          grid: { xs: Float64Array.from(xs), ys: Float64Array.from(ys), cellSample },
        };
      }
      case "machine": {
        const m = compileMachine(motion.machine, path, depth + 1);
        return m ? { kind: "machine", machine: m } : null;
      }
    }
  };

  const compileState = (s: StateSpec, index: number, path: string, depth: number): CompiledState | null => {
    const motion = compileMotion(s.motion, `${path}/${s.name}`, depth);
    const speed = numberOrParam(s.speed, childPointer(s.pointer, "speed"), "a state speed");
    let syncGroup = -1;
    if (s.syncGroup !== undefined) {
      syncGroup = groupIds.get(s.syncGroup) ?? groupIds.size;
      groupIds.set(s.syncGroup, syncGroup);
    }
    if (!motion) return null;
    const loop = s.loop ?? (motion.kind === "clip" ? motion.source.loopMode : "loop");
    const events = [...s.events].sort((a, b) => a.time - b.time).map((e) => Object.freeze({ name: e.name, time: e.time }));
    return Object.freeze({
      index, name: s.name, pointer: s.pointer, motion, speed: speed.value, speedSlot: speed.slot, loop,
      events: Object.freeze(events), final: s.final, syncGroup,
    });
  };

  const compileMachine = (spec: MachineSpec, path: string, depth: number): CompiledMachine | null => {
    const id = machines.length;
    machines.push(null as unknown as CompiledMachine); // reserve the id: nested machines come after
    const stateIndex = new Map<string, number>();
    for (const name of spec.states.keys()) stateIndex.set(name, stateIndex.size);
    const states: (CompiledState | null)[] = [];
    for (const s of spec.states.values()) states.push(compileState(s, states.length, path, depth));
    const entry = stateIndex.get(spec.entry);
    if (entry === undefined) error("E_UNKNOWN_STATE", childPointer(spec.pointer, "entry"), `entry state "${spec.entry}" is not a state of this machine`);
    const transitions: CompiledTransition[] = [];
    let ok = entry !== undefined && states.every((s) => s !== null);
    spec.transitions.forEach((t) => {
      const from = t.from === "*" ? -1 : stateIndex.get(t.from);
      const to = stateIndex.get(t.to);
      if (from === undefined) error("E_UNKNOWN_STATE", childPointer(t.pointer, "from"), `unknown state "${t.from}"`);
      if (to === undefined) error("E_UNKNOWN_STATE", childPointer(t.pointer, "to"), `unknown state "${t.to}"`);
      const conditions: CompiledCondition[] = [];
      const triggers: number[] = [];
      t.conditions.forEach((c) => {
        const slot = paramIndex.get(c.param);
        if (slot === undefined) {
          error("E_UNKNOWN_PARAM", childPointer(c.pointer, "param"), `unknown parameter "${c.param}"`);
          return;
        }
        const type = params[slot]!.type;
        // The linter's rule, with its code: one check for both (a trigger compared with false included).
        const problem = conditionTypeError(c, graphSpec.parameters.get(c.param)!);
        if (problem) {
          error("E_CONDITION_TYPE", c.pointer, problem);
          return;
        }
        if (type === "trigger") triggers.push(slot);
        conditions.push({ slot, type, op: OPS[c.op], value: typeof c.value === "boolean" ? (c.value ? 1 : 0) : c.value });
      });
      if (from === undefined || to === undefined) {
        ok = false;
        return;
      }
      transitions.push(Object.freeze({
        index: transitions.length, pointer: t.pointer, from, to, conditions: Object.freeze(conditions),
        triggerSlots: Int32Array.from(triggers), duration: Math.max(0, t.duration), curve: t.curve,
        blend: BLEND[t.blend ?? "crossfade"], blendName: t.blend ?? "crossfade",
        exitTime: t.exitTime ?? -1, offset: t.offset, interruption: INTERRUPT[t.interruption.source],
        interruptionName: t.interruption.source, freeze: t.interruption.freeze, canTransitionToSelf: t.canTransitionToSelf,
      }));
    });
    if (!ok) return null;
    const outgoing = states.map((_, s) => Int32Array.from(transitions.filter((t) => t.from === s || (t.from === -1 && (t.to !== s || t.canTransitionToSelf))).map((t) => t.index)));
    const machine: CompiledMachine = Object.freeze({
      id, path, pointer: spec.pointer, entry: entry!, states: Object.freeze(states as CompiledState[]), stateIndex,
      transitions: Object.freeze(transitions), outgoing: Object.freeze(outgoing), depth,
      inertial: transitions.some((t) => t.blend !== BLEND.crossfade && t.duration > 0),
    });
    machines[id] = machine;
    return machine;
  };

  const layers: CompiledLayer[] = [];
  spec.layers.forEach((l, i) => {
    const w = numberOrParam(l.weight, childPointer(l.pointer, "weight"), "a layer weight");
    let mask: Float32Array | null = null;
    if (l.mask !== undefined) {
      mask = maskArrays.get(l.mask) ?? null;
      if (!mask) error("E_UNKNOWN_MASK", childPointer(l.pointer, "mask"), `unknown mask "${l.mask}"`);
    }
    inAdditiveLayer = l.mode === "additive";
    const machine = compileMachine(l.machine, l.name, 0);
    inAdditiveLayer = false;
    if (machine) layers.push(Object.freeze({ index: i, name: l.name, mode: l.mode, weight: w.value, weightSlot: w.slot, mask, machine }));
  });
  if (spec.layers.length === 0) error("E_NO_LAYERS", "/layers", "the graph has no layers");
  const ik = compileIkLayers(spec.ik ?? [], skeleton, (ref, pointer, what) => paramSlot(ref.param, pointer, ["float", "int"], what), error,
    (code, pointer, message) => diagnostics.push({ code, severity: "info", file, pointer, message }));

  let rootJoint = -1;
  const rm = options.rootMotion ?? null;
  if (rm === "auto") {
    rootJoint = autoRootJoint(skeleton, sourceList);
  } else if (rm !== null) {
    rootJoint = skeleton.indexOf.get(rm) ?? -1;
    if (rootJoint < 0) error("E_UNKNOWN_JOINT", "", `root motion joint "${rm}" is not in the skeleton`);
  }

  // One set of rules: every error the linter finds (zero-duration cycles that can loop, budgets,
  // mistyped conditions …) refuses the graph here too. The chain bound (maxChain) stays the runtime's
  // own guard.
  if (lint) {
    const seen = new Set(diagnostics.map((d) => `${d.code} ${d.pointer}`));
    const clipInfo = [...clipMap].map(([name, c]) => ({ name, duration: c.duration, ...(isProceduralClipUnchecked(c) ? {} : { loop: c.loopMode }) }));
    for (const d of lint(spec, { clips: clipInfo, joints: skeleton.names })) {
      if (d.severity === "error" && !seen.has(`${d.code} ${d.pointer}`)) diagnostics.push(d);
    }
  }
  if (diagnostics.some((d) => d.severity === "error")) return { diagnostics };
  const additiveClips = new Set(additiveOf.values());
  const graph: CompiledGraph = Object.freeze({
    name: spec.name, file, skeleton, params: Object.freeze(params), paramIndex, layers: Object.freeze(layers),
    machines: Object.freeze(machines), options: resolvedOptions, rootJoint,
    hasProcedural: sourceList.some(isProceduralClipUnchecked),
    ik: Object.freeze(ik),
    rootExtractors: new Map(rootJoint < 0 ? [] : sourceList.flatMap((src) => (isProceduralClipUnchecked(src) || additiveClips.has(src) ? [] : [[src, createRootMotionExtractorUnchecked(src, rootJoint)] as const]))),
  });
  return { graph, diagnostics };
}

/**
 * The root-motion joint for "auto": the lowest-index joint whose translation track moves (its keys span
 * more than 1e-6 units) in some keyframed clip; else the lowest-index joint with any translation track;
 * else -1.
 */
function autoRootJoint(skeleton: Skeleton, sources: readonly MotionSource[]): number {
  let moving = -1;
  let any = -1;
  for (const s of sources) {
    if (isProceduralClipUnchecked(s)) continue;
    for (const track of s.tracks) {
      if (track.path !== "translation") continue;
      const j = track.joint;
      if (any < 0 || j < any) any = j;
      if ((moving < 0 || j < moving) && translationMoves(track.values, track.interpolation === "CUBICSPLINE")) moving = j;
    }
  }
  return moving >= 0 ? moving : any;
}

function translationMoves(values: Float32Array, cubic: boolean): boolean {
  const stride = cubic ? 9 : 3;
  const o = cubic ? 3 : 0;
  for (let k = stride; k + o + 2 < values.length; k += stride) {
    for (let c = 0; c < 3; c++) if (Math.abs(values[k + o + c]! - values[o + c]!) > 1e-6) return true;
  }
  return false;
}

import type { Clip } from "../clip/clip.ts";
import { compareDiagnosticsUnchecked, hasErrorsUnchecked, type Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, expectInteger, expectOptionalObject, expectSkeleton, invalidValue } from "../errors/check-argument.ts";
import { compileLintedGraph } from "../graph/compile-graph.ts";
import type { CompiledGraph, RuntimeOptions } from "../graph/compiled-graph.ts";
import { createInstance, type GraphInstance } from "../graph/graph-instance.ts";
import { isProceduralClipUnchecked, type MotionSource } from "../graph/motion-source.ts";
import { lintGraph } from "../lint/lint-graph.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { resolveGraphSpec, type GraphSpecInput } from "../spec/resolve-graph-spec.ts";

/**
 * A character as the loaders give it: `loadGltf`/`loadGltfFile`/`fromThreeGltf` (skeletons and clips),
 * `loadBvh` (a skeleton and one clip), or one assembled in code (a skeleton and its clips, keyframed or
 * procedural). A loader's `diagnostics` travel into the animator's.
 */
export type AnimatorCharacter =
  | { readonly skeletons: readonly Skeleton[]; readonly clips: readonly Clip[]; readonly diagnostics?: readonly Diagnostic[] }
  | { readonly skeleton?: Skeleton; readonly clip?: Clip; readonly diagnostics?: readonly Diagnostic[] }
  | { readonly skeleton: Skeleton; readonly clips: readonly MotionSource[] | ReadonlyMap<string, MotionSource>; readonly diagnostics?: readonly Diagnostic[] };

/** Options of `createAnimator`. */
export interface CreateAnimatorOptions {
  /** The name diagnostics give a spec passed as text or an object. Default `<spec>`. */
  readonly file?: string;
  /** Which of the character's skeletons the graph animates, when it has several (glTF). Default 0. */
  readonly skeleton?: number;
  /** Run the linter's authoring checks too (default true); false compiles as `compileLintedGraph` and leaves the linter's findings out. */
  readonly lint?: boolean;
  /** Runtime options of the compiled graph (deterministic mode, sub-steps, …). */
  readonly runtime?: RuntimeOptions;
}

/** What `createAnimator` returns: a running instance, or the reasons there is none. */
export interface Animator {
  /** True when nothing is an error: `graph` and `instance` are there. Warnings may still be in `diagnostics`. */
  readonly ok: boolean;
  /** The compiled graph; absent when any diagnostic is an error. */
  readonly graph?: CompiledGraph;
  /** A character's runtime state, parameters at their defaults; absent when any diagnostic is an error. */
  readonly instance?: GraphInstance;
  /** The skeleton the graph animates (for `localToModel`, a binding); absent when the character has none. */
  readonly skeleton?: Skeleton;
  /** Everything found, in source order: the character's load problems, the spec's, compile errors and lint findings. */
  readonly diagnostics: Diagnostic[];
}

/**
 * One call from a graph spec and a character to a running instance: parses the spec (JSON text, a
 * parsed document, a plain object built in code, or a `GraphSpec`), compiles and lints it against the
 * character's skeleton and clips, and creates an instance. Every problem in the spec or the character's
 * file is returned in `diagnostics`, never thrown; only arguments of the wrong type (no spec, a number
 * for the character, options that are not an object) throw AnimgraphError. Then, per frame,
 * `step(graph, instance, dt)`.
 */
export function createAnimator(spec: GraphSpecInput, character: AnimatorCharacter, options: CreateAnimatorOptions = {}): Animator {
  const fn = "createAnimator";
  expectOptionalObject(fn, "options", options);
  if (options.file !== undefined && typeof options.file !== "string") throw argumentError(fn, "options.file", "a string", options.file);
  if (options.skeleton !== undefined) expectInteger(fn, "options.skeleton", options.skeleton);
  if (options.lint !== undefined && typeof options.lint !== "boolean") throw argumentError(fn, "options.lint", "a boolean", options.lint);
  expectOptionalObject(fn, "options.runtime", options.runtime);
  const { skeleton, clips, diagnostics: loadDiagnostics } = characterParts(fn, character, options.skeleton ?? 0);
  const parsed = resolveGraphSpec(fn, "spec", spec, options.file === undefined ? {} : { file: options.file });
  const diagnostics = [...loadDiagnostics, ...parsed.diagnostics];
  if (!parsed.spec || !skeleton || hasErrorsUnchecked(loadDiagnostics)) {
    if (!skeleton && !hasErrorsUnchecked(diagnostics)) {
      diagnostics.push({ code: "E_NO_SKELETON", severity: "error", file: options.file ?? "<character>", pointer: "", message: "the character has no skeleton to animate" });
    }
    return { ok: false, ...(skeleton ? { skeleton } : {}), diagnostics: diagnostics.sort(compareDiagnosticsUnchecked) };
  }
  // The spec's text or object goes in as it came, so findings get its line and column. compileGraph
  // keeps only the linter's errors; an animator returns its warnings too, so it lints on its own.
  const source = parsed.document ?? parsed.spec;
  const compiled = compileLintedGraph(source, skeleton, clips, options.runtime ?? {});
  const all = [...loadDiagnostics, ...compiled.diagnostics];
  if (options.lint !== false) {
    const seen = new Set(compiled.diagnostics.map((d) => `${d.code} ${d.pointer}`));
    const clipInfo = [...(clips instanceof Map ? clips.entries() : (clips as readonly MotionSource[]).map((c) => [c.name, c] as const))]
      .map(([name, c]) => ({ name, duration: c.duration, ...(isProceduralClipUnchecked(c) ? {} : { loop: c.loopMode }) }));
    for (const d of lintGraph(source, { clips: clipInfo, joints: skeleton.names })) if (!seen.has(`${d.code} ${d.pointer}`)) all.push(d);
  }
  all.sort(compareDiagnosticsUnchecked);
  if (!compiled.graph || hasErrorsUnchecked(all)) return { ok: false, skeleton, diagnostics: all };
  return { ok: true, graph: compiled.graph, instance: createInstance(compiled.graph), skeleton, diagnostics: all };
}

/** The skeleton, the clips bound to it and the load diagnostics of any character form. */
function characterParts(fn: string, character: unknown, index: number): {
  skeleton: Skeleton | undefined; clips: readonly MotionSource[] | ReadonlyMap<string, MotionSource>; diagnostics: readonly Diagnostic[];
} {
  const expected = "a character from loadGltf, fromThreeGltf or loadBvh, or { skeleton, clips }";
  if (typeof character !== "object" || character === null || Array.isArray(character)) throw argumentError(fn, "character", expected, character);
  const c = character as { skeletons?: unknown; skeleton?: unknown; clips?: unknown; clip?: unknown; diagnostics?: unknown };
  const diagnostics = Array.isArray(c.diagnostics) ? (c.diagnostics as Diagnostic[]) : [];
  if (c.diagnostics !== undefined && !Array.isArray(c.diagnostics)) throw argumentError(fn, "character.diagnostics", "an array of diagnostics", c.diagnostics);
  if (Array.isArray(c.skeletons)) {
    // A glTF character: one skeleton of several, and the clips bound to it.
    if (c.skeletons.length === 0) return { skeleton: undefined, clips: [], diagnostics };
    if (index >= c.skeletons.length) throw invalidValue(fn, "options.skeleton", `the character has ${c.skeletons.length} skeleton(s); there is no skeleton ${index}`);
    const skeleton = c.skeletons[index] as Skeleton;
    expectSkeleton(fn, `character.skeletons[${index}]`, skeleton);
    if (!Array.isArray(c.clips)) throw argumentError(fn, "character.clips", "an array of clips", c.clips);
    return { skeleton, clips: (c.clips as Clip[]).filter((clip) => clip?.skeleton === skeleton), diagnostics };
  }
  if (c.skeleton === undefined && c.clips === undefined && c.clip === undefined && !Array.isArray(c.diagnostics)) {
    throw argumentError(fn, "character", expected, character);
  }
  if (c.skeleton === undefined) return { skeleton: undefined, clips: [], diagnostics };
  expectSkeleton(fn, "character.skeleton", c.skeleton);
  const skeleton = c.skeleton as Skeleton;
  if (c.clips !== undefined) {
    if (!Array.isArray(c.clips) && !(c.clips instanceof Map)) throw argumentError(fn, "character.clips", "an array of clips or a Map from name to clip", c.clips);
    return { skeleton, clips: c.clips as readonly MotionSource[], diagnostics };
  }
  // A BVH character: its one clip (absent when the MOTION section was unusable).
  return { skeleton, clips: c.clip === undefined ? [] : [c.clip as Clip], diagnostics };
}

import { extname } from "node:path";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { loadGltfFile } from "../io/gltf/load-gltf-file.ts";
import { loadRig } from "../retarget/load-rig.ts";
import { modelFrames } from "../retarget/model-frames.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { expectString } from "../errors/check-argument.ts";
import { expectNonEmptyString } from "../errors/check-shape.ts";
import type { LintClipInfo } from "./lint-options.ts";

/** What the linter takes from a glTF file: its clips and its joints. */
export interface LintAssets {
  /** False when the file could not be used (see diagnostics). */
  readonly ok: boolean;
  readonly clips: readonly LintClipInfo[];
  /** Joint names of every skeleton in the file (a name two skeletons share, once). */
  readonly joints: readonly string[];
  /** Per joint of `joints`, the index of its parent in `joints`, −1 for a root (`LintOptions.jointParents`). */
  readonly jointParents: readonly number[];
  /** Per joint of `joints`, its model-space rest position (3 numbers; `LintOptions.jointRest`). */
  readonly jointRest: readonly number[];
  readonly diagnostics: readonly Diagnostic[];
}

function rigAssets(rig: Awaited<ReturnType<typeof loadRig>>): { ok: boolean; skeletons: readonly Skeleton[]; clips: readonly { name: string; duration: number }[]; diagnostics: readonly Diagnostic[] } {
  return { ok: rig.skeleton !== undefined, skeletons: rig.skeleton ? [rig.skeleton] : [], clips: rig.clips, diagnostics: rig.diagnostics };
}

/**
 * Loads clip names and durations and joint names and parents from a glTF/GLB file (or a .bvh or .vrma) for `lintGraph`. glTF stores
 * no loop mode, so clips carry none (a state's `loop` decides, default "loop").
 */
export async function lintAssetsFromGltf(path: string, label: string = path): Promise<LintAssets> {
  expectNonEmptyString("lintAssetsFromGltf", "path", path);
  expectString("lintAssetsFromGltf", "label", label);
  // A .bvh or .vrma (by extension) gives its one skeleton and clips, as `run --clips` plays them.
  const ext = extname(path).toLowerCase();
  const r: { ok: boolean; skeletons: readonly Skeleton[]; clips: readonly { name: string; duration: number }[]; diagnostics: readonly Diagnostic[] } =
    ext === ".bvh" || ext === ".vrma" ? rigAssets(await loadRig(path, { label })) : await loadGltfFile(path, { fileName: label });
  // A name two skeletons share keeps the first skeleton's parent.
  const index = new Map<string, number>();
  const parentNames: (string | undefined)[] = [];
  const jointRest: number[] = [];
  for (const s of r.skeletons) {
    const J = s.jointCount, p = new Float64Array(3 * J);
    modelFrames(new Float64Array(4 * J), p, new Float64Array(J), s, s.rest);
    s.names.forEach((n, j) => {
      if (index.has(n)) return;
      index.set(n, parentNames.length);
      parentNames.push(s.parents[j]! >= 0 ? s.names[s.parents[j]!] : undefined);
      jointRest.push(p[3 * j]!, p[3 * j + 1]!, p[3 * j + 2]!);
    });
  }
  return {
    ok: r.ok,
    clips: r.clips.map((c) => ({ name: c.name, duration: c.duration })),
    joints: [...index.keys()],
    jointParents: parentNames.map((p) => (p === undefined ? -1 : index.get(p)!)),
    jointRest,
    diagnostics: r.diagnostics,
  };
}

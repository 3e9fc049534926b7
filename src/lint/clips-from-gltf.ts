import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { loadGltfFile } from "../io/gltf/load-gltf-file.ts";
import type { LintClipInfo } from "./lint-options.ts";

/** What the linter takes from a glTF file: its clips and its joints. */
export interface LintAssets {
  /** False when the file could not be used (see diagnostics). */
  readonly ok: boolean;
  readonly clips: readonly LintClipInfo[];
  /** Joint names of every skeleton in the file. */
  readonly joints: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Loads clip names and durations and joint names from a glTF/GLB file for `lintGraph`. glTF stores
 * no loop mode, so clips carry none (a state's `loop` decides, default "loop").
 */
export async function lintAssetsFromGltf(path: string, label: string = path): Promise<LintAssets> {
  const r = await loadGltfFile(path, { fileName: label });
  const joints = new Set<string>();
  for (const s of r.skeletons) for (const n of s.names) joints.add(n);
  return {
    ok: r.ok,
    clips: r.clips.map((c) => ({ name: c.name, duration: c.duration })),
    joints: [...joints],
    diagnostics: r.diagnostics,
  };
}

import { resolve } from "node:path";
import type { Clip } from "../../clip/clip.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { echo } from "../../diagnostics/diagnostic.ts";
import { type GltfLoadResult } from "../../io/gltf/load-gltf.ts";
import { loadGltfFile } from "../../io/gltf/load-gltf-file.ts";
import { localToModelUnchecked } from "../../pose/local-to-model.ts";
import { copyPose, createPose } from "../../pose/pose.ts";
import type { Skeleton } from "../../skeleton/skeleton.ts";
import type { CliCommand } from "../context.ts";

interface InspectOptions {
  readonly json?: boolean;
  readonly merge?: boolean;
}

/** Root motion as `inspect` reports it: how far the topmost translated joint travels horizontally. */
export interface RootMotionSummary {
  /** The topmost joint (fewest ancestors, then most descendants) with a translation track. */
  readonly joint: string;
  /** World-space (glTF Y-up, after rootTransform) displacement from the first to the last key: x and z. */
  readonly travel: readonly [number, number];
  /** Horizontal distance travelled (same units as the file, after rootTransform). */
  readonly distance: number;
  /** Whether `distance` exceeds 1% of the skeleton's rest-pose size: the clip moves the character. */
  readonly present: boolean;
}

/**
 * Horizontal travel of a clip's topmost translated joint between its first and last key, in world space
 * (the skeleton's roots placed by `rootTransform`, so a Z-up file is measured on its ground plane).
 * Undefined when no joint has a translation track.
 */
export function summarizeRootMotion(clip: Clip, rootTransform: Float32Array): RootMotionSummary | undefined {
  const sk = clip.skeleton;
  const depth = jointDepths(sk);
  // Fewest ancestors first; on a tie the joint carrying more of the body (hips over an IK foot target).
  const descendants = new Int32Array(sk.jointCount);
  for (let j = sk.jointCount - 1; j >= 0; j--) {
    const p = sk.parents[j]!;
    if (p >= 0) descendants[p]! += descendants[j]! + 1;
  }
  let track: Clip["tracks"][number] | undefined;
  for (const t of clip.tracks) {
    if (t.path !== "translation") continue;
    if (!track || depth[t.joint]! < depth[track.joint]! || (depth[t.joint] === depth[track.joint] && descendants[t.joint]! > descendants[track.joint]!)) track = t;
  }
  if (!track) return undefined;
  const j = track.joint;
  const pose = copyPose(createPose(sk.jointCount), sk.rest);
  const model = new Float32Array(16 * sk.jointCount);
  const positionAt = (key: number): [number, number, number] => {
    const perKey = track.interpolation === "CUBICSPLINE" ? 9 : 3;
    const o = key * perKey + (track.interpolation === "CUBICSPLINE" ? 3 : 0);
    pose.t.set(track.values.subarray(o, o + 3), 3 * j);
    localToModelUnchecked(model, sk, pose, rootTransform);
    return [model[16 * j + 12]!, model[16 * j + 13]!, model[16 * j + 14]!];
  };
  const a = positionAt(0);
  const b = positionAt(track.times.length - 1);
  // Size of the character: the largest distance of a rest joint from the first root, in world units.
  localToModelUnchecked(model, sk, sk.rest, rootTransform);
  let size = 0;
  for (let k = 0; k < sk.jointCount; k++) {
    size = Math.max(size, Math.hypot(model[16 * k + 12]! - model[12]!, model[16 * k + 13]! - model[13]!, model[16 * k + 14]! - model[14]!));
  }
  const dx = b[0] - a[0];
  const dz = b[2] - a[2];
  const distance = Math.hypot(dx, dz);
  return { joint: sk.names[j]!, travel: [dx, dz], distance, present: distance > Math.max(1e-6, 0.01 * size) };
}

function jointDepths(sk: Skeleton): Int32Array {
  const depth = new Int32Array(sk.jointCount);
  for (let j = 0; j < sk.jointCount; j++) {
    const p = sk.parents[j]!;
    depth[j] = p < 0 ? 0 : depth[p]! + 1;
  }
  return depth;
}

const round = (x: number): number => Math.round(x * 1e4) / 1e4;

/** The JSON document `inspect --json` prints (also what the text form is made from). */
export function inspectReport(result: GltfLoadResult): Record<string, unknown> {
  return {
    file: result.file,
    ok: result.ok,
    skeletons: result.skeletons.map((sk, s) => {
      const depth = jointDepths(sk);
      return {
        index: s,
        jointCount: sk.jointCount,
        rootTransform: Array.from(result.rootTransforms[s]!, round),
        bindShape: Array.from(result.bindShapes[s]!, round),
        joints: sk.names.map((name, j) => ({ index: j, name, parent: sk.parents[j]!, node: sk.sourceIndex[j]!, depth: depth[j]! })),
      };
    }),
    clips: result.clips.map((clip, c) => {
      const counts = { translation: 0, rotation: 0, scale: 0 };
      for (const t of clip.tracks) counts[t.path]++;
      const interpolations = [...new Set([...clip.tracks, ...clip.floatTracks].map((t) => t.interpolation))].sort();
      const s = result.skeletons.indexOf(clip.skeleton);
      const motion = summarizeRootMotion(clip, result.rootTransforms[s]!);
      return {
        name: clip.name,
        skeleton: s,
        sources: result.clipSources[c] ?? [],
        duration: round(clip.duration),
        startTime: round(clip.startTime),
        channels: clip.tracks.length + clip.floatTracks.length,
        ...counts,
        weights: clip.floatTracks.length,
        interpolations,
        rootMotion: motion ? { ...motion, travel: motion.travel.map(round), distance: round(motion.distance) } : null,
        tracks: clip.tracks.map((t) => ({ joint: clip.skeleton.names[t.joint], path: t.path, interpolation: t.interpolation, keys: t.times.length })),
        morphTracks: clip.floatTracks.map((f) => ({ target: f.target, node: f.node, count: f.count, interpolation: f.interpolation, keys: f.times.length })),
      };
    }),
    morphTargets: result.morphTargets.map((m) => ({ ...m, names: [...m.names] })),
    diagnostics: result.diagnostics,
  };
}

/** Deepest indentation of the joint tree in the text form, levels. */
export const MAX_TREE_INDENT = 32;

/** The text form: skeleton trees indented by depth, one line per clip, then the morph targets. */
export function formatInspectText(result: GltfLoadResult): string {
  const report = inspectReport(result) as {
    skeletons: { index: number; jointCount: number; joints: { name: string; node: number; depth: number }[] }[];
    clips: { name: string; skeleton: number; duration: number; startTime: number; channels: number; translation: number; rotation: number; scale: number; weights: number; interpolations: string[]; rootMotion: RootMotionSummary | null }[];
  };
  const lines: string[] = [echo(result.file, 200)];
  for (const sk of report.skeletons) {
    lines.push(`skeleton ${sk.index}: ${sk.jointCount} joints`);
    // Indentation stops growing at MAX_TREE_INDENT levels (a 30,000-joint chain would otherwise print
    // gigabytes of spaces); deeper joints say their depth.
    for (const j of sk.joints) {
      const indent = j.depth <= MAX_TREE_INDENT ? "  ".repeat(j.depth) : `${"  ".repeat(MAX_TREE_INDENT)}[depth ${j.depth}] `;
      lines.push(`  ${indent}${echo(j.name, 120)} (node ${j.node})`);
    }
  }
  lines.push(`clips: ${report.clips.length}`);
  for (const c of report.clips) {
    const parts = [`${c.translation} translation`, `${c.rotation} rotation`, `${c.scale} scale`, `${c.weights} weights`].filter((p) => !p.startsWith("0 "));
    const start = c.startTime > 0 ? ` (from ${c.startTime} s)` : "";
    const motion = c.rootMotion
      ? `root motion: ${c.rootMotion.present ? "yes" : "no"} (${c.rootMotion.joint} travels ${round(c.rootMotion.distance)})`
      : "root motion: no (no translation track)";
    const skel = report.skeletons.length > 1 ? ` skeleton ${c.skeleton}` : "";
    lines.push(`  ${echo(c.name, 120)}: ${c.duration} s${start}, ${c.channels} channels (${parts.join(", ") || "none"}), ${c.interpolations.join("/") || "-"},${skel} ${motion}`);
  }
  lines.push(`morph targets: ${result.morphTargets.length === 0 ? "none" : ""}`.trimEnd());
  for (const m of result.morphTargets) lines.push(`  ${echo(m.name, 120)} (node ${m.node}, mesh ${m.mesh}): ${m.count} targets: ${echo(m.names.join(", "), 2000)}`);
  return `${lines.join("\n")}\n`;
}

/** `animgraph inspect FILE.glb [--json] [--merge]`: what a glTF file holds, as the loader sees it. */
export const inspectCommand: CliCommand = {
  register(program, ctx) {
    program
      .command("inspect")
      .description("List a glTF file's skeletons (joint tree), clips (duration, channels, interpolation, root motion) and morph channels")
      .argument("<file>", "a .glb or .gltf file")
      .option("--json", "print a JSON report instead of text")
      .option("--merge", "merge all animations into one clip (for files that split one motion per joint)")
      .action(async (file: string, options: InspectOptions) => {
        const result = await loadGltfFile(resolve(ctx.io.cwd, file), { fileName: file, mergeAnimations: options.merge === true });
        const unusable = result.skeletons.length === 0 && !result.ok;
        if (options.json) {
          if (!unusable) ctx.io.stdout(`${JSON.stringify(inspectReport(result), null, 2)}\n`);
          else ctx.io.stdout(`${JSON.stringify({ file, ok: false, diagnostics: result.diagnostics }, null, 2)}\n`);
        } else if (!unusable) {
          ctx.io.stdout(formatInspectText(result));
        }
        ctx.printDiagnostics(result.diagnostics);
        ctx.exitCode = unusable ? ExitCode.Unusable : result.ok ? ExitCode.Clean : ExitCode.Findings;
      });
  },
};

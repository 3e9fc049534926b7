import { resolve } from "node:path";
import { echo, hasErrorsUnchecked, type Diagnostic } from "../../diagnostics/diagnostic.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { compileBoneMap } from "../../retarget/compile-bone-map.ts";
import { loadRig } from "../../retarget/load-rig.ts";
import { proposeBoneMap, type BoneMapProposal } from "../../retarget/propose-bone-map.ts";
import type { Skeleton } from "../../skeleton/skeleton.ts";
import type { CliCommand } from "../context.ts";
import { appendAll } from "../../diagnostics/append-all.ts";

interface MapOptions {
  readonly json?: boolean;
}

/**
 * The JSON `map --json` prints. It is also a valid bone-map file (rich form): `bones` maps source →
 * target; the other keys are informational and ignored when read back.
 */
export function mapReport(proposal: BoneMapProposal, source: { file: string; skeleton: Skeleton }, target: { file: string; skeleton: Skeleton }, rootMotionScale: number | undefined): Record<string, unknown> {
  const bones: Record<string, string> = {};
  for (const e of proposal.entries) bones[e.source] = e.target;
  return {
    source: { file: source.file, joints: source.skeleton.jointCount },
    target: { file: target.file, joints: target.skeleton.jointCount },
    bones,
    entries: proposal.entries.map((e) => ({ ...e, confidence: Math.round(e.confidence * 100) / 100 })),
    unmappedSource: proposal.unmappedSource,
    unmappedTarget: proposal.unmappedTarget,
    ...(rootMotionScale !== undefined ? { proposedRootMotionScale: rootMotionScale } : {}),
  };
}

function formatMapText(proposal: BoneMapProposal, sourceFile: string, targetFile: string, source: Skeleton, target: Skeleton, scale: number | undefined): string {
  const lines = [`${echo(sourceFile, 200)} (${source.jointCount} joints) → ${echo(targetFile, 200)} (${target.jointCount} joints): ${proposal.entries.length} bones mapped`];
  const name = (n: string): string => echo(n, 64);
  const w = proposal.entries.reduce((m, e) => Math.max(m, name(e.source).length), 6);
  const v = proposal.entries.reduce((m, e) => Math.max(m, name(e.target).length), 6);
  for (const e of proposal.entries) {
    lines.push(`  ${name(e.source).padEnd(w)}  →  ${name(e.target).padEnd(v)}  ${e.confidence.toFixed(2)}  ${e.reason}${e.role ? ` (${e.role})` : ""}`);
  }
  lines.push(`unmapped source bones (${proposal.unmappedSource.length}): ${echo(proposal.unmappedSource.join(", "), 2000) || "none"}`);
  lines.push(`unmapped target bones, kept at rest (${proposal.unmappedTarget.length}): ${echo(proposal.unmappedTarget.join(", "), 2000) || "none"}`);
  if (scale !== undefined) lines.push(`root motion scale (hip height target / source): ${Number(scale.toPrecision(6))}`);
  return `${lines.join("\n")}\n`;
}

/** `animgraph map SRC TARGET [--json]`: the bone map proposed from names and hierarchy. */
export const mapCommand: CliCommand = {
  register(program, ctx) {
    program
      .command("map")
      .description("Propose a bone map from SRC's skeleton to TARGET's (names and hierarchy), with a confidence per bone and the bones left unmapped")
      .argument("<source>", "a .bvh, .vrma, .glb or .gltf file")
      .argument("<target>", "a .bvh, .vrma, .glb or .gltf file")
      .option("--json", "print JSON (usable as a --map file for retarget)")
      .action(async (sourceFile: string, targetFile: string, options: MapOptions) => {
        const source = await loadRig(resolve(ctx.io.cwd, sourceFile), { label: sourceFile });
        const target = await loadRig(resolve(ctx.io.cwd, targetFile), { label: targetFile });
        const diagnostics: Diagnostic[] = [...source.diagnostics, ...target.diagnostics];
        const missing = (file: string): Diagnostic => ({ code: "E_RETARGET_NO_SKELETON", severity: "error", file, pointer: "", message: "the file has no usable skeleton" });
        if (!source.skeleton && !hasErrorsUnchecked(source.diagnostics)) diagnostics.push(missing(sourceFile));
        if (!target.skeleton && !hasErrorsUnchecked(target.diagnostics)) diagnostics.push(missing(targetFile));
        if (!source.skeleton || !target.skeleton) {
          ctx.printDiagnostics(diagnostics);
          ctx.exitCode = ExitCode.Unusable;
          return;
        }
        const proposal = proposeBoneMap(source.skeleton, target.skeleton);
        const compiled = compileBoneMap(proposal, source.skeleton, target.skeleton, { file: `${sourceFile} → ${targetFile}` });
        appendAll(diagnostics, compiled.diagnostics);
        const scale = compiled.compiled?.rootMotionScale;
        if (options.json) {
          const report = mapReport(proposal, { file: sourceFile, skeleton: source.skeleton }, { file: targetFile, skeleton: target.skeleton }, scale);
          ctx.io.stdout(`${JSON.stringify(report, null, 2)}\n`);
        } else {
          ctx.io.stdout(formatMapText(proposal, sourceFile, targetFile, source.skeleton, target.skeleton, scale));
        }
        ctx.printDiagnostics(diagnostics);
        ctx.exitCode = diagnostics.some((d) => d.severity !== "info") ? ExitCode.Findings : ExitCode.Clean;
      });
  },
};

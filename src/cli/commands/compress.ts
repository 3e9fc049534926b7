import { extname, resolve } from "node:path";
import type { Clip } from "../../clip/clip.ts";
import { writeAgc } from "../../compress/agc-container.ts";
import { compressClip, type CompressionStats } from "../../compress/compress-clip.ts";
import type { CompressedClip } from "../../compress/compressed-clip.ts";
import { estimateUnitsPerMetre, parseLength } from "../../compress/units.ts";
import { hasErrorsUnchecked, type Diagnostic } from "../../diagnostics/diagnostic.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { checkOutputFile, writeOutputFile } from "../output-file.ts";
import { loadBvh } from "../../io/bvh/load-bvh.ts";
import { loadGltfFile } from "../../io/gltf/load-gltf-file.ts";
import { loadVrmaFile } from "../../io/vrma/load-vrma-file.ts";
import type { Skeleton } from "../../skeleton/skeleton.ts";
import { CliUsageError, onlyOnce, type CliCommand, type CliContext } from "../context.ts";
import { appendAll } from "../../diagnostics/append-all.ts";

/** Accepted ranges of the numeric options, metres (units per metre for the last). */
const TOLERANCE_RANGE = [1e-7, 1] as const;
const VIRTUAL_VERTEX_RANGE = [1e-4, 100] as const;
const UNITS_PER_METRE_RANGE = [1e-6, 1e9] as const;

interface CompressCliOptions {
  readonly tolerance: string;
  readonly out: string;
  readonly resample?: string;
  readonly json?: boolean;
  readonly unitsPerMetre?: string;
  readonly virtualVertex?: string;
  readonly clip?: string;
}

/**
 * `animgraph compress IN --tolerance 0.1mm --out OUT.agc [--resample HZ] [--units-per-metre N|auto]
 * [--virtual-vertex 3cm] [--clip NAME] [--json]`: compresses every clip of a BVH or glTF file under a
 * model-space error bound and writes them to an `.agc` container (docs/compression.md), atomically;
 * the input is never modified. Prints a table per clip (bytes before and after, ratio, max and mean
 * error, worst joint) or JSON. Exit 0; 1 when a clip misses the tolerance; 2 on unusable input or
 * options (a bad tolerance such as `0.1` without a unit).
 */
export const compressCommand: CliCommand = {
  register(program, ctx) {
    program
      .command("compress")
      .description("Compress clips (predicted keys, quantised residuals) under a model-space error bound into an .agc file")
      .argument("<input>", "a .bvh, .glb, .gltf or .vrma file")
      .requiredOption("--tolerance <length>", "largest virtual-vertex error, with a unit: 0.1mm, 1e-4m, 0.01cm")
      .requiredOption("--out <file>", "the .agc file to write (atomically)")
      .option("--resample <hz>", "key grid rate in Hz (default: the source's own key rate)")
      .option("--units-per-metre <n>", "skeleton units per metre, or 'auto' to estimate from the skeleton (default: 1 for glTF, auto for BVH)")
      .option("--virtual-vertex <length>", "virtual-vertex distance from each joint (default 3cm)")
      .option("--clip <name>", "compress only this clip", onlyOnce("--clip"))
      .option("--json", "print the statistics as JSON")
      .action(async (input: string, options: CompressCliOptions) => run(ctx, input, options));
  },
};

async function run(ctx: CliContext, input: string, options: CompressCliOptions): Promise<void> {
  const { io } = ctx;
  const tolerance = parseLength(options.tolerance);
  if (tolerance === undefined || tolerance < TOLERANCE_RANGE[0] || tolerance > TOLERANCE_RANGE[1]) {
    throw new CliUsageError(`--tolerance must be a length with a unit (mm, cm or m) from 0.0001mm to 1m, e.g. 0.1mm; got "${options.tolerance}"`);
  }
  const vv = options.virtualVertex === undefined ? 0.03 : parseLength(options.virtualVertex);
  if (vv === undefined || vv < VIRTUAL_VERTEX_RANGE[0] || vv > VIRTUAL_VERTEX_RANGE[1]) {
    throw new CliUsageError(`--virtual-vertex must be a length with a unit from 0.1mm to 100m, e.g. 3cm; got "${options.virtualVertex}"`);
  }
  const resample = options.resample === undefined ? undefined : Number(options.resample);
  if (resample !== undefined && !(Number.isFinite(resample) && resample > 0 && resample <= 1000)) {
    throw new CliUsageError(`--resample must be a rate in (0, 1000] Hz, got "${options.resample}"`);
  }
  let upmOption: number | "auto" | undefined;
  if (options.unitsPerMetre !== undefined) {
    upmOption = options.unitsPerMetre === "auto" ? "auto" : Number(options.unitsPerMetre);
    if (upmOption !== "auto" && !(upmOption >= UNITS_PER_METRE_RANGE[0] && upmOption <= UNITS_PER_METRE_RANGE[1])) {
      throw new CliUsageError(`--units-per-metre must be a number from 1e-6 to 1e9, or "auto"; got "${options.unitsPerMetre}"`);
    }
  }
  const inPath = resolve(io.cwd, input);
  const out = checkOutputFile(ctx, options.out, [{ label: input, path: input }]);
  if (!out) return;
  const ext = extname(inPath).toLowerCase();
  if (ext !== ".bvh" && ext !== ".glb" && ext !== ".gltf" && ext !== ".vrma") throw new CliUsageError(`the input must be a .bvh, .glb, .gltf or .vrma file, got "${input}"`);

  // Load.
  const diagnostics: Diagnostic[] = [];
  let clips: Clip[] = [];
  if (ext === ".bvh") {
    const result = loadBvh(inPath, {}, input);
    appendAll(diagnostics, result.diagnostics);
    if (result.clip) clips = [result.clip];
  } else if (ext === ".vrma") {
    // A VRM animation is a glTF whose skeleton is its humanoid: the same clips retarget reads.
    const result = await loadVrmaFile(inPath, input);
    appendAll(diagnostics, result.diagnostics);
    clips = [...result.clips];
  } else {
    const result = await loadGltfFile(inPath, { fileName: input });
    appendAll(diagnostics, result.diagnostics);
    clips = [...result.clips];
  }
  if (options.clip !== undefined) {
    const names = clips.map((c) => c.name);
    clips = clips.filter((c) => c.name === options.clip);
    if (clips.length === 0 && !hasErrorsUnchecked(diagnostics)) {
      diagnostics.push({ code: "E_COMPRESS_NO_CLIP", severity: "error", file: input, pointer: "", message: `no clip named "${options.clip}" (clips: ${names.join(", ") || "none"})` });
    }
  }
  if (clips.length === 0 && !hasErrorsUnchecked(diagnostics)) {
    diagnostics.push({ code: "E_COMPRESS_NO_CLIP", severity: "error", file: input, pointer: "", message: "the file has no animation clip" });
  }
  if (hasErrorsUnchecked(diagnostics) || clips.length === 0) {
    ctx.printDiagnostics(diagnostics);
    ctx.exitCode = ExitCode.Unusable;
    return;
  }
  const skeleton: Skeleton = clips[0]!.skeleton;
  const skipped = clips.filter((c) => c.skeleton !== skeleton);
  if (skipped.length > 0) {
    diagnostics.push({
      code: "W_COMPRESS_OTHER_SKELETON", severity: "warning", file: input, pointer: "",
      message: `${skipped.length} clip(s) on another skeleton are not written (${skipped.map((c) => c.name).join(", ")}); use --clip to pick one`,
    });
    clips = clips.filter((c) => c.skeleton === skeleton);
  }
  const estimated = upmOption === "auto" || (upmOption === undefined && ext === ".bvh");
  const unitsPerMetre = estimated ? estimateUnitsPerMetre(skeleton) : typeof upmOption === "number" ? upmOption : 1;

  // Compress, with a progress bar on a terminal and a plain line per clip otherwise.
  const tty = process.stderr.isTTY === true;
  const compressed: CompressedClip[] = [];
  const stats: CompressionStats[] = [];
  let missed = 0;
  for (let i = 0; i < clips.length; i++) {
    const clip = clips[i]!;
    const label = `${i + 1}/${clips.length} ${clip.name}`;
    const result = compressClip(clip, {
      tolerance, virtualVertexDistance: vv, unitsPerMetre, file: input, ...(resample === undefined ? {} : { sampleRate: resample }),
      onProgress: tty ? (fraction) => io.stderr(`\r${progressBar((i + fraction) / clips.length)} ${label}`) : undefined,
    });
    appendAll(diagnostics, result.diagnostics);
    if (!result.compressed || !result.stats) {
      if (tty) io.stderr("\n");
      ctx.printDiagnostics(diagnostics);
      ctx.exitCode = ExitCode.Unusable;
      return;
    }
    if (!Number.isFinite(result.stats.maxError) || !Number.isFinite(result.stats.meanError)) {
      if (tty) io.stderr("\n");
      diagnostics.push({ code: "E_COMPRESS_NONFINITE", severity: "error", file: input, pointer: "", message: `clip "${clip.name}": the measured error is not finite (the skeleton's values or the units are out of range); nothing was written` });
      ctx.printDiagnostics(diagnostics);
      ctx.exitCode = ExitCode.Unusable;
      return;
    }
    compressed.push(result.compressed);
    stats.push(result.stats);
    if (result.stats.maxError > tolerance) missed++;
    if (!tty) io.stderr(`compressed ${label}: ${result.stats.ratio.toFixed(2)}:1, max error ${mm(result.stats.maxError)} mm\n`);
  }
  if (tty) io.stderr(`\r${progressBar(1)} done${" ".repeat(40)}\n`);
  ctx.printDiagnostics(diagnostics);

  if (!writeOutputFile(ctx, out, writeAgc(compressed, skeleton))) return;
  if (options.json) {
    io.stdout(`${JSON.stringify({
      input, out: options.out, tolerance, virtualVertexDistance: vv, unitsPerMetre, unitsPerMetreEstimated: estimated,
      clips: stats.map((s) => ({
        clip: s.clip, joints: s.jointCount, frames: s.frameCount, sampleRate: s.sampleRate, rawBytes: s.rawBytes,
        compressedBytes: s.compressedBytes, ratio: s.ratio, maxError: s.maxError, meanError: s.meanError,
        worstJoint: s.worstJoint, tracks: s.trackCount, keys: s.keyCount,
      })),
    }, null, 2)}\n`);
  } else {
    const lines = [
      `${input} → ${options.out}: tolerance ${mm(tolerance)} mm at ${mm(vv)} mm virtual vertices, ${unitsPerMetre.toPrecision(6)} units/m${estimated ? " (estimated; set --units-per-metre)" : ""}`,
      formatTable(stats),
    ];
    io.stdout(`${lines.join("\n")}\n`);
  }
  ctx.exitCode = missed > 0 ? ExitCode.Findings : ExitCode.Clean;
}

function mm(metres: number): string {
  return (metres * 1000).toFixed(4);
}

function progressBar(fraction: number): string {
  const width = 30;
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${String(Math.round(fraction * 100)).padStart(3)}%`;
}

/** A fixed-width table, one row per clip. */
export function formatTable(stats: readonly CompressionStats[]): string {
  const header = ["clip", "joints", "frames", "Hz", "bytes before", "bytes after", "ratio", "max mm", "mean mm", "worst joint"];
  const rows = stats.map((s) => [
    s.clip, String(s.jointCount), String(s.frameCount), s.sampleRate.toFixed(2), String(s.rawBytes), String(s.compressedBytes),
    `${s.ratio.toFixed(2)}:1`, mm(s.maxError), mm(s.meanError), s.worstJoint,
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const fmt = (r: readonly string[]): string => r.map((cell, c) => (c === 0 || c === r.length - 1 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join("  ").trimEnd();
  return [fmt(header), ...rows.map(fmt)].join("\n");
}

import { extname, resolve } from "node:path";
import { hasErrorsUnchecked, type Diagnostic } from "../../diagnostics/diagnostic.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { checkOutputFile, writeOutputFile } from "../output-file.ts";
import { createGltfIO } from "../../io/gltf/gltf-io.ts";
import { readGltfDocument } from "../../io/gltf/read-gltf-document.ts";
import { addClipToGltf } from "../../retarget/add-clip-to-gltf.ts";
import { normalizeSkinWeights } from "../../retarget/normalize-skin-weights.ts";
import { compileBoneMap, type CompiledBoneMap } from "../../retarget/compile-bone-map.ts";
import { loadRig } from "../../retarget/load-rig.ts";
import { proposeBoneMap, type BoneMap } from "../../retarget/propose-bone-map.ts";
import { type BoneMapSettings } from "../../retarget/read-bone-map.ts";
import { readBoneMapFile } from "../../retarget/read-bone-map-file.ts";
import { retargetClip } from "../../retarget/retarget-clip.ts";
import { measureRetargetQuality, type RetargetQuality } from "../../retarget/retarget-quality.ts";
import { CliUsageError, onlyOnce, type CliCommand } from "../context.ts";
import { appendAll } from "../../diagnostics/append-all.ts";
import { readJsonFile } from "../../json/read-json-file.ts";
import { skeletonRoles } from "../../retarget/classify-by-topology.ts";
import type { Skeleton } from "../../skeleton/skeleton.ts";

interface RetargetCliOptions {
  readonly to: string;
  readonly out: string;
  readonly map?: string;
  readonly name?: string;
  readonly clip?: string;
  readonly fps?: string;
  readonly align?: boolean;
  readonly groundFeet?: boolean;
  readonly keepWeights?: boolean;
  readonly footIk?: boolean;
  readonly json?: boolean;
}

/**
 * `animgraph retarget SRC --to TARGET.glb [--map map.json] [--name NAME] --out OUT.glb`: plays SRC's
 * clip (a BVH, a .vrma's, or a glTF clip chosen with --clip) on TARGET's skeleton and writes TARGET with the new
 * animation added (GLB, written atomically). Nothing is written when an input is unusable (exit 2).
 */
export const retargetCommand: CliCommand = {
  register(program, ctx) {
    program
      .command("retarget")
      .description("Retarget a clip (BVH, glTF or VRM animation) onto a glTF character and write the character with the new animation added")
      .argument("<source>", "a .bvh, .vrma, .glb or .gltf file with the motion")
      .requiredOption("--to <target>", "the character (.glb or .gltf) to animate")
      .requiredOption("--out <file>", "the GLB to write")
      .option("--map <file>", "a bone map JSON file (default: proposed from names, see `animgraph map`)")
      .option("--name <name>", "name of the new animation (default: the source clip's name)")
      .option("--clip <name>", "which clip of a glTF source (default: its first)", onlyOnce("--clip"))
      .option("--fps <n>", "resample at this many keys per second (default: the source's keys)")
      .option("--no-align", "do not swing the target's rest pose onto the source's bone directions")
      .option("--keep-weights", "write the target's skin weights as they are, even when they do not sum to 1")
      .option("--no-ground-feet", "keep the source's height above the ground scaled as is (default: the target's feet meet its ground where the source's are lowest)")
      .option("--no-foot-ik", "pure rotation transfer: no foot locking and no leg IK (default: planted feet are locked and legs solved by two-bone IK)")
      .option("--json", "print the result and its quality measures as JSON")
      .action(async (sourceFile: string, options: RetargetCliOptions) => {
        const fps = options.fps === undefined ? undefined : Number(options.fps);
        if (fps !== undefined && !(Number.isFinite(fps) && fps > 0 && fps <= 1000)) throw new CliUsageError(`--fps must be a number in (0, 1000], got "${options.fps}"`);
        const targetPath = resolve(ctx.io.cwd, options.to);
        const ext = extname(targetPath).toLowerCase();
        if (ext !== ".glb" && ext !== ".gltf") throw new CliUsageError(`--to must be a .glb or .gltf file, got "${options.to}"`);
        const out = checkOutputFile(ctx, options.out, [
          { label: sourceFile, path: sourceFile }, { label: options.to, path: options.to },
          ...(options.map !== undefined ? [{ label: options.map, path: options.map }] : []),
        ]);
        if (!out) return;
        const diagnostics: Diagnostic[] = [];
        const fail = (): void => {
          ctx.printDiagnostics(diagnostics);
          ctx.exitCode = ExitCode.Unusable;
        };
        const source = await loadRig(resolve(ctx.io.cwd, sourceFile), { label: sourceFile });
        const target = await loadRig(targetPath, { label: options.to });
        appendAll(diagnostics, source.diagnostics);
        appendAll(diagnostics, target.diagnostics);
        const clip = options.clip === undefined ? source.clips[0] : source.clips.find((c) => c.name === options.clip);
        if (!source.skeleton || !target.skeleton || !clip || hasErrorsUnchecked(source.diagnostics) || hasErrorsUnchecked(target.diagnostics)) {
          if (source.skeleton && !clip) {
            const what = options.clip === undefined ? "the source has no clip" : `the source has no clip named "${options.clip}" (clips: ${source.clips.map((c) => c.name).join(", ") || "none"})`;
            diagnostics.push({ code: "E_RETARGET_NO_CLIP", severity: "error", file: sourceFile, pointer: "", message: what });
          }
          if (!target.skeleton && !hasErrorsUnchecked(target.diagnostics)) {
            diagnostics.push({ code: "E_RETARGET_NO_SKELETON", severity: "error", file: options.to, pointer: "", message: "the file has no skeleton" });
          }
          return fail();
        }
        let map: BoneMap;
        let settings: BoneMapSettings = {};
        if (options.map !== undefined) {
          const read = readBoneMapFile(resolve(ctx.io.cwd, options.map), source.skeleton, target.skeleton, options.map);
          appendAll(diagnostics, read.diagnostics);
          if (!read.map) return fail();
          map = read.map;
          settings = read.settings;
        } else {
          map = proposeBoneMap(source.skeleton, target.skeleton);
        }
        const compiled = compileBoneMap(map, source.skeleton, target.skeleton, {
          file: options.map ?? `${sourceFile} → ${options.to}`,
          alignRest: settings.alignRest ?? options.align !== false,
          targetClips: target.clips,
          ...(settings.root !== undefined ? { targetRoot: settings.root } : {}),
          ...(settings.rootMotionScale !== undefined ? { rootMotionScale: settings.rootMotionScale } : {}),
        });
        appendAll(diagnostics, compiled.diagnostics);
        if (!compiled.compiled) return fail();
        if (!compiled.compiled.sourceOf.some((s) => s >= 0)) {
          diagnostics.push({
            code: "E_RETARGET_NOTHING_MAPPED", severity: "error", file: options.map ?? options.to, pointer: "",
            message: `no bone of the target is driven by the source (${options.map === undefined ? "the names and the topology matched nothing" : "the map pairs no bone"}): give a bone map with --map (\`animgraph map\` proposes one to edit); nothing was written`,
          });
          return fail();
        }
        // A clip that moves none of the source bones the map drives is written as a still pose: say so.
        const driving = new Set(compiled.compiled.sourceOf.filter((s) => s >= 0));
        if (!clip.tracks.some((t) => driving.has(t.joint) && trackMoves(t.values, t.path === "rotation" ? 4 : 3, t.interpolation === "CUBICSPLINE"))) {
          const animation = source.clipSources[source.clips.indexOf(clip)]?.[0];
          const moving = [...new Set(clip.tracks.filter((t) => trackMoves(t.values, t.path === "rotation" ? 4 : 3, t.interpolation === "CUBICSPLINE")).map((t) => source.skeleton!.names[t.joint]!))];
          diagnostics.push({
            code: "W_RETARGET_STILL_SOURCE", severity: "warning", file: sourceFile, pointer: animation === undefined ? "" : `/animations/${animation}`,
            message: `clip "${clip.name}" animates none of the ${driving.size} source bones the map drives (it moves ${moving.length === 0 ? "nothing" : moving.slice(0, 5).join(", ") + (moving.length > 5 ? ", …" : "")}): the retargeted animation is a still pose`,
          });
        }
        const result = retargetClip(clip, source.skeleton, target.skeleton, compiled.compiled, {
          name: options.name ?? clip.name,
          groundFeet: options.groundFeet !== false,
          footIk: options.footIk !== false,
          ...(fps !== undefined ? { sampleRate: fps } : {}),
        });
        const nonFinite = result.tracks.find((t) => !t.values.every(Number.isFinite));
        if (nonFinite) {
          diagnostics.push({
            code: "E_RETARGET_NONFINITE", severity: "error", file: options.map ?? sourceFile, pointer: "",
            message: `the retargeted ${nonFinite.path} of "${target.skeleton.names[nonFinite.joint]}" is not finite (a scale or offset out of range); nothing was written`,
          });
          return fail();
        }
        // Measured from the result before anything is written: a map too sparse to place the feet (a leg it
        // drives no bone of, or no hips) must not write a character standing in the floor.
        const c = compiled.compiled;
        const quality = measureRetargetQuality(clip, result, c);
        const unplaced = unplacedLegs(c, source.skeleton);
        if (quality.footPenetrationPercent > MAX_FOOT_PENETRATION_PERCENT && unplaced !== undefined) {
          diagnostics.push({
            code: "E_RETARGET_FEET_UNPLACED", severity: "error", file: options.map ?? `${sourceFile} → ${options.to}`, pointer: options.map === undefined ? "" : bonesPointer(resolve(ctx.io.cwd, options.map)),
            message: `${unplaced}, so the feet cannot be placed: the written character's feet would go ${quality.footPenetrationPercent.toFixed(1)} % of its leg length under the ground; ` +
              `map them (\`animgraph map\` proposes a map to edit); nothing was written`,
          });
          return fail();
        }
        const io = createGltfIO();
        const read = await readGltfDocument(targetPath, io, options.to);
        appendAll(diagnostics, read.diagnostics);
        const doc = read.doc;
        if (!doc) return fail();
        const fix = options.keepWeights === true ? { vertices: 0, primitives: [] } : normalizeSkinWeights(doc);
        if (fix.vertices > 0) {
          diagnostics.push({
            code: "I_RETARGET_WEIGHTS_NORMALIZED", severity: "info", file: options.to, pointer: fix.primitives[0] ?? "",
            message: `skin weights of ${fix.vertices} vertices in ${fix.primitives.length} primitive(s) did not sum to 1 and were rescaled in the output, as glTF requires (--keep-weights keeps them as they are)`,
          });
        }
        const bytes = await addClipToGltf(doc, result);
        if (!writeOutputFile(ctx, out, bytes)) {
          ctx.printDiagnostics(diagnostics);
          return;
        }
        const mapped = c.sourceOf.filter((s) => s >= 0).length;
        const rootName = c.rootTarget >= 0 ? target.skeleton.names[c.rootTarget]! : null;
        if (options.json) {
          ctx.io.stdout(`${JSON.stringify({
            source: sourceFile, target: options.to, out: options.out, animation: result.name, duration: result.duration,
            channels: result.tracks.length, bonesDriven: mapped, targetBones: target.skeleton.jointCount,
            root: rootName, rootMotionScale: c.rootMotionScale, footIk: options.footIk !== false, quality,
          }, null, 2)}\n`);
        } else {
          ctx.io.stdout(
            `${options.out}: added animation "${result.name}" (${result.duration.toFixed(3)} s, ${result.tracks.length} channels, ` +
              `${mapped} of ${target.skeleton.jointCount} target bones driven, ${trajectory(c, rootName)})\n` +
              formatQuality(quality),
          );
        }
        ctx.printDiagnostics(diagnostics);
        ctx.exitCode = diagnostics.some((d) => d.severity !== "info") ? ExitCode.Findings : ExitCode.Clean;
      });
  },
};

/** The most a foot may go under the ground (in % of the leg) in a retarget whose map leaves a leg unplaced (issue 18's bound). */
const MAX_FOOT_PENETRATION_PERCENT = 1;

/**
 * Why the map places no foot of some leg, or undefined when it places both: no frame (hips, legs and feet
 * not mapped, W_RETARGET_NO_FRAME), or a leg of which it drives no bone (the leg then hangs straight from
 * the pelvis, and no IK bends it).
 */
function unplacedLegs(c: CompiledBoneMap, source: Skeleton): string | undefined {
  if (!(c.targetHipHeight > 0)) {
    return c.targetPelvis < 0 ? "the map does not drive the hips" : "the map does not drive hips, legs and feet the skeletons' axes and sizes can be found from (W_RETARGET_NO_FRAME)";
  }
  const roles = skeletonRoles(source);
  const sides = ["left", "right"].filter((_, side) => c.legs[4 * side]! < 0);
  if (sides.length === 0) return undefined;
  const named = sides.map((side) => {
    const key = side === "left" ? "L" : "R";
    const names = ["upperLeg", "lowerLeg", "foot"].map((r) => roles.get(`${r}.${key}`)).filter((j) => j !== undefined).map((j) => `"${source.names[j]}"`);
    return `the ${side} leg (${names.join(", ") || "none found"})`;
  });
  return `the map drives no bone of ${named.join(" nor of ")}`;
}

/** The JSON pointer of a bone-map file's bones: "/bones" in the rich form, else the document. */
function bonesPointer(path: string): string {
  const doc = readJsonFile(path, {}, path);
  return doc.root?.kind === "object" && doc.root.members.get("bones")?.kind === "object" ? "/bones" : "";
}

/** Where the trajectory goes: onto the root scaled by k, or (no frame: W_RETARGET_NO_FRAME) the root's own motion beyond its rest × r. */
function trajectory(c: CompiledBoneMap, rootName: string | null): string {
  if (rootName === null) return "trajectory on nothing";
  if (c.positionDriven[c.rootTarget]) return `trajectory on ${rootName}, root motion ×${Number(c.rootMotionScale.toPrecision(6))}`;
  return `${rootName} kept at its rest position, moved by the source root's motion beyond its rest ×${Number(c.ratio[c.rootTarget]!.toPrecision(3))}`;
}

/** The quality block of `retarget`'s text output (docs/retargeting.md, "Quality"). */
function formatQuality(q: RetargetQuality): string {
  const pct = (x: number): string => `${x === 0 ? "0" : x < 0.01 ? x.toExponential(1) : x.toFixed(2)} %`;
  return [
    `  bone length error      ${pct(q.boneLengthErrorPercent)} (max; the source's own bones change by ${pct(q.sourceBoneLengthChangePercent)})`,
    `  root attachment        ${pct(q.rootAttachmentPercent)} of hip height (max)`,
    `  foot penetration       ${pct(q.footPenetrationPercent)} of leg length (max)`,
    `  foot sliding, planted  ${q.footSlidingTarget.toFixed(3)} hip heights/s (source ${q.footSlidingSource.toFixed(3)}; ${Math.round(100 * q.plantedShare)} % of keys planted)`,
    `  limb direction error   median ${q.limbDirectionMedianDeg.toFixed(1)}°, max ${q.limbDirectionMaxDeg.toFixed(1)}° (${q.limbs.map((l) => l.limb).join(", ") || "no limbs mapped"})`,
    "",
  ].join("\n");
}

/** Whether a track's keys change (beyond 1e-6 in any component), `stride` floats a value (× 3 for CUBICSPLINE's tangents). */
function trackMoves(values: Float32Array, stride: number, cubic: boolean): boolean {
  const block = cubic ? 3 * stride : stride;
  for (let k = block; k < values.length; k++) if (Math.abs(values[k]! - values[k % block]!) > 1e-6) return true;
  return false;
}

import { extname, resolve } from "node:path";
import type { Clip } from "../../clip/clip.ts";
import { appendAll } from "../../diagnostics/append-all.ts";
import { hasErrorsUnchecked, type Diagnostic } from "../../diagnostics/diagnostic.ts";
import { ExitCode } from "../../diagnostics/exit-codes.ts";
import { loadBvh } from "../../io/bvh/load-bvh.ts";
import type { BvhData } from "../../io/bvh/parse-bvh.ts";
import { formatBvh } from "../../io/bvh/write-bvh.ts";
import { createGltfIO } from "../../io/gltf/gltf-io.ts";
import { loadGltfFile } from "../../io/gltf/load-gltf-file.ts";
import { readGltfDocument } from "../../io/gltf/read-gltf-document.ts";
import { loadVrmaFile } from "../../io/vrma/load-vrma-file.ts";
import { VrmaAnimationExtension } from "../../io/vrma/vrma-gltf-extension.ts";
import type { VrmHumanBoneName } from "../../io/vrma/vrm-human-bones.ts";
import { readJsonFile } from "../../json/read-json-file.ts";
import type { MirrorPair } from "../../mirror/find-mirror-pairs.ts";
import { compileMirrorMap, MIRROR_AXES, type MirrorAxis, type MirrorMap } from "../../mirror/mirror-map.ts";
import { mirrorClipWithMap } from "../../mirror/mirror-clip.ts";
import { mirrorVrmaExtras } from "../../mirror/mirror-vrma-extras.ts";
import { readMirrorSettings, type MirrorSettings } from "../../mirror/read-mirror-settings.ts";
import { replaceClipInGltf } from "../../mirror/replace-clip-in-gltf.ts";
import type { Skeleton } from "../../skeleton/skeleton.ts";
import { CliUsageError, type CliCommand, type CliContext } from "../context.ts";
import { checkOutputFile, writeOutputFile } from "../output-file.ts";

interface MirrorCliOptions {
  readonly out: string;
  readonly axis?: string;
  readonly pairs?: string;
  /** `--clip`, once per clip to mirror (all of them when not given). */
  readonly clip?: readonly string[];
  readonly json?: boolean;
}

/**
 * `animgraph mirror IN --out OUT [--axis x|y|z] [--pairs pairs.json] [--clip NAME]… [--json]`: writes
 * IN with its clips (or the ones named) replaced by their mirror images (docs/mirroring.md): a .glb or
 * .gltf gives a GLB with the same nodes, meshes and animation names; a .vrma gives a .vrma (its humanoid
 * bones, expressions and look-at kept, sided expressions swapped, the gaze reflected); a .bvh gives a BVH
 * with the same hierarchy and channels. Left/right pairs come from joint names (a .vrma's from its
 * humanoid bones: leftHand ↔ rightHand whatever the nodes are called), overridden by --pairs. Written
 * atomically; nothing is written when the input, the pairs or the command line are unusable (exit 2).
 * Exit 1 when the skeleton's pose is not symmetric across the plane (W_MIRROR_ASYMMETRIC: usually the
 * wrong axis), 0 otherwise.
 */
export const mirrorCommand: CliCommand = {
  register(program, ctx) {
    program
      .command("mirror")
      .description("Mirror clips left ↔ right (root motion included) and write the file back as GLB or BVH")
      .argument("<input>", "a .glb, .gltf, .vrma or .bvh file")
      .requiredOption("--out <file>", "the file to write: .glb for a glTF input, .vrma for a .vrma, .bvh for a BVH")
      .option("--axis <axis>", "normal of the mirror plane in the skeleton's model space: x, y or z (default: the pairs file's, else x)")
      .option("--pairs <file>", "a JSON file of joint pairs that override the names: { \"pairs\": [[\"A\", \"B\"]], \"axis\"?, \"detect\"? }")
      .option("--clip <name>", "mirror only this clip; repeat for several (the others are written unchanged)", (name: string, names: readonly string[] = []) => [...names, name])
      .option("--json", "print what was done as JSON")
      .action(async (input: string, options: MirrorCliOptions) => run(ctx, input, options));
  },
};

async function run(ctx: CliContext, input: string, options: MirrorCliOptions): Promise<void> {
  const { io } = ctx;
  if (options.axis !== undefined && !(MIRROR_AXES as readonly string[]).includes(options.axis)) {
    throw new CliUsageError(`--axis must be x, y or z, got "${options.axis}"`);
  }
  const inPath = resolve(io.cwd, input);
  const ext = extname(inPath).toLowerCase();
  if (![".bvh", ".glb", ".gltf", ".vrma"].includes(ext)) throw new CliUsageError(`the input must be a .glb, .gltf, .vrma or .bvh file, got "${input}"`);
  const outExt = extname(options.out).toLowerCase();
  const wantExt = ext === ".bvh" || ext === ".vrma" ? ext : ".glb";
  if (outExt !== wantExt) throw new CliUsageError(`--out must be a ${wantExt} file for a ${ext} input, got "${options.out}"`);
  const out = checkOutputFile(ctx, options.out, [
    { label: input, path: input }, ...(options.pairs !== undefined ? [{ label: options.pairs, path: options.pairs }] : []),
  ]);
  if (!out) return;
  const diagnostics: Diagnostic[] = [];
  const fail = (): void => {
    ctx.printDiagnostics(diagnostics);
    ctx.exitCode = ExitCode.Unusable;
  };

  // The pairs file first: a mistake there is cheaper to report than after loading a large file.
  let settings: MirrorSettings = { pairs: [] };
  // Where the pairs list is in that file: `{ "pairs": [...] }` or the bare list `[...]`.
  let pairsPointer = "/pairs";
  if (options.pairs !== undefined) {
    const doc = readJsonFile(resolve(io.cwd, options.pairs), {}, options.pairs);
    const read = readMirrorSettings(doc);
    appendAll(diagnostics, read.diagnostics);
    if (!read.settings) return fail();
    settings = read.settings;
    if (doc.root?.kind === "array") pairsPointer = "";
  }
  // Unset, compileMirrorMap takes x, or the plane the skeleton is symmetric across when no name tells a side.
  const axis = (options.axis as MirrorAxis | undefined) ?? settings.axis;

  // Load.
  let skeleton: Skeleton | undefined;
  let clips: readonly Clip[] = [];
  let clipSources: readonly (readonly number[])[] = [];
  let bvh: BvhData | undefined;
  let humanoidPairs: { pair: MirrorPair; bone: VrmHumanBoneName }[] = [];
  if (ext === ".vrma") {
    const r = await loadVrmaFile(inPath, input);
    appendAll(diagnostics, r.diagnostics);
    if (r.ok && r.skeleton) {
      skeleton = r.skeleton;
      clips = r.clips;
      clipSources = r.clipSources;
      humanoidPairs = humanoidMirrorPairs(r.humanBones, skeleton.names);
    }
  } else if (ext === ".bvh") {
    const r = loadBvh(inPath, {}, input);
    appendAll(diagnostics, r.diagnostics);
    if (!hasErrorsUnchecked(r.diagnostics) && r.skeleton && r.clip && r.bvh) {
      skeleton = r.skeleton;
      clips = [r.clip];
      bvh = r.bvh;
    }
  } else {
    const r = await loadGltfFile(inPath, { fileName: input });
    appendAll(diagnostics, r.diagnostics);
    if (r.ok) {
      skeleton = r.skeletons[0];
      clips = r.clips.filter((c) => c.skeleton === skeleton);
      clipSources = r.clips.flatMap((c, i) => (c.skeleton === skeleton ? [r.clipSources[i]!] : []));
    }
  }
  if (hasErrorsUnchecked(diagnostics)) return fail();
  if (!skeleton) {
    diagnostics.push({ code: "E_NO_SKELETON", severity: "error", file: input, pointer: "", message: "the file has no skeleton to mirror" });
    return fail();
  }
  // Every clip, or each one --clip names (a second --clip adds a clip; it used to replace the first).
  const wanted = options.clip === undefined ? undefined : new Set(options.clip);
  const chosen = wanted === undefined ? clips.map((_, i) => i) : clips.flatMap((c, i) => (wanted.has(c.name) ? [i] : []));
  const missing = wanted === undefined ? [] : [...wanted].filter((name) => !clips.some((c) => c.name === name));
  if (chosen.length === 0 || missing.length > 0) {
    const list = `(clips: ${clips.map((c) => c.name).join(", ") || "none"})`;
    if (wanted === undefined) diagnostics.push({ code: "E_MIRROR_NO_CLIP", severity: "error", file: input, pointer: "", message: "the file has no animation clip" });
    for (const name of missing) diagnostics.push({ code: "E_MIRROR_NO_CLIP", severity: "error", file: input, pointer: "", message: `no clip named "${name}" ${list}` });
    return fail();
  }

  // Pair and mirror. A .vrma's humanoid pairs follow the given ones (minus the joints those name); a
  // finding about one points at its bone in the .vrma's extension rather than at a pairs file.
  const given = new Set(settings.pairs.flat());
  const fromHumanoid = humanoidPairs.filter(({ pair }) => !given.has(pair[0]) && !given.has(pair[1]));
  const compiled = compileMirrorMap(skeleton, {
    ...(axis !== undefined ? { axis } : {}), pairs: [...settings.pairs, ...fromHumanoid.map((h) => h.pair)], ...(settings.detect !== undefined ? { detect: settings.detect } : {}),
    file: input, ...(options.pairs !== undefined ? { pairsFile: options.pairs } : {}), pairsPointer,
  });
  for (const d of compiled.diagnostics) {
    const at = d.pointer.startsWith(`${pairsPointer}/`) ? /^\/(\d+)/.exec(d.pointer.slice(pairsPointer.length)) : null;
    const h = at && d.file === (options.pairs ?? input) ? fromHumanoid[Number(at[1]) - settings.pairs.length] : undefined;
    diagnostics.push(h ? { ...d, file: input, pointer: `/extensions/VRMC_vrm_animation/humanoid/humanBones/${h.bone}` } : d);
  }
  if (!compiled.map) return fail();
  const map = compiled.map;
  const mirrored = chosen.map((i) => mirrorClipWithMap(clips[i]!, map));

  // Write.
  let bytes: Uint8Array | string;
  if (bvh) {
    const text = formatBvh(bvh, mirrored[0]!);
    if (!text.text) {
      for (const problem of text.problems) {
        diagnostics.push({ code: "E_MIRROR_BVH_CHANNELS", severity: "error", file: input, pointer: "", message: `${problem}: the mirrored motion cannot be written with the file's channels; nothing was written` });
      }
      return fail();
    }
    bytes = text.text;
  } else {
    const gltfIO = createGltfIO().registerExtensions([VrmaAnimationExtension]);
    const read = await readGltfDocument(inPath, gltfIO, input);
    appendAll(diagnostics, read.diagnostics);
    if (!read.doc) return fail();
    const doc = read.doc;
    // The expressions and the gaze first, while the animations keep their indices.
    const vrma = doc.getRoot().listExtensionsUsed().find((e): e is VrmaAnimationExtension => e instanceof VrmaAnimationExtension);
    if (vrma) mirrorVrmaExtras(doc, vrma.data, chosen.flatMap((i) => clipSources[i]!), map.axis);
    // Replace the later animations first: disposing an emptied animation shifts the indices after it.
    const order = chosen.map((i, k) => ({ sources: clipSources[i]!, clip: mirrored[k]! })).sort((a, b) => Math.min(...b.sources) - Math.min(...a.sources));
    for (const { sources, clip } of order) replaceClipInGltf(doc, sources, clip);
    bytes = await gltfIO.writeBinary(doc);
  }
  if (!writeOutputFile(ctx, out, bytes)) {
    ctx.printDiagnostics(diagnostics);
    return;
  }
  report(ctx, input, options, map, mirrored);
  ctx.printDiagnostics(diagnostics);
  ctx.exitCode = diagnostics.some((d) => d.severity !== "info") ? ExitCode.Findings : ExitCode.Clean;
}

function report(ctx: CliContext, input: string, options: MirrorCliOptions, map: MirrorMap, clips: readonly Clip[]): void {
  const names = map.skeleton.names;
  const onPlane = names.filter((_, j) => map.partner[j] === j);
  if (options.json) {
    ctx.io.stdout(`${JSON.stringify({
      input, out: options.out, axis: map.axis, reference: map.referenceKind, asymmetry: map.asymmetry,
      pairs: map.pairs, onPlane, clips: clips.map((c) => ({ name: c.name, duration: c.duration, channels: c.tracks.length })),
    }, null, 2)}\n`);
    return;
  }
  const pct = (x: number): string => `${(100 * x).toFixed(2)} %`;
  ctx.io.stdout(
    `${options.out}: mirrored ${clips.length} clip${clips.length === 1 ? "" : "s"} (${clips.map((c) => c.name).join(", ")}) across ${map.axis} = 0, ` +
      `relative to the ${map.referenceKind} pose (asymmetry ${pct(map.asymmetry)})\n` +
      `  ${map.pairs.length} pairs: ${map.pairs.map(([a, b]) => `${a} ↔ ${b}`).join(", ") || "none"}\n` +
      `  ${onPlane.length} on the plane: ${onPlane.join(", ") || "none"}\n`,
  );
}

/** A .vrma's left/right pairs from its humanoid bones: leftX ↔ rightX, by the joints' names in the file. */
function humanoidMirrorPairs(humanBones: ReadonlyMap<VrmHumanBoneName, number>, names: readonly string[]): { pair: MirrorPair; bone: VrmHumanBoneName }[] {
  const out: { pair: MirrorPair; bone: VrmHumanBoneName }[] = [];
  for (const [bone, j] of humanBones) {
    if (!bone.startsWith("left")) continue;
    const k = humanBones.get(`right${bone.slice(4)}` as VrmHumanBoneName);
    if (k !== undefined) out.push({ pair: [names[j]!, names[k]!], bone });
  }
  return out;
}

// What `run` and `check` both start from: the spec, and the skeleton and clips it plays on (a glTF's
// first skeleton, a BVH's take, a .vrma's humanoid, or the spec's procedural stand-ins). Problems are
// printed and the exit code set here.
import { extname, resolve } from "node:path";
import { ExitCode } from "../diagnostics/exit-codes.ts";
import { standInClips } from "../demo/stand-in-clips.ts";
import type { MotionSource } from "../graph/motion-source.ts";
import { loadGltfFile } from "../io/gltf/load-gltf-file.ts";
import { loadRig } from "../retarget/load-rig.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { ReadGraphSpecResult } from "../spec/parse-graph-spec.ts";
import { readGraphSpec } from "../spec/read-graph-spec-file.ts";
import type { CliContext } from "./context.ts";

export interface GraphInputs {
  readonly spec: NonNullable<ReadGraphSpecResult["spec"]>;
  readonly document: ReadGraphSpecResult["document"];
  readonly skeleton: Skeleton;
  readonly clips: readonly MotionSource[] | ReadonlyMap<string, MotionSource>;
}

/** Clip files read by loadRig rather than as glTF: their skeleton is the motion's own. */
export const MOTION_ONLY: ReadonlySet<string> = new Set([".bvh", ".vrma"]);

/** Reads `specPath` and `clipsPath` (stand-in clips when undefined); undefined when either is unusable. */
export async function readGraphInputs(ctx: CliContext, specPath: string, clipsPath: string | undefined): Promise<GraphInputs | undefined> {
  const { io } = ctx;
  const specResult = readGraphSpec(resolve(io.cwd, specPath), {}, specPath);
  ctx.printDiagnostics(specResult.diagnostics);
  const spec = specResult.spec;
  if (!spec) {
    ctx.exitCode = ExitCode.Unusable;
    return undefined;
  }
  if (clipsPath === undefined) return { spec, document: specResult.document, ...standInClips(spec) };
  // A capture (.bvh) or a VRM animation (.vrma) plays as retarget and compress read it: one skeleton,
  // its clips named as those commands print them (a BVH's take after its file name).
  if (MOTION_ONLY.has(extname(clipsPath).toLowerCase())) {
    const rig = await loadRig(resolve(io.cwd, clipsPath), { label: clipsPath });
    ctx.printDiagnostics(rig.diagnostics.filter((d) => d.severity === "error"));
    if (!rig.skeleton) {
      ctx.exitCode = ExitCode.Unusable;
      return undefined;
    }
    return { spec, document: specResult.document, skeleton: rig.skeleton, clips: rig.clips };
  }
  const loaded = await loadGltfFile(resolve(io.cwd, clipsPath), { fileName: clipsPath });
  ctx.printDiagnostics(loaded.diagnostics.filter((d) => d.severity === "error"));
  const first = loaded.skeletons[0];
  if (!loaded.ok || !first) {
    if (loaded.ok) io.stderr(`${clipsPath}: the file has no skeleton [E_NO_SKELETON]\n`);
    ctx.exitCode = ExitCode.Unusable;
    return undefined;
  }
  return { spec, document: specResult.document, skeleton: first, clips: loaded.clips.filter((c) => c.skeleton === first) };
}

// The public API of animgraph: an explicit list, so internals stay internal.
export type { Diagnostic, Severity } from "./diagnostics/diagnostic.ts";
export { compareDiagnostics, formatDiagnostic, hasErrors } from "./diagnostics/diagnostic.ts";
export { ExitCode } from "./diagnostics/exit-codes.ts";
export type { JsonNode, JsonDocument, JsonLimits } from "./json/index.ts";
export { parseJsonText, readJsonFile, toPlainValue } from "./json/index.ts";
export { writeFileAtomic } from "./fs/atomic-write.ts";

export type { Pose } from "./pose/pose.ts";
export { createPose, copyPose } from "./pose/pose.ts";
export type { Skeleton, SkeletonInit } from "./skeleton/skeleton.ts";
export { createSkeleton, descendantsOf } from "./skeleton/skeleton.ts";
export type { Clip, ClipInit, JointTrack, FloatTrack, Interpolation, TrackPath, LoopMode } from "./clip/clip.ts";
export { createClip } from "./clip/clip.ts";

export type { BlendCheckSpec, BlendSpaceSpec, BlendAxis, BlendSample, BlendQuery, TransitionBudget, TransitionSpec } from "./blend-check/index.ts";
export type { BlendCheckReport, BlendCheckResult, BlendSpecValidation, PermilleAxis, PermilleSample, PyJsonValue } from "./blend-check/index.ts";
export {
  floorDiv, axisPermille, bilinearPermille, compareCodePoints, sortedByCodePoint, digest16, dumpPythonJson,
  validateBlendSpec, analyzeBlendSpec, blendSpecFindings, formatBlendSummary, formatBlendReportJson,
  blendCheckFile, blendCheckText, blendCheckDocument,
} from "./blend-check/index.ts";

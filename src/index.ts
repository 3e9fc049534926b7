// The public API of animgraph: an explicit list, so internals stay internal. This entry runs in browsers
// and Node alike (no Node built-in is reachable from it; test/package/browser-entry.test.ts holds that);
// reading and writing files by path is in animgraph/node (src/node.ts).
// Programmer errors (wrong-typed arguments, disposed objects, poses of another skeleton) throw
// AnimgraphError with a stable code (docs/api-errors.md); user data comes back as diagnostics.
export type { AnimgraphErrorCode, AnimgraphErrorDetails, TypedArrayKind } from "./errors/index.ts";
export {
  AnimgraphError, ANIMGRAPH_ERROR_CODES, isAnimgraphError, describeValue, argumentError, rangeError, invalidValue, expectObject, expectOptionalObject,
  expectArray, expectString, expectBoolean, expectFunction, expectNumber, expectNumberArrayAt, expectFiniteNumber, expectNumberInRange, expectInteger, expectOneOf,
  expectTypedArray, expectNumberArray, expectNotDisposed, expectPose, expectSkeleton, expectClip,
} from "./errors/index.ts";
export type { Diagnostic, Severity } from "./diagnostics/diagnostic.ts";
export { compareDiagnostics, formatDiagnostic, hasErrors } from "./diagnostics/diagnostic.ts";
export { ExitCode } from "./diagnostics/exit-codes.ts";
export type { JsonNode, JsonDocument, JsonLimits } from "./json/index.ts";
export type {
  JsonNodeBase, JsonObjectNode, JsonArrayNode, JsonStringNode, JsonNumberNode, JsonBooleanNode, JsonNullNode, SourceText,
} from "./json/index.ts";
export { parseJsonText, toPlainValue } from "./json/index.ts";
export type { JsonInput } from "./json/document-from-value.ts";
export { documentFromValue } from "./json/document-from-value.ts";

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
  blendCheckText, blendCheckDocument,
} from "./blend-check/index.ts";

export type { WeightArray, BlendGrid, BlendSample2D, BlendSpace2DKind, CompiledBlendSpace2D, CompileBlendSpace2DOptions, CompileBlendSpace2DResult } from "./blend-space/index.ts";
export {
  blend1DLinearWeights, blend1DInverseDistanceWeights, gridBlendWeights, assertBlendGrid, compileBlendSpace2D, blendSpace2DWeights,
} from "./blend-space/index.ts";

export type { BvhChannel, BvhData, BvhEndSite, BvhJointInfo, BvhLimits, BvhOptions, BvhResult } from "./io/bvh/index.ts";
export { parseBvh } from "./io/bvh/index.ts";
export type { FormatBvhOptions, FormatBvhResult } from "./io/bvh/write-bvh.ts";
export { formatBvh } from "./io/bvh/write-bvh.ts";
export { quatToEuler } from "./math/euler.ts";
export type {
  BoneRole, BoneSide, BoneMap, BoneMapEntry, BoneMapProposal, BoneMatchReason, BoneMapReadResult, BoneMapSettings,
  CompileBoneMapOptions, CompileBoneMapResult, CompiledBoneMap, RetargetOptions, NameInfo,
} from "./retarget/index.ts";
export { classifyName, classifySkeleton, proposeBoneMap, readBoneMap, compileBoneMap, retargetClip, bindPose } from "./retarget/index.ts";
export type { FootContactOptions } from "./retarget/index.ts";
export { findAnimatedRoot, detectFootContacts } from "./retarget/index.ts";
export type { TwoBoneIkSettings, FootPlacementSettings, GroundFunction, LegsUp } from "./ik/index.ts";
export { twoBoneIk, aimIk, aimChainIk, footPlacement, MAX_FOOT_PLACEMENT_LEGS, writeModelPose, CHANGED_ROTATION, CHANGED_POSITION, legsUp, legsPelvis, LEGS_UP_SNAP_DEGREES } from "./ik/index.ts";
// Mirroring (docs/mirroring.md): left/right pairs from joint names, a precomputed map, pose and clip jobs.
export type {
  MirrorSide, SideMarker, MirrorPair, MirrorPairsOptions, MirrorPairsResult, MirrorAxis, MirrorReference, MirrorOptions, MirrorMap,
  CompileMirrorMapResult, MirrorClipOptions, MirrorSettings, MirrorSettingsReadResult,
} from "./mirror/index.ts";
export {
  sideMarkers, swapMarkers, swapMarkerText, findMirrorPairs, compileMirrorMap, MIRROR_AXES, MIRROR_ASYMMETRY_WARNING, mirrorPose, mirrorClip,
  mirrorClipWithMap, readMirrorSettings,
} from "./mirror/index.ts";

// Pose runtime: math, clip sampling, blending, layers, sync and root motion.
export type { QuatArray, EulerOrder, QuatInterpolation } from "./math/quat.ts";
export {
  quatIdentity, quatSet, quatCopy, quatDot, quatMultiply, quatConjugate, quatInvert, quatNormalize, quatLength, quatNlerp,
  quatSlerp, quatSlerpFast, quatInterpolate, quatAngleBetween, quatRotateVec3, quatFromAxisAngle, quatFromEuler, quatTwistAngle,
} from "./math/public-math.ts";
export { atan2Poly } from "./math/atan2-poly.ts";
export type { Vec3Array } from "./math/vec3.ts";
export { vec3Set, vec3Copy, vec3Add, vec3Subtract, vec3Scale, vec3ScaleAndAdd, vec3Lerp, vec3Dot, vec3Cross, vec3Length, vec3Distance } from "./math/public-math.ts";
export type { Curve } from "./math/curves.ts";
export { CURVE_NAMES, isCurve, evaluateCurve } from "./math/curves.ts";
export type { ClipCursor, LoopSeam, LoopSeamTolerance, AdditiveReference } from "./clip/index.ts";
export {
  createClipCursor, resetClipCursor, sampleClip, sampleFloatTracks, floatTrackLength, sampleTrack, findKey, wrapTime, loopIndex,
  measureLoopSeam, isSeamlessLoop, meanBoneOffset, makeAdditiveClip,
} from "./clip/index.ts";
export type { BlendOptions, Layer, LayerMode, BoneMask } from "./blend/index.ts";
export {
  blendPoses, crossfade, normalizeWeights, DEFAULT_WEIGHT_THRESHOLD, applyAdditive, applyLayer, applyLayers,
  createBoneMask, maskFromJoints, invertMask, maskUnion, maskIntersection, scaleMask,
} from "./blend/index.ts";
export type { SyncGroup } from "./sync/index.ts";
export { syncedCycleDuration, advanceSyncedPhase, phaseToTime, wrapPhase, createSyncGroup, stepSyncGroup } from "./sync/index.ts";
export type { RootMotionExtractor, RootMotionOptions } from "./root-motion/index.ts";
export { createRootMotionExtractor, extractRootMotion, stripRootMotion, blendRootMotion } from "./root-motion/index.ts";

// Compression (keyframe reduction + quantisation under a model-space error bound), LOD and budgets.
export type { CompressOptions, CompressionStats, CompressResult, CompressedClip, CompressedTrack, CompressedClipCursor, SamplingPlan, AgcReadResult, FrameSequence } from "./compress/index.ts";
export {
  compressClip, measureCompression, detectSampleRate, MAX_COMPRESSED_FRAMES, TrackEncoding, KEYS_PER_BLOCK, compressedByteLength, decodeKey,
  createCompressedClipCursor, sampleCompressedClip, decompressClip, writeAgc, readAgc, AGC_MAGIC, AGC_VERSION, parseLength,
  estimateUnitsPerMetre, ASSUMED_JOINT_EXTENT_METRES, createFrameSequence, modelTransforms, vertexError, jointErrors,
} from "./compress/index.ts";
export type { UpdateRateBand, UpdateRateLod, JointImportance, JointLod, JointLodBand, BudgetScheduler, BudgetSchedulerOptions } from "./lod/index.ts";
export {
  createUpdateRateLod, updateInterval, isUpdateFrame, extrapolatePose, computeJointImportance, createJointLod, activeJointCount,
  freezeInactiveJoints, createBudgetScheduler, starvationBound,
} from "./lod/index.ts";

// Assets: glTF skeletons and clips, model-space transforms.
export type { NumArray } from "./math/mat4.ts";
export { mat4Identity, mat4Copy, mat4FromTRS, mat4Multiply, mat4Invert, mat4Decompose, mat4MaxDifference } from "./math/public-math.ts";
export { localToModel, skinningMatrices, modelToLocal } from "./pose/local-to-model.ts";
export type { LoadGltfOptions, GltfLoadResult, GltfMorphTargets } from "./io/gltf/load-gltf.ts";
export { loadGltf } from "./io/gltf/load-gltf.ts";
export type { DroppedTrack } from "./io/gltf/merge-clips.ts";
export { mergeClips } from "./io/gltf/merge-clips.ts";
// VRM animation (.vrma): humanoid clips with declared bone roles, expression and look-at float tracks.
export type { LoadVrmaOptions, VrmaLoadResult, VrmaExpression, VrmaLookAt, HumanoidNormalizer, VrmHumanBoneName } from "./io/vrma/index.ts";
export { loadVrma, VRMA_EXTENSION, createHumanoidNormalizer, normalizeHumanoidPose, VRM_HUMAN_BONE_NAMES, VRM_REQUIRED_BONES, VRM_EXPRESSION_PRESETS, vrmBoneRole, isVrmHumanBoneName } from "./io/vrma/index.ts";

// Graph specs: the authoring format, its parser/validator and the linter (docs/spec-format.md).
export type {
  GraphSpec, SpecSource, ParamType, ParamSpec, MaskSpec, LayerSpec, ParamRef, MachineSpec, StateSpec, LoopModeSpec, EventSpec,
  MotionSpec, ClipMotionSpec, Blend1DSpec, Blend2DSpec, MachineMotionSpec, CompareOp, ConditionSpec, InterruptionSource,
  InterruptionSpec, CurveName, TransitionBlend, MirrorSpec, TransitionSpec as GraphTransitionSpec, LayerMode as GraphLayerMode,
} from "./spec/graph-spec.ts";
export type {
  IkLayerSpec, TwoBoneIkLayerSpec, AimIkLayerSpec, FootPlacementLayerSpec, IkSolverName, IkValue,
} from "./spec/ik-spec.ts";
export type { ParseGraphSpecOptions, ParseGraphSpecResult, ReadGraphSpecResult, SpecLimits, SpecObjectKind } from "./spec/index.ts";
export type { GraphSpecInput } from "./spec/resolve-graph-spec.ts";
export { parseGraphSpec, SPEC_KEYS, SPEC_ENUMS, SPEC_DEFAULTS, ANY_STATE, DEFAULT_SPEC_LIMITS, nodeAtPointer, locateDiagnostics } from "./spec/index.ts";
export type { LintClipInfo, LintOptions, LintDocumentResult, SeedLintResult, LintCodeInfo } from "./lint/index.ts";
export { lintGraph, lintDocument, isSeedSpec, lintSeedSpec, LINT_CODES } from "./lint/index.ts";

// The checker (docs/check.md): explores a compiled graph with the runtime's own step; witnesses replay.
export type {
  CheckOptions, CheckReport, CheckFinding, CheckFindingKind, CheckWitness, CheckExploration, CheckProperty,
  ParsePropertiesResult, CompiledProperty, StateRef, WitnessTimeline, WitnessEvent,
} from "./check/index.ts";
export { checkGraph, parseProperties, formatCheckReport } from "./check/index.ts";

// The graph runtime (docs/runtime.md): compile, instances, commands, step, timelines, digests, demos.
export type {
  CompiledGraph, CompiledParam, CompiledCondition, CompiledTransition, CompiledEvent, CompiledMotion, CompiledState,
  CompiledMachine, CompiledLayer, InterruptMode, RuntimeOptions, ResolvedRuntimeOptions, CompileGraphResult,
  ProceduralClip, ProceduralClipInit, MotionSource, GraphInstance, MachineInstance, InertialState, PoseKeeper, StackEntry, StepResult, LayerStepInfo,
  GraphEvent, GraphEventType, EventQueue, TravelPlan, Timeline, TimelineCommand, ParseTimelineResult, Hasher,
  DigestRunOptions, RunDigest, StepSnapshot, LayerSnapshot, EventSnapshot,
  StepExplanation, MachineExplanation, TransitionExplanation, TransitionVerdict, ConditionExplanation,
} from "./graph/index.ts";
export type { CompiledIkLayer, IkRuntime } from "./graph/ik-layers.ts";
export {
  OP, INTERRUPT, BLEND, compileGraph, compileLintedGraph, resolveRuntimeOptions, createProceduralClip, isProceduralClip, createInstance,
  setParam, getParam, trigger, resetTrigger, travel, step, evaluateMachine, parseTimeline, parseDt,
  runTimeline, applyCommand, timelineStepCount, createSha256, digestRun, hashPose, describeStep, formatStepLine,
  explainStep, formatExplanation, disposeInstance,
} from "./graph/index.ts";
// Motion continuity measured from output poses: the velocity pop of a transition (docs/transitions.md).
export type { AngularVelocityJump, ContinuityMeter } from "./continuity/index.ts";
export { jointAngularVelocities, angularVelocityJump, transitionContinuity, createContinuityMeter } from "./continuity/index.ts";
// One call from a spec (text, object or document) and a loaded character to a running instance.
export type { Animator, AnimatorCharacter, CreateAnimatorOptions } from "./animator/create-animator.ts";
export { createAnimator } from "./animator/create-animator.ts";
export { runSeedDemo, seedDemoSpec, seedDemoAssets, compileSeedDemo, formatFixed, padRight, standInClips, clipNamesOf } from "./demo/index.ts";

// Crowds: many characters of one graph over contiguous buffers, shared sampling (docs/performance.md).
export type { Crowd, CrowdOptions, SampleCache, CrowdKernel } from "./crowd/index.ts";
export { createCrowd, evaluateCrowd, evaluateCrowdSelected, poseStride, poseView, createSampleCache, beginFrame, SLOTS_PER_CLIP, loadCrowdKernel, loadCrowdKernelSync, crowdKernelSupported } from "./crowd/index.ts";
export type { ClipSampler } from "./graph/graph-instance.ts";
export { advanceInstance } from "./graph/step.ts";

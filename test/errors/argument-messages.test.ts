// The messages the argument checks give, function by function: each names the function, the argument
// (with the field at fault) and what was expected, under a stable code (docs/api-errors.md). The
// property test (public-exports.test.ts) holds every export to AnimgraphError; this one to the words.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  computeJointImportance, createClip, createClipCursor, createFrameSequence, createPose, createSkeleton, createSyncGroup,
  createUpdateRateLod, freezeInactiveJoints, gridBlendWeights, hashPose, invertMask, isProceduralClip, isUpdateFrame, jointErrors, localToModel,
  maskFromJoints, maskUnion, modelToLocal, modelTransforms, normalizeWeights, poseView, sampleClip, sampleTrack, skinningMatrices, stepSyncGroup,
  syncedCycleDuration, updateInterval, vertexError, formatBlendSummary, makeAdditiveClip, mergeClips, isSeamlessLoop, measureLoopSeam, meanBoneOffset,
  proposeBoneMap, retargetClip, timelineStepCount, runTimeline, readAgc, writeAgc, sampleCompressedClip, stripRootMotion, normalizeHumanoidPose, formatDiagnostic, formatFixed, formatStepLine, hasErrors, locateDiagnostics, nodeAtPointer,
  padRight, parseDt, parseJsonText, sortedByCodePoint, toPlainValue,
} from "../../src/index.ts";
import { toSarif } from "../../src/node.ts";
import { throwsArgument } from "../helpers/throws-argument.ts";

test("reports, snapshots and diagnostics: the field at fault is named", () => {
  throwsArgument(() => formatBlendSummary(undefined as never), "ERR_ARGUMENT", /^formatBlendSummary: report must be a BlendCheckReport \(from analyzeBlendSpec\); got undefined$/);
  throwsArgument(() => formatBlendSummary({ project: "p", blendSpace: "b", sampleCount: 4 } as never), "ERR_ARGUMENT", /^formatBlendSummary: report\.queryCount must be a number, as in a BlendCheckReport/);
  throwsArgument(() => formatStepLine(0, { layers: [], events: [], rootDelta: [0, 0] } as never), "ERR_OUT_OF_RANGE", /formatStepLine: snap\.rootDelta must be an array or typed array of at least 4 numbers; got an array of length 2/);
  throwsArgument(() => formatStepLine(0, { layers: [null], events: [], rootDelta: [0, 0, 0, 0] } as never), "ERR_ARGUMENT", /formatStepLine: snap\.layers\[0\] must be LayerSnapshot; got null/);
  throwsArgument(() => formatDiagnostic({ code: "E_X", severity: "error", file: "a.json", message: "m" } as never), "ERR_ARGUMENT", /formatDiagnostic: d\.pointer must be a string, as in a Diagnostic; got undefined/);
  throwsArgument(() => hasErrors([{ severity: "error" }, 3] as never), "ERR_ARGUMENT", /hasErrors: diagnostics\[1\] must be Diagnostic; got the number 3/);
  throwsArgument(() => toSarif([], { version: 2 } as never), "ERR_ARGUMENT", /toSarif: options\.version must be a string or undefined/);
  assert.equal(hasErrors([{ code: "W", severity: "warning", file: "f", pointer: "", message: "m" }]), false);
});

test("JSON: a text, a node and a document are told apart from what was passed instead", () => {
  throwsArgument(() => parseJsonText({ a: 1 } as never, "spec.json"), "ERR_ARGUMENT", /^parseJsonText: text must be a string; got an object$/);
  throwsArgument(() => parseJsonText("{}", "spec.json", null as never), "ERR_ARGUMENT", /parseJsonText: limits must be an object; got null/);
  throwsArgument(() => toPlainValue({ kind: "object", members: {} } as never), "ERR_ARGUMENT", /toPlainValue: node must be a JsonNode/);
  throwsArgument(() => nodeAtPointer(parseJsonText("{}", "a.json").root, 3 as never), "ERR_ARGUMENT", /nodeAtPointer: pointer must be a string; got the number 3/);
  throwsArgument(() => locateDiagnostics({ file: "a.json" } as never, []), "ERR_ARGUMENT", /locateDiagnostics: doc must be a JsonDocument/);
  // Bad content is still diagnostics, not a throw.
  const doc = parseJsonText("{ \"a\": [1, }", "bad.json");
  assert.equal(doc.diagnostics[0]?.code, "E_JSON_SYNTAX");
  assert.deepEqual(toPlainValue(parseJsonText("{\"a\":[1,{\"b\":null}]}", "a.json").root!), Object.assign(Object.create(null), { a: [1, Object.assign(Object.create(null), { b: null })] }));
  const [located] = locateDiagnostics(parseJsonText("{\n  \"a\": 1\n}", "a.json"), [{ code: "E_X", severity: "error", file: "a.json", pointer: "/a/b", message: "m" }]);
  assert.deepEqual([located?.pointer, located?.line], ["/a", 2]);
});

test("number and text helpers: types are ERR_ARGUMENT, values outside the range ERR_OUT_OF_RANGE", () => {
  throwsArgument(() => formatFixed(0.5, 101), "ERR_OUT_OF_RANGE", /formatFixed: digits must be an integer in \[0, 100\]; got the number 101/);
  throwsArgument(() => formatFixed("0.5" as never, 2), "ERR_ARGUMENT", /formatFixed: x must be a number/);
  throwsArgument(() => padRight("ab", Number.POSITIVE_INFINITY), "ERR_ARGUMENT", /padRight: width must be an integer/);
  throwsArgument(() => sortedByCodePoint("cba" as never), "ERR_ARGUMENT", /sortedByCodePoint: values must be an iterable of strings/);
  throwsArgument(() => sortedByCodePoint(["b", 1] as never), "ERR_ARGUMENT", /sortedByCodePoint: values\[1\] must be a string; got the number 1/);
  throwsArgument(() => parseDt(null as never), "ERR_ARGUMENT", /parseDt: text must be a number or a string/);
  assert.equal(formatFixed(0.125, 2), "0.12");
  assert.equal(padRight("ab", 4), "ab  ");
  assert.deepEqual(sortedByCodePoint(new Set(["b", "a"])), ["a", "b"]);
  assert.equal(parseDt("1/60"), 1 / 60);
});

test("masks, poses and sampling: a part of another skeleton is ERR_SKELETON_MISMATCH, a wrong type ERR_ARGUMENT", () => {
  const skeleton = createSkeleton({ names: ["root", "spine", "head"], parents: [-1, 0, 1] });
  const other = createSkeleton({ names: ["a", "b", "c", "d", "e"], parents: [-1, 0, 1, 2, 3] });
  const times = new Float32Array([0, 1]);
  const clip = createClip({ name: "nod", skeleton, tracks: [{ joint: 2, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: new Float32Array([0, 0, 0, 1, 0, 0.3826834, 0, 0.9238795]) }] });
  throwsArgument(() => maskUnion(new Float32Array(3), new Float32Array(3), new Float32Array(5)), "ERR_SKELETON_MISMATCH", /^maskUnion: b has 5 joint weights but the other mask has 3/);
  throwsArgument(() => invertMask(new Float32Array(3), "mask" as never), "ERR_ARGUMENT", /invertMask: mask must be a BoneMask \(a Float32Array, one weight per joint\); got the string "mask"/);
  throwsArgument(() => maskFromJoints(skeleton, ["Torso"]), "ERR_INVALID_VALUE", /maskFromJoints: rootNames: no joint named "Torso"/);
  assert.deepEqual([...maskFromJoints(skeleton, ["spine"])], [0, 1, 1]);
  throwsArgument(() => localToModel(new Float32Array(48), skeleton, createPose(5)), "ERR_SKELETON_MISMATCH", /localToModel: pose has 5 joints but the skeleton has 3/);
  throwsArgument(() => localToModel(new Float32Array(16), skeleton, createPose(3)), "ERR_OUT_OF_RANGE", /localToModel: out must be a Float32Array of at least 48 numbers; got a Float32Array of length 16/);
  throwsArgument(() => skinningMatrices(new Float32Array(48), other, new Float32Array(48)), "ERR_OUT_OF_RANGE", /skinningMatrices: out must be a Float32Array of at least 80 numbers/);
  throwsArgument(() => modelToLocal(createPose(3), skeleton, [1, 2] as never), "ERR_ARGUMENT", /modelToLocal: model must be a Float32Array or Float64Array of 48 numbers; got an array of length 2/);
  const cursor = createClipCursor(clip);
  throwsArgument(() => sampleClip(createPose(5), clip, 0.5, cursor), "ERR_SKELETON_MISMATCH", /sampleClip: out has 5 joints but the skeleton has 3/);
  throwsArgument(() => sampleClip(skeleton.rest, clip, 0.5, cursor), "ERR_INVALID_VALUE", /sampleClip: out: must not be the skeleton's rest pose/);
  throwsArgument(() => sampleClip(createPose(3), clip, 0.5, createClipCursor(createClip({ name: "other", skeleton, tracks: [] }))), "ERR_INVALID_VALUE", /sampleClip: cursor: the cursor belongs to clip "other", not "nod"/);
  throwsArgument(() => sampleClip(createPose(3), clip, "0.5" as never, cursor), "ERR_ARGUMENT", /sampleClip: time must be a number; got the string "0.5"/);
  const values = new Float32Array([0, 0, 0, 1, 0, 0.3826834, 0, 0.9238795]);
  throwsArgument(() => sampleTrack(new Float32Array(2), 0, times, values, 4, "LINEAR", true, "slerp", 0.5, 0), "ERR_OUT_OF_RANGE", /sampleTrack: out must be an array of at least 4 numbers \(4 from offset 0\)/);
  throwsArgument(() => sampleTrack(new Float32Array(4), 0, times, values, 3, "LINEAR", true, "slerp", 0.5, 0), "ERR_OUT_OF_RANGE", /sampleTrack: stride must be 4 for a rotation track; got the number 3/);
  throwsArgument(() => sampleTrack(new Float32Array(4), 0, times, values, 4, "CUBICSPLINE", true, "slerp", 0.5, 0), "ERR_OUT_OF_RANGE", /sampleTrack: values must be a Float32Array of 12 × 2 floats/);
  const out = new Float32Array(4);
  sampleTrack(out, 0, times, values, 4, "LINEAR", true, "slerp", 1, 0);
  assert.deepEqual([...out], [...values.subarray(4)]);
  // The checked export samples what the library's loops sample.
  assert.deepEqual([...sampleClip(createPose(3), clip, 1, cursor).r.subarray(8)], [...values.subarray(4)]);
});

test("sync groups, LOD, hashing and compression metrics: containers and counts are checked before the loops", () => {
  throwsArgument(() => stepSyncGroup({ phase: 0 } as never, new Float64Array(2), 0.1, [1, 2], [1, 0]), "ERR_ARGUMENT", /stepSyncGroup: group must be a SyncGroup \(from createSyncGroup\)/);
  throwsArgument(() => stepSyncGroup(createSyncGroup(), new Float64Array(1), 0.1, [1, 2], [1, 0]), "ERR_OUT_OF_RANGE", /stepSyncGroup: outTimes must be an array or typed array of at least 2 numbers/);
  throwsArgument(() => syncedCycleDuration("12" as never, [1]), "ERR_ARGUMENT", /syncedCycleDuration: durations must be an array or typed array of numbers; got the string "12"/);
  assert.equal(syncedCycleDuration([1, 2], [1, 1]), 1.5);
  const lod = createUpdateRateLod([{ maxDistance: 10, interval: 1 }, { maxDistance: Infinity, interval: 4 }]);
  throwsArgument(() => updateInterval({ maxDistance: [10], interval: [1] } as never, 3), "ERR_ARGUMENT", /updateInterval: lod must be an UpdateRateLod \(from createUpdateRateLod\)/);
  throwsArgument(() => isUpdateFrame(lod, 20, "7" as never, 0), "ERR_ARGUMENT", /isUpdateFrame: frame must be a number/);
  assert.deepEqual([updateInterval(lod, 3), updateInterval(lod, 30), isUpdateFrame(lod, 30, 8, 0)], [1, 4, true]);
  const skeleton = createSkeleton({ names: ["root", "spine", "head"], parents: [-1, 0, 1] });
  const importance = computeJointImportance(skeleton);
  throwsArgument(() => freezeInactiveJoints(createPose(5), createPose(5), importance, 1), "ERR_SKELETON_MISMATCH", /freezeInactiveJoints: importance orders 3 joints but the poses have 5/);
  throwsArgument(() => freezeInactiveJoints(createPose(3), createPose(5), importance, 1), "ERR_SKELETON_MISMATCH", /freezeInactiveJoints: frozen has 5 joints but the skeleton has 3/);
  throwsArgument(() => hashPose({} as never, createPose(3)), "ERR_ARGUMENT", /hashPose: hasher must be a Hasher/);
  throwsArgument(() => poseView(new Float32Array(20), 0, 3), "ERR_OUT_OF_RANGE", /poseView: buf must be a Float32Array of at least 30 floats/);
  throwsArgument(() => isProceduralClip(null as never), "ERR_ARGUMENT", /isProceduralClip: source must be a Clip or a ProceduralClip; got null/);
  throwsArgument(() => modelTransforms(new Float64Array(36), skeleton, createFrameSequence(5, 1)), "ERR_SKELETON_MISMATCH", /modelTransforms: seq has 5 joints but the skeleton has 3/);
  throwsArgument(() => jointErrors(new Float64Array(3), new Float64Array(36), new Float64Array(12), 3, 1, 0.03), "ERR_OUT_OF_RANGE", /jointErrors: candidate must be a Float64Array of at least 36 numbers/);
  throwsArgument(() => vertexError(new Float64Array(12), 4, new Float64Array(12), 0, 0.03), "ERR_OUT_OF_RANGE", /vertexError: a must be an array of at least 16 numbers \(12 from offset 4\)/);
  throwsArgument(() => normalizeWeights(new Float32Array(1), [1, 2]), "ERR_OUT_OF_RANGE", /normalizeWeights: out must be an array or typed array of at least 2 numbers/);
  throwsArgument(() => gridBlendWeights(new Float32Array(4), { xs: [], ys: [0, 1] }, 0, 0), "ERR_OUT_OF_RANGE", /gridBlendWeights: grid\.xs must be an array or typed array of at least 1 numbers/);
});

test("clip tools, timelines, retargeting and compression containers: checked before any work", () => {
  const skeleton = createSkeleton({ names: ["root", "spine", "head"], parents: [-1, 0, 1] });
  const other = createSkeleton({ names: ["a", "b", "c", "d", "e"], parents: [-1, 0, 1, 2, 3] });
  const times = new Float32Array([0, 1]);
  const clip = createClip({ name: "nod", skeleton, tracks: [{ joint: 2, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: new Float32Array([0, 0, 0, 1, 0, 0.3826834, 0, 0.9238795]) }] });
  const foreign = createClip({ name: "wave", skeleton: other, tracks: [] });
  throwsArgument(() => makeAdditiveClip(undefined as never, { kind: "rest" }), "ERR_ARGUMENT", /^makeAdditiveClip: clip must be a Clip \(from createClip or a loader\); got undefined$/);
  throwsArgument(() => makeAdditiveClip(clip, { kind: "pose" } as never), "ERR_ARGUMENT", /makeAdditiveClip: reference must be \{ kind: "firstFrame" \}, \{ kind: "rest" \} or \{ kind: "clipFrame", clip, time \}/);
  throwsArgument(() => makeAdditiveClip(clip, { kind: "clipFrame", clip: foreign, time: 0 }), "ERR_SKELETON_MISMATCH", /makeAdditiveClip: reference\.clip is a clip of a 5-joint skeleton but the call works on 3 joints/);
  assert.equal(makeAdditiveClip(clip, { kind: "rest" }).name, "nod+additive");
  throwsArgument(() => mergeClips("both", [clip, foreign]), "ERR_SKELETON_MISMATCH", /mergeClips: clip "wave" is bound to another skeleton than clip "nod"/);
  throwsArgument(() => isSeamlessLoop(clip, { rotation: "0.1" } as never), "ERR_ARGUMENT", /isSeamlessLoop: tolerance\.rotation must be a number or undefined/);
  assert.equal(isSeamlessLoop(clip), false);
  throwsArgument(() => measureLoopSeam(clip, "0" as never), "ERR_ARGUMENT", /measureLoopSeam: ignoreJoints must be an array or typed array of numbers/);
  throwsArgument(() => meanBoneOffset({ name: "x", duration: 1, tracks: [], skeleton: {} } as never), "ERR_ARGUMENT", /meanBoneOffset: clip\.skeleton must be a Skeleton/);
  throwsArgument(() => proposeBoneMap(skeleton, null as never), "ERR_ARGUMENT", /proposeBoneMap: target must be a Skeleton/);
  throwsArgument(() => retargetClip(foreign, skeleton, other, { entries: [] }), "ERR_SKELETON_MISMATCH", /retargetClip: clip is a clip of a 5-joint skeleton but the call works on 3 joints/);
  throwsArgument(() => retargetClip(clip, skeleton, other, { entries: [] }, { sampleRate: 0 }), "ERR_OUT_OF_RANGE", /retargetClip: options\.sampleRate must be a number in/);
  throwsArgument(() => retargetClip(clip, skeleton, other, { entries: [null] } as never), "ERR_ARGUMENT", /retargetClip: map\.entries\[0\] must be BoneMapEntry; got null/);
  throwsArgument(() => timelineStepCount({ dt: 0.1, duration: 1 } as never), "ERR_ARGUMENT", /timelineStepCount: timeline must be a Timeline \(from parseTimeline or readTimeline\)/);
  throwsArgument(() => timelineStepCount({ file: "t.json", dt: 0.1, duration: 1, commands: [] }, 0), "ERR_OUT_OF_RANGE", /timelineStepCount: dt must be a finite number of seconds > 0; got the number 0/);
  assert.equal(timelineStepCount({ file: "t.json", dt: 0.1, duration: 1, commands: [] }), 10);
  throwsArgument(() => runTimeline(undefined as never, undefined as never, undefined as never, () => {}), "ERR_ARGUMENT", /^runTimeline: graph must be/);
  throwsArgument(() => readAgc("AGC1" as never, "a.agc"), "ERR_ARGUMENT", /readAgc: bytes must be a Uint8Array \(the file's bytes\); got the string "AGC1"/);
  assert.equal(readAgc(new Uint8Array(3), "a.agc").diagnostics[0]?.pointer.startsWith("byte"), true);
  throwsArgument(() => writeAgc([]), "ERR_OUT_OF_RANGE", /writeAgc: clips must be at least one clip when no skeleton is given/);
  throwsArgument(() => writeAgc([clip] as never), "ERR_ARGUMENT", /writeAgc: clips\[0\] must be a CompressedClip \(from compressClip or readAgc\)/);
  throwsArgument(() => sampleCompressedClip(createPose(3), clip as never, 0, null as never), "ERR_ARGUMENT", /sampleCompressedClip: clip must be a CompressedClip/);
  throwsArgument(() => stripRootMotion(createPose(3), {} as never), "ERR_ARGUMENT", /stripRootMotion: extractor must be a RootMotionExtractor/);
  throwsArgument(() => normalizeHumanoidPose(new Float32Array(4), new Float32Array(3), {} as never, createPose(3)), "ERR_ARGUMENT", /normalizeHumanoidPose: n must be a HumanoidNormalizer/);
});

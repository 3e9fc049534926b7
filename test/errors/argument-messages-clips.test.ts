// The messages of the argument checks on the clip-side exports (root motion, procedural clips, VRM
// normalizer, foot contacts, compression, blend spaces, bone maps): each names the function, the
// argument and what was expected, under a stable code (docs/api-errors.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  blendRootMotion, compileBlendSpace2D, compileBoneMap, compressClip, compressedByteLength, createClip, createHumanoidNormalizer, createPose,
  createProceduralClip, createRootMotionExtractor, createSkeleton, decodeKey, decompressClip, detectFootContacts, detectSampleRate, estimateUnitsPerMetre,
  extractRootMotion, normalizeHumanoidPose, parseJsonText, proposeBoneMap, stripRootMotion,
} from "../../src/index.ts";
import { throwsArgument } from "../helpers/throws-argument.ts";

const skeleton = createSkeleton({ names: ["root", "hips", "head"], parents: [-1, 0, 1] });
const times = new Float32Array([0, 0.5, 1]);
const walk = createClip({
  name: "walk", skeleton,
  tracks: [{ joint: 1, path: "translation", interpolation: "LINEAR", stride: 3, times, values: new Float32Array([0, 1, 0, 0, 1.1, 0.5, 0, 1, 1]) }],
});

test("root motion: extractor, deltas and weights are checked; per-frame calls stay type tests", () => {
  // Before any extractor was checked (the check remembers the last one it passed), undefined is no extractor.
  throwsArgument(() => extractRootMotion(new Float64Array(4), undefined as never, 0, 1, "loop"), "ERR_ARGUMENT", /^extractRootMotion: extractor must be a RootMotionExtractor \(from createRootMotionExtractor\); got undefined$/);
  throwsArgument(() => stripRootMotion(createPose(3), null as never), "ERR_ARGUMENT", /^stripRootMotion: extractor must be a RootMotionExtractor/);
  const fn = createRootMotionExtractor;
  throwsArgument(() => fn(undefined as never, 1), "ERR_ARGUMENT", /^createRootMotionExtractor: clip must be a Clip \(from createClip or a loader\); got undefined$/);
  throwsArgument(() => fn(walk, 3), "ERR_OUT_OF_RANGE", /^createRootMotionExtractor: rootJoint must be an integer in \[0, 2\]; got the number 3$/);
  throwsArgument(() => fn(walk, "hips" as never), "ERR_ARGUMENT", /createRootMotionExtractor: rootJoint must be an integer; got the string "hips"/);
  throwsArgument(() => fn(walk, 1, null as never), "ERR_ARGUMENT", /createRootMotionExtractor: options must be a RootMotionOptions object/);
  throwsArgument(() => fn(walk, 1, { up: "Y" } as never), "ERR_ARGUMENT", /createRootMotionExtractor: options\.up must be one of "x", "y", "z"; got the string "Y"/);
  throwsArgument(() => fn(walk, 1, { keepVertical: 0 } as never), "ERR_ARGUMENT", /createRootMotionExtractor: options\.keepVertical must be a boolean or undefined/);
  const extractor = fn(walk, 1);
  const delta = new Float64Array(4);
  throwsArgument(() => extractRootMotion([0, 0, 0, 0] as never, extractor, 0, 0.5, "loop"), "ERR_ARGUMENT", /^extractRootMotion: outDelta must be a Float32Array or Float64Array of at least 4 numbers; got an array of length 4$/);
  throwsArgument(() => extractRootMotion(new Float32Array(3), extractor, 0, 0.5, "loop"), "ERR_OUT_OF_RANGE", /extractRootMotion: outDelta must be a Float32Array or Float64Array of at least 4 numbers; got a Float32Array of length 3/);
  throwsArgument(() => extractRootMotion(delta, { joint: 1 } as never, 0, 0.5, "loop"), "ERR_ARGUMENT", /extractRootMotion: extractor must be a RootMotionExtractor \(from createRootMotionExtractor\)/);
  throwsArgument(() => extractRootMotion(delta, { ...extractor, clip: {} } as never, 0, 0.5, "loop"), "ERR_ARGUMENT", /extractRootMotion: extractor\.clip must be a Clip/);
  throwsArgument(() => extractRootMotion(delta, { ...extractor, joint: 7 }, 0, 0.5, "loop"), "ERR_ARGUMENT", /extractRootMotion: extractor\.joint must be a joint index of the extractor's clip \(0 to 2\); got the number 7/);
  throwsArgument(() => extractRootMotion(delta, extractor, "0" as never, 0.5, "loop"), "ERR_ARGUMENT", /extractRootMotion: t0 must be a number; got the string "0"/);
  throwsArgument(() => extractRootMotion(delta, extractor, 0, 0.5, "repeat" as never), "ERR_ARGUMENT", /extractRootMotion: loopMode must be one of "loop", "clamp", "pingpong"; got the string "repeat"/);
  // A copy of an extractor (a plain object with the same fields) passes the full check once.
  assert.deepEqual([...extractRootMotion(delta, { ...extractor }, 0, 0.5, "clamp")].map((v) => Math.round(v * 1e6) / 1e6), [0, 0, 0.5, 0]);
  throwsArgument(() => stripRootMotion(createPose(3), { ...extractor, hints: [0, 0] } as never), "ERR_ARGUMENT", /stripRootMotion: extractor must be a RootMotionExtractor/);
  throwsArgument(() => stripRootMotion(createPose(5), extractor), "ERR_SKELETON_MISMATCH", /stripRootMotion: pose has 5 joints but the skeleton has 3/);

  const out = new Float32Array(4);
  throwsArgument(() => blendRootMotion(undefined as never, [], []), "ERR_ARGUMENT", /^blendRootMotion: out must be a Float32Array or Float64Array of at least 4 numbers; got undefined$/);
  throwsArgument(() => blendRootMotion(out, new Float32Array(4) as never, [1]), "ERR_ARGUMENT", /blendRootMotion: deltas must be an array; got a Float32Array of length 4/);
  throwsArgument(() => blendRootMotion(out, [new Float32Array(4)], "1" as never), "ERR_ARGUMENT", /blendRootMotion: weights must be an array or typed array of numbers; got the string "1"/);
  throwsArgument(() => blendRootMotion(out, [new Float32Array(4), new Float32Array(2)], [1, 0]), "ERR_ARGUMENT", /blendRootMotion: deltas\[1\] must be a Float32Array or Float64Array of at least 4 numbers \(dx, dy, dz, dyaw\); got a Float32Array of length 2/);
  throwsArgument(() => blendRootMotion(out, [new Float32Array(4)], ["0.5"] as never), "ERR_ARGUMENT", /blendRootMotion: weights\[0\] must be a number; got the string "0.5"/);
  // Deltas past the shorter of the two lists are not read, as before.
  assert.deepEqual([...blendRootMotion(out, [new Float32Array([2, 0, 4, 0.2]), new Float32Array(4)], [1])], [2, 0, 4, Math.fround(0.2)]);
});

test("procedural clips: every field of init is checked, the duration must be > 0", () => {
  const sample = (): void => {};
  throwsArgument(() => createProceduralClip(undefined as never), "ERR_ARGUMENT", /^createProceduralClip: init must be an object; got undefined$/);
  throwsArgument(() => createProceduralClip({ name: 3, duration: 1, sample } as never), "ERR_ARGUMENT", /createProceduralClip: init\.name must be a string; got the number 3/);
  throwsArgument(() => createProceduralClip({ name: "sway", duration: "1", sample } as never), "ERR_ARGUMENT", /createProceduralClip: init\.duration must be a number of seconds > 0 \(or Infinity\); got the string "1"/);
  throwsArgument(() => createProceduralClip({ name: "sway", duration: 0, sample }), "ERR_OUT_OF_RANGE", /createProceduralClip: init\.duration must be a number of seconds > 0 \(or Infinity\) for procedural clip "sway"; got the number 0/);
  throwsArgument(() => createProceduralClip({ name: "sway", duration: Number.NaN, sample }), "ERR_OUT_OF_RANGE", /got the number NaN/);
  throwsArgument(() => createProceduralClip({ name: "sway", duration: 1, sample: "sin" } as never), "ERR_ARGUMENT", /createProceduralClip: init\.sample must be a function; got the string "sin"/);
  throwsArgument(() => createProceduralClip({ name: "sway", duration: 1, sample, loopMode: "once" } as never), "ERR_ARGUMENT", /createProceduralClip: init\.loopMode must be one of "loop", "clamp", "pingpong"/);
  throwsArgument(() => createProceduralClip({ name: "sway", duration: 1, sample, rootVelocity: [1, 0] } as never), "ERR_ARGUMENT", /createProceduralClip: init\.rootVelocity must be undefined or 3 finite numbers \(x, y, z units per second\); got an array of length 2/);
  throwsArgument(() => createProceduralClip({ name: "sway", duration: 1, sample, rootVelocity: [1, Number.NaN, 0] }), "ERR_ARGUMENT", /init\.rootVelocity must be undefined or 3 finite numbers/);
  const endless = createProceduralClip({ name: "drift", duration: Infinity, sample, rootVelocity: new Float32Array([1, 0, 0]) as never });
  assert.deepEqual([endless.duration, endless.loopMode, [...endless.rootVelocity!]], [Infinity, "loop", [1, 0, 0]]);
});

test("VRM humanoid normalizer: a Map or a plain object of bone name → joint index", () => {
  throwsArgument(() => createHumanoidNormalizer({} as never, new Map()), "ERR_ARGUMENT", /^createHumanoidNormalizer: skeleton must be a Skeleton/);
  throwsArgument(() => createHumanoidNormalizer(skeleton, [["hips", 1]] as never), "ERR_ARGUMENT", /createHumanoidNormalizer: humanBones must be a Map or an object from VRM bone name to joint index \(VrmaLoadResult\.humanBones\); got an array of length 1/);
  throwsArgument(() => createHumanoidNormalizer(skeleton, { hip: 1 } as never), "ERR_INVALID_VALUE", /createHumanoidNormalizer: humanBones: "hip" is not a VRM humanoid bone name \(see VRM_HUMAN_BONE_NAMES\)/);
  throwsArgument(() => createHumanoidNormalizer(skeleton, new Map([["hips", "1"]]) as never), "ERR_ARGUMENT", /createHumanoidNormalizer: humanBones\.hips must be a joint index \(an integer\); got the string "1"/);
  throwsArgument(() => createHumanoidNormalizer(skeleton, { hips: 1, head: 3 }), "ERR_OUT_OF_RANGE", /createHumanoidNormalizer: humanBones\.head must be a joint index of the skeleton, in \[0, 2\]; got the number 3/);
  // The plain object and the Map build the same normalizer.
  const fromObject = createHumanoidNormalizer(skeleton, { head: 2, hips: 1 });
  const fromMap = createHumanoidNormalizer(skeleton, new Map([["hips", 1], ["head", 2]] as const));
  assert.deepEqual([fromObject.bones, [...fromObject.joints], fromObject.hips], [fromMap.bones, [...fromMap.joints], fromMap.hips]);
  assert.deepEqual(fromObject.bones, ["hips", "head"]);
  const rotations = new Float32Array(8), hips = new Float32Array(3);
  normalizeHumanoidPose(rotations, hips, fromObject, skeleton.rest);
  assert.deepEqual([...rotations], [0, 0, 0, 1, 0, 0, 0, 1]);
});

test("foot contacts: arrays sized for the frames, thresholds numbers", () => {
  const n = 4;
  const p = new Float64Array(3 * n), up = [0, 1, 0], t = [0, 0.1, 0.2, 0.3];
  throwsArgument(() => detectFootContacts(new Uint8Array(n), p, "0.1" as never, up, 1), "ERR_ARGUMENT", /^detectFootContacts: times must be an array or typed array of numbers; got the string "0.1"$/);
  throwsArgument(() => detectFootContacts(new Uint8Array(2), p, t, up, 1), "ERR_OUT_OF_RANGE", /detectFootContacts: out must be a Uint8Array of at least 4 numbers; got a Uint8Array of length 2/);
  throwsArgument(() => detectFootContacts(new Uint8Array(n), new Float32Array(12) as never, t, up, 1), "ERR_ARGUMENT", /detectFootContacts: p must be a Float64Array of at least 12 numbers; got a Float32Array of length 12/);
  throwsArgument(() => detectFootContacts(new Uint8Array(n), p, t, [0, 1], 1), "ERR_OUT_OF_RANGE", /detectFootContacts: up must be an array or typed array of at least 3 numbers/);
  throwsArgument(() => detectFootContacts(new Uint8Array(n), p, t, up, Number.NaN), "ERR_ARGUMENT", /detectFootContacts: H must be a finite number; got the number NaN/);
  throwsArgument(() => detectFootContacts(new Uint8Array(n), p, t, up, 1, { minDuration: "0.05" } as never), "ERR_ARGUMENT", /detectFootContacts: options\.minDuration must be a number or undefined, as in a FootContactOptions object/);
  const out = new Uint8Array(n);
  detectFootContacts(out, p, t, up, 1, { minDuration: 0 });
  assert.deepEqual([...out], [1, 1, 1, 1]);
});

test("compression: clips, options, tracks and keys are checked; option values stay diagnostics", () => {
  const turn = createClip({
    name: "turn", skeleton,
    tracks: [{ joint: 2, path: "rotation", interpolation: "LINEAR", stride: 4, times: new Float32Array([0, 0.5, 1]), values: new Float32Array([0, 0, 0, 1, 0, 0.3826834, 0, 0.9238795, 0, 0.7071068, 0, 0.7071068]) }],
  });
  throwsArgument(() => compressClip(undefined as never), "ERR_ARGUMENT", /^compressClip: clip must be a Clip \(from createClip or a loader\); got undefined$/);
  throwsArgument(() => compressClip({ ...turn, tracks: [{ joint: 2, path: "rotation" }] } as never), "ERR_ARGUMENT", /compressClip: clip\.tracks\[0\]\.interpolation must be a string, as in JointTrack/);
  throwsArgument(() => compressClip(turn, null as never), "ERR_ARGUMENT", /compressClip: options must be a CompressOptions object; got null/);
  throwsArgument(() => compressClip(turn, { tolerance: "0.1mm" } as never), "ERR_ARGUMENT", /compressClip: options\.tolerance must be a number or undefined, as in a CompressOptions object; got the string "0\.1mm"/);
  throwsArgument(() => compressClip(turn, { compensate: "no" } as never), "ERR_ARGUMENT", /compressClip: options\.compensate must be a boolean or undefined/);
  throwsArgument(() => compressClip(turn, { onProgress: true } as never), "ERR_ARGUMENT", /compressClip: options\.onProgress must be a function or undefined/);
  throwsArgument(() => compressClip(turn, { quatMode: "squad" } as never), "ERR_ARGUMENT", /compressClip: options\.quatMode must be one of "slerp", "fastSlerp", "nlerp"/);
  // A number the compressor cannot use is still a diagnostic, as the CLI reports it.
  assert.deepEqual(compressClip(turn, { tolerance: -1 }).diagnostics.map((d) => d.code), ["E_COMPRESS_OPTION"]);
  throwsArgument(() => detectSampleRate([] as never), "ERR_ARGUMENT", /^detectSampleRate: clip must be a Clip/);
  assert.equal(detectSampleRate(turn), 2);
  throwsArgument(() => estimateUnitsPerMetre(skeleton, 0), "ERR_OUT_OF_RANGE", /^estimateUnitsPerMetre: extentMetres must be a finite length in metres > 0; got the number 0$/);
  throwsArgument(() => estimateUnitsPerMetre(skeleton, "1.5" as never), "ERR_ARGUMENT", /estimateUnitsPerMetre: extentMetres must be a finite length in metres > 0; got the string "1\.5"/);
  throwsArgument(() => estimateUnitsPerMetre(null as never), "ERR_ARGUMENT", /estimateUnitsPerMetre: skeleton must be a Skeleton/);

  const { compressed } = compressClip(turn, { sampleRate: 30 });
  assert.ok(compressed);
  const track = compressed.tracks[compressed.trackIndex[3 * 2 + 1]!]!;
  const key = new Float32Array(4);
  throwsArgument(() => decodeKey(key, 0, { ...track, blockStep: [] } as never, 0), "ERR_ARGUMENT", /^decodeKey: track must be a CompressedTrack \(an entry of a CompressedClip's tracks\)/);
  throwsArgument(() => decodeKey(key, 0, { ...track, path: "position" } as never, 0), "ERR_ARGUMENT", /decodeKey: track\.path must be one of "translation", "rotation", "scale"; got the string "position"/);
  throwsArgument(() => decodeKey([0, 0, 0, 0] as never, 0, track, 0), "ERR_ARGUMENT", /decodeKey: out must be a Float32Array; got an array of length 4/);
  throwsArgument(() => decodeKey(key, 1, track, 0), "ERR_OUT_OF_RANGE", /decodeKey: out must be a Float32Array of at least 5 numbers \(4 from offset 1\); got a Float32Array of length 4/);
  throwsArgument(() => decodeKey(key, 0, track, track.frameCount), "ERR_OUT_OF_RANGE", new RegExp(`decodeKey: f must be an integer in \\[0, ${track.frameCount - 1}\\]; got the number ${track.frameCount}`));
  throwsArgument(() => decodeKey(key, 0, track, 0.5), "ERR_ARGUMENT", /decodeKey: f must be an integer; got the number 0\.5/);
  decodeKey(key, 0, track, track.frameCount - 1);
  assert.ok(Math.abs(key[1]! - 0.7071068) < 1e-3 && Math.abs(key[3]! - 0.7071068) < 1e-3, `last key ${[...key]}`);

  throwsArgument(() => compressedByteLength(turn as never), "ERR_ARGUMENT", /^compressedByteLength: clip must be a CompressedClip \(from compressClip or readAgc\)/);
  throwsArgument(() => compressedByteLength({ ...compressed, tracks: [track, {}] } as never), "ERR_ARGUMENT", /compressedByteLength: clip\.tracks\[1\] must be a CompressedTrack/);
  assert.ok(compressedByteLength(compressed) > 32);
  throwsArgument(() => decompressClip(undefined as never), "ERR_ARGUMENT", /^decompressClip: compressed must be a CompressedClip/);
  throwsArgument(() => decompressClip({ ...compressed, tracks: [null] } as never), "ERR_ARGUMENT", /decompressClip: compressed\.tracks\[0\] must be a CompressedTrack/);
  assert.equal(decompressClip(compressed).tracks.length, compressed.tracks.length);
});

test("2D blend spaces: sample types are checked, sample values stay diagnostics at their pointers", () => {
  throwsArgument(() => compileBlendSpace2D(undefined as never), "ERR_ARGUMENT", /^compileBlendSpace2D: samples must be an array of \{ x, y \} sample positions; got undefined$/);
  throwsArgument(() => compileBlendSpace2D("xy" as never), "ERR_ARGUMENT", /compileBlendSpace2D: samples must be an array of \{ x, y \} sample positions; got the string "xy"/);
  throwsArgument(() => compileBlendSpace2D([{ x: 0, y: 0 }, null] as never), "ERR_ARGUMENT", /compileBlendSpace2D: samples\[1\] must be a sample position \{ x, y \}; got null/);
  throwsArgument(() => compileBlendSpace2D([{ x: 0, y: "1" }] as never), "ERR_ARGUMENT", /compileBlendSpace2D: samples\[0\]\.y must be a number; got the string "1"/);
  throwsArgument(() => compileBlendSpace2D([{ x: 0, y: 1 }], { pointer: 3 } as never), "ERR_ARGUMENT", /compileBlendSpace2D: options\.pointer must be a string or undefined/);
  const { compiled, diagnostics } = compileBlendSpace2D([{ x: 0, y: 0 }, { x: Number.NaN, y: 1 }, { x: 1, y: 0 }, { x: 0, y: 1 }], { file: "locomotion.json", pointer: "/samples" });
  assert.equal(compiled?.kind, "triangles");
  assert.deepEqual(diagnostics.map((d) => [d.code, d.file, d.pointer]), [["E_BLEND_SAMPLE_NOT_FINITE", "locomotion.json", "/samples/1"]]);
});

test("bone maps: a BoneMap, or a bone-map file's text, document or plain object; diagnostics at JSON pointers", () => {
  const source = createSkeleton({ names: ["Hips", "Spine", "Head"], parents: [-1, 0, 1] });
  const target = createSkeleton({ names: ["mixamorig:Hips", "mixamorig:Spine", "mixamorig:Head"], parents: [-1, 0, 1] });
  throwsArgument(() => compileBoneMap({ entries: [] }, undefined as never, target), "ERR_ARGUMENT", /^compileBoneMap: source must be a Skeleton/);
  throwsArgument(() => compileBoneMap(42 as never, source, target), "ERR_ARGUMENT", /compileBoneMap: map must be a BoneMap \(\{ entries \}\), or a bone-map file's JSON text, parsed document or object; got the number 42/);
  throwsArgument(() => compileBoneMap({ entries: [{ source: "Hips" }] } as never, source, target), "ERR_ARGUMENT", /compileBoneMap: map\.entries\[0\]\.target must be a string, as in BoneMapEntry/);
  throwsArgument(() => compileBoneMap({ entries: [] }, source, target, { sourceRest: createPose(5) }), "ERR_SKELETON_MISMATCH", /compileBoneMap: options\.sourceRest has 5 joints but the skeleton has 3/);
  throwsArgument(() => compileBoneMap({ entries: [] }, source, target, { alignRest: "yes" } as never), "ERR_ARGUMENT", /compileBoneMap: options\.alignRest must be a boolean or undefined/);
  const other = createSkeleton({ names: ["a", "b", "c", "d", "e"], parents: [-1, 0, 1, 2, 3] });
  throwsArgument(() => compileBoneMap({ entries: [] }, source, target, { targetClips: [createClip({ name: "wave", skeleton: other, tracks: [] })] }), "ERR_SKELETON_MISMATCH", /compileBoneMap: options\.targetClips\[0\] is a clip of a 5-joint skeleton but the call works on 3 joints/);
  // Entries written in code may leave out confidence (1, as an explicit entry).
  const byEntries = compileBoneMap({ entries: [{ source: "Hips", target: "mixamorig:Hips" }, { source: "Head", target: "mixamorig:Head" }] } as never, source, target);
  assert.deepEqual([...byEntries.compiled!.sourceOf], [0, -1, 2]);
  assert.deepEqual([...byEntries.compiled!.confidence], [1, 0, 1]);
  // The file's forms: a plain object, its text and its parsed document compile the same, with the file's settings.
  const file = { bones: { Hips: "mixamorig:Hips", Head: "mixamorig:Head" }, rootMotionScale: 0.5 };
  const fromObject = compileBoneMap(file, source, target);
  const fromText = compileBoneMap(JSON.stringify(file), source, target);
  const fromDoc = compileBoneMap(parseJsonText(JSON.stringify(file), "robot.bones.json"), source, target);
  for (const r of [fromObject, fromText, fromDoc]) {
    assert.deepEqual([...r.compiled!.sourceOf], [0, -1, 2]);
    assert.equal(r.compiled!.rootMotionScale, 0.5);
  }
  // Options given to the call win over the file's settings.
  assert.equal(compileBoneMap(file, source, target, { rootMotionScale: 2 }).compiled!.rootMotionScale, 2);
  const bad = compileBoneMap(parseJsonText('{\n  "Hips": "mixamorig:Hips",\n  "Tail": "mixamorig:Head"\n}', "robot.bones.json"), source, target);
  assert.equal(bad.compiled, undefined);
  assert.deepEqual(bad.diagnostics.map((d) => [d.code, d.file, d.pointer, d.line]), [["E_BONEMAP_UNKNOWN_SOURCE", "robot.bones.json", "/Tail", 3]]);
  const named = compileBoneMap({ Hips: "mixamorig:Pelvis" }, source, target, { file: "code.bones" });
  assert.deepEqual(named.diagnostics.map((d) => [d.code, d.file, d.pointer]), [["E_BONEMAP_UNKNOWN_TARGET", "code.bones", "/Hips"]]);
  // proposeBoneMap's output goes straight in.
  assert.ok(compileBoneMap(proposeBoneMap(source, target), source, target).compiled);
});

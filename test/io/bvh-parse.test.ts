import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { Euler, Quaternion } from "three";
import { BVHLoader } from "three/examples/jsm/loaders/BVHLoader.js";
import type { JointTrack } from "../../src/clip/clip.ts";
import { createClipCursor } from "../../src/clip/clip-cursor.ts";
import { sampleClip } from "../../src/clip/sample-clip.ts";
import { createPose } from "../../src/pose/pose.ts";
import { parseBvh } from "../../src/io/bvh/index.ts";
import { loadBvh } from "../../src/io/bvh/load-bvh.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";

const PIROUETTE = sharedAsset("bvh-cmu-pirouette/pirouette.bvh");
const WALK = sharedAsset("bvh-cmu-131/131_01.bvh");
const WALK3 = sharedAsset("bvh-cmu-131/131_03.bvh");
const skip = !HAVE_SHARED_ASSETS;

/** The words of the file's line `n` (1-based), read independently of the parser. */
function fileLine(path: string, n: number): string[] {
  return readFileSync(path, "latin1").split(/\r\n|\n|\r/)[n - 1]!.trim().split(/\s+/);
}

/** BVH rotation channels as a three.js Euler: BVH "Z Y X" (qZ·qY·qX) is three's order "ZYX". */
function oracleQuat(order: string, degrees: readonly number[]): Quaternion {
  const rad: Record<string, number> = {};
  for (let k = 0; k < 3; k++) rad[order[k]!] = (degrees[k]! * Math.PI) / 180;
  return new Quaternion().setFromEuler(new Euler(rad["X"], rad["Y"], rad["Z"], order as "XYZ"));
}

function sameRotation(actual: ArrayLike<number>, at: number, expected: Quaternion, tol = 1e-6): void {
  const dot = Math.abs(actual[at]! * expected.x + actual[at + 1]! * expected.y + actual[at + 2]! * expected.z + actual[at + 3]! * expected.w);
  assert.ok(1 - dot < tol, `rotation differs: dot ${dot}`);
}

test("131_01.bvh: 31 joints, channel orders, 994 frames and values read back from the file's lines", { skip }, () => {
  const { skeleton, clip, bvh, diagnostics } = loadBvh(WALK);
  assert.deepEqual(diagnostics, []);
  assert.ok(skeleton && clip && bvh);
  assert.equal(skeleton.jointCount, 31);
  assert.equal(skeleton.names[0], "Hips");
  assert.equal(skeleton.parents[0], -1);
  assert.equal(skeleton.names[skeleton.parents[skeleton.indexOf.get("LeftKnee")!]!], "LeftHip");
  assert.equal(bvh.endSites.length, 7);
  assert.equal(bvh.channelCount, 96);
  assert.equal(bvh.frameCount, 994);
  assert.equal(bvh.frameTime, 0.0083333);
  assert.deepEqual(bvh.joints[0]!.channels, ["Xposition", "Yposition", "Zposition", "Zrotation", "Yrotation", "Xrotation"]);
  assert.equal(bvh.joints[0]!.eulerOrder, "ZYX");
  // The arms use another order than the legs: check against the CHANNELS line in the file.
  const shoulder = bvh.joints[skeleton.indexOf.get("LeftShoulder")!]!;
  const words = fileLine(WALK, shoulder.line + 3);
  assert.equal(words[0], "CHANNELS");
  assert.deepEqual(shoulder.channels, words.slice(2));
  assert.equal(shoulder.eulerOrder, "ZXY");
  // Rest pose = OFFSET.
  const knee = skeleton.indexOf.get("LeftKnee")!;
  assert.deepEqual(Array.from(skeleton.rest.t.subarray(3 * knee, 3 * knee + 3)), [2.49329, -6.85026, 0].map(Math.fround));

  // Frame 0 is line 188 (after "Frames:" and "Frame Time:"); frame 500 is line 688.
  for (const [frame, lineNo] of [[0, 188], [500, 688], [993, 1181]] as const) {
    const values = fileLine(WALK, lineNo).map(Number);
    assert.equal(values.length, 96);
    const tTrack: JointTrack = clip.tracks[clip.trackIndex[0]!]!;
    assert.deepEqual(Array.from(tTrack.values.subarray(3 * frame, 3 * frame + 3)), values.slice(0, 3).map(Math.fround));
    assert.equal(tTrack.times[frame], Math.fround(frame * 0.0083333));
    const rTrack: JointTrack = clip.tracks[clip.trackIndex[1]!]!;
    sameRotation(rTrack.values, 4 * frame, oracleQuat("ZYX", values.slice(3, 6)));
    const s: number = skeleton.indexOf.get("LeftShoulder")!;
    const sTrack: JointTrack = clip.tracks[clip.trackIndex[3 * s + 1]!]!;
    const first = bvh.joints[s]!.firstChannel;
    sameRotation(sTrack.values, 4 * frame, oracleQuat("ZXY", values.slice(first, first + 3)));
    // Joints without position channels have no translation track: they keep the OFFSET.
    assert.equal(clip.trackIndex[3 * s], -1);
  }
  assert.ok(Math.abs(clip.duration - 993 * 0.0083333) < 1e-5);

  // Sampling: at frame 500's time the pose holds the file's numbers; halfway to 501 the root is midway.
  const pose = createPose(31);
  const cursor = createClipCursor(clip);
  const f500 = fileLine(WALK, 688).map(Number), f501 = fileLine(WALK, 689).map(Number);
  sampleClip(pose, clip, clip.tracks[0]!.times[500]!, cursor);
  for (let c = 0; c < 3; c++) assert.ok(Math.abs(pose.t[c]! - f500[c]!) < 1e-4);
  sameRotation(pose.r, 0, oracleQuat("ZYX", f500.slice(3, 6)));
  sampleClip(pose, clip, 0.5 * (clip.tracks[0]!.times[500]! + clip.tracks[0]!.times[501]!), cursor);
  for (let c = 0; c < 3; c++) assert.ok(Math.abs(pose.t[c]! - 0.5 * (f500[c]! + f501[c]!)) < 1e-3);
});

test("131_03.bvh: 31 joints and 1102 frames with mixed CRLF/LF line endings", { skip }, () => {
  const text = readFileSync(WALK3, "utf8");
  assert.ok(text.includes("\r\n") && /[^\r]\n/.test(text), "the asset mixes CRLF and LF");
  const { skeleton, bvh, diagnostics } = parseBvh(text, "131_03.bvh");
  assert.deepEqual(diagnostics, []);
  assert.equal(skeleton?.jointCount, 31);
  assert.equal(bvh?.frameCount, 1102);
  // The same file with bare CR line breaks (old Mac) reads the same.
  const cr = parseBvh(text.replace(/\r?\n/g, "\r"), "cr.bvh");
  assert.deepEqual(cr.diagnostics, []);
  assert.deepEqual(cr.bvh?.motion, bvh?.motion);
});

test("pirouette.bvh: 43 joints, 14 end sites, 592 frames, and every key equals three.js's BVHLoader", { skip }, () => {
  const text = readFileSync(PIROUETTE, "utf8");
  const { skeleton, clip, bvh, diagnostics } = parseBvh(text, "pirouette.bvh");
  assert.deepEqual(diagnostics, []);
  assert.ok(skeleton && clip && bvh);
  assert.equal(skeleton.jointCount, 43);
  assert.equal(bvh.endSites.length, 14);
  assert.equal(bvh.channelCount, 132);
  assert.equal(bvh.frameCount, 592);
  assert.equal(bvh.frameTime, 0.00833333);
  assert.deepEqual(
    [...new Set(bvh.joints.map((j) => j.eulerOrder))].sort(),
    ["ZXY", "ZYX"],
  );
  const three = new BVHLoader().parse(text);
  let compared = 0;
  for (const track of three.clip.tracks) {
    const [name, prop] = track.name.split(".") as [string, string];
    const j = skeleton.indexOf.get(name)!;
    assert.ok(j !== undefined, name);
    const slot = clip.trackIndex[3 * j + (prop === "position" ? 0 : 1)]!;
    if (prop === "position" && slot < 0) {
      // three.js animates every bone's position (OFFSET + 0); ours keeps it in the rest pose.
      for (let k = 0; k < track.values.length; k++) assert.ok(Math.abs(track.values[k]! - skeleton.rest.t[3 * j + (k % 3)]!) < 1e-4);
      continue;
    }
    const ours: JointTrack = clip.tracks[slot]!;
    assert.equal(ours.times.length, track.times.length);
    if (prop === "quaternion") {
      for (let k = 0; k < track.values.length; k += 4) {
        sameRotation(ours.values, k, new Quaternion(track.values[k], track.values[k + 1], track.values[k + 2], track.values[k + 3]));
      }
    } else {
      for (let k = 0; k < track.values.length; k++) assert.ok(Math.abs(track.values[k]! - ours.values[k]!) < 1e-4);
    }
    compared++;
  }
  assert.equal(three.clip.tracks.length, 2 * 43);
  assert.equal(compared, 43 + 1); // 43 rotation tracks and the root's translation
  // Consecutive rotation keys stay in one hemisphere (LINEAR interpolation takes the short way).
  for (const track of clip.tracks) {
    if (track.path !== "rotation") continue;
    for (let k = 4; k < track.values.length; k += 4) {
      const dot = track.values[k]! * track.values[k - 4]! + track.values[k + 1]! * track.values[k - 3]! + track.values[k + 2]! * track.values[k - 2]! + track.values[k + 3]! * track.values[k - 1]!;
      assert.ok(dot >= 0);
    }
  }
});

test("scale option multiplies offsets and positions, not rotations", { skip }, () => {
  const plain = loadBvh(WALK);
  const metres = loadBvh(WALK, { scale: 0.0254, name: "walk" });
  assert.equal(metres.clip?.name, "walk");
  assert.equal(plain.clip?.name, "131_01");
  const a = plain.clip!.tracks[0]!.values;
  const b = metres.clip!.tracks[0]!.values;
  for (let k = 0; k < 30; k++) assert.ok(Math.abs(b[k]! - a[k]! * 0.0254) < 1e-5);
  assert.deepEqual(metres.clip!.tracks[1]!.values, plain.clip!.tracks[1]!.values);
  assert.ok(Math.abs(metres.skeleton!.rest.t[3 * 3]! - 2.49329 * 0.0254) < 1e-6);
});

const TINY = [
  "HIERARCHY",
  "ROOT root",
  "{",
  "  OFFSET 0 0 0",
  "  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation",
  "  JOINT child",
  "  {",
  "    OFFSET 0 1 0",
  "    CHANNELS 2 Xrotation Zrotation",
  "    End Site",
  "    {",
  "      OFFSET 0 1 0",
  "    }",
  "  }",
  "}",
  "MOTION",
  "Frames: 2",
  "Frame Time: 0.5",
  "1 2 3 0 0 0 90 0",
  "1 2 3 0 0 0 0 90",
  "",
];

test("a small file: offset + position channels, two-channel rotation, LINEAR keys", () => {
  const { skeleton, clip, diagnostics } = parseBvh(TINY.join("\n"), "tiny.bvh");
  assert.deepEqual(diagnostics, []);
  assert.ok(skeleton && clip);
  assert.deepEqual(skeleton.names, ["root", "child"]);
  assert.deepEqual(Array.from(clip.tracks[0]!.values), [1, 2, 3, 1, 2, 3]);
  const childRot = clip.tracks[clip.trackIndex[3 * 1 + 1]!]!;
  sameRotation(childRot.values, 0, new Quaternion().setFromAxisAngle({ x: 1, y: 0, z: 0 } as never, Math.PI / 2));
  sameRotation(childRot.values, 4, new Quaternion().setFromAxisAngle({ x: 0, y: 0, z: 1 } as never, Math.PI / 2));
  assert.equal(clip.duration, 0.5);
  assert.equal(clip.trackIndex[3 * 1], -1);
});

/** Each broken variant of TINY: [description, edit, expected code, expected line (a truncation points at the file's last line)]. */
const BROKEN: [string, (lines: string[]) => string[], string, number][] = [
  ["truncated motion", (l) => l.slice(0, 19), "E_BVH_TRUNCATED", 19],
  ["too few values", (l) => with_(l, 19, "1 2 3 0 0 0 90"), "E_BVH_CHANNEL_COUNT", 20],
  ["bad number", (l) => with_(l, 18, "1 2 3 0 nan 0 90 0"), "E_BVH_BAD_NUMBER", 19],
  ["number out of float32 range", (l) => with_(l, 18, "1 2 3 0 1e39 0 90 0"), "E_BVH_BAD_NUMBER", 19],
  ["absurd frame count", (l) => with_(l, 16, "Frames: 999999999"), "E_BVH_TOO_LARGE", 17],
  ["frame count over the lines", (l) => with_(l, 16, "Frames: 5000"), "E_BVH_TRUNCATED", 21],
  ["CHANNELS 1000000", (l) => with_(l, 8, "CHANNELS 1000000 Xrotation"), "E_BVH_CHANNEL_COUNT", 9],
  ["channel count mismatch", (l) => with_(l, 8, "CHANNELS 3 Xrotation Zrotation"), "E_BVH_CHANNEL_COUNT", 9],
  ["unknown channel", (l) => with_(l, 8, "CHANNELS 2 Xrotation Wrotation"), "E_BVH_UNKNOWN_CHANNEL", 9],
  ["duplicate channel", (l) => with_(l, 8, "CHANNELS 2 Xrotation Xrotation"), "E_BVH_DUPLICATE_CHANNEL", 9],
  ["duplicate joint name", (l) => with_(l, 5, "JOINT root"), "E_BVH_DUPLICATE_JOINT", 6],
  ["missing closing brace", (l) => [...l.slice(0, 13), ...l.slice(14)], "E_BVH_MISSING_BRACE", 15],
  ["missing opening brace", (l) => [...l.slice(0, 6), ...l.slice(7)], "E_BVH_MISSING_BRACE", 7],
  ["missing OFFSET", (l) => [...l.slice(0, 7), ...l.slice(8)], "E_BVH_MISSING_OFFSET", 13],
  ["bad OFFSET", (l) => with_(l, 7, "OFFSET 0 x 0"), "E_BVH_BAD_NUMBER", 8],
  ["no HIERARCHY", (l) => l.slice(1), "E_BVH_SYNTAX", 1],
  ["no MOTION", (l) => l.slice(0, 15), "E_BVH_TRUNCATED", 15],
  ["zero frame time", (l) => with_(l, 17, "Frame Time: 0"), "E_BVH_BAD_FRAME_TIME", 18],
  ["frame count not a number", (l) => with_(l, 16, "Frames: many"), "E_BVH_BAD_NUMBER", 17],
  ["unknown keyword", (l) => with_(l, 3, "OFFSETS 0 0 0"), "E_BVH_SYNTAX", 4],
  ["empty file", () => [""], "E_BVH_SYNTAX", 1],
];

function with_(lines: string[], index: number, text: string): string[] {
  const copy = [...lines];
  copy[index] = text;
  return copy;
}

for (const [what, edit, code, line] of BROKEN) {
  test(`malformed BVH (${what}) → ${code} at line ${line}`, () => {
    const { clip, diagnostics } = parseBvh(edit(TINY).join("\n"), "bad.bvh");
    assert.equal(clip, undefined);
    const d = diagnostics.find((x) => x.severity === "error");
    assert.ok(d, JSON.stringify(diagnostics));
    assert.equal(d.code, code, JSON.stringify(d));
    assert.equal(d.file, "bad.bvh");
    assert.equal(d.line, line, JSON.stringify(d));
    assert.equal(d.pointer, `line ${line}`);
    assert.ok((d.column ?? 0) >= 1);
  });
}

test("extra text after the frames is a warning; Frames: 0 gives a skeleton and no clip", () => {
  const extra = parseBvh([...TINY.slice(0, 20), "9 9 9 9 9 9 9 9"].join("\n"), "x.bvh");
  assert.ok(extra.clip);
  assert.deepEqual(extra.diagnostics.map((d) => [d.code, d.severity, d.line]), [["W_BVH_EXTRA_DATA", "warning", 21]]);
  const none = parseBvh([...TINY.slice(0, 16), "Frames: 0", "Frame Time: 0.5"].join("\n"), "x.bvh");
  assert.ok(none.skeleton && !none.clip);
  assert.equal(none.diagnostics[0]?.code, "W_BVH_NO_FRAMES");
});

test("many bad frame lines are capped instead of reported one by one", () => {
  const lines = [...TINY.slice(0, 16), "Frames: 500", "Frame Time: 0.5", ...Array.from({ length: 500 }, () => "1 2 3")];
  const { diagnostics } = parseBvh(lines.join("\n"), "x.bvh");
  assert.ok(diagnostics.length <= 25);
  assert.equal(diagnostics[diagnostics.length - 1]!.code, "E_BVH_TOO_MANY_ERRORS");
});

test("deep nesting and huge joint counts are bounded, not a stack overflow", () => {
  const depth = 20000;
  const lines = ["HIERARCHY"];
  for (let i = 0; i < depth; i++) lines.push(`${i === 0 ? "ROOT" : "JOINT"} j${i}`, "{", "OFFSET 0 1 0", "CHANNELS 1 Xrotation");
  for (let i = 0; i < depth; i++) lines.push("}");
  lines.push("MOTION", "Frames: 0", "Frame Time: 0.1");
  const { skeleton, diagnostics } = parseBvh(lines.join("\n"), "deep.bvh");
  assert.equal(skeleton, undefined);
  assert.equal(diagnostics[0]?.code, "E_BVH_TOO_LARGE");
  const ok = parseBvh(lines.join("\n"), "deep.bvh", { limits: { maxJoints: 30000 } });
  assert.equal(ok.diagnostics[0]?.code, "W_BVH_NO_FRAMES");
  assert.equal(ok.skeleton?.jointCount, depth);
});

test("loadBvh reports unreadable files as diagnostics", () => {
  assert.equal(loadBvh("/nonexistent/x.bvh").diagnostics[0]?.code, "E_FILE_NOT_FOUND");
  assert.equal(loadBvh("/tmp").diagnostics[0]?.code, "E_FILE_READ");
});

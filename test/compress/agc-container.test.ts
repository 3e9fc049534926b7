import { test } from "node:test";
import assert from "node:assert/strict";
import { readAgc, writeAgc } from "../../src/compress/agc-container.ts";
import { compressClip } from "../../src/compress/compress-clip.ts";
import fc from "fast-check";
import { compressedByteLength, TrackEncoding, type CompressedClip } from "../../src/compress/compressed-clip.ts";
import { createCompressedClipCursor, sampleCompressedClip } from "../../src/compress/sample-compressed-clip.ts";
import { createPose } from "../../src/pose/pose.ts";
import { syntheticClip } from "./synthetic-clip.ts";

function compressedPair(): CompressedClip[] {
  const clip = syntheticClip({ spin: true });
  const a = compressClip(clip, { tolerance: 1e-4 }).compressed!;
  const b = compressClip(clip, { tolerance: 1e-3, sampleRate: 24 }).compressed!;
  return [a, { ...b, name: "coarse — ✓" }];
}

test("writeAgc → readAgc round-trips clips, tracks and samples", () => {
  const clips = compressedPair();
  const bytes = writeAgc(clips);
  assert.equal(bytes.length % 4, 0);
  const back = readAgc(bytes, "x.agc");
  assert.deepEqual(back.diagnostics, []);
  assert.ok(back.skeleton);
  assert.deepEqual(back.skeleton.names, clips[0]!.skeleton.names);
  assert.deepEqual(back.skeleton.rest, clips[0]!.skeleton.rest);
  assert.equal(back.clips.length, 2);
  back.clips.forEach((c, i) => {
    const orig = clips[i]!;
    assert.equal(c.name, orig.name);
    assert.equal(c.frameCount, orig.frameCount);
    assert.equal(c.sampleRate, orig.sampleRate);
    assert.deepEqual(c.tracks, orig.tracks);
    assert.deepEqual(c.trackIndex, orig.trackIndex);
    const p = createPose(5), q = createPose(5);
    const cp = createCompressedClipCursor(c), cq = createCompressedClipCursor(orig);
    for (let t = 0; t <= 2; t += 0.013) {
      sampleCompressedClip(p, c, t, cp);
      sampleCompressedClip(q, orig, t, cq);
      assert.deepEqual(p, q);
    }
  });
  // The counted size is the clip blocks: the file adds the header, the skeleton and the names.
  const counted = clips.reduce((n, c) => n + compressedByteLength(c), 0);
  assert.ok(bytes.length > counted && bytes.length < counted + 16 + 5 * 60 + 2 * 16);
});

test("readAgc reports damaged files with E_AGC_* codes and byte offsets, never throwing", () => {
  const good = writeAgc(compressedPair());
  const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);
  const mutate = (f: (b: Uint8Array) => void): Uint8Array => {
    const b = Uint8Array.from(good);
    f(b);
    return b;
  };
  const rows: [string, Uint8Array, string][] = [
    ["empty", new Uint8Array(0), "E_AGC_TRUNCATED"],
    ["bad magic", mutate((b) => (b[0] = 0x58)), "E_AGC_MAGIC"],
    ["version 2 (key masks and range-reduced blocks)", mutate((b) => view(b).setUint32(4, 2, true)), "E_AGC_VERSION"],
    ["version 3 (rotation blocks without the explicit-component flag)", mutate((b) => view(b).setUint32(4, 3, true)), "E_AGC_VERSION"],
    ["version 5", mutate((b) => view(b).setUint32(4, 5, true)), "E_AGC_VERSION"],
    ["truncated", good.subarray(0, good.length - 9), "E_AGC_TRUNCATED"],
    ["trailing bytes", Uint8Array.from([...good, 0, 0, 0, 0]), "E_AGC_TRAILING"],
    ["parent after child", mutate((b) => view(b).setInt16(16, 3, true)), "E_AGC_RANGE"],
    ["too many clips", mutate((b) => view(b).setUint32(8, 3, true)), "E_AGC_TRUNCATED"],
  ];
  const old = readAgc(mutate((b) => view(b).setUint32(4, 3, true)), "old.agc");
  assert.match(old.diagnostics[0]!.message, /version 3 is not supported .*reads version 4.*recompress/);
  assert.match(readAgc(mutate((b) => view(b).setUint32(4, 5, true)), "new.agc").diagnostics[0]!.message, /newer animgraph/);
  for (const [what, bytes, code] of rows) {
    const r = readAgc(bytes, "bad.agc");
    assert.equal(r.diagnostics.length, 1, what);
    assert.equal(r.diagnostics[0]!.code, code, what);
    assert.match(r.diagnostics[0]!.pointer, /^byte \d+$/, what);
    assert.equal(r.diagnostics[0]!.file, "bad.agc");
  }
});

/** Byte offset of the first track header of the first clip in `bytes` (5 joints). */
function firstTrack(bytes: Uint8Array): number {
  let o = 16;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let j = 0; j < 5; j++) o += 4 + ((v.getUint16(o + 2, true) + 3) & ~3) + 40;
  return o + 32;
}

test("readAgc rejects a track whose joint, encoding, spacing, params or packed data are out of range", () => {
  const clips = compressedPair();
  const bytes = writeAgc([clips[0]!]);
  const track = firstTrack(bytes);
  assert.equal(clips[0]!.tracks[0]!.encoding, TrackEncoding.RANGE, "the first track is the root translation");
  for (const [what, f] of [
    ["joint", (b: DataView) => b.setUint16(track, 99, true)],
    ["encoding", (b: DataView) => b.setUint8(track + 3, 7)],
    ["coarse spacing", (b: DataView) => b.setUint8(track + 4, 9)],
    ["param count", (b: DataView) => b.setUint16(track + 6, 3, true)],
    ["word count", (b: DataView) => b.setUint32(track + 8, 1_000_000, true)],
    ["base step", (b: DataView) => b.setFloat32(track + 12 + 12, -1, true)],
    ["block header", (b: DataView) => b.setUint32(track + 28, 0, true)],
  ] as const) {
    const copy = Uint8Array.from(bytes);
    f(new DataView(copy.buffer));
    const r = readAgc(copy, "bad.agc");
    assert.ok(r.diagnostics.length === 1 && r.diagnostics[0]!.code.startsWith("E_AGC_"), `${what}: ${JSON.stringify(r.diagnostics)}`);
    assert.match(r.diagnostics[0]!.pointer, /^byte \d+$/, what);
    assert.equal(r.clips.length, 0, what);
  }
});

test("readAgc never throws on damaged bytes: each corruption is read or reported", () => {
  const good = writeAgc(compressedPair());
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.nat({ max: good.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 6 }), fc.nat({ max: good.length }), (edits, cut) => {
      const bytes = Uint8Array.from(good.subarray(0, Math.max(cut, 16)));
      for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value;
      const r = readAgc(bytes, "fuzz.agc");
      assert.ok(r.diagnostics.length <= 1);
      for (const d of r.diagnostics) assert.match(d.code, /^E_AGC_/);
      // Whatever was read samples without throwing.
      for (const c of r.clips) {
        const pose = createPose(c.skeleton.jointCount);
        const cursor = createCompressedClipCursor(c);
        for (const t of [0, 0.3, c.duration]) sampleCompressedClip(pose, c, t, cursor);
      }
    }),
    { numRuns: 300 },
  );
});

test("the counted size is the clip's bytes in the file: the rest is the header, the skeleton and the names", () => {
  const clip = compressClip(syntheticClip(), { tolerance: 1e-4 }).compressed!;
  const bytes = writeAgc([clip]);
  const names = clip.skeleton.names.reduce((n, name) => n + ((new TextEncoder().encode(name).length + 3) & ~3), 0);
  const clipName = (new TextEncoder().encode(clip.name).length + 3) & ~3;
  assert.equal(bytes.length, 16 + 5 * (4 + 40) + names + compressedByteLength(clip) + clipName);
  // Nothing derived is stored: a track is its 12-byte header, its params and its packed words.
  const trackBytes = clip.tracks.reduce((n, t) => n + 12 + 4 * t.params.length + 4 * t.data.length, 0);
  assert.equal(compressedByteLength(clip), 32 + trackBytes);
});

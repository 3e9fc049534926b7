import { test } from "node:test";
import assert from "node:assert/strict";
import { readAgc, writeAgc } from "../../src/compress/agc-container.ts";
import { compressClip } from "../../src/compress/compress-clip.ts";
import { compressedByteLength, hasEveryFrame, type CompressedClip } from "../../src/compress/compressed-clip.ts";
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
    ["version 1 (before per-component bits)", mutate((b) => view(b).setUint32(4, 1, true)), "E_AGC_VERSION"],
    ["version 3", mutate((b) => view(b).setUint32(4, 3, true)), "E_AGC_VERSION"],
    ["truncated", good.subarray(0, good.length - 9), "E_AGC_TRUNCATED"],
    ["trailing bytes", Uint8Array.from([...good, 0, 0, 0, 0]), "E_AGC_TRAILING"],
    ["parent after child", mutate((b) => view(b).setInt16(16, 3, true)), "E_AGC_RANGE"],
    ["too many clips", mutate((b) => view(b).setUint32(8, 3, true)), "E_AGC_TRUNCATED"],
  ];
  for (const [what, bytes, code] of rows) {
    const r = readAgc(bytes, "bad.agc");
    assert.equal(r.diagnostics.length, 1, what);
    assert.equal(r.diagnostics[0]!.code, code, what);
    assert.match(r.diagnostics[0]!.pointer, /^byte \d+$/, what);
    assert.equal(r.diagnostics[0]!.file, "bad.agc");
  }
});

test("readAgc rejects a track whose joint, key mask or block header is out of range", () => {
  const clips = compressedPair();
  const bytes = writeAgc([clips[0]!]);
  // Find the first track header: after 16 bytes of file header, the joints, and the 32-byte clip header.
  let o = 16;
  const v = new DataView(bytes.buffer);
  for (let j = 0; j < 5; j++) o += 4 + ((v.getUint16(o + 2, true) + 3) & ~3) + 40;
  const track = o + 32;
  for (const [what, f] of [
    ["joint", (b: DataView) => b.setUint16(track, 99, true)],
    ["encoding", (b: DataView) => b.setUint8(track + 3, 7)],
    ["key count", (b: DataView) => b.setUint32(track + 4, 1_000_000, true)],
  ] as const) {
    const copy = Uint8Array.from(bytes);
    f(new DataView(copy.buffer));
    const r = readAgc(copy, "bad.agc");
    assert.ok(r.diagnostics.length === 1 && r.diagnostics[0]!.code.startsWith("E_AGC_"), `${what}: ${JSON.stringify(r.diagnostics)}`);
    assert.equal(r.clips.length, 0);
  }
});

test("a track with a key on every frame is stored without a key mask and reads back whole", () => {
  const clip = compressClip(syntheticClip(), { tolerance: 1e-4, keepAllFrames: true }).compressed!;
  const full = clip.tracks.filter(hasEveryFrame);
  assert.ok(full.length >= 3);
  const bytes = writeAgc([clip]);
  const back = readAgc(bytes, "full.agc");
  assert.deepEqual(back.diagnostics, []);
  assert.deepEqual(back.clips[0]!.tracks, clip.tracks);
  // The counted size (no masks for full tracks) is what the file stores: its overhead over the counted
  // size is the header, skeleton and name, as for a clip whose tracks all carry masks.
  const reduced = compressClip(syntheticClip(), { tolerance: 1e-4 }).compressed!;
  assert.ok(!reduced.tracks.some((t) => t.keyMask.length > 0 && hasEveryFrame(t)));
  assert.equal(bytes.length - compressedByteLength(clip), writeAgc([reduced]).length - compressedByteLength(reduced));
  // Omitting the masks saves their words.
  const maskBytes = full.reduce((n, t) => n + 4 * t.keyMask.length, 0);
  assert.ok(maskBytes > 0);
});

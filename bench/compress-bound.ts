// How far below today's size the CMU takes could go at the bench's setting (30 fps, 0.1 mm on virtual
// vertices 1 m from each joint): a generous estimate of the bits a rotation key needs, and where the bytes
// of today's compressed clips go. Run: node --import tsx bench/compress-bound.ts
//
// The estimate gives every advantage to a hypothetical coder: each 30 fps frame is predicted from its two
// exact neighbours (linear interpolation; a real coder only has decoded keys, and a random-access one only
// keys some frames away), with the coarsest step 0.1 mm at 1 m allows a joint alone (no share of the
// bound left for its ancestors), and the residuals cost the entropy of a Laplacian fitted to each track's
// component (an ideal adaptive entropy coder, no headers). Whatever that costs, a real clip costs more.
import { createClipCursor } from "../src/clip/clip-cursor.ts";
import { sampleClip } from "../src/clip/sample-clip.ts";
import { compressClip } from "../src/compress/compress-clip.ts";
import { blockCount, fineCount, TrackEncoding } from "../src/compress/compressed-clip.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import { createPose } from "../src/pose/pose.ts";
import { CMU_TAKES } from "./compress-figures.ts";
import { sharedAsset } from "../test/helpers/assets.ts";

const RATE = 30;
const TOLERANCE_M = 1e-4;
const SHELL_M = 1;
/**
 * The coarsest component step a leaf joint's rotation alone could use: an angle θ moves a vertex 1 m out
 * by θ·1 m, θ = 2|Δq|, and three components quantised with step s move q by up to (√3/2)·s.
 */
const STEP = (TOLERANCE_M / SHELL_M) / Math.sqrt(3);

let keyBits = 0, keys = 0, rawBytes = 0, packedBytes = 0, fineBits = 0, otherBits = 0, headerBytes = 0;
for (const { file, unitsPerMetre } of CMU_TAKES) {
  const { clip } = loadBvh(sharedAsset(file));
  if (!clip) throw new Error(`${file} did not load`);
  const J = clip.skeleton.jointCount;
  const F = Math.floor(clip.duration * RATE + 1e-6) + 1;
  const q = new Float64Array(4 * J * F);
  const pose = createPose(J);
  const cursor = createClipCursor(clip);
  for (let f = 0; f < F; f++) {
    sampleClip(pose, clip, Math.min(clip.duration, f / RATE), cursor);
    for (let j = 0; j < J; j++) {
      const o = 4 * (j * F + f);
      const sign = f > 0 && q[o - 4]! * pose.r[4 * j]! + q[o - 3]! * pose.r[4 * j + 1]! + q[o - 2]! * pose.r[4 * j + 2]! + q[o - 1]! * pose.r[4 * j + 3]! < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) q[o + c] = sign * pose.r[4 * j + c]!;
    }
  }
  let takeBits = 0, takeKeys = 0;
  for (let j = 0; j < J; j++) {
    let moves = false;
    for (let f = 1; f < F && !moves; f++) for (let c = 0; c < 4; c++) if (Math.abs(q[4 * (j * F + f) + c]! - q[4 * j * F + c]!) > STEP) moves = true;
    if (!moves) continue;
    // Three components (the fourth follows from unit length): the Laplacian's entropy, log2(2e·b) for a
    // mean absolute residual of b steps (at least 1 bit while b is small).
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let f = 1; f < F - 1; f++) {
        const o = 4 * (j * F + f) + c;
        sum += Math.abs(q[o]! - 0.5 * (q[o - 4]! + q[o + 4]!)) / STEP;
      }
      const b = sum / (F - 2);
      takeBits += (F - 2) * Math.max(1, Math.log2(2 * Math.E * b));
    }
    takeKeys += F - 2;
  }
  const result = compressClip(clip, { tolerance: TOLERANCE_M, virtualVertexDistance: SHELL_M, unitsPerMetre, sampleRate: RATE });
  if (!result.compressed || !result.stats) throw new Error(`${file}: ${JSON.stringify(result.diagnostics)}`);
  let fine = 0, other = 0, heads = 32;
  for (const t of result.compressed.tracks) {
    heads += 12 + 4 * t.params.length;
    if (t.encoding === TrackEncoding.CONSTANT) continue;
    let f = 0;
    for (let b = 0; b < blockCount(t.frameCount); b++) f += t.blockWidth[4 * b + 3]! * fineCount(t.frameCount, t.coarseShift, b);
    fine += f;
    other += 32 * t.data.length - f;
  }
  console.log(`${file}: ${(takeBits / takeKeys).toFixed(1)} bits per animated rotation key at best; compressed ${result.stats.compressedBytes} bytes (${result.stats.ratio.toFixed(2)}:1)`);
  keyBits += takeBits;
  keys += takeKeys;
  rawBytes += result.stats.rawBytes;
  packedBytes += result.stats.compressedBytes;
  fineBits += fine;
  otherBits += other;
  headerBytes += heads;
}
const total = packedBytes * 8;
console.log(`all three: ${(keyBits / keys).toFixed(1)} bits per animated rotation key at best (${(keyBits / keys / 3).toFixed(1)} per component); ratio if that were all: ${(rawBytes / (keyBits / 8)).toFixed(1)}:1; today ${(rawBytes / packedBytes).toFixed(2)}:1`);
console.log(`today's bytes: fine residuals ${((100 * fineBits) / total).toFixed(1)} %, coarse residuals and block headers ${((100 * otherBits) / total).toFixed(1)} %, clip and track headers and params ${((100 * headerBytes * 8) / total).toFixed(1)} %`);

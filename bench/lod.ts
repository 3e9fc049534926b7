// The frame-time ceiling the budget scheduler holds with 10,000 characters: the measured cost of one
// joint-sample (sampleClip on a CMU take, per joint) × the budget, plus the scheduler's own time.
// Run: node --import tsx bench/lod.ts [budgetMs]
import { createClipCursor } from "../src/clip/clip-cursor.ts";
import { sampleClip } from "../src/clip/sample-clip.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import { createBudgetScheduler, starvationBound } from "../src/lod/budget-scheduler.ts";
import { activeJointCount, createJointLod } from "../src/lod/joint-lod.ts";
import { createPose } from "../src/pose/pose.ts";
import { sharedAsset } from "../test/helpers/assets.ts";

const budgetMs = Number(process.argv[2] ?? 2);
const N = 10_000;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

// 1. Cost of one joint-sample: sample 131_01 (31 joints) at advancing times.
const { clip } = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
if (!clip) throw new Error("131_01.bvh did not load");
const J = clip.skeleton.jointCount;
const pose = createPose(J);
const cursor = createClipCursor(clip);
const runs: number[] = [];
for (let r = 0; r < 7; r++) {
  const n = 20_000;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sampleClip(pose, clip, ((i * 0.004) % clip.duration), cursor);
  runs.push(Number(process.hrtime.bigint() - t0) / n / J);
}
const nsPerJoint = median(runs);
const budget = Math.floor((budgetMs * 1e6) / nsPerJoint);

// 2. 10,000 characters of 31 joints, joint LOD by distance, walking about.
const jointLod = createJointLod([{ maxDistance: 20, jointFraction: 1 }, { maxDistance: 60, jointFraction: 0.6 }, { maxDistance: Infinity, jointFraction: 0.3 }]);
const scheduler = createBudgetScheduler({ capacity: N, budget, overdueAge: 8 });
const out = new Uint8Array(N);
const distances = new Float64Array(N);
const joints = new Int32Array(N);
const last = new Int32Array(N).fill(-1);
let worstGap = 0;
const frameTimes: number[] = [];
let jointSamples = 0;
const frames = 600;
for (let f = 0; f < frames; f++) {
  for (let i = 0; i < N; i++) {
    distances[i] = 5 + 195 * (0.5 + 0.5 * Math.sin(i * 0.7919 + f * 0.01 * (1 + (i % 7))));
    joints[i] = activeJointCount(jointLod, distances[i]!, J);
  }
  const t0 = process.hrtime.bigint();
  jointSamples += scheduler.schedule(out, distances, joints, f);
  frameTimes.push(Number(process.hrtime.bigint() - t0) / 1e6);
  for (let i = 0; i < N; i++) {
    if (!out[i]) continue;
    if (last[i]! >= 0) worstGap = Math.max(worstGap, f - last[i]!);
    last[i] = f;
  }
}
const maxJoints = J;
const bound = starvationBound(N, maxJoints, budget, 8);
const scheduleMs = median(frameTimes.slice(60));
console.log(`joint-sample cost (sampleClip, 131_01.bvh, ${J} joints): ${nsPerJoint.toFixed(1)} ns`);
console.log(`budget for ${budgetMs} ms of sampling: ${budget} joint-samples/frame (${(budget / J).toFixed(0)} full characters)`);
console.log(`characters: ${N}; joint LOD 100 % < 20 m, 60 % < 60 m, 30 % beyond; mean ${(jointSamples / frames).toFixed(0)} joint-samples/frame scheduled`);
console.log(`scheduler: median ${scheduleMs.toFixed(3)} ms/frame, max ${Math.max(...frameTimes.slice(60)).toFixed(3)} ms`);
console.log(`frame-time ceiling: ${(budgetMs + scheduleMs).toFixed(3)} ms (sampling ≤ ${budgetMs} ms + scheduling); longest wait ${worstGap} frames (bound ${bound})`);

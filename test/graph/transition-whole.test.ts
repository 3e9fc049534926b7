// Continuity over a WHOLE transition on the real clips (docs/transitions.md, "Measured"): not just the
// first frame, but every frame to two after the end, measured from the output poses. An inertialization
// plays its target at full weight from the first frame, so the target clip's own keyframe velocity
// changes show in full where a crossfade still scales them by its weight; what the mode itself adds is
// the excess over the clips' own jumps, which must not be more than the crossfade's.
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Clip } from "../../src/clip/clip.ts";
import type { Skeleton } from "../../src/skeleton/skeleton.ts";
import { measureScenario, median, skeletonClips, type BlendMode, type Scenario } from "../helpers/transition-jumps.ts";

const DT = 1 / 60;
const STARTS = 8;

const robot = await skeletonClips("examples/robot/RobotExpressive.glb");
const fox = await skeletonClips("examples/fox/Fox.glb");

/** Per mode, the whole-transition figures at STARTS successive start frames from frame 60. */
function overStarts(c: { skeleton: Skeleton; clips: Clip[] }, from: string, to: string, duration: number, modes: readonly BlendMode[]) {
  const out = {} as Record<BlendMode, { whole: number[]; excess: number[]; detail: string[] }>;
  for (const m of modes) out[m] = { whole: [], excess: [], detail: [] };
  for (let s = 0; s < STARTS; s++) {
    const sc: Scenario = { ...c, entry: from, legs: [{ from, to, frame: 60 + s, duration }] };
    for (const m of modes) {
      const j = measureScenario(sc, m, DT);
      out[m].whole.push(j.whole);
      out[m].excess.push(j.excess);
      out[m].detail.push(`${j.whole.toFixed(2)}@${j.joint}+${j.at} (excess ${j.excess.toFixed(2)})`);
    }
  }
  return out;
}

test("robot Dance → Idle (arms half a turn apart): inertialize's largest jump over the whole transition ≤ the crossfade's at every start frame", async () => {
  // Before the offset's velocity was taken from the offsets themselves (offsetVelocityAt), the second
  // frame turned LowerArm.L by up to 6.9 rad/s more than the clips do: 2.2× the crossfade's.
  const j = overStarts(robot, "Dance", "Idle", 0.4, ["crossfade", "inertialize"]);
  for (let s = 0; s < STARTS; s++) {
    assert.ok(j.inertialize.whole[s]! <= j.crossfade.whole[s]!, `start ${s}: inertialize ${j.inertialize.detail[s]}, crossfade ${j.crossfade.detail[s]}`);
  }
});

test("robot and Fox: over the whole transition, inertialize adds no more to the clips' own jumps than the crossfade does (median over start frames)", async () => {
  const pairs: [typeof robot, string, string, number][] = [
    [robot, "Walking", "Running", 0.3], [robot, "Idle", "Jump", 0.2], [robot, "Running", "Walking", 0.3],
    [fox, "Survey", "Walk", 0.25], [fox, "Walk", "Run", 0.25], [fox, "Walk", "Survey", 0.25],
  ];
  for (const [c, from, to, d] of pairs) {
    const j = overStarts(c, from, to, d, ["crossfade", "inertialize"]);
    const msg = `${from} → ${to}: inertialize ${j.inertialize.detail.join(", ")}\ncrossfade ${j.crossfade.detail.join(", ")}`;
    assert.ok(median(j.inertialize.excess) <= median(j.crossfade.excess) + 0.05, msg);
  }
});

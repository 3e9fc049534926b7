// `node --import tsx bench/transition-quality.ts [--quick]`: the whole-transition continuity of each blend
// mode on the real clips (robot, Fox, CMU 131), at 30, 60 and 144 Hz, with interruptions — the largest
// per-frame angular-velocity jump over the transition and the part of it the clips' own motion does not
// explain, medians over start frames (docs/transitions.md, "Measured").
import type { Clip } from "../src/clip/clip.ts";
import { loadBvh } from "../src/io/bvh/load-bvh.ts";
import type { Skeleton } from "../src/skeleton/skeleton.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../test/helpers/assets.ts";
import { BLEND_MODES, measureScenario, skeletonClips, median, type Scenario } from "../test/helpers/transition-jumps.ts";

const quick = process.argv.includes("--quick");
const STARTS = quick ? 8 : 24;
const only = process.argv.slice(2).filter((a) => !a.startsWith("--"));

const robot = await skeletonClips("examples/robot/RobotExpressive.glb");
const fox = await skeletonClips("examples/fox/Fox.glb");

interface Case {
  readonly name: string;
  /** The scenario with its first transition at frame `at` (60 Hz frames scaled to the rate). */
  readonly make: (at: number, hz: number) => Scenario;
}
const f = (seconds: number, hz: number) => Math.round(seconds * hz);
const pair = (c: { skeleton: Skeleton; clips: Clip[] }, a: string, b: string, d: number): Case => ({
  name: `${a} → ${b} ${d} s`,
  make: (at) => ({ ...c, entry: a, legs: [{ from: a, to: b, frame: at, duration: d }] }),
});
const interrupted = (c: { skeleton: Skeleton; clips: Clip[] }, a: string, b: string, x: string, d: number, after: number): Case => ({
  name: `${a} → ${b} → ${x} at ${Math.round(after * 100)} % (${d} s)`,
  make: (at, hz) => ({ ...c, entry: a, legs: [{ from: a, to: b, frame: at, duration: d }, { from: b, to: x, frame: at + Math.max(1, f(after * d, hz)), duration: d }] }),
});

const cases: Case[] = [
  pair(robot, "Walking", "Running", 0.3), pair(robot, "Running", "Walking", 0.3), pair(robot, "Idle", "Jump", 0.2),
  pair(robot, "Idle", "Walking", 0.3), pair(robot, "Walking", "Idle", 0.3), pair(robot, "Running", "Jump", 0.2),
  pair(robot, "Dance", "Idle", 0.4), pair(robot, "Walking", "Running", 0.15),
  pair(fox, "Survey", "Walk", 0.25), pair(fox, "Walk", "Survey", 0.25), pair(fox, "Walk", "Run", 0.25),
  pair(fox, "Run", "Walk", 0.25), pair(fox, "Survey", "Run", 0.4), pair(fox, "Survey", "Walk", 0.5),
  interrupted(robot, "Walking", "Running", "Idle", 0.4, 0.3), interrupted(robot, "Walking", "Running", "Idle", 0.4, 0.7),
  interrupted(robot, "Walking", "Running", "Walking", 0.4, 0.5), interrupted(fox, "Survey", "Walk", "Run", 0.4, 0.25),
  interrupted(fox, "Walk", "Run", "Walk", 0.3, 0.5),
];
if (HAVE_SHARED_ASSETS) {
  const bvh = loadBvh(sharedAsset("bvh-cmu-131/131_03.bvh"));
  const c = { skeleton: bvh.skeleton!, clips: [bvh.clip!] };
  const name = bvh.clip!.name;
  cases.push({ name: "CMU 131_03 → itself + 3 s 0.3 s", make: (at) => ({ ...c, entry: "A", clipOf: { A: name, B: name }, offset: 3, legs: [{ from: "A", to: "B", frame: at, duration: 0.3 }] }) });
  const b1 = loadBvh(sharedAsset("bvh-cmu-131/131_01.bvh"));
  const c1 = { skeleton: b1.skeleton!, clips: [b1.clip!] };
  cases.push({ name: "CMU 131_01 → itself + 2 s 0.3 s", make: (at) => ({ ...c1, entry: "A", clipOf: { A: b1.clip!.name, B: b1.clip!.name }, offset: 2, legs: [{ from: "A", to: "B", frame: at, duration: 0.3 }] }) });
}

const rates = quick ? [60] : [30, 60, 144];
console.log(`| case | Hz | crossfade whole | inertialize whole (ratio) | deadBlend whole (ratio) | crossfade excess | inertialize excess | deadBlend excess |`);
console.log(`| --- | --- | --- | --- | --- | --- | --- | --- |`);
for (const c of cases) {
  if (only.length && !only.some((o) => c.name.includes(o))) continue;
  for (const hz of rates) {
    const dt = 1 / hz;
    const r = Object.fromEntries(BLEND_MODES.map((m) => [m, { whole: [] as number[], excess: [] as number[], worst: "" }]));
    for (let s = 0; s < STARTS; s++) {
      const at = f(1, hz) + Math.round((s * hz) / 60);
      const sc = c.make(at, hz);
      let cfWhole = 0;
      for (const m of BLEND_MODES) {
        const j = measureScenario(sc, m, dt);
        if (m === "crossfade") cfWhole = j.whole;
        r[m]!.whole.push(j.whole);
        r[m]!.excess.push(j.excess);
        if (m !== "crossfade" && j.whole > cfWhole * 1.05) r[m]!.worst += ` s${s}:${j.whole.toFixed(1)}@${j.joint}+${j.at}`;
      }
    }
    const cf = r.crossfade!;
    const ratio = (m: string) => median(r[m]!.whole.map((w, i) => w / cf.whole[i]!));
    const cell = (m: string) => `${median(r[m]!.whole).toFixed(2)} (${ratio(m).toFixed(2)}×, max ${Math.max(...r[m]!.whole.map((w, i) => w / cf.whole[i]!)).toFixed(2)}×)`;
    console.log(`| ${c.name} | ${hz} | ${median(cf.whole).toFixed(2)} | ${cell("inertialize")} | ${cell("deadBlend")} | ${median(cf.excess).toFixed(2)} | ${median(r.inertialize!.excess).toFixed(2)} (max ${Math.max(...r.inertialize!.excess).toFixed(2)}) | ${median(r.deadBlend!.excess).toFixed(2)} |`);
    if (process.argv.includes("--detail")) for (const m of ["inertialize", "deadBlend"]) if (r[m]!.worst) console.log(`  ${m} over crossfade:${r[m]!.worst}`);
  }
}

import { createProceduralClip, type ProceduralClip } from "../graph/motion-source.ts";
import { createSkeleton, type Skeleton } from "../skeleton/skeleton.ts";
import type { MachineSpec, MotionSpec } from "../spec/graph-spec.ts";
import { graphSpecOrThrow, type GraphSpecInput } from "../spec/resolve-graph-spec.ts";

/** Every clip name a spec refers to, in first-use order. */
export function clipNamesOf(input: GraphSpecInput): string[] {
  const spec = graphSpecOrThrow("clipNamesOf", "spec", input);
  const names = new Set<string>();
  const motion = (m: MotionSpec): void => {
    if (m.kind === "clip") names.add(m.clip);
    else if (m.kind === "blend1d") m.children.forEach((c) => names.add(c.clip));
    else if (m.kind === "blend2d") m.samples.forEach((s) => names.add(s.clip));
    else machine(m.machine);
  };
  const machine = (m: MachineSpec): void => { for (const s of m.states.values()) motion(s.motion); };
  spec.layers.forEach((l) => machine(l.machine));
  return [...names];
}

/**
 * Stand-in clips for a spec whose clips are not at hand (the stardust-inn innkeeper's): a one-joint
 * skeleton and, per clip name, a 1-second looping procedural clip whose joint translation is
 * (i + 1, sin 2πt, 0) for the i-th name and whose root velocity is (i + 1, 0, 0), so blends and
 * crossfades show up in the pose and the root motion. Deterministic in value, not bit-identical
 * across engines (Math.sin).
 */
export function standInClips(input: GraphSpecInput): { skeleton: Skeleton; clips: Map<string, ProceduralClip> } {
  const skeleton = createSkeleton({ names: ["root"], parents: [-1] });
  const clips = new Map<string, ProceduralClip>();
  clipNamesOf(graphSpecOrThrow("standInClips", "spec", input)).forEach((name, i) => {
    clips.set(name, createProceduralClip({
      name,
      duration: 1,
      sample(out, time) {
        out.t[0] = i + 1;
        out.t[1] = Math.sin(2 * Math.PI * time);
        out.t[2] = 0;
      },
      rootVelocity: [i + 1, 0, 0],
    }));
  });
  return { skeleton, clips };
}

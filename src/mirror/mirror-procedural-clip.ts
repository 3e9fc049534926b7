import { createProceduralClipUnchecked, type ProceduralClip } from "../graph/motion-source.ts";
import type { MirrorMap } from "./mirror-map.ts";
import { mirrorPose } from "./mirror-pose.ts";

const REFLECT = { x: [-1, 1, 1], y: [1, -1, 1], z: [1, 1, -1] } as const;

/**
 * The mirror image of a procedural clip: it samples the source into the output pose and mirrors it
 * there (mirrorPose works in place, so nothing is allocated per sample); a constant root velocity is
 * reflected across the plane. Named `<name> (mirrored)`.
 */
export function mirrorProceduralClip(source: ProceduralClip, map: MirrorMap): ProceduralClip {
  const v = source.rootVelocity;
  const f = REFLECT[map.axis];
  return createProceduralClipUnchecked({
    name: `${source.name} (mirrored)`,
    duration: source.duration,
    loopMode: source.loopMode,
    sample: (out, time) => {
      source.sample(out, time);
      mirrorPose(out, map, out);
    },
    ...(v ? { rootVelocity: [f[0] * v[0], f[1] * v[1], f[2] * v[2]] as const } : {}),
  });
}

// Programmatic clips for compression tests: a 4-joint chain (metres) animated by smooth curves.
import { createClip, type Clip, type JointTrack } from "../../src/clip/clip.ts";
import { quatFromAxisAngle } from "../../src/math/quat.ts";
import { createPose } from "../../src/pose/pose.ts";
import { createSkeleton } from "../../src/skeleton/skeleton.ts";

/**
 * `spin`: the root turns a full turn a second (no quaternion component stays large). `glitch`: the arm
 * jumps by 2 rad for one frame at 0.5 s, as a bad mocap frame does (a second-difference prediction
 * overshoots after it, and the predicted quaternion's largest component may have the other sign).
 */
export function syntheticClip(options: { fps?: number; seconds?: number; spin?: boolean; glitch?: boolean } = {}): Clip {
  const fps = options.fps ?? 60;
  const n = Math.round((options.seconds ?? 2) * fps) + 1;
  const rest = createPose(5);
  rest.t.set([0, 1, 0], 0);
  rest.t.set([0, 0.4, 0], 3);
  rest.t.set([0, 0.3, 0], 6);
  rest.t.set([0, 0.2, 0], 9);
  rest.t.set([0.1, 0, 0], 12);
  const skeleton = createSkeleton({ names: ["root", "spine", "arm", "hand", "tip"], parents: [-1, 0, 1, 2, 3], rest });
  const times = Float32Array.from({ length: n }, (_, i) => i / fps);
  const rot = (axis: [number, number, number], f: (t: number) => number): Float32Array => {
    const v = new Float32Array(4 * n);
    for (let i = 0; i < n; i++) quatFromAxisAngle(v, 4 * i, axis[0], axis[1], axis[2], f(i / fps));
    return v;
  };
  const tracks: JointTrack[] = [
    { joint: 0, path: "translation", interpolation: "LINEAR", stride: 3, times, values: Float32Array.from({ length: 3 * n }, (_, k) => (k % 3 === 0 ? 0.5 * (k / 3 / fps) : k % 3 === 1 ? 1 + 0.05 * Math.sin(8 * (Math.floor(k / 3) / fps)) : 0)) },
    { joint: 0, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rot([0, 1, 0], (t) => (options.spin ? 2 * Math.PI * t : 0.3 * Math.sin(2 * t))) },
    { joint: 1, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rot([1, 0, 0], (t) => 0.4 * Math.sin(3 * t) + 0.1 * Math.sin(11 * t)) },
    { joint: 2, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rot([0, 0, 1], (t) => 1.2 * Math.sin(5 * t) + (options.glitch && Math.round(t * fps) === Math.round(0.5 * fps) ? 2 : 0)) },
    { joint: 2, path: "scale", interpolation: "LINEAR", stride: 3, times, values: Float32Array.from({ length: 3 * n }, (_, k) => 1 + 0.1 * Math.sin(4 * (Math.floor(k / 3) / fps))) },
    // A constant rotation that is not the rest pose, and a translation equal to the rest pose.
    { joint: 3, path: "rotation", interpolation: "LINEAR", stride: 4, times, values: rot([0, 1, 0], () => 0.5) },
    { joint: 3, path: "translation", interpolation: "LINEAR", stride: 3, times, values: Float32Array.from({ length: 3 * n }, (_, k) => (k % 3 === 1 ? 0.2 : 0)) },
  ];
  return createClip({ name: "synthetic", skeleton, tracks });
}

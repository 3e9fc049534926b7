// The two benchmark rigs, built identically for three.js and animgraph: RobotExpressive (43 joints,
// from the GLB: animgraph's loader on one side, three's GLTFLoader on the other) and a synthetic
// 64-joint rig (one three.js Bone hierarchy + AnimationClips, converted to animgraph with the adapter).
import {
  AnimationClip, AnimationUtils, Bone, Object3D, Quaternion, QuaternionKeyframeTrack, Vector3, VectorKeyframeTrack,
} from "three";
import { clone as cloneSkinned } from "three/examples/jsm/utils/SkeletonUtils.js";
import type { Clip } from "../src/clip/clip.ts";
import { compileGraph } from "../src/graph/compile-graph.ts";
import type { CompiledGraph, RuntimeOptions } from "../src/graph/compiled-graph.ts";
import { loadGltfFile } from "../src/io/gltf/load-gltf-file.ts";
import { parseJsonText } from "../src/json/index.ts";
import type { Skeleton } from "../src/skeleton/skeleton.ts";
import { parseGraphSpec } from "../src/spec/index.ts";
import { clipFromThree } from "../src/three/clip-from-three.ts";
import { skeletonFromThree } from "../src/three/skeleton-from-three.ts";
import { loadGltfWithThree } from "../test/three/three-gltf.ts";
import { sharedAsset } from "../test/helpers/assets.ts";

/** One rig, ready for both libraries. */
export interface Workload {
  readonly name: string;
  readonly jointCount: number;
  /** three.js: a fresh, independent character (its own Object3D tree). */
  readonly makeThreeCharacter: () => Object3D;
  /** three.js clips: the two base clips and the (already additive) layer clip. */
  readonly threeClips: { readonly walk: AnimationClip; readonly run: AnimationClip; readonly additive: AnimationClip };
  readonly skeleton: Skeleton;
  readonly clips: readonly Clip[];
  readonly names: { readonly walk: string; readonly run: string; readonly additive: string };
}

/**
 * The benchmark graph: a base layer whose one state is a 1D blend of walk (at 0) and run (at 1) on
 * `blend` (0.5: an even crossfade, clocks not synchronised, like three's two actions), plus an additive
 * layer playing the additive clip at weight 1 on every joint. Three clips blended per character.
 */
export function benchGraph(w: Workload, options: RuntimeOptions = {}): CompiledGraph {
  const spec = {
    animgraph: 1, name: `bench-${w.name}`,
    parameters: { blend: { type: "float", default: 0.5, min: 0, max: 1 } },
    layers: [
      {
        name: "base",
        machine: {
          entry: "Move",
          states: { Move: { blend1d: { param: "blend", weighting: "linear", sync: false, children: [{ at: 0, clip: w.names.walk }, { at: 1, clip: w.names.run }] } } },
          transitions: [],
        },
      },
      { name: "additive", mode: "additive", machine: { entry: "Layer", states: { Layer: { clip: w.names.additive } }, transitions: [] } },
    ],
  };
  const parsed = parseGraphSpec(parseJsonText(JSON.stringify(spec), `bench-${w.name}.animgraph.json`));
  if (!parsed.spec) throw new Error(`bench graph: ${JSON.stringify(parsed.diagnostics)}`);
  const compiled = compileGraph(parsed.spec, w.skeleton, w.clips, options);
  if (!compiled.graph) throw new Error(`bench graph: ${JSON.stringify(compiled.diagnostics)}`);
  return compiled.graph;
}

function byName(clips: readonly AnimationClip[], name: string): AnimationClip {
  const c = clips.find((x) => x.name === name);
  if (!c) throw new Error(`no clip ${name}`);
  return c;
}

/** RobotExpressive: Walking + Running at 50 %, Yes as an additive layer. */
export async function robotWorkload(): Promise<Workload> {
  const path = sharedAsset("robot-expressive/RobotExpressive.glb");
  const loaded = await loadGltfFile(path);
  if (!loaded.ok) throw new Error(`loadGltf failed: ${JSON.stringify(loaded.diagnostics)}`);
  const skeleton = loaded.skeletons[0]!;
  const gltf = await loadGltfWithThree(path);
  const additive = byName(gltf.animations, "Yes").clone();
  AnimationUtils.makeClipAdditive(additive);
  return {
    name: "robot",
    jointCount: skeleton.jointCount,
    makeThreeCharacter: () => cloneSkinned(gltf.scene),
    threeClips: { walk: byName(gltf.animations, "Walking"), run: byName(gltf.animations, "Running"), additive },
    skeleton,
    clips: loaded.clips.filter((c) => c.skeleton === skeleton),
    names: { walk: "Walking", run: "Running", additive: "Yes" },
  };
}

const SYNTH_JOINTS = 64;
const SYNTH_RATE = 30;

/** Parent of synthetic joint j: a binary tree (depth 6), parents before children. */
function synthParent(j: number): number {
  return j === 0 ? -1 : (j - 1) >> 1;
}

/** A smooth looping clip on every joint of the synthetic rig: a rotation and a translation track each. */
function synthClip(name: string, duration: number, amplitude: number, seed: number): AnimationClip {
  const n = Math.round(duration * SYNTH_RATE) + 1;
  const times = new Float32Array(n);
  for (let k = 0; k < n; k++) times[k] = (k / (n - 1)) * duration;
  const tracks = [];
  const q = new Quaternion();
  const axis = new Vector3();
  for (let j = 0; j < SYNTH_JOINTS; j++) {
    axis.set(Math.sin(j * 1.3 + seed), Math.cos(j * 0.7 + seed), Math.sin(j * 0.3 + 2 * seed)).normalize();
    const phase = j * 0.37 + seed;
    const rot = new Float32Array(4 * n);
    const pos = new Float32Array(3 * n);
    for (let k = 0; k < n; k++) {
      const a = 2 * Math.PI * (k / (n - 1));
      q.setFromAxisAngle(axis, amplitude * Math.sin(a + phase));
      q.toArray(rot, 4 * k);
      pos[3 * k] = 0.01 * Math.sin(a + phase);
      pos[3 * k + 1] = 0.1 + 0.01 * Math.cos(a + phase);
      pos[3 * k + 2] = 0;
    }
    tracks.push(new QuaternionKeyframeTrack(`b${j}.quaternion`, times, rot));
    tracks.push(new VectorKeyframeTrack(`b${j}.position`, times, pos));
  }
  return new AnimationClip(name, duration, tracks);
}

/** The synthetic 64-joint rig: walk (1 s), run (0.7 s) and an additive sway (2 s), 30 keys/s, LINEAR. */
export function synthWorkload(): Workload {
  const bones: Bone[] = [];
  for (let j = 0; j < SYNTH_JOINTS; j++) {
    const b = new Bone();
    b.name = `b${j}`;
    b.position.set(0, 0.1, 0);
    bones.push(b);
    const p = synthParent(j);
    if (p >= 0) bones[p]!.add(b);
  }
  const proto = new Object3D();
  proto.add(bones[0]!);
  const { skeleton } = skeletonFromThree(bones);
  const walk = synthClip("Walk", 1, 0.4, 0);
  const run = synthClip("Run", 0.7, 0.6, 1);
  const sway = synthClip("Sway", 2, 0.2, 2);
  const additive = sway.clone();
  AnimationUtils.makeClipAdditive(additive);
  const clips = [walk, run, sway].map((c) => {
    const r = clipFromThree(c, skeleton);
    if (r.diagnostics.some((d) => d.severity === "error" || d.severity === "warning")) throw new Error(JSON.stringify(r.diagnostics));
    return r.clip;
  });
  return {
    name: "synthetic-64",
    jointCount: SYNTH_JOINTS,
    makeThreeCharacter: () => proto.clone(),
    threeClips: { walk, run, additive },
    skeleton,
    clips,
    names: { walk: "Walk", run: "Run", additive: "Sway" },
  };
}

/** Deterministic offsets in [0, 2) s so characters are out of phase (no accidental sharing). */
export function offsets(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  let x = seed >>> 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out[i] = (x / 2 ** 32) * 2;
  }
  return out;
}

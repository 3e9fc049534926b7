// The three.js side of the benchmark: N characters, each with its own AnimationMixer playing walk and
// run at weight 0.5 and the additive clip at weight 1 (AdditiveAnimationBlendMode), then one
// scene.updateMatrixWorld() for model-space (world) matrices of every object.
import { AdditiveAnimationBlendMode, AnimationMixer, Scene } from "three";
import type { Workload } from "./workloads.ts";

export interface ThreeCrowd {
  readonly scene: Scene;
  readonly mixers: AnimationMixer[];
}

/** N characters; character i starts `offsets[i]` seconds into its clips. */
export function createThreeCrowd(w: Workload, count: number, offsets: Float64Array): ThreeCrowd {
  const scene = new Scene();
  const mixers: AnimationMixer[] = [];
  for (let i = 0; i < count; i++) {
    const root = w.makeThreeCharacter();
    scene.add(root);
    const mixer = new AnimationMixer(root);
    const walk = mixer.clipAction(w.threeClips.walk);
    const run = mixer.clipAction(w.threeClips.run);
    const add = mixer.clipAction(w.threeClips.additive, undefined, AdditiveAnimationBlendMode);
    walk.setEffectiveWeight(0.5).play();
    run.setEffectiveWeight(0.5).play();
    add.setEffectiveWeight(1).play();
    mixer.update(offsets[i]!);
    mixers.push(mixer);
  }
  scene.updateMatrixWorld(true);
  return { scene, mixers };
}

/** One frame: every mixer, then the world matrices. */
export function stepThreeCrowd(crowd: ThreeCrowd, dt: number): void {
  const mixers = crowd.mixers;
  for (let i = 0; i < mixers.length; i++) mixers[i]!.update(dt);
  crowd.scene.updateMatrixWorld();
}

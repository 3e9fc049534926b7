// Which joint of the character is under a point of the viewport. Two ways, as animators know them:
// on the mesh (the ray hits a skinned triangle: the bones skinning the hit point, weighted by where in the
// triangle it is; the one with the largest weight wins, and among bones nearly as heavy, the one whose
// joint is nearest the hit — so clicking a wrist picks the hand, not the forearm it blends with), and on
// the drawn bones (the joint, or the bone from a joint to its child, within a few pixels on screen — for
// a thin part the mesh misses, a mesh-less rig, or when the skeleton overlay is shown). Nothing here is
// per frame: it runs on a click, or once a frame while the pointer moves.
import * as THREE from "three";
import type { Character } from "./character.ts";

/** What was picked: the joint's index in the character's skeleton, and how it was found. */
export interface JointHit {
  readonly joint: number;
  readonly how: "mesh" | "bone";
  /** Where the ray met the mesh (world space); null for a bone picked on screen. */
  readonly point: readonly [number, number, number] | null;
}

export interface PickOptions {
  /** Bones first (the skeleton overlay is drawn), else the mesh first. */
  readonly bonesFirst?: boolean;
  /** How near (CSS pixels) a drawn joint or bone must be to be picked. */
  readonly pixels?: number;
}

/** Candidates at least this share of the heaviest bone's weight compete by distance to the hit. */
const NEAR_HEAVIEST = 0.5;

/** The joint each three.js object drives, for one character (built once per character). */
export function jointsByObject(character: Character): Map<THREE.Object3D, number> {
  const map = new Map<THREE.Object3D, number>();
  const { objects, objectOfJoint } = character.binding;
  for (let j = 0; j < objectOfJoint.length; j++) {
    const at = objectOfJoint[j] ?? -1;
    const obj = at >= 0 ? objects[at] : undefined;
    if (obj) map.set(obj, j);
  }
  return map;
}

/** The joint an object is or hangs from (a bone outside the skeleton counts as its nearest joint above). */
function jointAbove(obj: THREE.Object3D | null, joints: Map<THREE.Object3D, number>): number {
  for (let o = obj; o; o = o.parent) {
    const j = joints.get(o);
    if (j !== undefined) return j;
  }
  return -1;
}

export interface JointPicker {
  /** The joint under client point (x, y) of the canvas, or null. */
  pick(x: number, y: number, options?: PickOptions): JointHit | null;
  /** Where a joint is drawn, in client pixels (and whether it is in front of the camera). */
  screenOf(joint: number): { x: number; y: number; front: boolean };
}

export function createJointPicker(character: Character, camera: THREE.Camera, canvas: HTMLCanvasElement): JointPicker {
  const joints = jointsByObject(character);
  const objectOf = (j: number): THREE.Object3D | undefined => {
    const at = character.binding.objectOfJoint[j] ?? -1;
    return at >= 0 ? character.binding.objects[at] : undefined;
  };
  const raycaster = new THREE.Raycaster();
  const ndc = new THREE.Vector2();
  const world = new THREE.Vector3();
  const weights = new Map<number, number>();
  const skinIndex = new THREE.Vector4(), skinWeight = new THREE.Vector4();
  const parents = character.skeleton.parents;
  const count = character.skeleton.jointCount;
  const sx = new Float64Array(count), sy = new Float64Array(count);
  const front = new Uint8Array(count);

  const screenOf = (j: number): { x: number; y: number; front: boolean } => {
    const rect = canvas.getBoundingClientRect();
    const obj = objectOf(j);
    if (!obj) return { x: NaN, y: NaN, front: false };
    obj.getWorldPosition(world).project(camera);
    return { x: rect.left + ((world.x + 1) / 2) * rect.width, y: rect.top + ((1 - world.y) / 2) * rect.height, front: world.z > -1 && world.z < 1 };
  };

  const onMesh = (): JointHit | null => {
    const meshes: THREE.Mesh[] = [];
    character.root.traverseVisible((o) => { if ((o as THREE.Mesh).isMesh) meshes.push(o as THREE.Mesh); });
    // A skinned mesh's bounds are cached from the pose they were first computed in: the pose now.
    for (const m of meshes) {
      if ((m as THREE.SkinnedMesh).isSkinnedMesh) { (m as THREE.SkinnedMesh).computeBoundingBox(); (m as THREE.SkinnedMesh).computeBoundingSphere(); }
    }
    for (const hit of raycaster.intersectObjects(meshes, false)) {
      const mesh = hit.object as THREE.Mesh;
      const skinned = mesh as THREE.SkinnedMesh;
      const face = hit.face;
      const attrs = mesh.geometry.attributes;
      if (!skinned.isSkinnedMesh || !face || !hit.barycoord || !attrs["skinIndex"] || !attrs["skinWeight"]) {
        // A rigid part parented to a bone (a helmet, a prop): the joint it hangs from.
        const j = jointAbove(mesh, joints);
        if (j >= 0) return { joint: j, how: "mesh", point: [hit.point.x, hit.point.y, hit.point.z] };
        continue;
      }
      weights.clear();
      const corners = [face.a, face.b, face.c];
      const bary = [hit.barycoord.x, hit.barycoord.y, hit.barycoord.z];
      for (let k = 0; k < 3; k++) {
        skinIndex.fromBufferAttribute(attrs["skinIndex"] as THREE.BufferAttribute, corners[k]!);
        skinWeight.fromBufferAttribute(attrs["skinWeight"] as THREE.BufferAttribute, corners[k]!);
        for (let c = 0; c < 4; c++) {
          const w = skinWeight.getComponent(c) * bary[k]!;
          if (!(w > 0)) continue;
          const j = jointAbove(skinned.skeleton.bones[skinIndex.getComponent(c)] ?? null, joints);
          if (j >= 0) weights.set(j, (weights.get(j) ?? 0) + w);
        }
      }
      let heaviest = 0;
      for (const w of weights.values()) heaviest = Math.max(heaviest, w);
      // Joints at one place (a rig's palm joints all at the wrist) tie on distance: the heavier wins.
      const tie = 1e-6 * hit.distance;
      let best = -1, bestDistance = Infinity;
      for (const [j, w] of weights) {
        if (w < NEAR_HEAVIEST * heaviest) continue;
        const d = objectOf(j)!.getWorldPosition(world).distanceTo(hit.point);
        if (d < bestDistance - tie || (d <= bestDistance + tie && w > weights.get(best)!)) { bestDistance = Math.min(d, bestDistance); best = j; }
      }
      if (best >= 0) return { joint: best, how: "mesh", point: [hit.point.x, hit.point.y, hit.point.z] };
    }
    return null;
  };

  const onBones = (x: number, y: number, pixels: number): JointHit | null => {
    for (let j = 0; j < count; j++) {
      const s = screenOf(j);
      sx[j] = s.x; sy[j] = s.y; front[j] = s.front ? 1 : 0;
    }
    // A joint's dot first: it is what the eye aims at.
    let best = -1, bestDistance = pixels;
    for (let j = 0; j < count; j++) {
      if (!front[j]) continue;
      const d = Math.hypot(sx[j]! - x, sy[j]! - y);
      if (d <= bestDistance) { bestDistance = d; best = j; }
    }
    if (best >= 0) return { joint: best, how: "bone", point: null };
    // Then a bone: the segment from a joint to its child is that joint's (it turns what hangs below).
    bestDistance = pixels;
    for (let j = 0; j < count; j++) {
      const p = parents[j]!;
      if (p < 0 || !front[j] || !front[p]) continue;
      const ax = sx[p]!, ay = sy[p]!, dx = sx[j]! - ax, dy = sy[j]! - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 > 0 ? Math.min(1, Math.max(0, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0;
      const d = Math.hypot(ax + t * dx - x, ay + t * dy - y);
      if (d <= bestDistance) { bestDistance = d; best = p; }
    }
    return best >= 0 ? { joint: best, how: "bone", point: null } : null;
  };

  return {
    pick(x, y, options = {}) {
      const rect = canvas.getBoundingClientRect();
      if (!(rect.width > 0 && rect.height > 0)) return null;
      character.root.updateMatrixWorld(true);
      ndc.set(((x - rect.left) / rect.width) * 2 - 1, -((y - rect.top) / rect.height) * 2 + 1);
      raycaster.setFromCamera(ndc, camera);
      const pixels = options.pixels ?? 8;
      if (options.bonesFirst) return onBones(x, y, pixels) ?? onMesh();
      return onMesh() ?? onBones(x, y, pixels);
    },
    screenOf,
  };
}

// Joint picking (studio/src/joint-pick.ts) in Node, with three.js's own GLTFLoader and CPU skinning, on
// RobotExpressive, Fox and CesiumMan, in their rest pose and mid-clip, seen from four sides as the studio
// frames them:
// - a visible point of the mesh skinned by one bone (weight ≥ 0.9) picks that bone's joint (property);
// - with the skeleton drawn, a click on a joint's dot picks a joint drawn there; far from the character,
//   nothing;
// - and the figure docs/studio.md gives: a click where each joint is drawn picks that joint, a joint next
//   to it, or another one (occluded joints: a hip inside the body, a far leg behind the near one).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import * as THREE from "three";
import { createClipCursor, createPose, sampleClip } from "animgraph";
import { applyPoseToThree } from "animgraph/three";
import { readCharacter, type Character } from "../../studio/src/character.ts";
import { createJointPicker, type JointPicker } from "../../studio/src/joint-pick.ts";
import { HAVE_SHARED_ASSETS, sharedAsset } from "../helpers/assets.ts";
import { glbWithoutTextures } from "../three/three-gltf.ts";

const skip = HAVE_SHARED_ASSETS ? false : "the shared assets are not there";
const WIDTH = 800, HEIGHT = 600;
const CHARACTERS = [
  ["RobotExpressive", "robot-expressive/RobotExpressive.glb"],
  ["Fox", "fox/Fox.glb"],
  ["CesiumMan", "cesium-man/CesiumMan.glb"],
] as const;

/** A canvas as the picker sees one: its place on the page. */
const canvas = { getBoundingClientRect: () => ({ left: 0, top: 0, width: WIDTH, height: HEIGHT }) } as unknown as HTMLCanvasElement;

async function load(file: string): Promise<Character> {
  const read = await readCharacter(new Uint8Array(glbWithoutTextures(readFileSync(sharedAsset(file)))), file);
  assert.ok("character" in read, `${file} loads`);
  return read.character;
}

/** Poses the character: its rest pose, or its first clip at a third of its length (all clips at once for CesiumMan's per-joint clips). */
function pose(character: Character, animated: boolean): void {
  const p = createPose(character.skeleton.jointCount);
  p.t.set(character.skeleton.rest.t); p.r.set(character.skeleton.rest.r); p.s.set(character.skeleton.rest.s);
  if (animated && character.clips.length > 0) {
    const clip = character.clips.reduce((a, b) => (b.duration > a.duration ? b : a));
    sampleClip(p, clip, clip.duration / 3, createClipCursor(clip));
  }
  applyPoseToThree(character.binding, p);
  character.root.updateMatrixWorld(true);
}

/** A camera framing the character as the studio's viewport does, turned `turn` quarter turns around it. */
function camera(character: Character, turn: number): { camera: THREE.PerspectiveCamera; size: number } {
  const box = new THREE.Box3().setFromObject(character.root, true);
  const size = box.getSize(new THREE.Vector3()).length();
  const centre = box.getCenter(new THREE.Vector3());
  const cam = new THREE.PerspectiveCamera(40, WIDTH / HEIGHT, size / 200, size * 400);
  const dir = new THREE.Vector3(0.55, 0.35, 1).normalize().applyAxisAngle(new THREE.Vector3(0, 1, 0), (turn * Math.PI) / 2);
  cam.position.copy(centre).addScaledVector(dir, size * 1.8);
  cam.lookAt(centre);
  cam.updateMatrixWorld(true);
  return { camera: cam, size };
}

interface SingleBoneVertex { mesh: THREE.SkinnedMesh; vertex: number; joint: number }
/** Vertices skinned (≥ 0.9) by one bone of the skeleton, with that bone's joint. */
function singleBoneVertices(character: Character): SingleBoneVertex[] {
  const jointOf = new Map<THREE.Object3D, number>();
  character.binding.objectOfJoint.forEach((at, j) => { const o = at >= 0 ? character.binding.objects[at] : undefined; if (o) jointOf.set(o, j); });
  const out: SingleBoneVertex[] = [];
  character.root.traverse((o) => {
    const mesh = o as THREE.SkinnedMesh;
    if (!mesh.isSkinnedMesh) return;
    const index = mesh.geometry.getAttribute("skinIndex"), weight = mesh.geometry.getAttribute("skinWeight");
    for (let v = 0; v < index.count; v++) {
      for (let c = 0; c < 4; c++) {
        if (weight.getComponent(v, c) < 0.9) continue;
        const joint = jointOf.get(mesh.skeleton.bones[index.getComponent(v, c)]!);
        if (joint !== undefined) out.push({ mesh, vertex: v, joint });
      }
    }
  });
  return out;
}

const project = (p: THREE.Vector3, cam: THREE.Camera): { x: number; y: number } => {
  const v = p.clone().project(cam);
  return { x: ((v.x + 1) / 2) * WIDTH, y: ((1 - v.y) / 2) * HEIGHT };
};

for (const [name, file] of CHARACTERS) {
  test(`${name}: a visible point of the mesh skinned by one bone picks that bone's joint (rest and mid-clip, four sides)`, { skip, timeout: 120_000 }, async () => {
    const character = await load(file);
    const vertices = singleBoneVertices(character);
    assert.ok(vertices.length > 50, `${vertices.length} single-bone vertices`);
    let visible = 0;
    for (const animated of [false, true]) {
      pose(character, animated);
      for (let turn = 0; turn < 4; turn++) {
        const { camera: cam, size } = camera(character, turn);
        const picker = createJointPicker(character, cam, canvas);
        fc.assert(fc.property(fc.integer({ min: 0, max: vertices.length - 1 }), (k) => {
          const { mesh, vertex, joint } = vertices[k]!;
          const world = mesh.getVertexPosition(vertex, new THREE.Vector3()).applyMatrix4(mesh.matrixWorld);
          const at = project(world, cam);
          if (!(at.x > 1 && at.x < WIDTH - 1 && at.y > 1 && at.y < HEIGHT - 1)) return;
          const hit = picker.pick(at.x, at.y);
          // Seen (the first surface along the ray is the vertex itself), not hidden behind another part.
          if (!hit?.point || world.distanceTo(new THREE.Vector3(...hit.point)) > 1e-4 * size) return;
          visible++;
          assert.equal(character.skeleton.names[hit.joint], character.skeleton.names[joint], `vertex ${vertex} of ${mesh.name}`);
        }), { numRuns: 40 }); // each pick skins every vertex once (the mesh's bounds in this pose): 8 views × 40 per character
      }
    }
    assert.ok(visible > 20, `only ${visible} of the sampled vertices were visible: the property checked too little`);
  });

  test(`${name}: with the skeleton drawn, a click on a joint's dot picks a joint drawn there; far from the character, nothing`, { skip, timeout: 120_000 }, async () => {
    const character = await load(file);
    pose(character, true);
    const { camera: cam } = camera(character, 0);
    const picker: JointPicker = createJointPicker(character, cam, canvas);
    for (let j = 0; j < character.skeleton.jointCount; j++) {
      const s = picker.screenOf(j);
      if (!s.front) continue;
      const hit = picker.pick(s.x, s.y, { bonesFirst: true });
      assert.ok(hit, `joint ${character.skeleton.names[j]}`);
      const t = picker.screenOf(hit.joint);
      assert.ok(Math.hypot(t.x - s.x, t.y - s.y) < 0.5, `${character.skeleton.names[j]} → ${character.skeleton.names[hit.joint]}`);
      assert.equal(hit.how, "bone");
    }
    assert.equal(picker.pick(2, 2), null, "a corner of the view picks nothing");
    assert.equal(picker.pick(2, 2, { bonesFirst: true }), null);
  });
}

test("the figure: a click where each joint is drawn (four sides, mid-clip) picks that joint, a joint next to it, or another", { skip, timeout: 120_000 }, async () => {
  const lines: string[] = [];
  for (const [name, file] of CHARACTERS) {
    const character = await load(file);
    pose(character, true);
    const { names, parents, jointCount } = character.skeleton;
    let same = 0, next = 0, other = 0, none = 0;
    for (let turn = 0; turn < 4; turn++) {
      const { camera: cam, size } = camera(character, turn);
      const picker = createJointPicker(character, cam, canvas);
      const world = (j: number): THREE.Vector3 => character.binding.objects[character.binding.objectOfJoint[j]!]!.getWorldPosition(new THREE.Vector3());
      for (let j = 0; j < jointCount; j++) {
        const s = picker.screenOf(j);
        if (!s.front) continue;
        const hit = picker.pick(s.x, s.y);
        if (!hit) { none++; continue; }
        const k = hit.joint;
        const coincident = world(k).distanceTo(world(j)) < 1e-6 * size;
        if (k === j || coincident) same++;
        else if (parents[k] === j || parents[j] === k) next++;
        else other++;
      }
    }
    const total = same + next + other + none;
    assert.ok(same + next > 0.5 * total, `${name}: ${same} + ${next} of ${total}`);
    lines.push(`${name}: ${jointCount} joints × 4 sides: ${same} the joint, ${next} a neighbour, ${other} another, ${none} none (${names.length} names)`);
  }
  console.log(lines.join("\n"));
});

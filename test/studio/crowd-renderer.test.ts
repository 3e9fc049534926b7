// Unit and property tests of the studio's crowd renderer in Node (three.js objects, no WebGL): the
// instanced meshes and their shader patch, the bone texture's rows (joint model matrix × inverse bind),
// agreement with three.js's own skinning, and the update-rate LOD's choice of characters. The studio
// imports the library as "animgraph", which Node resolves to dist/ (npm test builds it first).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import * as THREE from "three";
import { compileGraph, createCrowd, loadGltf, parseGraphSpec, parseJsonText, setParam, type CompiledGraph, type Crowd } from "animgraph";
import { bindThreeSkeleton, type ThreeBinding } from "animgraph/three";
import { createCrowdRenderer, drawItems } from "../../studio/src/crowd-renderer.ts";
import { repoPath } from "../helpers/assets.ts";
import { loadGltfWithThree } from "../three/three-gltf.ts";

const glbPath = repoPath("examples/robot/RobotExpressive.glb");
const loaded = await loadGltf(new Uint8Array(readFileSync(glbPath)), { fileName: "RobotExpressive.glb" });
const skeleton = loaded.skeletons[0]!;
const specPath = repoPath("examples/robot/robot.animgraph.json");
const spec = parseGraphSpec(parseJsonText(readFileSync(specPath, "utf8"), specPath)).spec!;
const graph: CompiledGraph = compileGraph(spec, skeleton, loaded.clips, { rootMotion: "auto" }).graph!;
/** What the renderer asks of a WebGLRenderer: only the largest texture size. */
const fakeRenderer = { capabilities: { maxTextureSize: 8192 } } as unknown as THREE.WebGLRenderer;

async function character(): Promise<{ root: THREE.Object3D; binding: ThreeBinding }> {
  const gltf = await loadGltfWithThree(glbPath);
  const { binding } = bindThreeSkeleton(skeleton, gltf.scene, { nodeIndexOf: (o) => gltf.parser.associations.get(o)?.nodes });
  return { root: gltf.scene, binding };
}

function crowdOf(n: number): Crowd {
  const crowd = createCrowd(graph, n);
  crowd.instances.forEach((c, i) => setParam(c, "speed", (i % 7) * 0.5));
  return crowd;
}

const meshesOf = (group: THREE.Group): THREE.InstancedMesh[] => group.children as THREE.InstancedMesh[];
const materialsOf = (mesh: THREE.InstancedMesh): THREE.Material[] => (Array.isArray(mesh.material) ? mesh.material : [mesh.material]);
const boneTextureOf = (mesh: THREE.InstancedMesh): THREE.DataTexture => {
  const shader = { vertexShader: THREE.ShaderLib.standard.vertexShader, fragmentShader: "", uniforms: {} } as unknown as THREE.WebGLProgramParametersWithUniforms;
  materialsOf(mesh)[0]!.onBeforeCompile(shader, fakeRenderer);
  return shader.uniforms["boneTexture"]!.value as THREE.DataTexture;
};

test("one instanced mesh per mesh of the character, each patched to read its bone matrices from row gl_InstanceID", async () => {
  const c = await character();
  const renderer = createCrowdRenderer(crowdOf(50), c, fakeRenderer);
  const meshes = meshesOf(renderer.group);
  assert.equal(meshes.length, drawItems(c.root));
  assert.equal(renderer.stats().drawCalls, drawItems(c.root));
  for (const mesh of meshes) {
    assert.ok(mesh.isInstancedMesh);
    assert.equal(mesh.count, 50);
    assert.ok(mesh.geometry.getAttribute("skinIndex") && mesh.geometry.getAttribute("skinWeight"), mesh.name);
    for (const material of materialsOf(mesh)) {
      assert.equal(material.defines?.["USE_SKINNING"], "");
      const shader = { vertexShader: THREE.ShaderLib.standard.vertexShader, fragmentShader: "", uniforms: {} } as unknown as THREE.WebGLProgramParametersWithUniforms;
      material.onBeforeCompile(shader, fakeRenderer);
      assert.ok(!shader.vertexShader.includes("#include <skinning_pars_vertex>"));
      assert.match(shader.vertexShader, /int y = gl_InstanceID;/);
      assert.ok(shader.uniforms["boneTexture"]!.value instanceof THREE.DataTexture);
      assert.ok(shader.uniforms["bindMatrix"] && shader.uniforms["bindMatrixInverse"]);
    }
  }
  // All instances share one placement buffer; the texture has one row per character.
  assert.ok(meshes.every((m) => m.instanceMatrix === meshes[0]!.instanceMatrix));
  const texture = boneTextureOf(meshes[0]!);
  assert.equal(texture.image.height, 50);
  assert.equal(texture.image.width % 4, 0);
  renderer.dispose();
  assert.equal(renderer.group.parent, null);
});

test("texture rows hold joint model matrix × inverse bind, and match three.js's own skinning matrices", async () => {
  const c = await character();
  const crowd = crowdOf(12);
  const renderer = createCrowdRenderer(crowd, c, fakeRenderer);
  renderer.setLod(false);
  const camera = new THREE.Vector3(0, 2, 10);
  for (let k = 0; k < 40; k++) renderer.step(1 / 60, camera);
  renderer.upload();
  // Skinned meshes: bone b of the three Skeleton, driven by its bound joint.
  const skinned: THREE.SkinnedMesh[] = [];
  c.root.traverse((o) => { if ((o as THREE.SkinnedMesh).isSkinnedMesh) skinned.push(o as THREE.SkinnedMesh); });
  const bones = skinned[0]!.skeleton.bones;
  const texture = boneTextureOf(meshesOf(renderer.group)[0]!);
  const data = texture.image.data as Float32Array;
  const jointOf = new Map(c.binding.objects.map((o, k) => [o, c.binding.jointOfObject[k]!] as const));
  const J = crowd.jointCount;
  for (const i of [0, 5, 11]) {
    bones.forEach((bone, b) => {
      const j = jointOf.get(bone);
      if (j === undefined) return;
      const want = new THREE.Matrix4().fromArray(crowd.model, 16 * (J * i + j)).multiply(skinned[0]!.skeleton.boneInverses[b]!);
      const got = new THREE.Matrix4().fromArray(data, 16 * (bones.length * i + b));
      for (let x = 0; x < 16; x++) assert.ok(Math.abs(got.elements[x]! - want.elements[x]!) <= 1e-6, `character ${i} bone ${b}`);
    });
    assert.ok(renderer.agreementWithThree(i) <= 1e-4, `character ${i}: ${renderer.agreementWithThree(i)}`);
  }
  assert.ok(renderer.distinctPoses(12) >= 3, "characters with different speeds have different poses");
});

test("property: with the camera far away (every 8th step), each character is evaluated on the steps where (step + index) mod 8 = 0, and only its row changes", async () => {
  const c = await character();
  await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 24 }), fc.integer({ min: 1, max: 20 }), async (n, steps) => {
    const renderer = createCrowdRenderer(crowdOf(n), c, fakeRenderer);
    const data = boneTextureOf(meshesOf(renderer.group)[0]!).image.data as Float32Array;
    const row = data.length / n;
    const far = new THREE.Vector3(1e9, 0, 0);
    for (let s = 0; s < steps; s++) {
      const before = data.slice();
      renderer.step(1 / 60, far);
      renderer.upload();
      const expected = Array.from({ length: n }, (_, i) => (s + i) % 8 === 0);
      assert.equal(renderer.stats().updated, expected.filter(Boolean).length);
      for (let i = 0; i < n; i++) {
        if (expected[i]) continue;
        for (let x = i * row; x < (i + 1) * row; x++) if (!Object.is(before[x], data[x])) return false;
      }
    }
    renderer.dispose();
    return true;
  }), { numRuns: 25 });
});

test("near the camera every character is evaluated at every step; the LOD toggle turns the skipping off", async () => {
  const c = await character();
  const renderer = createCrowdRenderer(crowdOf(30), c, fakeRenderer);
  renderer.step(1 / 60, new THREE.Vector3(0, 0, 0));
  renderer.step(1 / 60, new THREE.Vector3(0, 0, 0));
  renderer.upload();
  assert.deepEqual([renderer.stats().updated, renderer.stats().steps], [60, 2]);
  renderer.setLod(false);
  renderer.step(1 / 60, new THREE.Vector3(1e9, 0, 0));
  renderer.upload();
  assert.equal(renderer.stats().updated, 30);
});

test("a crowd taller than the GPU's largest texture is refused with a message", async () => {
  const c = await character();
  const small = { capabilities: { maxTextureSize: 16 } } as unknown as THREE.WebGLRenderer;
  assert.throws(() => createCrowdRenderer(crowdOf(20), c, small), /a crowd of 20 × \d+ bones needs a \d+×20 texture; this GPU allows 16/);
});

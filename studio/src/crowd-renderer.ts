// Draws a whole crowd with GPU skinning, instanced: one draw call per mesh of the character, however
// many characters. Every character's skinning matrices (joint model matrix × inverse bind matrix) live
// in one float RGBA DataTexture per three.js Skeleton: 4 texels per matrix, one row per character, and
// the vertex shader reads its character's row with gl_InstanceID. three.js 0.187 has no instanced
// skinned mesh, so the stock skinning shader is patched (onBeforeCompile) on an InstancedMesh that
// shares the character's geometry. Far characters update less often (the library's update-rate LOD).
import * as THREE from "three";
import { createUpdateRateLod, evaluateCrowdSelected, isUpdateFrame, type Crowd, type UpdateRateLod } from "animgraph";
import { applyPoseToThree, type ThreeBinding } from "animgraph/three";

export interface CrowdCharacter {
  /** The character's scene (GLTF `scene`): its SkinnedMeshes are what gets instanced. */
  readonly root: THREE.Object3D;
  readonly binding: ThreeBinding;
}

/** Where a crowd's counters stand after the last `upload` (what the performance panel shows). */
export interface CrowdDrawStats {
  readonly characters: number;
  /** Draw calls the crowd issues per frame: one per mesh (per material group) of the character. */
  readonly drawCalls: number;
  /** Characters evaluated since the previous upload (the LOD skips the others). */
  readonly updated: number;
  /** Steps since the previous upload (the studio runs fixed 1/60 s steps, several when a frame is slow). */
  readonly steps: number;
  readonly lod: boolean;
}

export interface CrowdRenderer {
  readonly crowd: Crowd;
  /** The instanced meshes; add it to the scene. Its bounding box covers the crowd and the character. */
  readonly group: THREE.Group;
  /**
   * Advances the crowd by `dt` seconds. With LOD on, a character at distance d from `cameraPosition`
   * is evaluated every `updateInterval(lod, d)`-th call (phase = its index, so a band's characters
   * spread over the frames) with the time it skipped; the others keep their last pose. No allocation.
   */
  step(dt: number, cameraPosition: THREE.Vector3): void;
  /** Writes the characters evaluated since the last upload into the bone texture; needsUpdate once. No allocation. */
  upload(): void;
  stats(): CrowdDrawStats;
  setLod(on: boolean): void;
  /** Test probes: how many of `sample` spread characters have a pose (texture row) unlike all others sampled. */
  distinctPoses(sample: number): number;
  /**
   * Test probe: poses three.js's own skeleton with character `index`'s local pose and returns the
   * largest difference between three's skinning matrices (bone world × inverse bind) and this
   * renderer's (placement removed). Restores the character afterwards.
   */
  agreementWithThree(index: number): number;
  dispose(): void;
}

/** Draw calls an object tree issues: one per visible mesh, or per group of a multi-material mesh. */
export function drawItems(root: THREE.Object3D): number {
  let n = 0;
  root.traverseVisible((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    n += Array.isArray(mesh.material) ? Math.max(1, mesh.geometry.groups.length) : 1;
  });
  return n;
}

// skinning_pars_vertex (three 0.187) with the bone fetch replaced: same uniforms, but the matrix comes
// from this instance's row (y = gl_InstanceID) instead of one row-wrapped list of the single skeleton.
const SKINNING_PARS = /* glsl */ `
#ifdef USE_SKINNING
	uniform mat4 bindMatrix;
	uniform mat4 bindMatrixInverse;
	uniform highp sampler2D boneTexture;
	mat4 getBoneMatrix( const in float i ) {
		int x = int( i ) * 4;
		int y = gl_InstanceID;
		vec4 v1 = texelFetch( boneTexture, ivec2( x, y ), 0 );
		vec4 v2 = texelFetch( boneTexture, ivec2( x + 1, y ), 0 );
		vec4 v3 = texelFetch( boneTexture, ivec2( x + 2, y ), 0 );
		vec4 v4 = texelFetch( boneTexture, ivec2( x + 3, y ), 0 );
		return mat4( v1, v2, v3, v4 );
	}
#endif
`;

// skinbase_vertex for a rigid mesh: every vertex follows one "bone" with weight 1, so one matrix is
// fetched instead of four (the other three have weight 0 and would be fetched for nothing).
const RIGID_SKINBASE = /* glsl */ `
	mat4 boneMatX = getBoneMatrix( skinIndex.x );
	mat4 boneMatY = mat4( 0.0 );
	mat4 boneMatZ = mat4( 0.0 );
	mat4 boneMatW = mat4( 0.0 );
`;

/** One bone texture per three.js Skeleton (meshes sharing a skeleton share it). */
interface SkinSet {
  readonly boneCount: number;
  /** Per bone: the animgraph joint whose model matrix drives it, or -1 (the bone keeps `fixed`). */
  readonly jointOfBone: Int16Array;
  readonly boneInverse: Float32Array;
  /** Per unbound bone: its constant skinning matrix in the crowd's model space. */
  readonly fixed: Float32Array;
  readonly data: Float32Array;
  readonly texture: THREE.DataTexture;
  /** Per bone: the object whose world matrix three.js would use (for `agreementWithThree`). */
  readonly bones: readonly THREE.Object3D[];
}

/**
 * A rigid mesh (a Mesh hanging under a bone, as most of RobotExpressive's parts do) drawn as a skinned
 * one: a geometry sharing its attributes plus skinIndex = its slot, skinWeight = (1, 0, 0, 0). Cached
 * per mesh so rebuilding the crowd does not add buffers, and never disposed: disposing it would free
 * the attribute buffers it shares with the character.
 */
const rigidGeometries = new WeakMap<THREE.Mesh, { slot: number; geometry: THREE.BufferGeometry }>();
function rigidGeometry(mesh: THREE.Mesh, slot: number): THREE.BufferGeometry {
  const cached = rigidGeometries.get(mesh);
  if (cached && cached.slot === slot) return cached.geometry;
  const source = mesh.geometry;
  const geometry = new THREE.BufferGeometry();
  for (const [name, attribute] of Object.entries(source.attributes)) geometry.setAttribute(name, attribute);
  geometry.setIndex(source.index);
  for (const g of source.groups) geometry.addGroup(g.start, g.count, g.materialIndex);
  geometry.morphAttributes = source.morphAttributes;
  geometry.morphTargetsRelative = source.morphTargetsRelative;
  const n = source.getAttribute("position").count;
  geometry.setAttribute("skinIndex", new THREE.BufferAttribute(new Uint16Array(4 * n).fill(0).map((_, x) => (x % 4 === 0 ? slot : 0)), 4));
  geometry.setAttribute("skinWeight", new THREE.BufferAttribute(new Float32Array(4 * n).map((_, x) => (x % 4 === 0 ? 1 : 0)), 4));
  rigidGeometries.set(mesh, { slot, geometry });
  return geometry;
}

/** out[o..o+16) = a[ao..] × b[bo..] (column-major 4×4). No allocation. */
function multiplyInto(out: Float32Array, o: number, a: Float32Array, ao: number, b: Float32Array, bo: number): void {
  for (let c = 0; c < 4; c++) {
    const b0 = b[bo + 4 * c]!, b1 = b[bo + 4 * c + 1]!, b2 = b[bo + 4 * c + 2]!, b3 = b[bo + 4 * c + 3]!;
    for (let r = 0; r < 4; r++) {
      out[o + 4 * c + r] = a[ao + r]! * b0 + a[ao + 4 + r]! * b1 + a[ao + 8 + r]! * b2 + a[ao + 12 + r]! * b3;
    }
  }
}

/**
 * The LOD bands, in character heights: every step within 15 heights of the camera, every 2nd up to 30,
 * every 4th up to 60, every 8th beyond.
 */
export function crowdLod(height: number): UpdateRateLod {
  const h = height > 0 ? height : 1;
  return createUpdateRateLod([
    { maxDistance: 15 * h, interval: 1 }, { maxDistance: 30 * h, interval: 2 }, { maxDistance: 60 * h, interval: 4 }, { maxDistance: Infinity, interval: 8 },
  ]);
}

/**
 * Builds the instanced crowd for `crowd` (whose graph runs on `character`'s skeleton) and evaluates
 * every character once (dt 0) so the first frame shows their poses. Characters stand on a grid behind
 * the character's origin, spaced by its size, each turned a little. Throws when the crowd does not fit
 * the GPU's largest texture.
 */
export function createCrowdRenderer(crowd: Crowd, character: CrowdCharacter, renderer: THREE.WebGLRenderer): CrowdRenderer {
  const { root, binding } = character;
  const N = crowd.count;
  const J = crowd.jointCount;
  if (binding.skeleton !== crowd.graph.skeleton) throw new Error("createCrowdRenderer: the crowd's graph runs on another skeleton than the character's");
  const maxSize = renderer.capabilities.maxTextureSize;
  root.updateMatrixWorld(true);
  const rootInverse = root.matrixWorld.clone().invert();

  // P: the animgraph model space (the skeleton roots' parent frame) in the character root's frame.
  const place = new THREE.Matrix4();
  for (let j = 0; j < J; j++) {
    const k = binding.objectOfJoint[j]!;
    if (crowd.graph.skeleton.parents[j]! >= 0 || k < 0) continue;
    const parent = binding.objects[k]!.parent;
    if (parent) place.multiplyMatrices(rootInverse, parent.matrixWorld);
    break;
  }
  const placeInverse = place.clone().invert();
  const jointOf = new Map<THREE.Object3D, number>();
  binding.objects.forEach((o, k) => jointOf.set(o, binding.jointOfObject[k]!));

  const group = new THREE.Group();
  group.name = "crowd";
  const skinList: SkinSet[] = [];
  const materials: THREE.Material[] = [];
  const meshes: THREE.InstancedMesh[] = [];
  const skinned: THREE.SkinnedMesh[] = [];
  const rigid: THREE.Mesh[] = [];
  root.traverseVisible((o) => {
    const mesh = o as THREE.SkinnedMesh;
    if (mesh.isSkinnedMesh) skinned.push(mesh);
    else if (mesh.isMesh) rigid.push(mesh);
  });
  const scratch = new THREE.Matrix4();
  /** A bone texture for `objects` (each driven by its joint, or fixed), skinning matrix = joint model matrix × offsets[b]. */
  const makeSkin = (objects: readonly THREE.Object3D[], joints: readonly number[], offsets: readonly THREE.Matrix4[]): SkinSet => {
    const B = objects.length;
    if (4 * B > maxSize || N > maxSize) throw new Error(`a crowd of ${N} × ${B} bones needs a ${4 * B}×${N} texture; this GPU allows ${maxSize}`);
    const jointOfBone = Int16Array.from(joints);
    const boneInverse = new Float32Array(16 * B);
    const fixed = new Float32Array(16 * B);
    objects.forEach((object, b) => {
      boneInverse.set(offsets[b]!.elements, 16 * b);
      // An unbound object holds where it is now, in model space: P⁻¹ · root⁻¹ · world · offset.
      scratch.multiplyMatrices(rootInverse, object.matrixWorld).premultiply(placeInverse).multiply(offsets[b]!);
      fixed.set(scratch.elements, 16 * b);
    });
    const data = new Float32Array(16 * B * N);
    const texture = new THREE.DataTexture(data, 4 * B, N, THREE.RGBAFormat, THREE.FloatType);
    texture.minFilter = texture.magFilter = THREE.NearestFilter;
    texture.generateMipmaps = false;
    const skin = { boneCount: B, jointOfBone, boneInverse, fixed, data, texture, bones: objects };
    skinList.push(skin);
    return skin;
  };
  const instance = (
    name: string, geometry: THREE.BufferGeometry, sourceMaterial: THREE.Material | THREE.Material[], skin: SkinSet,
    bindMatrix: THREE.Matrix4, bindMatrixInverse: THREE.Matrix4, rigidMesh: boolean,
  ): void => {
    const patch = (m: THREE.Material): THREE.Material => {
      const material = m.clone();
      material.defines = { ...(material.defines ?? {}), USE_SKINNING: "" };
      material.onBeforeCompile = (shader) => {
        const before = shader.vertexShader;
        shader.vertexShader = before.replace("#include <skinning_pars_vertex>", SKINNING_PARS);
        if (shader.vertexShader === before) throw new Error(`crowd skinning: ${material.type} has no skinning_pars_vertex chunk to patch`);
        if (rigidMesh) shader.vertexShader = shader.vertexShader.replace("#include <skinbase_vertex>", RIGID_SKINBASE);
        shader.uniforms["boneTexture"] = { value: skin.texture };
        shader.uniforms["bindMatrix"] = { value: bindMatrix };
        shader.uniforms["bindMatrixInverse"] = { value: bindMatrixInverse };
      };
      material.customProgramCacheKey = () => (rigidMesh ? "animgraph-instanced-rigid" : "animgraph-instanced-skinning");
      materials.push(material);
      return material;
    };
    const mesh = new THREE.InstancedMesh(geometry, Array.isArray(sourceMaterial) ? sourceMaterial.map(patch) : patch(sourceMaterial), N);
    mesh.name = `crowd:${name}`;
    // Skinned vertices leave the bind-pose bounds; the whole crowd is one object, so culling it per
    // instance would need per-frame bounds: it is drawn whole.
    mesh.frustumCulled = false;
    // InstancedMesh takes morph weights per instance from a morphTexture, and without one reads these
    // object-wide weights (its constructor leaves them undefined). The crowd plays no morphs: all zero.
    const morphs = geometry.morphAttributes["position"] ?? geometry.morphAttributes["normal"] ?? geometry.morphAttributes["color"];
    if (morphs) mesh.morphTargetInfluences = new Array<number>(morphs.length).fill(0);
    meshes.push(mesh);
    group.add(mesh);
  };
  const skinOf = new Map<THREE.Skeleton, SkinSet>();
  for (const source of skinned) {
    const skeleton = source.skeleton;
    let skin = skinOf.get(skeleton);
    if (!skin) {
      skin = makeSkin(skeleton.bones, skeleton.bones.map((b) => jointOf.get(b) ?? -1), skeleton.boneInverses);
      skinOf.set(skeleton, skin);
    }
    // "attached" binding (GLTFLoader's): world = Σ w · bone world · inverse bind · bindMatrix · v, so
    // bindMatrixInverse is the identity here and the placement goes in the instance matrix.
    const bindInverse = source.bindMode === THREE.AttachedBindMode ? new THREE.Matrix4() : source.bindMatrixInverse.clone();
    instance(source.name, source.geometry, source.material, skin, source.bindMatrix.clone(), bindInverse, false);
  }
  if (rigid.length > 0) {
    // Each rigid mesh is one "bone": its nearest bound ancestor's joint × the mesh's offset from it.
    const drivers: THREE.Object3D[] = [], joints: number[] = [], offsets: THREE.Matrix4[] = [];
    for (const mesh of rigid) {
      let o: THREE.Object3D | null = mesh;
      while (o && o !== root && !jointOf.has(o)) o = o.parent;
      const driver = o && jointOf.has(o) ? o : mesh;
      drivers.push(driver);
      joints.push(driver === mesh && !jointOf.has(mesh) ? -1 : jointOf.get(driver)!);
      offsets.push(driver === mesh ? new THREE.Matrix4() : driver.matrixWorld.clone().invert().multiply(mesh.matrixWorld));
    }
    const skin = makeSkin(drivers, joints, offsets);
    rigid.forEach((mesh, r) => instance(mesh.name, rigidGeometry(mesh, r), mesh.material, skin, new THREE.Matrix4(), new THREE.Matrix4(), true));
  }

  // Placement: a grid behind the character, one character's footprint apart, each turned a little.
  const bounds = new THREE.Box3().setFromObject(root, true).applyMatrix4(rootInverse);
  const size = bounds.getSize(new THREE.Vector3());
  const height = Math.max(size.y, 1e-6);
  const spacing = Math.max(size.x, size.z, 0.35 * height) * 1.6;
  const columns = Math.ceil(Math.sqrt(N));
  const positions = new Float32Array(3 * N);
  const instanceMatrix = meshes[0]?.instanceMatrix ?? new THREE.InstancedBufferAttribute(new Float32Array(16 * N), 16);
  const crowdBox = bounds.clone();
  const world = new THREE.Matrix4();
  const box = new THREE.Box3();
  for (let i = 0; i < N; i++) {
    const x = (i % columns - (columns - 1) / 2) * spacing;
    const z = -(Math.floor(i / columns) + 1) * spacing;
    const yaw = (((i * 7919) % 100) / 100 - 0.5) * 0.6;
    world.makeRotationY(yaw).setPosition(x, 0, z);
    positions[3 * i] = x; positions[3 * i + 1] = 0; positions[3 * i + 2] = z;
    crowdBox.union(box.copy(bounds).applyMatrix4(world));
    world.multiply(place);
    world.toArray(instanceMatrix.array, 16 * i);
  }
  instanceMatrix.needsUpdate = true;
  const sphere = crowdBox.getBoundingSphere(new THREE.Sphere());
  for (const mesh of meshes) {
    mesh.instanceMatrix = instanceMatrix;
    mesh.boundingBox = crowdBox;
    mesh.boundingSphere = sphere;
  }

  const lod = crowdLod(height);
  let lodOn = true;
  let frame = 0;
  const pending = new Float64Array(N);
  const dts = new Float64Array(N);
  const selected = new Int32Array(N);
  const dirty = new Uint8Array(N);
  let updated = 0, steps = 0;
  let lastUpdated = 0, lastSteps = 0;
  const model = crowd.model;

  function writeRow(skin: SkinSet, i: number): void {
    const { boneCount: B, jointOfBone, boneInverse, fixed, data } = skin;
    const row = 16 * B * i;
    const base = 16 * J * i;
    for (let b = 0; b < B; b++) {
      const j = jointOfBone[b]!;
      if (j >= 0) multiplyInto(data, row + 16 * b, model, base + 16 * j, boneInverse, 16 * b);
      else for (let x = 0; x < 16; x++) data[row + 16 * b + x] = fixed[16 * b + x]!;
    }
  }

  const self: CrowdRenderer = {
    crowd,
    group,
    step(dt, cameraPosition) {
      const cx = cameraPosition.x, cy = cameraPosition.y, cz = cameraPosition.z;
      let n = 0;
      for (let i = 0; i < N; i++) {
        const t = pending[i]! + dt;
        const dx = positions[3 * i]! - cx, dy = positions[3 * i + 1]! - cy, dz = positions[3 * i + 2]! - cz;
        if (!lodOn || isUpdateFrame(lod, Math.sqrt(dx * dx + dy * dy + dz * dz), frame, i)) {
          selected[n++] = i;
          dts[i] = t;
          pending[i] = 0;
          dirty[i] = 1;
        } else {
          pending[i] = t;
        }
      }
      frame++;
      evaluateCrowdSelected(crowd, selected, n, dts);
      updated += n;
      steps++;
    },
    upload() {
      lastUpdated = updated;
      lastSteps = steps;
      steps = 0;
      if (updated === 0) return;
      updated = 0;
      for (const skin of skinList) {
        for (let i = 0; i < N; i++) if (dirty[i] === 1) writeRow(skin, i);
        skin.texture.needsUpdate = true;
      }
      dirty.fill(0);
    },
    stats() {
      return { characters: N, drawCalls: drawItems(group), updated: lastUpdated, steps: lastSteps, lod: lodOn };
    },
    setLod(on) { lodOn = on; },
    distinctPoses(sample) {
      const skin = skinList[0];
      if (!skin) return 0;
      const width = 16 * skin.boneCount;
      const kept: number[] = [];
      const k = Math.min(sample, N);
      for (let s = 0; s < k; s++) {
        const i = Math.floor((s * N) / k);
        const unlike = kept.every((other) => {
          let worst = 0;
          for (let x = 0; x < width; x++) worst = Math.max(worst, Math.abs(skin.data[width * i + x]! - skin.data[width * other + x]!));
          return worst > 1e-3;
        });
        if (unlike) kept.push(i);
      }
      return kept.length;
    },
    agreementWithThree(index) {
      const pose = crowd.poses[index];
      if (!pose) throw new Error(`agreementWithThree: the crowd keeps no local pose for character ${index}`);
      const saved = binding.objects.map((o) => [o.position.clone(), o.quaternion.clone(), o.scale.clone()] as const);
      applyPoseToThree(binding, pose);
      root.updateMatrixWorld(true);
      const inverse = root.matrixWorld.clone().invert();
      let worst = 0;
      const ours = new THREE.Matrix4(), theirs = new THREE.Matrix4();
      for (const skin of skinList) {
        skin.bones.forEach((bone, b) => {
          if (skin.jointOfBone[b]! < 0) return;
          ours.fromArray(skin.data, 16 * (skin.boneCount * index + b)).premultiply(place);
          theirs.multiplyMatrices(inverse, bone.matrixWorld).multiply(new THREE.Matrix4().fromArray(skin.boneInverse, 16 * b));
          for (let x = 0; x < 16; x++) worst = Math.max(worst, Math.abs(ours.elements[x]! - theirs.elements[x]!));
        });
      }
      binding.objects.forEach((o, k) => { o.position.copy(saved[k]![0]); o.quaternion.copy(saved[k]![1]); o.scale.copy(saved[k]![2]); });
      root.updateMatrixWorld(true);
      return worst;
    },
    dispose() {
      group.removeFromParent();
      for (const skin of skinList) skin.texture.dispose();
      for (const m of materials) m.dispose();
      for (const mesh of meshes) mesh.dispose();
    },
  };
  // Every character's first pose (dt 0), whatever its LOD band.
  for (let i = 0; i < N; i++) { selected[i] = i; dts[i] = 0; dirty[i] = 1; }
  evaluateCrowdSelected(crowd, selected, N, dts);
  updated = N;
  self.upload();
  return self;
}

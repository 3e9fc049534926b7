import { PropertyBinding, type Bone, type Object3D, type Skeleton as ThreeSkeleton, type SkinnedMesh } from "three";
import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { argumentError, expectFunction, expectOptionalObject, expectSkeleton, expectString } from "../errors/check-argument.ts";
import { expectThreeBindTarget } from "./check-three-arguments.ts";

/**
 * An animgraph skeleton bound to three.js objects (bones or any Object3D): per joint, which object
 * receives its local transform. Resolved once; applying poses then costs no lookups.
 */
export interface ThreeBinding {
  readonly skeleton: Skeleton;
  /** The bound three.js objects, each once, in the order of the joints they serve. */
  readonly objects: readonly Object3D[];
  /** Per animgraph joint: index into `objects`, or -1 when no object matched (the joint is not applied). */
  readonly objectOfJoint: Int16Array;
  /** Per entry of `objects`: the animgraph joint it serves (the inverse of `objectOfJoint`). */
  readonly jointOfObject: Int16Array;
}

/** What `bindThreeSkeleton` binds to: a three Skeleton, a SkinnedMesh, a root Object3D (its whole subtree), or a list of objects. */
export type ThreeBindTarget = ThreeSkeleton | SkinnedMesh | Object3D | readonly Object3D[];

/** How `bindThreeSkeleton` matches joints to three.js objects: by glTF node index first, and the file diagnostics name. */
export interface BindThreeOptions {
  /**
   * Maps an object to its glTF node index, matched against `skeleton.sourceIndex` before names are
   * tried. With three's GLTFLoader: `(o) => gltf.parser.associations.get(o)?.nodes`. This is the
   * robust route: GLTFLoader rewrites names (`Foot.L` → `FootL`, a second `Torso` → `Torso_1`) and
   * leaves unnamed nodes nameless.
   */
  readonly nodeIndexOf?: (object: Object3D) => number | undefined;
  /** File named in diagnostics. Default `<three>`. */
  readonly file?: string;
}

/** What `bindThreeSkeleton` returns: the binding and a warning per joint left unbound. */
export interface ThreeBindResult {
  /** Joint ↔ object correspondence, for `applyPoseToThree` and `readPoseFromThree`. */
  readonly binding: ThreeBinding;
  /** One `E_THREE_UNBOUND_JOINT` warning per joint that matched no object (that joint is left alone). */
  readonly diagnostics: Diagnostic[];
}

/** The candidate objects of a bind target, in a stable order (depth-first for a subtree). */
export function threeObjectsOf(target: ThreeBindTarget): Object3D[] {
  const fn = "threeObjectsOf";
  if (Array.isArray(target)) {
    target.forEach((o: unknown, i) => {
      if (typeof o !== "object" || o === null || (o as Partial<Object3D>).isObject3D !== true) throw argumentError(fn, `target[${i}]`, "a three Object3D", o);
    });
  } else if (typeof (target as Partial<Object3D> | null)?.traverse !== "function" && !(Array.isArray((target as Partial<ThreeSkeleton> | null)?.bones) && (target as ThreeSkeleton).boneInverses)) {
    throw argumentError(fn, "target", "a three Skeleton, SkinnedMesh, Object3D or array of Object3Ds", target);
  }
  return objectsOf(target);
}

/** `threeObjectsOf` without the argument check, for bindThreeSkeleton's own (checked) target. */
function objectsOf(target: ThreeBindTarget): Object3D[] {
  if (Array.isArray(target)) return [...(target as readonly Object3D[])];
  const t = target as Partial<ThreeSkeleton> & Partial<SkinnedMesh> & Object3D;
  if (Array.isArray(t.bones) && t.boneInverses) return [...t.bones]; // a three Skeleton
  if (t.isSkinnedMesh === true && t.skeleton) return [...t.skeleton.bones];
  const all: Object3D[] = [];
  (target as Object3D).traverse((o) => all.push(o));
  return all;
}

/**
 * Binds `skeleton`'s joints to three.js objects. Per joint, in order: the object whose glTF node index
 * (`options.nodeIndexOf`) equals the joint's `sourceIndex`; else the first object named exactly like
 * the joint; else the first named like three's `PropertyBinding.sanitizeNodeName(joint name)` (what
 * GLTFLoader does to names: `Foot.L` → `FootL`); else the first unused bone named `<sanitized>_<n>`
 * (GLTFLoader's de-duplication: a bone `Torso` beside a mesh node `Torso` becomes `Torso_1`). Bones
 * are tried first with all three rules, then other objects (a plain Object3D rig) by exact and
 * sanitized name. Unmatched joints get -1 and a warning. Allocates; call once per character.
 */
export function bindThreeSkeleton(skeleton: Skeleton, target: ThreeBindTarget, options: BindThreeOptions = {}): ThreeBindResult {
  const fn = "bindThreeSkeleton";
  expectSkeleton(fn, "skeleton", skeleton);
  expectThreeBindTarget(fn, "target", target);
  expectOptionalObject(fn, "options", options);
  if (options.nodeIndexOf !== undefined) expectFunction(fn, "options.nodeIndexOf", options.nodeIndexOf);
  if (options.file !== undefined) expectString(fn, "options.file", options.file);
  const candidates = objectsOf(target);
  const boneByName = new Map<string, Object3D>();
  const otherByName = new Map<string, Object3D>();
  const byNode = new Map<number, Object3D>();
  for (const o of candidates) {
    const names = (o as Partial<Bone>).isBone === true ? boneByName : otherByName;
    if (o.name !== "" && !names.has(o.name)) names.set(o.name, o);
    const node = options.nodeIndexOf?.(o);
    if (node !== undefined && !byNode.has(node)) byNode.set(node, o);
  }
  const used = new Map<Object3D, number>(); // object → its index in `objects`
  // GLTFLoader makes names unique across all objects by appending `_<n>`: a bone "Torso" beside a mesh
  // node "Torso" becomes "Torso_1". Only bones are matched this way (a mesh suffix would be a guess).
  const uniquified = (base: string): Object3D | undefined => {
    for (const [name, o] of boneByName) {
      if (name.length > base.length + 1 && name.startsWith(`${base}_`) && /^\d+$/.test(name.slice(base.length + 1)) && !used.has(o)) return o;
    }
    return undefined;
  };
  const J = skeleton.jointCount;
  const objectOfJoint = new Int16Array(J).fill(-1);
  const objects: Object3D[] = [];
  const joints: number[] = [];
  const diagnostics: Diagnostic[] = [];
  for (let j = 0; j < J; j++) {
    const name = skeleton.names[j]!;
    const source = skeleton.sourceIndex[j]!;
    const sanitized = PropertyBinding.sanitizeNodeName(name);
    const object =
      (source >= 0 ? byNode.get(source) : undefined) ??
      boneByName.get(name) ?? boneByName.get(sanitized) ?? uniquified(sanitized) ??
      otherByName.get(name) ?? otherByName.get(sanitized);
    if (object === undefined || used.has(object)) {
      diagnostics.push({
        code: "E_THREE_UNBOUND_JOINT", severity: "warning", file: options.file ?? "<three>", pointer: `joints[${j}]`,
        message: object === undefined
          ? `joint ${j} ("${name}") matches no three.js object; it is not applied`
          : `joint ${j} ("${name}") matches the object already bound to joint ${joints[used.get(object)!]}; it is not applied`,
      });
      continue;
    }
    used.set(object, objects.length);
    objectOfJoint[j] = objects.length;
    objects.push(object);
    joints.push(j);
  }
  return { binding: Object.freeze({ skeleton, objects: Object.freeze(objects), objectOfJoint, jointOfObject: Int16Array.from(joints) }), diagnostics };
}

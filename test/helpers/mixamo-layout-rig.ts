// A skinned character with Mixamo's skeleton layout, built here because no Mixamo file may be shipped:
// Mixamo's joint names (mixamorig:Hips … mixamorig:LeftToe_End), its hierarchy down to the toe END joints,
// X Bot's proportions (joint positions in centimetres, measured from X Bot's rest pose to about 1 cm) under
// an Armature node scaled by 0.01, and Blender/Mixamo-style bone frames (each joint's local +Y points
// along its bone). One small triangle per joint, skinned to it, so the file is a valid skinned glTF.
import { Document, NodeIO, type Node } from "@gltf-transform/core";

/** [name, parent name, model position (cm, Y up, facing +Z, the character's left at +X)] */
const JOINTS: ReadonlyArray<readonly [string, string, readonly [number, number, number]]> = [
  ["Hips", "", [0, 104, 0]],
  ["Spine", "Hips", [0, 114, 1]],
  ["Spine1", "Spine", [0, 126, 1]],
  ["Spine2", "Spine1", [0, 139, 0]],
  ["Neck", "Spine2", [0, 154, -1]],
  ["Head", "Neck", [0, 164, 1]],
  ["HeadTop_End", "Head", [0, 182, 3]],
  ...(["Left", "Right"] as const).flatMap((side) => {
    const x = side === "Left" ? 1 : -1;
    return [
      [`${side}Shoulder`, "Spine2", [6 * x, 149, 0]],
      [`${side}Arm`, `${side}Shoulder`, [18 * x, 147, -1]],
      [`${side}ForeArm`, `${side}Arm`, [44 * x, 147, -2]],
      [`${side}Hand`, `${side}ForeArm`, [69 * x, 147, -1]],
      [`${side}HandMiddle4`, `${side}Hand`, [87 * x, 147, 0]],
      [`${side}UpLeg`, "Hips", [9 * x, 99, 0]],
      [`${side}Leg`, `${side}UpLeg`, [9 * x, 56, 1]],
      [`${side}Foot`, `${side}Leg`, [9 * x, 10, -2]],
      [`${side}ToeBase`, `${side}Foot`, [9 * x, 1.5, 10]],
      [`${side}Toe_End`, `${side}ToeBase`, [9 * x, 1.5, 19]],
    ] as const;
  }),
];

/** The rig's joint names, with the `mixamorig:` prefix. */
export const MIXAMO_LAYOUT_JOINTS: readonly string[] = JOINTS.map(([name]) => `mixamorig:${name}`);

/** Writes the rig as a GLB (no animation). */
export async function buildMixamoLayoutRig(): Promise<Uint8Array> {
  const doc = new Document();
  const buffer = doc.createBuffer();
  const armature = doc.createNode("Armature").setScale([0.01, 0.01, 0.01]);
  const nodes = new Map<string, Node>();
  const model = new Map<string, [number, number, number, number]>();
  const position = new Map(JOINTS.map(([name, , p]) => [name, p]));
  const children = new Map<string, string[]>();
  for (const [name, parent] of JOINTS) if (parent) children.set(parent, [...(children.get(parent) ?? []), name]);
  for (const [name, parent, p] of JOINTS) {
    // The bone's direction: towards its (first) child, else its parent's direction.
    const child = children.get(name)?.[0];
    let q: [number, number, number, number];
    if (child) {
      const c = position.get(child)!;
      q = fromYTo([c[0] - p[0], c[1] - p[1], c[2] - p[2]]);
    } else q = model.get(parent)!;
    model.set(name, q);
    const node = doc.createNode(`mixamorig:${name}`);
    if (parent) {
      const pq = model.get(parent)!, pp = position.get(parent)!;
      const inv: [number, number, number, number] = [-pq[0], -pq[1], -pq[2], pq[3]];
      node.setTranslation(rotate(inv, [p[0] - pp[0], p[1] - pp[1], p[2] - pp[2]]));
      node.setRotation(multiply(inv, q));
      nodes.get(parent)!.addChild(node);
    } else {
      node.setTranslation([p[0], p[1], p[2]]).setRotation(q);
      armature.addChild(node);
    }
    nodes.set(name, node);
  }
  // Skin: one triangle per joint at its bind position (metres), weight 1 on that joint.
  const count = JOINTS.length;
  const pos = new Float32Array(9 * count), joints = new Uint16Array(12 * count), weights = new Float32Array(12 * count);
  const ibm = new Float32Array(16 * count);
  JOINTS.forEach(([name, , p], j) => {
    const [x, y, z] = [p[0] * 0.01, p[1] * 0.01, p[2] * 0.01];
    pos.set([x, y, z, x + 0.01, y, z, x, y + 0.01, z], 9 * j);
    for (let v = 0; v < 3; v++) {
      joints[12 * j + 4 * v] = j;
      weights[12 * j + 4 * v] = 1;
    }
    // Inverse bind: the inverse of scale(0.01) · T(p) · R(q).
    const q = model.get(name)!;
    const inv: [number, number, number, number] = [-q[0], -q[1], -q[2], q[3]];
    const m = matrixOf(inv);
    const t = rotate(inv, [-p[0], -p[1], -p[2]]);
    for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) ibm[16 * j + 4 * c + r] = m[3 * c + r]! * 100;
    for (let r = 0; r < 3; r++) ibm[16 * j + 12 + r] = t[r]!;
    ibm[16 * j + 15] = 1;
  });
  const acc = (type: "VEC3" | "VEC4" | "MAT4", array: Float32Array | Uint16Array) => doc.createAccessor().setType(type).setArray(array).setBuffer(buffer);
  const prim = doc.createPrimitive().setAttribute("POSITION", acc("VEC3", pos)).setAttribute("JOINTS_0", acc("VEC4", joints)).setAttribute("WEIGHTS_0", acc("VEC4", weights));
  const skin = doc.createSkin("mixamorig").setInverseBindMatrices(acc("MAT4", ibm)).setSkeleton(nodes.get("Hips")!);
  for (const [name] of JOINTS) skin.addJoint(nodes.get(name)!);
  const body = doc.createNode("Body").setMesh(doc.createMesh("Body").addPrimitive(prim)).setSkin(skin);
  doc.createScene().addChild(armature).addChild(body);
  return new NodeIO().writeBinary(doc);
}

type Q = [number, number, number, number];
type V = [number, number, number];

/** The shortest rotation taking +Y onto `d`. */
function fromYTo(d: V): Q {
  const l = Math.hypot(...d);
  const [x, y, z] = [d[0] / l, d[1] / l, d[2] / l];
  if (y < -1 + 1e-9) return [1, 0, 0, 0];
  // axis = Y × d = (z, 0, −x); q = (axis, 1 + y) normalised.
  const q: Q = [z, 0, -x, 1 + y];
  const n = Math.hypot(...q);
  return [q[0] / n, q[1] / n, q[2] / n, q[3] / n];
}

function multiply(a: Q, b: Q): Q {
  return [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
  ];
}

function rotate(q: Q, v: V): V {
  const m = matrixOf(q);
  return [m[0]! * v[0] + m[3]! * v[1] + m[6]! * v[2], m[1]! * v[0] + m[4]! * v[1] + m[7]! * v[2], m[2]! * v[0] + m[5]! * v[1] + m[8]! * v[2]];
}

/** Column-major 3×3 rotation matrix of a unit quaternion. */
function matrixOf([x, y, z, w]: Q): number[] {
  return [
    1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w),
    2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w),
    2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y),
  ];
}

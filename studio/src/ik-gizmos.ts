// The IK layers in the viewport, drawn from the graph that plays and the parameter values of this frame:
// a two-bone layer's target (a sphere, joined to the limb's end) and pole (an arrow from the middle
// joint), an aim layer's target (joined to the aiming joint), a foot-placement layer's ground plane (under
// the pelvis, tilted by its normal) with a disc on it under each foot. Gizmos are drawn over the mesh
// (no depth test); a disabled or zero-weight layer's are faint. The selected layer's target (or ground)
// carries a translate handle: dragging it reports the new place in model space, and the studio sets the
// parameters that drive it (or the numbers in the document).
import * as THREE from "three";
import { TransformControls } from "three/examples/jsm/controls/TransformControls.js";
import type { CompiledGraph, CompiledIkLayer, GraphInstance } from "animgraph";
import type { Character } from "./character.ts";
import type { Viewport } from "./viewport.ts";

/** What a drag moved: a layer's target, or its ground plane (`point` then lies on the moved plane). */
export interface IkDrag {
  readonly layer: number;
  readonly what: "target" | "ground";
  /** Model space: the new target, or a point of the moved ground plane. */
  readonly point: readonly [number, number, number];
  /** The drag ended (one undo step for the edits it made). */
  readonly done: boolean;
}

/** For tests and scripts: where each layer's gizmos are, in world space (and the target in model space). */
export interface IkGizmoSnapshot {
  readonly name: string;
  readonly solver: string;
  readonly weight: number;
  readonly target: readonly [number, number, number] | null;
  readonly targetModel: readonly [number, number, number] | null;
  /** footPlacement: the ground plane's centre (under the pelvis) and normal, world space; its height parameter value. */
  readonly ground: { readonly centre: readonly number[]; readonly normal: readonly number[]; readonly height: number } | null;
}

export interface IkGizmos {
  /** Every frame, once the pose is on the three.js bones. */
  update(graph: CompiledGraph | undefined, instance: GraphInstance | undefined, character: Character | undefined): void;
  /** The layer whose gizmos are marked and carry the handle (−1: none). */
  select(index: number): void;
  setVisible(visible: boolean): void;
  /** The translate handle is under the pointer or being dragged (a press there is the handle's). */
  handleBusy(): boolean;
  /** Joint picking takes the viewport's clicks: the handle stands aside meanwhile. */
  setHandleEnabled(enabled: boolean): void;
  snapshot(): IkGizmoSnapshot[];
  /** The model-space → world matrix of a character (its root joint's parent frame). */
  modelMatrix(character: Character): THREE.Matrix4;
}

const COLORS = { twoBone: 0xffb547, aim: 0x4fb3ff, footPlacement: 0x5fd38d } as const;

interface LayerGizmo {
  readonly group: THREE.Group;
  readonly target: THREE.Mesh;
  readonly line: THREE.Line;
  readonly pole: THREE.ArrowHelper;
  readonly plane: THREE.Mesh;
  readonly feet: THREE.Mesh[];
  readonly materials: THREE.Material[];
  snapshot: IkGizmoSnapshot;
}

const overlay = <T extends THREE.Material>(m: T): T => {
  m.depthTest = false;
  m.depthWrite = false;
  m.transparent = true;
  return m;
};

export function createIkGizmos(viewport: Viewport, onDrag: (drag: IkDrag) => void): IkGizmos {
  const root = new THREE.Group();
  root.name = "ik-gizmos";
  viewport.scene.add(root);
  const handle = new TransformControls(viewport.camera, viewport.renderer.domElement);
  handle.setSize(0.6);
  const handleHelper = handle.getHelper();
  viewport.scene.add(handleHelper);
  handle.addEventListener("dragging-changed", (e) => {
    viewport.controls.enabled = !(e as unknown as { value: boolean }).value;
    if (!(e as unknown as { value: boolean }).value) report(true);
  });
  handle.addEventListener("objectChange", () => report(false));

  let gizmos: LayerGizmo[] = [];
  let builtFor: CompiledGraph | undefined;
  let builtShape = "";
  let selected = -1;
  let shown = true, handleAllowed = true;
  let dragging: { layer: number; what: "target" | "ground" } | undefined;
  const matrix = new THREE.Matrix4();
  const inverse = new THREE.Matrix4();
  const a = new THREE.Vector3(), b = new THREE.Vector3(), n = new THREE.Vector3(), up = new THREE.Vector3();
  const Z = new THREE.Vector3(0, 0, 1);

  function report(done: boolean): void {
    const obj = handle.object;
    if (!obj || !dragging) return;
    const p = obj.getWorldPosition(new THREE.Vector3()).applyMatrix4(inverse);
    onDrag({ layer: dragging.layer, what: dragging.what, point: [p.x, p.y, p.z], done });
  }

  const dispose = (): void => {
    handle.detach();
    for (const g of gizmos) {
      root.remove(g.group);
      g.group.traverse((o) => { if (o instanceof THREE.Mesh || o instanceof THREE.Line) o.geometry.dispose(); });
      for (const m of g.materials) m.dispose();
    }
    gizmos = [];
  };

  const build = (graph: CompiledGraph): void => {
    dispose();
    builtFor = graph;
    gizmos = graph.ik.map((layer) => {
      const color = COLORS[layer.solver];
      const solid = overlay(new THREE.MeshBasicMaterial({ color }));
      const lineMat = overlay(new THREE.LineBasicMaterial({ color }));
      const planeMat = overlay(new THREE.MeshBasicMaterial({ color, opacity: 0.22, side: THREE.DoubleSide }));
      const group = new THREE.Group();
      group.name = `ik:${layer.name}`;
      const target = new THREE.Mesh(layer.solver === "aim" ? new THREE.OctahedronGeometry(1) : new THREE.SphereGeometry(1, 16, 12), solid);
      const line = new THREE.Line(new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]), lineMat);
      const pole = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1, color);
      for (const m of [pole.line.material, pole.cone.material] as THREE.Material[]) overlay(m);
      const plane = new THREE.Mesh(new THREE.PlaneGeometry(1, 1, 8, 8), planeMat);
      plane.add(new THREE.LineSegments(new THREE.EdgesGeometry(plane.geometry), lineMat));
      const feet = Array.from({ length: layer.legs.length / 3 }, () => new THREE.Mesh(new THREE.RingGeometry(0.6, 1, 24), solid));
      const isFoot = layer.solver === "footPlacement";
      target.visible = line.visible = !isFoot;
      pole.visible = layer.solver === "twoBone";
      plane.visible = isFoot;
      group.add(target, line, pole, plane, ...feet);
      for (const o of [target, line, plane, ...feet]) o.renderOrder = 999;
      pole.line.renderOrder = pole.cone.renderOrder = 999;
      root.add(group);
      return {
        group, target, line, pole, plane, feet, materials: [solid, lineMat, planeMat, pole.line.material as THREE.Material, pole.cone.material as THREE.Material],
        snapshot: { name: layer.name, solver: layer.solver, weight: 0, target: null, targetModel: null, ground: null },
      };
    });
    attach();
  };

  const attach = (): void => {
    const g = gizmos[selected];
    const layer = builtFor?.ik[selected];
    if (!g || !layer) { handle.detach(); return; }
    const what = layer.solver === "footPlacement" ? "ground" : "target";
    dragging = { layer: selected, what };
    handle.attach(what === "ground" ? g.plane : g.target);
    // A ground plane moves along up only: its height.
    handle.showX = handle.showZ = what !== "ground";
  };

  const modelMatrix = (character: Character): THREE.Matrix4 => {
    const s = character.skeleton;
    let rootJoint = 0;
    while (rootJoint < s.jointCount && s.parents[rootJoint]! >= 0) rootJoint++;
    const at = character.binding.objectOfJoint[rootJoint] ?? -1;
    const obj = at >= 0 ? character.binding.objects[at] : undefined;
    const out = new THREE.Matrix4();
    if (obj?.parent) { obj.parent.updateWorldMatrix(true, false); out.copy(obj.parent.matrixWorld); }
    return out;
  };

  const jointWorld = (character: Character, joint: number, out: THREE.Vector3): THREE.Vector3 => {
    const at = character.binding.objectOfJoint[joint] ?? -1;
    const obj = at >= 0 ? character.binding.objects[at] : undefined;
    return obj ? obj.getWorldPosition(out) : out.set(0, 0, 0);
  };

  const valueOf = (layer: CompiledIkLayer, k: number, params: Float64Array): number => (layer.slots[k]! >= 0 ? params[layer.slots[k]!]! : layer.values[k]!);

  const place = (g: LayerGizmo, layer: CompiledIkLayer, instance: GraphInstance, character: Character, size: number, isSelected: boolean): void => {
    const params = instance.params;
    const weight = layer.weightSlot >= 0 ? Math.min(1, Math.max(0, params[layer.weightSlot]!)) : layer.weight;
    const faint = !(weight > 0);
    for (const m of g.materials) m.opacity = (m === g.plane.material ? 0.22 : 1) * (faint ? 0.3 : 1);
    const r = size * (isSelected ? 0.025 : 0.018);
    if (layer.solver !== "footPlacement") {
      a.set(valueOf(layer, 0, params), valueOf(layer, 1, params), valueOf(layer, 2, params));
      const model = [a.x, a.y, a.z] as const;
      const dragged = handle.dragging && handle.object === g.target;
      if (!dragged) g.target.position.copy(a).applyMatrix4(matrix);
      g.target.scale.setScalar(r);
      const end = layer.joints[layer.joints.length - 1]!;
      jointWorld(character, end, b);
      const pos = g.line.geometry.getAttribute("position") as THREE.BufferAttribute;
      pos.setXYZ(0, b.x, b.y, b.z);
      pos.setXYZ(1, g.target.position.x, g.target.position.y, g.target.position.z);
      pos.needsUpdate = true;
      g.line.geometry.computeBoundingSphere();
      if (layer.solver === "twoBone") {
        jointWorld(character, layer.joints[1]!, b);
        n.set(layer.direction[0]!, layer.direction[1]!, layer.direction[2]!).transformDirection(matrix);
        g.pole.position.copy(b);
        g.pole.setDirection(n);
        g.pole.setLength(size * 0.12, size * 0.03, size * 0.015);
      }
      const t = g.target.position;
      g.snapshot = { name: layer.name, solver: layer.solver, weight, target: [t.x, t.y, t.z], targetModel: model, ground: null };
      return;
    }
    // The plane through height h along up with normal nn: under a model point p its height is h − (nn·p⊥)/(nn·up).
    const h = valueOf(layer, 0, params);
    up.set(layer.direction[0]!, layer.direction[1]!, layer.direction[2]!);
    n.set(valueOf(layer, 1, params), valueOf(layer, 2, params), valueOf(layer, 3, params));
    if (!(n.lengthSq() > 0) || !(n.dot(up) / n.length() > 1e-6)) n.copy(up);
    n.normalize();
    const nu = n.dot(up);
    const groundUnder = (p: THREE.Vector3): THREE.Vector3 => {
      const hp = p.dot(up);
      const across = b.copy(p).addScaledVector(up, -hp);
      return p.copy(across).addScaledVector(up, h - n.dot(across) / nu);
    };
    const worldNormal = n.clone().transformDirection(matrix);
    const dragged = handle.dragging && handle.object === g.plane;
    const centre = groundUnder(jointWorld(character, layer.joints[0]!, a).applyMatrix4(inverse)).applyMatrix4(matrix);
    if (!dragged) {
      g.plane.position.copy(centre);
      g.plane.quaternion.setFromUnitVectors(Z, worldNormal);
    }
    g.plane.scale.setScalar(size * 0.7);
    layer.legs.forEach((joint, k) => {
      if (k % 3 !== 2) return;
      const disc = g.feet[(k - 2) / 3]!;
      disc.position.copy(groundUnder(jointWorld(character, joint, a).applyMatrix4(inverse))).applyMatrix4(matrix);
      disc.quaternion.setFromUnitVectors(Z, worldNormal);
      disc.scale.setScalar(size * 0.03);
    });
    g.snapshot = { name: layer.name, solver: layer.solver, weight, target: null, targetModel: null, ground: { centre: [centre.x, centre.y, centre.z], normal: [worldNormal.x, worldNormal.y, worldNormal.z], height: h } };
  };

  return {
    update(graph, instance, character) {
      if (!graph || !instance || !character || graph.skeleton !== character.skeleton || graph.ik.length === 0) {
        if (gizmos.length) { dispose(); builtFor = undefined; builtShape = ""; }
        return;
      }
      // A recompile that keeps the layers' shapes keeps the gizmos (and a drag in progress on one).
      const shape = graph.ik.map((l) => `${l.solver}${l.legs.length}`).join();
      if (graph !== builtFor && shape !== builtShape) build(graph);
      builtFor = graph;
      builtShape = shape;
      matrix.copy(modelMatrix(character));
      inverse.copy(matrix).invert();
      const size = viewport.framing().size;
      gizmos.forEach((g, i) => place(g, graph.ik[i]!, instance, character, size, i === selected));
    },
    select(index) {
      if (index === selected) return;
      selected = index;
      attach();
    },
    setVisible(visible) {
      shown = visible;
      root.visible = visible;
      handleHelper.visible = visible;
      handle.enabled = shown && handleAllowed;
    },
    handleBusy: () => handle.enabled && (handle.dragging || handle.axis !== null),
    setHandleEnabled(enabled) {
      handleAllowed = enabled;
      handle.enabled = shown && handleAllowed;
      if (!handle.enabled) handle.axis = null;
    },
    snapshot: () => gizmos.map((g) => g.snapshot),
    modelMatrix,
  };
}

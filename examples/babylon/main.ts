// RobotExpressive played by an animgraph graph (examples/robot/robot.animgraph.json) and drawn by
// Babylon.js. One fetch of the GLB: Babylon's glTF loader builds the scene it renders, animgraph's
// loadGltf reads the skeleton and clips from the same bytes; bindBabylonSkeleton ties them once, and
// every frame `step` computes the pose that applyPoseToBabylon writes into the joints' TransformNodes.
import { ArcRotateCamera } from "@babylonjs/core/Cameras/arcRotateCamera.js";
import { Engine } from "@babylonjs/core/Engines/engine.js";
import { HemisphericLight } from "@babylonjs/core/Lights/hemisphericLight.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { StandardMaterial } from "@babylonjs/core/Materials/standardMaterial.js";
import { Color3, Color4 } from "@babylonjs/core/Maths/math.color.js";
import { Vector3 } from "@babylonjs/core/Maths/math.vector.js";
import { CreateGround } from "@babylonjs/core/Meshes/Builders/groundBuilder.js";
import type { TransformNode } from "@babylonjs/core/Meshes/transformNode.js";
import { Scene } from "@babylonjs/core/scene.js";
import "@babylonjs/loaders/glTF/2.0/index.js";
import {
  compileGraph, createInstance, formatDiagnostic, hasErrors, loadGltf, parseGraphSpec, parseJsonText, setParam, step, trigger,
  type CompiledGraph, type GraphInstance,
} from "animgraph";
import { applyPoseToBabylon, applyRootMotionToTransformNode, bindBabylonSkeleton, type BabylonBinding } from "animgraph/babylon";

const GLB = "RobotExpressive.glb"; // examples/robot/, served beside the page
const GRAPH = "robot.animgraph.json";

const canvas = document.getElementById("scene") as HTMLCanvasElement;
const engine = new Engine(canvas, true, { preserveDrawingBuffer: true });
const scene = new Scene(engine);
scene.clearColor = new Color4(0.05, 0.06, 0.07, 1);
// glTF characters face +Z, and Babylon's loader keeps that (it mirrors X): look from +Z at the front.
const camera = new ArcRotateCamera("camera", Math.PI / 2.6, 1.25, 14, new Vector3(0, 2.5, 0), scene);
camera.attachControl(canvas, true);
new HemisphericLight("light", new Vector3(0.3, 1, 0.2), scene);
const ground = CreateGround("ground", { width: 60, height: 60, subdivisions: 30 }, scene);
const groundMaterial = new StandardMaterial("ground", scene);
groundMaterial.diffuseColor = new Color3(0.22, 0.24, 0.27);
groundMaterial.specularColor = Color3.Black();
groundMaterial.wireframe = true;
ground.material = groundMaterial;

interface Robot {
  readonly graph: CompiledGraph;
  readonly instance: GraphInstance;
  readonly binding: BabylonBinding;
  /** Babylon's glTF `__root__`: the character's placement (the camera follows it). */
  readonly root: TransformNode;
  /**
   * The node root motion moves: the parent of the skeleton's root joint (RobotExpressive's
   * `RobotArmature`, which scales by 100 and turns Z-up to Y-up). The skeleton's model space, in which
   * `step` reports root motion, is that node's local space; `__root__` is the fallback.
   */
  readonly mover: TransformNode;
}

async function load(): Promise<Robot> {
  const [bytes, graphText] = await Promise.all([
    fetch(GLB).then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b)),
    fetch(GRAPH).then((r) => r.text()),
  ]);
  const container = await LoadAssetContainerAsync(bytes, scene, { pluginExtension: ".glb" });
  container.addAllToScene();
  // The loader starts the first animation group; animgraph drives the joints instead.
  for (const group of container.animationGroups) group.stop();
  const root = container.rootNodes[0] as TransformNode;

  const character = await loadGltf(bytes, { fileName: GLB });
  if (!character.ok) throw new Error(character.diagnostics.map(formatDiagnostic).join("\n"));
  const skeleton = character.skeletons[0]!;
  const { spec, diagnostics } = parseGraphSpec(parseJsonText(graphText, GRAPH));
  if (!spec || hasErrors(diagnostics)) throw new Error(diagnostics.map(formatDiagnostic).join("\n"));
  const compiled = compileGraph(spec, skeleton, character.clips, { rootMotion: "auto" });
  if (!compiled.graph || hasErrors(compiled.diagnostics)) throw new Error(compiled.diagnostics.map(formatDiagnostic).join("\n"));
  const bound = bindBabylonSkeleton(skeleton, root, { file: GLB });
  for (const d of bound.diagnostics) console.warn(formatDiagnostic(d));
  const rootJointNode = bound.binding.nodes[bound.binding.nodeOfJoint[0]!];
  const mover = (rootJointNode?.parent as TransformNode | null | undefined) ?? root;
  return { graph: compiled.graph, instance: createInstance(compiled.graph), binding: bound.binding, root, mover };
}

// Root motion arrives as (dx, dy, dz, dyaw) in the character's frame; the adapter takes a quaternion.
const deltaR = new Float64Array(4);

function frame(robot: Robot, dt: number): void {
  const result = step(robot.graph, robot.instance, dt);
  applyPoseToBabylon(robot.binding, result.pose);
  const d = result.rootDelta;
  const half = d[3]! / 2;
  deltaR[1] = Math.sin(half);
  deltaR[3] = Math.cos(half);
  applyRootMotionToTransformNode(robot.mover, d, deltaR);
  const at = robot.mover.getAbsolutePosition();
  camera.target.set(at.x, 2.5, at.z);
  const base = robot.graph.layers[0]!.machine;
  const state = base.states[robot.instance.machines[base.id]!.current]!.name;
  if (document.body.dataset["state"] !== state) {
    document.body.dataset["state"] = state;
    document.getElementById("state")!.textContent = state;
  }
}

function wireControls(robot: Robot): void {
  const speed = document.getElementById("speed") as HTMLInputElement;
  const setSpeed = (v: number): void => {
    const clamped = Math.min(6, Math.max(0, v));
    speed.value = String(clamped);
    document.getElementById("speed-value")!.textContent = clamped.toFixed(1);
    setParam(robot.instance, "speed", clamped);
  };
  speed.addEventListener("input", () => setSpeed(Number(speed.value)));
  document.getElementById("jump")!.addEventListener("click", () => trigger(robot.instance, "jump"));
  document.getElementById("punch")!.addEventListener("click", () => trigger(robot.instance, "punch"));
  const emote = document.getElementById("emote") as HTMLSelectElement;
  emote.addEventListener("change", () => setParam(robot.instance, "emote", Number(emote.value)));
  window.addEventListener("keydown", (e) => {
    if (e.key === "ArrowUp" || e.key === "w") setSpeed(Number(speed.value) + 0.5);
    else if (e.key === "ArrowDown" || e.key === "s") setSpeed(Number(speed.value) - 0.5);
    else if (e.key === " ") trigger(robot.instance, "jump");
    else if (e.key === "p") trigger(robot.instance, "punch");
  });
}

/** The page's handle for the end-to-end test (test/examples/babylon-example.e2e.test.ts). */
const ready = load().then((robot) => {
  wireControls(robot);
  scene.onBeforeRenderObservable.add(() => frame(robot, Math.min(engine.getDeltaTime() / 1000, 0.1)));
  engine.runRenderLoop(() => scene.render());
  window.addEventListener("resize", () => engine.resize());
  return robot;
});
(window as unknown as { babylonExample: unknown }).babylonExample = { ready: ready.then(() => undefined), scene };
ready.catch((e: unknown) => {
  document.getElementById("state")!.textContent = `failed: ${String(e)}`;
  console.error(e);
});

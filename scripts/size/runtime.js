// The same app driven by an animgraph graph: what the size budget measures on top of the baseline.
import { PerspectiveCamera, Scene, WebGLRenderer } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { compileLintedGraph, createInstance, parseGraphSpec, parseJsonText, setParam, step } from "animgraph";
import { applyPoseToThree, fromThreeGltf } from "animgraph/three";

const renderer = new WebGLRenderer();
document.body.append(renderer.domElement);
const scene = new Scene();
const camera = new PerspectiveCamera(40, 16 / 9, 0.1, 100);
new GLTFLoader().load("RobotExpressive.glb", async (gltf) => {
  scene.add(gltf.scene);
  const character = await fromThreeGltf(gltf);
  const text = await (await fetch("robot.animgraph.json")).text();
  const { spec } = parseGraphSpec(parseJsonText(text, "robot.animgraph.json"));
  const { graph } = compileLintedGraph(spec, character.skeletons[0], character.clips);
  const robot = createInstance(graph);
  addEventListener("keydown", (e) => setParam(robot, "speed", e.key === "w" ? 4 : 0));
  renderer.setAnimationLoop(() => {
    applyPoseToThree(character.binding, step(graph, robot, 1 / 60).pose);
    renderer.render(scene, camera);
  });
});

// A complete animgraph app in one file: three.js loads and draws the robot, animgraph plays it from
// a graph (robot.animgraph.json), the keyboard sets the graph's parameters.
import * as THREE from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";
import { compileGraph, createInstance, formatDiagnostic, getParam, parseGraphSpec, parseJsonText, setParam, step, trigger } from "animgraph";
import { applyPoseToThree, fromThreeGltf } from "animgraph/three";

const renderer = new THREE.WebGLRenderer({ antialias: true });
renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
document.body.append(renderer.domElement);
const scene = new THREE.Scene();
scene.background = new THREE.Color(0x20232a);
scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, 2.5));
const sun = new THREE.DirectionalLight(0xffffff, 2);
sun.position.set(3, 10, 5);
scene.add(sun);
scene.add(new THREE.GridHelper(20, 20, 0x555555, 0x333333));
const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100);
camera.position.set(0, 3, 9);
camera.lookAt(0, 2, 0);
const resize = () => {
  renderer.setSize(innerWidth, innerHeight, false);
  camera.aspect = innerWidth / innerHeight;
  camera.updateProjectionMatrix();
};
addEventListener("resize", resize);
resize();

const gltf = await new GLTFLoader().loadAsync("RobotExpressive.glb");
scene.add(gltf.scene);

// One call: animgraph's skeleton, clips and the binding to the bones GLTFLoader made.
const character = await fromThreeGltf(gltf, { fileName: "RobotExpressive.glb" });
const text = await (await fetch("robot.animgraph.json")).text();
const parsed = parseGraphSpec(parseJsonText(text, "robot.animgraph.json"));
const compiled = parsed.spec && compileGraph(parsed.spec, character.skeletons[0], character.clips);
if (!compiled?.graph) {
  const problems = [...parsed.diagnostics, ...(compiled?.diagnostics ?? [])].map(formatDiagnostic).join("\n");
  document.querySelector("#state").textContent = "graph error (see console)";
  throw new Error(problems);
}
const graph = compiled.graph;
const robot = createInstance(graph);

const held = new Set();
addEventListener("keydown", (e) => {
  held.add(e.code);
  if (e.code === "Space") trigger(robot, "jump");
  if (e.code === "KeyP") trigger(robot, "punch");
  if (/^Digit[0-3]$/.test(e.code)) setParam(robot, "emote", Number(e.code.slice(5)));
});
addEventListener("keyup", (e) => held.delete(e.code));

const speedOut = document.querySelector("#speed");
const stateOut = document.querySelector("#state");
const machine = graph.layers[0].machine;
const clock = new THREE.Clock();
renderer.setAnimationLoop(() => {
  const dt = Math.min(clock.getDelta(), 0.1);
  // W/S accelerate and brake at 4 units/s², within the 0..6 the graph declares for speed.
  const accel = (held.has("KeyW") ? 4 : 0) - (held.has("KeyS") ? 4 : 0);
  if (accel !== 0) setParam(robot, "speed", Math.min(6, Math.max(0, getParam(robot, "speed") + accel * dt)));
  const { pose } = step(graph, robot, dt);
  applyPoseToThree(character.binding, pose);
  speedOut.textContent = getParam(robot, "speed").toFixed(1);
  stateOut.textContent = machine.states[robot.layers[0].current].name;
  document.body.dataset.state = stateOut.textContent;
  renderer.render(scene, camera);
});

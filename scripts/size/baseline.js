// The peer of the size budget: a three.js app that loads a character with GLTFLoader and renders it.
import { PerspectiveCamera, Scene, WebGLRenderer } from "three";
import { GLTFLoader } from "three/examples/jsm/loaders/GLTFLoader.js";

const renderer = new WebGLRenderer();
document.body.append(renderer.domElement);
const scene = new Scene();
const camera = new PerspectiveCamera(40, 16 / 9, 0.1, 100);
new GLTFLoader().load("RobotExpressive.glb", (gltf) => {
  scene.add(gltf.scene);
  renderer.setAnimationLoop(() => renderer.render(scene, camera));
});

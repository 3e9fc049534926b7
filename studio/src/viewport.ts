// The 3D viewport: the skinned character, an orbit camera, an optional skeleton overlay, and root
// motion shown by the character travelling over a ground grid.
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

export const BACKGROUND = 0x0d0f12;

export interface Viewport {
  readonly scene: THREE.Scene;
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  setCharacter(root: THREE.Object3D): void;
  setSkeletonVisible(visible: boolean): void;
  /** Moves the camera target with the character so root motion stays in view. */
  follow(position: THREE.Vector3): void;
  render(): void;
}

export function createViewport(host: HTMLElement): Viewport {
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(2, window.devicePixelRatio));
  renderer.setClearColor(BACKGROUND);
  host.append(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x444455, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 2.5);
  sun.position.set(3, 6, 4);
  scene.add(sun);
  const grid = new THREE.GridHelper(40, 40, 0x556070, 0x2a3038);
  scene.add(grid);
  const camera = new THREE.PerspectiveCamera(40, 1, 0.05, 200);
  camera.position.set(3.2, 2.6, 5.5);
  const controls = new OrbitControls(camera, renderer.domElement);
  controls.target.set(0, 1.2, 0);
  controls.update();
  let character: THREE.Object3D | undefined;
  let helper: THREE.SkeletonHelper | undefined;
  let showSkeleton = false;
  let framed = false;
  const resize = (): void => {
    const w = host.clientWidth || 640;
    const h = host.clientHeight || 360;
    renderer.setSize(w, h, false);
    renderer.domElement.style.width = "100%";
    renderer.domElement.style.height = "100%";
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
  };
  new ResizeObserver(resize).observe(host);
  resize();
  const lastFollow = new THREE.Vector3();
  return {
    scene,
    camera,
    controls,
    setCharacter(root) {
      if (character) scene.remove(character);
      if (helper) scene.remove(helper);
      character = root;
      scene.add(root);
      helper = new THREE.SkeletonHelper(root);
      helper.visible = showSkeleton;
      scene.add(helper);
      // Frame the character the first time (keeps the user's camera on later reloads).
      const box = new THREE.Box3().setFromObject(root);
      if (!box.isEmpty()) {
        if (!framed) {
          framed = true;
          const size = box.getSize(new THREE.Vector3()).length();
          const center = box.getCenter(new THREE.Vector3());
          controls.target.copy(center);
          camera.position.copy(center).add(new THREE.Vector3(0.55, 0.35, 1).normalize().multiplyScalar(size * 1.6));
          camera.near = size / 100;
          camera.far = size * 100;
          camera.updateProjectionMatrix();
          controls.update();
        }
      }
    },
    setSkeletonVisible(visible) {
      showSkeleton = visible;
      if (helper) helper.visible = visible;
    },
    follow(position) {
      const delta = position.clone().sub(lastFollow);
      lastFollow.copy(position);
      controls.target.add(delta);
      camera.position.add(delta);
    },
    render() {
      controls.update();
      renderer.render(scene, camera);
    },
  };
}

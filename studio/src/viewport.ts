// The 3D viewport: the skinned character, an orbit camera, an optional skeleton overlay, and root
// motion shown by the character travelling over a ground grid.
import * as THREE from "three";
import { OrbitControls } from "three/examples/jsm/controls/OrbitControls.js";

export const BACKGROUND = 0x0d0f12;

export interface Viewport {
  readonly renderer: THREE.WebGLRenderer;
  readonly scene: THREE.Scene;
  readonly camera: THREE.PerspectiveCamera;
  readonly controls: OrbitControls;
  /** Shows a character (replacing the last) and frames it. */
  setCharacter(root: THREE.Object3D): void;
  /** Frames a character from its skinned bounds: camera target at the centre, distance and clip planes from its size. */
  frame(root: THREE.Object3D): void;
  /** For tests: the framed size, the camera's distance to its target, and the near and far planes. */
  framing(): { size: number; distance: number; near: number; far: number; inView: boolean };
  /** The framed character's size (world units), cheap enough for every frame. */
  size(): number;
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
  let framedSize = 1;
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
    renderer,
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
      lastFollow.set(0, 0, 0);
      this.frame(root);
    },
    frame(root) {
      root.updateMatrixWorld(true);
      // Skinned bounds (precise: vertices through the bones), so a character whose mesh is scaled or
      // offset by its armature (Fox is 100× a metre-sized robot) is framed as it is drawn.
      const box = new THREE.Box3().setFromObject(root, true);
      if (box.isEmpty()) box.setFromCenterAndSize(root.getWorldPosition(new THREE.Vector3()), new THREE.Vector3(1, 1, 1));
      const size = Math.max(1e-6, box.getSize(new THREE.Vector3()).length());
      const center = box.getCenter(new THREE.Vector3());
      framedSize = size;
      controls.target.copy(center);
      camera.position.copy(center).add(new THREE.Vector3(0.55, 0.35, 1).normalize().multiplyScalar(size * 1.8));
      camera.near = size / 200;
      camera.far = size * 400;
      camera.updateProjectionMatrix();
      controls.minDistance = size / 50;
      controls.maxDistance = size * 100;
      controls.update();
      grid.scale.setScalar(Math.max(1e-3, size / 2));
      grid.position.set(center.x, box.min.y, center.z);
    },
    framing() {
      const distance = camera.position.distanceTo(controls.target);
      let inView = false;
      if (character) {
        const box = new THREE.Box3().setFromObject(character, true);
        const frustum = new THREE.Frustum().setFromProjectionMatrix(new THREE.Matrix4().multiplyMatrices(camera.projectionMatrix, camera.matrixWorldInverse));
        inView = !box.isEmpty() && frustum.intersectsBox(box) && frustum.containsPoint(box.getCenter(new THREE.Vector3()));
      }
      return { size: framedSize, distance, near: camera.near, far: camera.far, inView };
    },
    size: () => framedSize,
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

// Loads a glTF binary with Babylon.js's own glTF loader in Node, under a NullEngine (no WebGL, no DOM),
// as an independent reference for animgraph's loader and sampler. Textures are stripped first as for
// three.js (Node cannot decode images); animation and skeleton data do not depend on them.
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import type { AssetContainer } from "@babylonjs/core/assetContainer.js";
import { Scene } from "@babylonjs/core/scene.js";
import "@babylonjs/loaders/glTF/2.0/index.js";
import { glbWithoutTextures } from "../three/three-gltf.ts";

Logger.LogLevels = Logger.ErrorLogLevel; // no "Babylon.js v… - Null engine" banner in the test output

export interface BabylonGltf {
  readonly engine: NullEngine;
  readonly scene: Scene;
  readonly container: AssetContainer;
}

/** Parses GLB bytes with Babylon's glTF loader into a fresh NullEngine scene (added to the scene, nothing playing). */
export async function loadGltfWithBabylon(glb: Uint8Array, stripTextures = true): Promise<BabylonGltf> {
  const engine = new NullEngine();
  const scene = new Scene(engine);
  const data = stripTextures ? new Uint8Array(glbWithoutTextures(glb)) : glb;
  const container = await LoadAssetContainerAsync(data, scene, { pluginExtension: ".glb" });
  container.addAllToScene();
  for (const group of container.animationGroups) group.stop();
  return { engine, scene, container };
}

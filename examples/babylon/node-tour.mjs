// animgraph + Babylon.js in Node (NullEngine, no window): `node examples/babylon/node-tour.mjs`.
// The same calls run in a browser with an Engine on a canvas (see main.ts beside this file).
import { readFile } from "node:fs/promises";
import { NullEngine } from "@babylonjs/core/Engines/nullEngine.js";
import { LoadAssetContainerAsync } from "@babylonjs/core/Loading/sceneLoader.js";
import { Logger } from "@babylonjs/core/Misc/logger.js";
import { Scene } from "@babylonjs/core/scene.js";
import "@babylonjs/loaders/glTF/2.0/index.js";
import { createClipCursor, createPose, loadGltf, sampleClip, wrapTime } from "animgraph";
import { applyPoseToBabylon, bindBabylonSkeleton, clipFromBabylon } from "animgraph/babylon";

Logger.LogLevels = Logger.ErrorLogLevel; // no engine banner
const bytes = new Uint8Array(await readFile(new URL("../robot/RobotExpressive.glb", import.meta.url)));

// animgraph's side: skeleton and clips (problems come back as diagnostics, never thrown).
const ag = await loadGltf(bytes, { fileName: "RobotExpressive.glb" });
if (!ag.ok) throw new Error(ag.diagnostics.map((d) => d.message).join("\n"));
const skeleton = ag.skeletons[0];
const clip = ag.clips.find((c) => c.name === "Wave");

// Babylon's side: the scene it renders, from the same bytes.
const scene = new Scene(new NullEngine());
const container = await LoadAssetContainerAsync(bytes, scene, { pluginExtension: ".glb" });
container.addAllToScene();
for (const group of container.animationGroups) group.stop(); // animgraph drives the joints

// Bind once: to the loader's __root__ (its subtree), a Babylon Skeleton, or a list of TransformNodes.
const { binding, diagnostics } = bindBabylonSkeleton(skeleton, container.rootNodes[0]);
for (const d of diagnostics) console.warn(d.message);

// Per frame: sample into a preallocated pose and write it to the nodes. Nothing allocates here.
const pose = createPose(skeleton.jointCount);
const cursor = createClipCursor(clip);
const arm = binding.nodes[binding.nodeOfJoint[skeleton.indexOf.get("LowerArm.R")]];
for (let frame = 0; frame <= 4; frame++) {
  const time = frame * 0.25;
  sampleClip(pose, clip, wrapTime(time, clip.duration, "loop"), cursor);
  applyPoseToBabylon(binding, pose); // Babylon recomputes world matrices when it renders
  const angle = (2 * Math.acos(Math.min(1, Math.abs(arm.rotationQuaternion.w))) * 180) / Math.PI;
  console.log(`t=${time.toFixed(2)} s  ${arm.name}: rotated ${angle.toFixed(1)}°`);
}

// The other way round: Babylon's AnimationGroup as an animgraph Clip (the same keys loadGltf reads).
const group = container.animationGroups.find((g) => g.name === "Wave");
const { clip: fromBabylon } = clipFromBabylon(group, skeleton, { binding });
console.log(`${fromBabylon.tracks.length} tracks, ${fromBabylon.duration.toFixed(4)} s`);

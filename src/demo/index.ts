// Built-in demos and their helpers.
export { runSeedDemo, seedDemoSpec, seedDemoAssets, compileSeedDemo } from "./seed-demo.ts";
export { formatFixed, padRight } from "./python-format.ts";
export { standInClips, clipNamesOf } from "./stand-in-clips.ts";

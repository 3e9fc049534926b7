// The browser entry of animgraph (package.json "browser" condition; the studio imports it as "animgraph").
// Everything in the main entry works in a browser except reading and writing files by path: those
// functions exist but need Node. glTF loads from bytes: `loadGltf(bytes, options)`.
export * from "./index.ts";

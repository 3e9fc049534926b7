// Node only (animgraph/node): reading a bone map by path.
import { readJsonFile } from "../json/read-json-file.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import { readBoneMap, type BoneMapReadResult } from "./read-bone-map.ts";

/** Reads a bone-map JSON file (see readBoneMap); file problems are diagnostics too. */
export function readBoneMapFile(path: string, source: Skeleton, target: Skeleton, label: string = path): BoneMapReadResult {
  const doc = readJsonFile(path, {}, label);
  if (!doc.root) return { settings: {}, diagnostics: doc.diagnostics };
  return readBoneMap(doc, source, target);
}

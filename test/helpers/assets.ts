import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Absolute path of the repository root. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Absolute path of a file in ../shared/assets (the third-party test assets beside the checkout). */
export function sharedAsset(relative: string): string {
  return fileURLToPath(new URL(`../../../shared/assets/${relative}`, import.meta.url));
}

/** Whether the shared assets are present (they are in CI and on developer machines). */
export const HAVE_SHARED_ASSETS = existsSync(sharedAsset("README.md"));

/** Absolute path of a file inside the repository. */
export function repoPath(relative: string): string {
  return fileURLToPath(new URL(`../../${relative}`, import.meta.url));
}

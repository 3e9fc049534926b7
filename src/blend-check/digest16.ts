import { expectArray, expectString } from "../errors/check-argument.ts";
import { createSha256 } from "../graph/sha256.ts";

/**
 * The first 16 hex digits of the SHA-256 of the lines joined by "\n" (UTF-8), as the reference digests.
 * Uses the library's own SHA-256 (tested against node:crypto) so the check also runs in browsers.
 */
export function digest16(lines: readonly string[]): string {
  expectArray("digest16", "lines", lines);
  for (let i = 0; i < lines.length; i++) expectString("digest16", `lines[${i}]`, lines[i]);
  const hasher = createSha256();
  hasher.update(new TextEncoder().encode(lines.join("\n")));
  return hasher.digest().slice(0, 16);
}

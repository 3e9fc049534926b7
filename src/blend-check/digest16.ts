import { createHash } from "node:crypto";

/** The first 16 hex digits of the SHA-256 of the lines joined by "\n" (UTF-8), as the reference digests. */
export function digest16(lines: readonly string[]): string {
  return createHash("sha256").update(lines.join("\n"), "utf8").digest("hex").slice(0, 16);
}

// Works in browsers and Node (TextDecoder), unlike the file reader beside it.
/** Decodes strict UTF-8 (a BOM is kept for the caller to report), or undefined when the bytes are not UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

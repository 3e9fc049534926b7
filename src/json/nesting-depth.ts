/** Nesting the recursive JSON tree parser handles without any risk to the stack. */
export const PARSER_SAFE_DEPTH = 512;

/**
 * The offset of the first bracket that nests deeper than `maxDepth` outside strings, or -1. Found by a
 * linear scan without recursion, before the (recursive) parser sees the text, so no nesting depth can
 * overflow the stack of any reader.
 */
export function tooDeepAt(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}

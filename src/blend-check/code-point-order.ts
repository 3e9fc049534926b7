import { argumentError, expectString } from "../errors/check-argument.ts";

/**
 * Orders strings by Unicode code point, as Python compares `str`. JavaScript's `<` compares UTF-16
 * units, which puts an astral character (a surrogate pair, 0xD800–0xDFFF) before U+E000–U+FFFF, while
 * by code point it comes after them.
 */
export function compareCodePoints(a: string, b: string): number {
  expectString("compareCodePoints", "a", a);
  expectString("compareCodePoints", "b", b);
  return compareCodePointsUnchecked(a, b);
}

/** compareCodePoints for the library's sorts, whose keys are strings by construction. */
export function compareCodePointsUnchecked(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let ca = a.charCodeAt(i);
    let cb = b.charCodeAt(i);
    if (ca === cb) continue;
    if (ca >= 0xd800 && cb >= 0xd800) {
      // Move surrogates above U+E000–U+FFFF (ICU's code point order fix-up). Identical prefixes mean a
      // low surrogate can only meet another low surrogate, so pairs compare as their code points.
      ca = ca >= 0xe000 ? ca - 0x800 : ca + 0x2000;
      cb = cb >= 0xe000 ? cb - 0x800 : cb + 0x2000;
    }
    return ca - cb;
  }
  return a.length - b.length;
}

/** A sorted copy, by code point (Python's `sorted` on a list of `str`). */
export function sortedByCodePoint(values: Iterable<string>): string[] {
  // A string is iterable too, but sorting its characters is never what a caller of this meant.
  if (typeof values !== "object" || values === null || typeof (values as Partial<Iterable<string>>)[Symbol.iterator] !== "function") {
    throw argumentError("sortedByCodePoint", "values", "an iterable of strings (an array, a Set)", values);
  }
  const out = [...values];
  for (let i = 0; i < out.length; i++) if (typeof out[i] !== "string") throw argumentError("sortedByCodePoint", `values[${i}]`, "a string", out[i]);
  return out.sort(compareCodePointsUnchecked);
}

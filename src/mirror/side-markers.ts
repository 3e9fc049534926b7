import { expectArray, expectString, invalidValue } from "../errors/check-argument.ts";

/** Which side a marker in a joint name names. */
export type MirrorSide = "left" | "right";

/**
 * One place in a joint name that says which side the joint is on: `Left` in `mixamorig:LeftArm`, `.L`
 * in `Foot.L`, `l` in `lCollar`. `strong` markers are unmistakable (a whole word, a lone letter between
 * separators, a letter before a capitalised word); weak ones (`lhand`, `HandL`, `lefthand`) only count
 * when the name with the marker swapped is also a joint, since `lowerback` starts with an l too.
 */
export interface SideMarker {
  /** Index of the marker's first character in the name (UTF-16 units). */
  readonly start: number;
  /** Index one past the marker's last character. */
  readonly end: number;
  readonly side: MirrorSide;
  readonly strong: boolean;
}

const isUpper = (c: string | undefined): boolean => c !== undefined && c >= "A" && c <= "Z";
const isLower = (c: string | undefined): boolean => c !== undefined && c >= "a" && c <= "z";
const isLetter = (c: string | undefined): boolean => isUpper(c) || isLower(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= "0" && c <= "9";
/** Not a letter or digit: a separator (`.`, `_`, `-`, space, `:`, `|`) or either end of the name. */
const isSeparator = (c: string | undefined): boolean => c === undefined || !(isLetter(c) || isDigit(c));

const WORDS: readonly [string, MirrorSide][] = [["left", "left"], ["right", "right"]];

/** Every side marker in a name, left to right; overlapping candidates keep the longer (a word over its first letter). */
export function sideMarkers(name: string): SideMarker[] {
  expectString("sideMarkers", "name", name);
  const found: SideMarker[] = [];
  const lower = name.toLowerCase();
  for (let i = 0; i < name.length; i++) {
    const before = name[i - 1];
    const c = name[i]!;
    let matchedWord = false;
    for (const [word, side] of WORDS) {
      if (!lower.startsWith(word, i)) continue;
      const end = i + word.length;
      const after = name[end];
      const text = name.slice(i, end);
      // A word starts a name, follows a separator, or starts a camel-case word (`upperLeft`, `b_LeftLeg`).
      const startsWord = isSeparator(before) || (isUpper(c) && (isLower(before) || isDigit(before)));
      // …and ends at a separator, a digit, or the start of the next capitalised word (`LeftArm`, `LEFT_ARM`).
      const allUpper = text === text.toUpperCase();
      const endsWord = isSeparator(after) || isDigit(after) || (isUpper(after) && !allUpper) || (allUpper && isSeparator(after));
      found.push({ start: i, end, side, strong: startsWord && endsWord });
      matchedWord = true;
      i = end - 1;
      break;
    }
    if (matchedWord) continue;
    if (c !== "L" && c !== "R" && c !== "l" && c !== "r") continue;
    const side: MirrorSide = c === "L" || c === "l" ? "left" : "right";
    const after = name[i + 1];
    if (isSeparator(before) && isSeparator(after)) {
      // A lone letter: `Foot.L`, `hand_l`, `L_Hand`, `Bip01 L Thigh`.
      found.push({ start: i, end: i + 1, side, strong: true });
    } else if (isSeparator(before) && isUpper(after) && isLower(name[i + 2])) {
      // A letter before a capitalised word: `LHipJoint`, `lCollar`, `RThumb` (not `ROOT`, `LOD`).
      found.push({ start: i, end: i + 1, side, strong: true });
    } else if (i === 0 && (c === "l" || c === "r") && isLower(after)) {
      // CMU's `lhand`, `rhipjoint`: a partner must exist for this to count.
      found.push({ start: i, end: i + 1, side, strong: false });
    } else if (i === name.length - 1 && (c === "L" || c === "R") && isLower(before)) {
      // `HandL`, `ThighR`.
      found.push({ start: i, end: i + 1, side, strong: false });
    }
  }
  return found;
}

/** The marker's text for the other side, in the same letter case (`Left` → `Right`, `l` → `r`, `LEFT` → `RIGHT`). */
export function swapMarkerText(text: string): string {
  expectString("swapMarkerText", "text", text);
  const lower = text.toLowerCase();
  const other = lower === "left" ? "right" : lower === "right" ? "left" : lower === "l" ? "r" : lower === "r" ? "l" : undefined;
  if (other === undefined) throw invalidValue("swapMarkerText", "text", `"${text}" is not a side marker (Left, Right, L, R in any case)`);
  if (text === text.toUpperCase() && text !== lower) return other.toUpperCase();
  if (text[0] === text[0]!.toUpperCase() && text !== lower) return other[0]!.toUpperCase() + other.slice(1);
  return other;
}

/** `name` with the given markers replaced by the other side's (the others left as they are). */
export function swapMarkers(name: string, markers: readonly SideMarker[]): string {
  expectString("swapMarkers", "name", name);
  expectArray("swapMarkers", "markers", markers);
  let out = "";
  let at = 0;
  for (const m of markers) {
    out += name.slice(at, m.start) + swapMarkerText(name.slice(m.start, m.end));
    at = m.end;
  }
  return out + name.slice(at);
}

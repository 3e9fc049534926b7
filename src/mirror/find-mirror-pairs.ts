import type { Diagnostic } from "../diagnostics/diagnostic.ts";
import { argumentError, expectArray, expectNumberArray } from "../errors/check-argument.ts";
import { checkMirrorOptions } from "./check-mirror-arguments.ts";
import { sideMarkers, swapMarkers, type SideMarker } from "./side-markers.ts";

/** A pair of joint names that mirror each other; `[a, a]` keeps joint `a` on the mirror plane. */
export type MirrorPair = readonly [string, string];

/** How `findMirrorPairs` pairs joints: explicit pairs, and whether to find the rest from names. */
export interface MirrorPairsOptions {
  /**
   * Pairs that override what the names say: `["Hand_A", "Hand_B"]` makes the two each other's mirror;
   * `["Eye.L", "Eye.L"]` keeps `Eye.L` unpaired (mirrored in place). Default none.
   */
  readonly pairs?: readonly MirrorPair[];
  /** Find the joints the pairs do not name from their names (`Left`/`Right`, `.L`/`.R`, …). Default true. */
  readonly detect?: boolean;
  /** File named in diagnostics about the skeleton's names. Default `<skeleton>`. */
  readonly file?: string;
  /** File named in diagnostics about `pairs` (a pairs file, a spec). Default `file`. */
  readonly pairsFile?: string;
  /** JSON pointer of the `pairs` array in `pairsFile`; pair i is `${pairsPointer}/${i}`. Default `/pairs`. */
  readonly pairsPointer?: string;
}

/** What `findMirrorPairs` returns: the partner of every joint, or the problems that stop pairing. */
export interface MirrorPairsResult {
  /** Per joint, the index of its mirror joint (itself for a joint on the plane); absent on errors. */
  readonly partner?: Int32Array;
  /** The pairs found, each once, lower index first (joints on the plane left out). */
  readonly pairs: readonly MirrorPair[];
  /** Errors (E_MIRROR_UNPAIRED, E_MIRROR_AMBIGUOUS, E_MIRROR_UNKNOWN_JOINT, E_MIRROR_PAIR_TWICE, E_MIRROR_HIERARCHY). */
  readonly diagnostics: Diagnostic[];
}

/**
 * Pairs the joints of a skeleton with their mirror images. Explicit `pairs` come first; every other
 * joint is paired by its name: a name with an unmistakable side marker (`Left`/`Right` as a word,
 * `.L`/`_r`/` L `, `L` or `l` before a capitalised word as in `LHipJoint`, `lCollar`) pairs with the
 * name whose markers are all swapped, which must exist (else E_MIRROR_UNPAIRED); a name with a weak
 * marker only (`lhand`, `HandL`) pairs when exactly one swapped spelling exists; other joints lie on the
 * plane. A name whose markers disagree, a partner claimed twice, or two spellings that both exist is
 * E_MIRROR_AMBIGUOUS. With `parents`, paired joints must have paired parents (E_MIRROR_HIERARCHY): the
 * mirror of a joint's parent is its mirror's parent. Never throws on user data; wrong-typed arguments
 * throw AnimgraphError.
 */
export function findMirrorPairs(names: readonly string[], parents: ArrayLike<number> | undefined, options: MirrorPairsOptions = {}): MirrorPairsResult {
  const fn = "findMirrorPairs";
  expectArray(fn, "names", names);
  names.forEach((n, i) => {
    if (typeof n !== "string") throw argumentError(fn, `names[${i}]`, "a string", n);
  });
  if (parents !== undefined) {
    expectNumberArray(fn, "parents", parents, names.length);
  }
  checkMirrorOptions(fn, "options", options, names.length);
  const file = options.file ?? "<skeleton>";
  const pairsFile = options.pairsFile ?? file;
  const pairsPointer = options.pairsPointer ?? "/pairs";
  const diagnostics: Diagnostic[] = [];
  const J = names.length;
  const indexOf = new Map<string, number>();
  names.forEach((n, j) => indexOf.set(n, j));
  const byStem = new Map<string, number[]>();
  names.forEach((n, j) => {
    const stem = withoutNodeIndex(n);
    if (stem !== n) byStem.set(stem, [...(byStem.get(stem) ?? []), j]);
  });
  const partner = new Int32Array(J).fill(-1);
  const explicitAt = new Int32Array(J).fill(-1);
  const error = (code: string, message: string, fromPairs = -1, pointerTail = ""): void => {
    diagnostics.push({
      code, severity: "error", file: fromPairs >= 0 ? pairsFile : file,
      pointer: fromPairs >= 0 ? `${pairsPointer}/${fromPairs}${pointerTail}` : "", message,
    });
  };

  (options.pairs ?? []).forEach(([a, b], i) => {
    const ja = indexOf.get(a);
    const jb = indexOf.get(b);
    if (ja === undefined) error("E_MIRROR_UNKNOWN_JOINT", `the skeleton has no joint "${a}"`, i, "/0");
    if (jb === undefined) error("E_MIRROR_UNKNOWN_JOINT", `the skeleton has no joint "${b}"`, i, "/1");
    if (ja === undefined || jb === undefined) return;
    for (const j of ja === jb ? [ja] : [ja, jb]) {
      if (explicitAt[j]! >= 0) {
        error("E_MIRROR_PAIR_TWICE", `joint "${names[j]}" is already paired by pair ${explicitAt[j]}`, i);
        return;
      }
    }
    explicitAt[ja] = explicitAt[jb] = i;
    partner[ja] = jb;
    partner[jb] = ja;
  });

  if (options.detect !== false) {
    const detected = new Int32Array(J).fill(-1);
    const problem = new Array<string | undefined>(J);
    for (let j = 0; j < J; j++) {
      if (explicitAt[j]! >= 0) continue;
      const r = partnerByName(names[j]!, indexOf, byStem);
      if (typeof r === "string") problem[j] = r;
      else detected[j] = r;
    }
    for (let j = 0; j < J; j++) {
      if (explicitAt[j]! >= 0) continue;
      const p = problem[j];
      if (p !== undefined) {
        error(p.startsWith("unpaired:") ? "E_MIRROR_UNPAIRED" : "E_MIRROR_AMBIGUOUS", p.slice(p.indexOf(":") + 1));
        continue;
      }
      const k = detected[j]!;
      if (k < 0 || k === j) {
        partner[j] = j;
        continue;
      }
      if (explicitAt[k]! >= 0) {
        error("E_MIRROR_UNPAIRED", `joint "${names[j]}" would pair with "${names[k]}", which the given pairs pair with "${names[partner[k]!]}"; pair "${names[j]}" too (["${names[j]}", "${names[j]}"] keeps it on the plane)`);
        continue;
      }
      if (detected[k] !== j) {
        if (problem[k] === undefined) {
          const other = detected[k]! >= 0 && detected[k] !== k ? names[detected[k]!] : undefined;
          error("E_MIRROR_AMBIGUOUS", `joint "${names[j]}" pairs with "${names[k]}" by its name, but "${names[k]}" ${other === undefined ? "does not pair back" : `pairs with "${other}"`}; give the pairs explicitly`);
        }
        continue;
      }
      partner[j] = k;
    }
  } else {
    for (let j = 0; j < J; j++) if (partner[j]! < 0) partner[j] = j;
  }

  if (diagnostics.length === 0 && parents) {
    for (let j = 0; j < J; j++) {
      const k = partner[j]!;
      if (k < j) continue;
      const pj = parents[j]!;
      const pk = parents[k]!;
      const mirrorOfParent = pj < 0 ? -1 : partner[pj]!;
      if (mirrorOfParent !== pk) {
        const where = (p: number): string => (p < 0 ? "is a root" : `hangs from "${names[p]}"`);
        error("E_MIRROR_HIERARCHY", `joints "${names[j]}" and "${names[k]}" mirror each other, but "${names[j]}" ${where(pj)} and "${names[k]}" ${where(pk)}, which are not mirror images; pair the parents, or pair these joints differently`);
      }
    }
  }
  if (diagnostics.length > 0) return { pairs: [], diagnostics };
  const pairs: MirrorPair[] = [];
  for (let j = 0; j < J; j++) if (partner[j]! > j) pairs.push([names[j]!, names[partner[j]!]!]);
  return { partner, pairs, diagnostics };
}

/**
 * The mirror joint of a name: its index (or −1 for a joint on the plane), or a problem as
 * `unpaired:<message>` / `ambiguous:<message>`.
 */
function partnerByName(name: string, indexOf: ReadonlyMap<string, number>, byStem: ReadonlyMap<string, readonly number[]>): number | string {
  const markers = sideMarkers(name);
  const strong = markers.filter((m) => m.strong);
  if (strong.length > 0) {
    if (strong.some((m) => m.side !== strong[0]!.side)) {
      return `ambiguous:joint "${name}" names both sides (${strong.map((m) => `"${name.slice(m.start, m.end)}"`).join(", ")}); give its pair explicitly`;
    }
    const other = swapMarkers(name, strong);
    const k = indexOf.get(other);
    if (k !== undefined) return k;
    // Exporters that append the node index (the Fox's b_LeftLeg01_015 / b_RightLeg01_019) number the
    // two sides differently: pair by the name without it when exactly one joint has that stem.
    const stem = withoutNodeIndex(other);
    const sameStem = stem === other ? undefined : byStem.get(stem);
    if (sameStem?.length === 1) return sameStem[0]!;
    // `Bip01 L Thigh` has a strong marker, but so might a joint with one side only (a holster):
    // a weak reading with an existing partner does not rescue it, the name is clear about its side.
    return `unpaired:joint "${name}" is on the ${strong[0]!.side} side but the skeleton has no "${other}"; give its pair, or ["${name}", "${name}"] to mirror it in place`;
  }
  const weak = markers.filter((m) => !m.strong);
  const found = new Set<number>();
  for (const m of weak) {
    const k = indexOf.get(swapMarkers(name, [m as SideMarker]));
    if (k !== undefined) found.add(k);
  }
  if (found.size > 1) {
    return `ambiguous:joint "${name}" could pair with ${[...found].map((k) => `"${[...indexOf].find(([, v]) => v === k)![0]}"`).join(" or ")}; give its pair explicitly`;
  }
  return found.size === 1 ? [...found][0]! : -1;
}

/** A name without a trailing node index (`b_LeftLeg01_015` → `b_LeftLeg01`); other names unchanged. */
function withoutNodeIndex(name: string): string {
  return name.replace(/_\d+$/, "");
}

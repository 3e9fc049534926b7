import { expectFiniteNumber, expectNumberArray, expectTypedArray } from "../errors/check-argument.ts";
import { expectShape, type FieldKind } from "../errors/check-shape.ts";

/** Thresholds of `detectFootContacts`, in hip heights (H) and hip heights per second. */
export interface FootContactOptions {
  /** A foot becomes planted below this height above its lowest point in the clip. Default 0.06 H. */
  readonly enterHeight?: number;
  /** …and leaves the ground above this height (hysteresis). Default 0.10 H. */
  readonly exitHeight?: number;
  /** A foot becomes planted below this horizontal speed. Default 0.3 H/s. */
  readonly enterSpeed?: number;
  /** …and lifts off above this speed. Default 0.6 H/s. */
  readonly exitSpeed?: number;
  /** Contacts shorter than this are dropped, gaps shorter than this are closed. Default 0.05 s. */
  readonly minDuration?: number;
}

const OPTIONS_SHAPE: Readonly<Record<string, FieldKind>> = {
  enterHeight: "number?", exitHeight: "number?", enterSpeed: "number?", exitSpeed: "number?", minDuration: "number?",
};

/**
 * Marks the frames where a foot is planted (out[f] = 1), from the foot joint's model positions `p`
 * (3 per frame) at `times`, the model `up` vector and the character's hip height `H`: planted when its
 * height above its lowest point in the clip and its horizontal speed (central differences) are both
 * low, with hysteresis (enter below the enter thresholds, leave above the exit ones), then gaps and
 * blips shorter than `minDuration` are removed. Scale-free: thresholds are in hip heights.
 */
export function detectFootContacts(out: Uint8Array, p: Float64Array, times: ArrayLike<number>, up: ArrayLike<number>, H: number, options: FootContactOptions = {}): void {
  const fn = "detectFootContacts";
  expectNumberArray(fn, "times", times);
  const n = times.length;
  expectTypedArray(fn, "out", out, Uint8Array, n);
  expectTypedArray(fn, "p", p, Float64Array, 3 * n);
  expectNumberArray(fn, "up", up, 3);
  expectFiniteNumber(fn, "H", H);
  expectShape(fn, "options", options, "a FootContactOptions object ({ enterHeight?, exitHeight?, enterSpeed?, exitSpeed?, minDuration? })", OPTIONS_SHAPE);
  const enterH = (options.enterHeight ?? 0.06) * H, exitH = (options.exitHeight ?? 0.1) * H;
  const enterV = (options.enterSpeed ?? 0.3) * H, exitV = (options.exitSpeed ?? 0.6) * H;
  const minDuration = options.minDuration ?? 0.05;
  const height = (f: number): number => p[3 * f]! * up[0]! + p[3 * f + 1]! * up[1]! + p[3 * f + 2]! * up[2]!;
  let lowest = Infinity;
  for (let f = 0; f < n; f++) lowest = Math.min(lowest, height(f));
  let planted = false;
  for (let f = 0; f < n; f++) {
    const a = Math.max(0, f - 1), b = Math.min(n - 1, f + 1);
    const dt = times[b]! - times[a]!;
    let speed = 0;
    if (dt > 0) {
      const dx = p[3 * b]! - p[3 * a]!, dy = p[3 * b + 1]! - p[3 * a + 1]!, dz = p[3 * b + 2]! - p[3 * a + 2]!;
      const du = dx * up[0]! + dy * up[1]! + dz * up[2]!;
      speed = Math.hypot(dx - du * up[0]!, dy - du * up[1]!, dz - du * up[2]!) / dt;
    }
    const h = height(f) - lowest;
    planted = planted ? h <= exitH && speed <= exitV : h < enterH && speed < enterV;
    out[f] = planted ? 1 : 0;
  }
  // Close short gaps (between two contacts), then drop short contacts.
  for (const value of [0, 1]) {
    let f = 0;
    while (f < n) {
      let e = f;
      while (e + 1 < n && out[e + 1] === out[f]) e++;
      const short = times[e]! - times[f]! < minDuration;
      if (out[f] === value && short && (value === 1 || (f > 0 && e < n - 1))) for (let g = f; g <= e; g++) out[g] = 1 - value;
      f = e + 1;
    }
  }
}

/** The planted intervals [first, last] (frame indices, inclusive) of a contact mask. */
export function contactIntervals(contacts: Uint8Array): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let f = 0;
  while (f < contacts.length) {
    if (!contacts[f]) { f++; continue; }
    let e = f;
    while (e + 1 < contacts.length && contacts[e + 1]) e++;
    out.push([f, e]);
    f = e + 1;
  }
  return out;
}

import type { Clip } from "../clip/clip.ts";
import type { ClipCursor } from "../clip/clip-cursor.ts";
import type { CompiledGraph } from "../graph/compiled-graph.ts";
import type { ClipSampler } from "../graph/graph-instance.ts";
import { isProceduralClipUnchecked } from "../graph/motion-source.ts";
import type { QuatInterpolation } from "../math/quat.ts";
import { createPose, type Pose } from "../pose/pose.ts";
import { sampleClipAt } from "../clip/sample-clip.ts";
import { expectSampleCache, expectSampleCacheArguments } from "./check-crowd-arguments.ts";

/** Cache slots per clip: distinct sample times of one clip that one frame can share. */
export const SLOTS_PER_CLIP = 16;

/**
 * Shared sampling for a crowd ("one sample, many readers"): within one frame (between two
 * `beginFrame` calls), the first character that samples clip c at local time t stores the sampled pose
 * in a slot keyed by (c, t); every later character sampling (c, t) copies it (10·J floats) instead of
 * evaluating J tracks. Keys are exact float64 times, so the copy is bit-for-bit what `sampleClip` gives
 * (the cursor is only a search hint and does not change the result). Each clip has SLOTS_PER_CLIP
 * slots, addressed by a hash of the time's bits with linear probing over 4 slots; a time that finds no
 * free slot is sampled directly, so a desynchronised crowd pays one hash per sample and nothing more.
 * Preallocated; no allocation per frame. Not thread-safe (one cache per crowd and thread).
 */
export interface SampleCache extends ClipSampler {
  /** Frame counter: slots written in an older frame count as empty. */
  frame: number;
  /** Samples served from the cache / sampled and stored / sampled without a free slot, since creation. */
  hits: number;
  stores: number;
  misses: number;
  /** False: every sample is evaluated (the monomorphic sampler only, no sharing). */
  readonly share: boolean;
  /** Seconds; 0 = exact-time sharing (bit-identical). See CrowdOptions.timeQuantum. */
  readonly timeQuantum: number;
}

interface ClipSlots {
  readonly times: Float64Array;
  readonly frames: Int32Array;
  readonly poses: Pose[];
}

/** Quantised sharing: one slot per grid time k·q of the clip, filled on first use in a frame. */
interface GridSlots {
  readonly frames: Int32Array;
  readonly poses: (Pose | null)[];
}

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);

function copyInto(out: Pose, src: Pose): void {
  out.t.set(src.t);
  out.r.set(src.r);
  out.s.set(src.s);
}

class SharedSampler implements SampleCache {
  frame = 0;
  hits = 0;
  stores = 0;
  misses = 0;
  readonly share: boolean;
  readonly timeQuantum: number;
  private readonly slots: Map<Clip, ClipSlots>;
  private readonly grids: Map<Clip, GridSlots>;
  private readonly jointCount: number;
  private readonly quatMode: QuatInterpolation;

  constructor(graph: CompiledGraph, share: boolean, timeQuantum: number) {
    this.share = share;
    this.timeQuantum = share ? timeQuantum : 0;
    this.slots = new Map();
    this.grids = new Map();
    this.jointCount = graph.skeleton.jointCount;
    this.quatMode = graph.options.quatMode;
    const J = graph.skeleton.jointCount;
    for (const machine of graph.machines) {
      for (const state of machine.states) {
        const m = state.motion;
        const sources = m.kind === "clip" ? [m.source] : m.kind === "machine" ? [] : m.sources;
        for (const src of sources) {
          if (!share) break;
          if (isProceduralClipUnchecked(src) || this.slots.has(src) || this.grids.has(src)) continue;
          if (this.timeQuantum > 0 && src.duration < Infinity) {
            const n = Math.floor(src.duration / this.timeQuantum) + 2;
            this.grids.set(src, { frames: new Int32Array(n).fill(-1), poses: new Array<Pose | null>(n).fill(null) });
            continue;
          }
          const poses: Pose[] = [];
          for (let k = 0; k < SLOTS_PER_CLIP; k++) poses.push(createPose(J));
          this.slots.set(src, { times: new Float64Array(SLOTS_PER_CLIP), frames: new Int32Array(SLOTS_PER_CLIP).fill(-1), poses });
        }
      }
    }
  }

  /** Scratch for sample times: a double passed to a call V8 does not inline is boxed (step.ts). */
  private readonly times = new Float64Array(2);

  sample(out: Pose, clip: Clip, time: number, cursor: ClipCursor, quatMode: QuatInterpolation): void {
    this.times[1] = time;
    this.sampleAt(out, clip, this.times, 1, cursor, quatMode);
  }

  sampleAt(out: Pose, clip: Clip, ts: Float64Array, ti: number, cursor: ClipCursor, quatMode: QuatInterpolation): void {
    const time = ts[ti]!;
    if (!this.share) {
      sampleClipAt(out, clip, ts, ti, cursor, quatMode);
      return;
    }
    if (this.timeQuantum > 0) {
      const grid = this.grids.get(clip);
      if (grid && quatMode === this.quatMode) {
        const q = this.timeQuantum;
        let k = Math.round(time / q);
        k = k < 0 ? 0 : k >= grid.frames.length ? grid.frames.length - 1 : k;
        let pose = grid.poses[k];
        if (!pose) pose = grid.poses[k] = createPose(this.jointCount); // first use only
        if (grid.frames[k] !== this.frame) {
          this.times[0] = k * q;
          sampleClipAt(pose, clip, this.times, 0, cursor, quatMode);
          grid.frames[k] = this.frame;
          this.stores++;
        } else {
          this.hits++;
        }
        copyInto(out, pose);
        return;
      }
    }
    const slots = this.slots.get(clip);
    if (!slots || quatMode !== this.quatMode) {
      sampleClipAt(out, clip, ts, ti, cursor, quatMode);
      return;
    }
    bits[0] = time;
    const h = Math.imul(words[0]! ^ words[1]!, 0x9e3779b1) >>> 28; // top 4 bits: 0..15
    const frame = this.frame;
    for (let p = 0; p < 4; p++) {
      const k = (h + p) & (SLOTS_PER_CLIP - 1);
      if (slots.frames[k] !== frame) {
        const pose = slots.poses[k]!;
        sampleClipAt(pose, clip, ts, ti, cursor, quatMode);
        slots.frames[k] = frame;
        slots.times[k] = time;
        copyInto(out, pose);
        this.stores++;
        return;
      }
      if (slots.times[k] === time) {
        copyInto(out, slots.poses[k]!);
        this.hits++;
        return;
      }
    }
    this.misses++;
    sampleClipAt(out, clip, ts, ti, cursor, quatMode);
  }
}

/**
 * A sampler for a crowd of `graph`: with `share` (default true), a shared-sampling cache for the
 * keyframed clips of every state; without, a plain pass-through to the monomorphic sampler. With a
 * `timeQuantum` q > 0, sample times snap to the nearest multiple of q (clamped to the clip), and each
 * clip keeps one pose per grid time: every character then shares, whatever its phase.
 */
export function createSampleCache(graph: CompiledGraph, share = true, timeQuantum = 0): SampleCache {
  expectSampleCacheArguments(graph, share, timeQuantum);
  return new SharedSampler(graph, share, timeQuantum);
}

/** Starts a new frame: everything cached so far is forgotten (O(1)). */
export function beginFrame(cache: SampleCache): void {
  expectSampleCache("beginFrame", "cache", cache);
  cache.frame = (cache.frame + 1) | 0;
}

import { createClip, type Clip, type JointTrack } from "../../clip/clip.ts";
import type { Diagnostic, Severity } from "../../diagnostics/diagnostic.ts";
import { quatFromAxisAngle, quatFromEuler, quatIdentity, quatMultiply, type EulerOrder } from "../../math/quat.ts";
import { createPose } from "../../pose/pose.ts";
import { createSkeleton, type Skeleton } from "../../skeleton/skeleton.ts";
import { BvhLines, parseDecimal, type BvhToken } from "./bvh-lexer.ts";
import { expectNumberInRange, expectObject, expectString } from "../../errors/check-argument.ts";

/** The six BVH channel names (matched case-insensitively, reported in this spelling). */
export type BvhChannel = "Xposition" | "Yposition" | "Zposition" | "Xrotation" | "Yrotation" | "Zrotation";

const CHANNEL_NAMES: ReadonlyMap<string, BvhChannel> = new Map(
  (["Xposition", "Yposition", "Zposition", "Xrotation", "Yrotation", "Zrotation"] as const).map((c) => [c.toLowerCase(), c]),
);

/** What the file says about one joint (index = skeleton joint index). */
export interface BvhJointInfo {
  readonly name: string;
  /** OFFSET as written (file units, before `scale`). */
  readonly offset: readonly [number, number, number];
  /** CHANNELS in file order. */
  readonly channels: readonly BvhChannel[];
  /** Index of this joint's first channel within a frame line. */
  readonly firstChannel: number;
  /** Axes of the rotation channels in file order, e.g. "ZXY" (the Euler order); "" when none. */
  readonly eulerOrder: string;
  /** 1-based line of the ROOT/JOINT keyword. */
  readonly line: number;
}

/** An `End Site`: not a joint (it has no channels), kept so tools can measure the last bone's length. */
export interface BvhEndSite {
  /** The joint the end site hangs from. */
  readonly parent: number;
  /** OFFSET as written (file units, before `scale`). */
  readonly offset: readonly [number, number, number];
}

/** The raw content of a BVH file, beside the Skeleton and Clip built from it. */
export interface BvhData {
  readonly joints: readonly BvhJointInfo[];
  readonly endSites: readonly BvhEndSite[];
  /** Channels per frame line (sum over joints). */
  readonly channelCount: number;
  readonly frameCount: number;
  /** Seconds per frame (`Frame Time:`). */
  readonly frameTime: number;
  /** frameCount × channelCount values as written (degrees, file units), frame-major; empty when MOTION is unusable. */
  readonly motion: Float32Array;
}

/** What `parseBvh` returns: whatever parts of the file were usable, and every problem found. */
export interface BvhResult {
  /** Absent when the HIERARCHY is unusable. */
  readonly skeleton?: Skeleton;
  /** Absent when the MOTION section is unusable or has no frames. */
  readonly clip?: Clip;
  /** The raw file content (joints, end sites, frame time, motion values); absent when the HIERARCHY is unusable. */
  readonly bvh?: BvhData;
  /** Every problem, with code `E_BVH_*`, pointer `line N`, line and column. */
  readonly diagnostics: Diagnostic[];
}

/** Size limits applied before anything is allocated, so a hostile header cannot exhaust memory. */
export interface BvhLimits {
  /** Most joints accepted. Default 4096. */
  readonly maxJoints?: number;
  /** Most frames accepted. Default 1,000,000. */
  readonly maxFrames?: number;
  /** Most motion values (frames × channels) accepted. Default 20,000,000 (80 MB as float32). */
  readonly maxValues?: number;
}

/** How `parseBvh` converts a BVH file: unit scale, clip name and size limits. */
export interface BvhOptions {
  /** Multiplies offsets and position channels (e.g. 0.0254 for inches → metres). Default 1 (file units). */
  readonly scale?: number;
  /** Clip name. Default: the file name without its extension. */
  readonly name?: string;
  /** Size limits checked before allocating; defaults as listed on BvhLimits. */
  readonly limits?: BvhLimits;
}

const MAX_MOTION_DIAGNOSTICS = 20;

interface OpenNode {
  kind: "joint" | "end";
  /** Skeleton index for joints; -1 for an end site. */
  index: number;
  hasOffset: boolean;
  hasChannels: boolean;
  offset: [number, number, number];
  line: number;
}

interface JointBuild {
  name: string;
  parent: number;
  offset: [number, number, number];
  channels: BvhChannel[];
  firstChannel: number;
  line: number;
}

/** Stops parsing: the diagnostic has been recorded. */
class BvhStop extends Error {}

/**
 * Parses BVH text. Never throws on bad input: every problem is a diagnostic (codes `E_BVH_*`, pointer
 * `line N`, with line and column). Joints are the ROOT and JOINT entries in file order (parents before
 * children); End Sites are not joints (see `BvhData.endSites`). Rest pose: translation = OFFSET × scale,
 * identity rotation. Clip: LINEAR keys at i × Frame Time; a joint with rotation channels gets a rotation
 * track (degrees, composed in the listed channel order: `Zrotation Xrotation Yrotation` → qZ·qX·qY); a
 * joint with position channels gets a translation track = (OFFSET + channel value) × scale, per axis
 * (as three.js's BVHLoader and the Biovision description do; an axis without a channel keeps the OFFSET).
 */
export function parseBvh(text: string, file: string, options: BvhOptions = {}): BvhResult {
  const fn = "parseBvh";
  expectString(fn, "text", text);
  expectString(fn, "file", file);
  expectObject(fn, "options", options);
  if (options.scale !== undefined) expectNumberInRange(fn, "options.scale", options.scale, Number.MIN_VALUE, Number.MAX_VALUE);
  if (options.name !== undefined) expectString(fn, "options.name", options.name);
  if (options.limits !== undefined) expectObject(fn, "options.limits", options.limits);
  const diagnostics: Diagnostic[] = [];
  const scale = options.scale ?? 1;
  const maxJoints = Math.min(options.limits?.maxJoints ?? 4096, 0x7fff);
  const maxFrames = options.limits?.maxFrames ?? 1_000_000;
  const maxValues = options.limits?.maxValues ?? 20_000_000;
  const lines = new BvhLines(text);

  const report = (code: string, message: string, line: number, column = 1, severity: Severity = "error"): void => {
    diagnostics.push({ code, severity, file, pointer: `line ${line}`, message, line, column });
  };
  const stop = (code: string, message: string, line: number, column = 1): never => {
    report(code, message, line, column);
    throw new BvhStop();
  };

  const joints: JointBuild[] = [];
  const endSites: BvhEndSite[] = [];
  const names = new Map<string, number>();
  let channelCount = 0;
  let li = 0;

  const nextNonBlank = (): number => {
    while (li < lines.count && lines.isBlank(li)) li++;
    return li;
  };

  // ---- HIERARCHY ----
  try {
    nextNonBlank();
    if (li >= lines.count) stop("E_BVH_SYNTAX", "empty file: expected HIERARCHY", 1);
    const first = lines.tokens(li);
    if (first[0]!.text.toUpperCase() !== "HIERARCHY" || first.length > 1) {
      stop("E_BVH_SYNTAX", `expected HIERARCHY, found "${clip40(first.map((t) => t.text).join(" "))}"`, first[0]!.line, first[0]!.column);
    }
    li++;
    const stack: OpenNode[] = [];
    let pending: OpenNode | undefined;
    let sawRoot = false;
    let done = false;
    while (!done) {
      nextNonBlank();
      if (li >= lines.count) {
        const at = lines.count;
        if (stack.length > 0 || pending) stop("E_BVH_MISSING_BRACE", "the file ends inside the HIERARCHY (a `}` is missing)", at);
        stop("E_BVH_TRUNCATED", "the file ends before the MOTION section", at);
      }
      const tokens = lines.tokens(li);
      const head = tokens[0]!;
      const keyword = head.text.toUpperCase();
      let words = tokens;
      // `ROOT hip {` and `End Site {`: an opening brace at the end of a line opens the node it names.
      let opensHere = false;
      if ((keyword === "ROOT" || keyword === "JOINT" || keyword === "END") && tokens.length > 1 && tokens[tokens.length - 1]!.text === "{") {
        words = tokens.slice(0, -1);
        opensHere = true;
      }
      if (pending && keyword !== "{") {
        stop("E_BVH_MISSING_BRACE", `expected "{" after ${pending.kind === "end" ? "End Site" : `"${joints[pending.index]!.name}"`}, found "${clip40(head.text)}"`, head.line, head.column);
      }
      switch (keyword) {
        case "ROOT":
        case "JOINT": {
          if (keyword === "ROOT" && stack.length > 0) stop("E_BVH_MISSING_BRACE", "ROOT inside another joint (a `}` is missing)", head.line, head.column);
          if (keyword === "JOINT" && stack.length === 0) stop("E_BVH_SYNTAX", "JOINT outside any ROOT", head.line, head.column);
          const parent = stack[stack.length - 1];
          if (parent?.kind === "end") stop("E_BVH_SYNTAX", "an End Site cannot have children", head.line, head.column);
          if (words.length < 2) stop("E_BVH_SYNTAX", `${head.text} needs a joint name`, head.line, head.column);
          const name = words.slice(1).map((t) => t.text).join(" ");
          const seen = names.get(name);
          if (seen !== undefined) {
            stop("E_BVH_DUPLICATE_JOINT", `joint name "${clip40(name)}" is used twice (first on line ${joints[seen]!.line})`, words[1]!.line, words[1]!.column);
          }
          if (joints.length >= maxJoints) stop("E_BVH_TOO_LARGE", `more than ${maxJoints} joints`, head.line, head.column);
          names.set(name, joints.length);
          joints.push({ name, parent: parent ? parent.index : -1, offset: [0, 0, 0], channels: [], firstChannel: channelCount, line: head.line });
          if (keyword === "ROOT") sawRoot = true;
          pending = { kind: "joint", index: joints.length - 1, hasOffset: false, hasChannels: false, offset: [0, 0, 0], line: head.line };
          break;
        }
        case "END": {
          if (words.length !== 2 || words[1]!.text.toUpperCase() !== "SITE") stop("E_BVH_SYNTAX", `expected "End Site", found "${clip40(words.map((t) => t.text).join(" "))}"`, head.line, head.column);
          const parent = stack[stack.length - 1];
          if (!parent || parent.kind === "end") stop("E_BVH_SYNTAX", "End Site outside a joint", head.line, head.column);
          pending = { kind: "end", index: parent!.index, hasOffset: false, hasChannels: false, offset: [0, 0, 0], line: head.line };
          break;
        }
        case "{": {
          if (!pending) stop("E_BVH_SYNTAX", `unexpected "{"`, head.line, head.column);
          if (tokens.length > 1) stop("E_BVH_SYNTAX", `unexpected "${clip40(tokens[1]!.text)}" after "{"`, tokens[1]!.line, tokens[1]!.column);
          break;
        }
        case "}": {
          if (tokens.length > 1) stop("E_BVH_SYNTAX", `unexpected "${clip40(tokens[1]!.text)}" after "}"`, tokens[1]!.line, tokens[1]!.column);
          const node = stack.pop();
          if (!node) stop("E_BVH_SYNTAX", `unexpected "}" (no joint is open)`, head.line, head.column);
          if (!node!.hasOffset) stop("E_BVH_MISSING_OFFSET", `${node!.kind === "end" ? "End Site" : `joint "${joints[node!.index]!.name}"`} (line ${node!.line}) has no OFFSET`, head.line, head.column);
          if (node!.kind === "end") endSites.push({ parent: node!.index, offset: node!.offset });
          else joints[node!.index]!.offset = node!.offset;
          break;
        }
        case "OFFSET": {
          const node = stack[stack.length - 1];
          if (!node) stop("E_BVH_SYNTAX", "OFFSET outside a joint", head.line, head.column);
          if (node!.hasOffset) stop("E_BVH_SYNTAX", "a second OFFSET for the same joint", head.line, head.column);
          if (tokens.length !== 4) stop("E_BVH_SYNTAX", `OFFSET needs 3 numbers, found ${tokens.length - 1}`, head.line, head.column);
          for (let k = 0; k < 3; k++) {
            const t = tokens[k + 1]!;
            const v = parseDecimal(t.text);
            if (v === undefined) stop("E_BVH_BAD_NUMBER", `"${clip40(t.text)}" is not a finite number`, t.line, t.column);
            node!.offset[k] = v!;
          }
          node!.hasOffset = true;
          break;
        }
        case "CHANNELS": {
          const node = stack[stack.length - 1];
          if (!node) stop("E_BVH_SYNTAX", "CHANNELS outside a joint", head.line, head.column);
          if (node!.kind === "end") stop("E_BVH_SYNTAX", "an End Site has no CHANNELS", head.line, head.column);
          if (node!.hasChannels) stop("E_BVH_SYNTAX", "a second CHANNELS for the same joint", head.line, head.column);
          const countTok = tokens[1];
          if (!countTok) stop("E_BVH_CHANNEL_COUNT", "CHANNELS needs a count", head.line, head.column);
          const count = /^\d{1,9}$/.test(countTok!.text) ? Number(countTok!.text) : NaN;
          if (!Number.isInteger(count)) stop("E_BVH_CHANNEL_COUNT", `channel count "${clip40(countTok!.text)}" is not a whole number`, countTok!.line, countTok!.column);
          if (count > 6) stop("E_BVH_CHANNEL_COUNT", `CHANNELS ${count}: a joint has at most 6 channels`, countTok!.line, countTok!.column);
          const listed = tokens.slice(2);
          if (listed.length !== count) stop("E_BVH_CHANNEL_COUNT", `CHANNELS ${count} lists ${listed.length} channel names`, countTok!.line, countTok!.column);
          const joint = joints[node!.index]!;
          for (const t of listed) {
            const channel = CHANNEL_NAMES.get(t.text.toLowerCase());
            if (!channel) stop("E_BVH_UNKNOWN_CHANNEL", `unknown channel "${clip40(t.text)}" (expected X/Y/Z position or rotation)`, t.line, t.column);
            if (joint.channels.includes(channel!)) stop("E_BVH_DUPLICATE_CHANNEL", `channel ${channel} is listed twice`, t.line, t.column);
            joint.channels.push(channel!);
          }
          joint.firstChannel = channelCount;
          channelCount += count;
          node!.hasChannels = true;
          break;
        }
        case "MOTION": {
          if (pending || stack.length > 0) stop("E_BVH_MISSING_BRACE", "MOTION inside a joint (a `}` is missing)", head.line, head.column);
          if (!sawRoot) stop("E_BVH_SYNTAX", "the HIERARCHY has no ROOT", head.line, head.column);
          done = true;
          break;
        }
        default:
          stop("E_BVH_SYNTAX", `unexpected "${clip40(head.text)}" in the HIERARCHY`, head.line, head.column);
      }
      if (pending && (keyword === "{" || opensHere)) {
        stack.push(pending);
        pending = undefined;
      }
      li++;
    }
  } catch (err) {
    if (err instanceof BvhStop) return { diagnostics };
    throw err;
  }

  // Joint order is file order, so parents always precede children, as createSkeleton requires.
  const J = joints.length;
  const rest = createPose(J);
  for (let j = 0; j < J; j++) {
    const o = joints[j]!.offset;
    rest.t[3 * j] = o[0] * scale;
    rest.t[3 * j + 1] = o[1] * scale;
    rest.t[3 * j + 2] = o[2] * scale;
  }
  const skeleton = createSkeleton({
    names: joints.map((j) => j.name),
    parents: joints.map((j) => j.parent),
    rest,
    sourceIndex: joints.map((_, i) => i),
  });
  const jointInfo: BvhJointInfo[] = joints.map((j) => ({
    name: j.name,
    offset: j.offset,
    channels: j.channels,
    firstChannel: j.firstChannel,
    eulerOrder: j.channels.filter((c) => c.endsWith("rotation")).map((c) => c[0]).join(""),
    line: j.line,
  }));
  const data = (frameCount: number, frameTime: number, motion: Float32Array): BvhData => ({
    joints: jointInfo,
    endSites,
    channelCount,
    frameCount,
    frameTime,
    motion,
  });

  // ---- MOTION header ----
  const header = (pattern: RegExp, what: string): { value: string; token: BvhToken } | undefined => {
    nextNonBlank();
    if (li >= lines.count) {
      report("E_BVH_TRUNCATED", `the file ends before "${what}"`, lines.count);
      return undefined;
    }
    const tokens = lines.tokens(li);
    const m = pattern.exec(tokens.map((t) => t.text).join(" "));
    if (!m) {
      report("E_BVH_SYNTAX", `expected "${what} <number>", found "${clip40(tokens.map((t) => t.text).join(" "))}"`, tokens[0]!.line, tokens[0]!.column);
      return undefined;
    }
    li++;
    return { value: m[1]!, token: tokens[tokens.length - 1]! };
  };
  const framesHead = header(/^frames\s*:\s*(\S+)$/i, "Frames:");
  if (!framesHead) return { skeleton, bvh: data(0, 0, new Float32Array(0)), diagnostics };
  const frameCount = /^\d{1,15}$/.test(framesHead.value) ? Number(framesHead.value) : NaN;
  if (!Number.isInteger(frameCount)) {
    report("E_BVH_BAD_NUMBER", `frame count "${clip40(framesHead.value)}" is not a whole number`, framesHead.token.line, framesHead.token.column);
    return { skeleton, bvh: data(0, 0, new Float32Array(0)), diagnostics };
  }
  const timeHead = header(/^frame\s+time\s*:\s*(\S+)$/i, "Frame Time:");
  if (!timeHead) return { skeleton, bvh: data(0, 0, new Float32Array(0)), diagnostics };
  const frameTime = parseDecimal(timeHead.value);
  if (frameTime === undefined || !(frameTime >= 1e-6 && frameTime <= 3600)) {
    report("E_BVH_BAD_FRAME_TIME", `frame time "${clip40(timeHead.value)}" is not a number of seconds in [1e-6, 3600]`, timeHead.token.line, timeHead.token.column);
    return { skeleton, bvh: data(0, 0, new Float32Array(0)), diagnostics };
  }
  const empty = data(0, frameTime, new Float32Array(0));
  if (frameCount === 0) {
    report("W_BVH_NO_FRAMES", "the MOTION section has no frames, so there is no clip", framesHead.token.line, framesHead.token.column, "warning");
    return { skeleton, bvh: empty, diagnostics };
  }
  if (frameCount > maxFrames || frameCount * channelCount > maxValues) {
    report("E_BVH_TOO_LARGE", `${frameCount} frames × ${channelCount} channels is over the limit (${maxFrames} frames, ${maxValues} values)`, framesHead.token.line, framesHead.token.column);
    return { skeleton, bvh: empty, diagnostics };
  }
  // Count the frame lines before allocating: a header that promises more frames than the file holds is
  // reported as truncated without reserving memory for it.
  const frameLines: number[] = [];
  for (let k = li; k < lines.count && frameLines.length <= frameCount; k++) if (!lines.isBlank(k)) frameLines.push(k);
  if (frameLines.length < frameCount) {
    report("E_BVH_TRUNCATED", `"Frames: ${frameCount}" but only ${frameLines.length} frame lines follow`, lines.count);
    return { skeleton, bvh: empty, diagnostics };
  }
  if (frameLines.length > frameCount) {
    const extra = frameLines[frameCount]!;
    report("W_BVH_EXTRA_DATA", `text after the last of the ${frameCount} frames is ignored`, extra + 1, 1, "warning");
  }

  // ---- MOTION values ----
  const motion = new Float32Array(frameCount * channelCount);
  let motionErrors = 0;
  for (let f = 0; f < frameCount && motionErrors <= MAX_MOTION_DIAGNOSTICS; f++) {
    const k = frameLines[f]!;
    const n = lines.numbers(k, motion, f * channelCount, channelCount);
    if (n < 0) {
      const t = lines.tokens(k).find((x) => x.column === -n);
      report("E_BVH_BAD_NUMBER", `frame ${f}: "${clip40(t?.text ?? "")}" is not a finite number`, k + 1, -n);
      motionErrors++;
    } else if (n !== channelCount) {
      report("E_BVH_CHANNEL_COUNT", `frame ${f} has ${n} values; the HIERARCHY declares ${channelCount} channels`, k + 1);
      motionErrors++;
    }
  }
  if (motionErrors > MAX_MOTION_DIAGNOSTICS) {
    report("E_BVH_TOO_MANY_ERRORS", `more than ${MAX_MOTION_DIAGNOSTICS} bad frame lines; the rest were not checked`, frameLines[frameCount - 1]! + 1, 1);
  }
  if (motionErrors > 0) return { skeleton, bvh: empty, diagnostics };

  const times = new Float32Array(frameCount);
  for (let f = 0; f < frameCount; f++) times[f] = f * frameTime;
  for (let f = 1; f < frameCount; f++) {
    if (!(times[f]! > times[f - 1]!)) {
      report("E_BVH_BAD_FRAME_TIME", `frame time ${frameTime} s is too small for ${frameCount} distinct float32 key times`, timeHead.token.line, timeHead.token.column);
      return { skeleton, bvh: data(frameCount, frameTime, motion), diagnostics };
    }
  }
  const tracks = buildTracks(jointInfo, channelCount, frameCount, motion, times, scale);
  const name = options.name ?? clipNameOf(file);
  const clip = createClip({ name, skeleton, tracks, loopMode: "loop" });
  return { skeleton, clip, bvh: data(frameCount, frameTime, motion), diagnostics };
}

function buildTracks(
  joints: readonly BvhJointInfo[],
  channelCount: number,
  frameCount: number,
  motion: Float32Array,
  times: Float32Array,
  scale: number,
): JointTrack[] {
  const tracks: JointTrack[] = [];
  const q = new Float64Array(4);
  const axisQ = new Float64Array(4);
  const angles = new Float64Array(3);
  joints.forEach((joint, j) => {
    const posAxis: number[] = [];
    const posChannel: number[] = [];
    const rotChannel: number[] = [];
    joint.channels.forEach((c, k) => {
      if (c.endsWith("position")) {
        posAxis.push(c.charCodeAt(0) - 88);
        posChannel.push(joint.firstChannel + k);
      } else rotChannel.push(joint.firstChannel + k);
    });
    if (posChannel.length > 0) {
      const values = new Float32Array(3 * frameCount);
      for (let f = 0; f < frameCount; f++) {
        const row = f * channelCount;
        values[3 * f] = joint.offset[0] * scale;
        values[3 * f + 1] = joint.offset[1] * scale;
        values[3 * f + 2] = joint.offset[2] * scale;
        for (let k = 0; k < posChannel.length; k++) {
          const axis = posAxis[k]!;
          values[3 * f + axis] = (joint.offset[axis]! + motion[row + posChannel[k]!]!) * scale;
        }
      }
      tracks.push({ joint: j, path: "translation", interpolation: "LINEAR", stride: 3, times, values });
    }
    if (rotChannel.length > 0) {
      const full = rotChannel.length === 3 && new Set(joint.eulerOrder).size === 3;
      const values = new Float32Array(4 * frameCount);
      for (let f = 0; f < frameCount; f++) {
        const row = f * channelCount;
        for (let k = 0; k < rotChannel.length; k++) angles[k] = motion[row + rotChannel[k]!]!;
        eulerChannelsToQuat(q, joint.eulerOrder, full, angles, rotChannel.length, axisQ);
        // Keep consecutive keys in one hemisphere so LINEAR interpolation takes the short way.
        if (f > 0) {
          const p = 4 * (f - 1);
          if (q[0]! * values[p]! + q[1]! * values[p + 1]! + q[2]! * values[p + 2]! + q[3]! * values[p + 3]! < 0) {
            q[0] = -q[0]!;
            q[1] = -q[1]!;
            q[2] = -q[2]!;
            q[3] = -q[3]!;
          }
        }
        values[4 * f] = q[0]!;
        values[4 * f + 1] = q[1]!;
        values[4 * f + 2] = q[2]!;
        values[4 * f + 3] = q[3]!;
      }
      tracks.push({ joint: j, path: "rotation", interpolation: "LINEAR", stride: 4, times, values });
    }
  });
  return tracks;
}

const DEG = Math.PI / 180;

/**
 * The rotation of BVH rotation channels: the product of the axis rotations in listed order (intrinsic),
 * angles in degrees. Three distinct axes go through quatFromEuler; a joint with one or two rotation
 * channels multiplies axis rotations one by one. `angles` holds the values in listed order.
 */
function eulerChannelsToQuat(out: Float64Array, order: string, full: boolean, angles: Float64Array, count: number, scratch: Float64Array): void {
  if (full) {
    let x = 0, y = 0, z = 0;
    for (let k = 0; k < 3; k++) {
      const axis = order.charCodeAt(k);
      if (axis === 88) x = angles[k]! * DEG;
      else if (axis === 89) y = angles[k]! * DEG;
      else z = angles[k]! * DEG;
    }
    quatFromEuler(out, 0, x, y, z, order as EulerOrder);
    return;
  }
  quatIdentity(out, 0);
  for (let k = 0; k < count; k++) {
    const axis = order.charCodeAt(k) - 88;
    quatFromAxisAngle(scratch, 0, axis === 0 ? 1 : 0, axis === 1 ? 1 : 0, axis === 2 ? 1 : 0, angles[k]! * DEG);
    quatMultiply(out, 0, out, 0, scratch, 0);
  }
}

function clip40(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** The file's base name without its extension (no node:path, so parsing also runs in browsers). */
function clipNameOf(file: string): string {
  const base = file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

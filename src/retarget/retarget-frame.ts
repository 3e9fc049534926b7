import type { Clip } from "../clip/clip.ts";
import { createClipCursor, type ClipCursor } from "../clip/clip-cursor.ts";
import { sampleClipUnchecked } from "../clip/sample-clip.ts";
import { solveTwoBoneIk, TWO_BONE_SOFTNESS } from "../ik/two-bone-ik.ts";
import { quatInvert, quatMultiply, quatRotateVec3 } from "../math/quat.ts";
import { createPose, type Pose } from "../pose/pose.ts";
import type { Skeleton } from "../skeleton/skeleton.ts";
import type { CompiledBoneMap } from "./compile-bone-map.ts";
import { isAncestor } from "./find-animated-root.ts";
import { skeletonRoles } from "./classify-by-topology.ts";
import { modelFrames } from "./model-frames.ts";

/**
 * One key of a retarget, step by step (retargetClip drives it): sample the source, transfer rotations and
 * place the trajectory (`transfer`), optionally solve the legs by IK (`solveLegs`), then read local
 * rotations (`localRotation`) and translations (`lt`). Float64 throughout; allocation only in the
 * constructor. Leg lengths and IK offsets come from the target's rest pose.
 */
export class RetargetFrame {
  /** Source model rotations, positions, scales of the sampled key. */
  readonly sq: Float64Array;
  readonly sp: Float64Array;
  readonly ss: Float64Array;
  /** Target model rotations (4 per joint) and positions (3 per joint), and local translations (3 per joint). */
  readonly tq: Float64Array;
  readonly tp: Float64Array;
  readonly lt: Float64Array;
  /** Target joints whose rotation the leg IK sets (upper and lower legs). */
  readonly solvedByIk: Uint8Array;
  /** Target feet that hang elsewhere than from their lower leg (IK-style feet): placed at its end. */
  readonly footPlaced: Uint8Array;
  /** Per side: foot targets (3 per key) set by retargetClip before `solveLegs`. */
  readonly footTargets: (Float64Array | undefined)[] = [undefined, undefined];
  /** Per side: the source's contact mask (1 per key), for reports. */
  readonly contacts: (Uint8Array | undefined)[] = [undefined, undefined];
  /** Keep feet and toes at or above their reference height (groundFeet). */
  clampToGround = false;

  private readonly clip: Clip;
  private readonly map: CompiledBoneMap;
  private readonly source: Skeleton;
  private readonly target: Skeleton;
  private readonly pose: Pose;
  private readonly cursor: ClipCursor;
  private readonly tsc: Float64Array;
  private readonly base: Float64Array;
  private readonly inRoot: Uint8Array;
  private readonly footSubtree: Uint8Array[];
  /** Per side: the target's lower leg and foot whose end the foot is placed on (-1 when none). */
  private readonly lowerOf = new Int32Array([-1, -1]);
  private readonly footOf = new Int32Array([-1, -1]);
  /** Per side: the foot and every joint below it (toes, toe ends), which the ground clamp keeps up. */
  private readonly footJoints: Int32Array[] = [new Int32Array(0), new Int32Array(0)];
  /** Per joint: its height above the target's floor in the reference pose (along up), where it touches the ground. */
  private readonly groundHeight: Float64Array;
  /** Per side: the foot's offset in the lower leg's frame, the toes' in the foot's, the pole in the upper leg's. */
  private readonly endLocal = new Float64Array(6);
  private readonly toeLocal = new Float64Array(6);
  private readonly poleLocal = new Float64Array(6);
  private readonly offset = new Float64Array(3);
  private readonly v = new Float64Array(12);
  private readonly q = new Float64Array(16);
  private readonly ik = new Float64Array(8);

  constructor(clip: Clip, map: CompiledBoneMap) {
    this.clip = clip;
    this.map = map;
    this.source = map.source;
    this.target = map.target;
    const JS = this.source.jointCount, JT = this.target.jointCount;
    this.pose = createPose(JS);
    this.cursor = createClipCursor(clip);
    this.sq = new Float64Array(4 * JS);
    this.sp = new Float64Array(3 * JS);
    this.ss = new Float64Array(JS);
    this.tq = new Float64Array(4 * JT);
    this.tp = new Float64Array(3 * JT);
    this.lt = new Float64Array(3 * JT);
    this.tsc = new Float64Array(JT);
    this.base = new Float64Array(3 * JT);
    this.solvedByIk = new Uint8Array(JT);
    this.footPlaced = new Uint8Array(JT);
    this.inRoot = new Uint8Array(JT);
    this.footSubtree = [new Uint8Array(JT), new Uint8Array(JT)];
    const { legs, rootTarget } = map;
    for (let t = 0; t < JT; t++) if (rootTarget >= 0 && isAncestor(this.target, rootTarget, t)) this.inRoot[t] = 1;

    // Reference frames of the target (its rest pose) for leg lengths, the foot and toe offsets and poles.
    const rq = new Float64Array(4 * JT), rp = new Float64Array(3 * JT), rs = new Float64Array(JT);
    modelFrames(rq, rp, rs, this.target, this.target.rest);
    // The floor: the model origin, or the lowest joint when one is lower (as compileBoneMap's targetGround).
    const up = map.targetUp;
    this.groundHeight = new Float64Array(JT);
    let floor = 0;
    for (let t = 0; t < JT; t++) floor = Math.min(floor, rp[3 * t]! * up[0]! + rp[3 * t + 1]! * up[1]! + rp[3 * t + 2]! * up[2]!);
    for (let t = 0; t < JT; t++) this.groundHeight[t] = rp[3 * t]! * up[0]! + rp[3 * t + 1]! * up[1]! + rp[3 * t + 2]! * up[2]! - floor;
    const inv = new Float64Array(4);
    const d = new Float64Array(3);
    const targetRoles = skeletonRoles(this.target);
    for (let side = 0; side < 2; side++) {
      const [upper, lower, foot, toes] = [legs[4 * side]!, legs[4 * side + 1]!, legs[4 * side + 2]!, legs[4 * side + 3]!];
      if (upper < 0) {
        // A leg the map does not drive whole (its knee or hip left out) has no IK, but a foot that hangs from
        // the skeleton root (an IK rig's) and is mapped would be placed where the source's foot is, off its
        // own leg (a robot foot 24 % of the leg under the ground, 51 % from its shin): it stays on the end of
        // its lower leg, as a foot below its shin does.
        const key = side === 0 ? "L" : "R";
        const [l, f] = [targetRoles.get(`lowerLeg.${key}`) ?? -1, targetRoles.get(`foot.${key}`) ?? -1];
        // So does an IK-style foot the map leaves out with the rest of its leg (it would stay at the root's rest).
        if (l < 0 || f < 0 || this.target.parents[f] === l || (map.sourceOf[f]! >= 0 && !map.positionDriven[f]) || f === map.rootTarget) continue;
        this.lowerOf[side] = l;
        this.footOf[side] = f;
        this.footPlaced[f] = 1;
        for (let t = 0; t < JT; t++) if (isAncestor(this.target, f, t)) this.footSubtree[side]![t] = 1;
        localOffset(this.endLocal, 3 * side, rq, rp, rs, l, f, inv, d);
        continue;
      }
      this.lowerOf[side] = lower;
      this.footOf[side] = foot;
      this.solvedByIk[upper] = 1;
      this.solvedByIk[lower] = 1;
      // An IK-style foot the map leaves out (a completed leg) is placed on its lower leg too.
      if (this.target.parents[foot] !== lower && (map.positionDriven[foot] || map.sourceOf[foot]! < 0)) {
        this.footPlaced[foot] = 1;
        for (let t = 0; t < JT; t++) if (isAncestor(this.target, foot, t)) this.footSubtree[side]![t] = 1;
      }
      const below: number[] = [foot];
      for (let t = foot + 1; t < JT; t++) if (isAncestor(this.target, foot, t)) below.push(t);
      this.footJoints[side] = Int32Array.from(below);
      localOffset(this.endLocal, 3 * side, rq, rp, rs, lower, foot, inv, d);
      if (toes >= 0) localOffset(this.toeLocal, 3 * side, rq, rp, rs, foot, toes, inv, d);
      quatInvert(inv, 0, rq, 4 * upper);
      quatRotateVec3(this.poleLocal, 3 * side, inv, 0, map.targetForward, 0);
    }
  }

  /** Vertical offset (along the target's up, in target units) added to the trajectory. */
  setGroundOffset(d: number): void {
    quatRotateVec3(this.offset, 0, this.map.frame, 0, this.map.sourceUp, 0);
    for (let c = 0; c < 3; c++) this.offset[c] = d * this.offset[c]!;
  }

  /** Samples the source clip at `time` and takes it to model space (sq, sp, ss). */
  sampleSource(time: number): void {
    sampleClipUnchecked(this.pose, this.clip, time, this.cursor);
    modelFrames(this.sq, this.sp, this.ss, this.source, this.pose);
  }

  /** Rotation transfer and placement of the trajectory and of IK-style feet (before any leg IK). */
  transfer(): void {
    const { sourceOf, frame, post, translationFrame, ratio, positionDriven, sameChain } = this.map;
    const target = this.target, rest = target.rest, srcRest = this.source.rest;
    const tq = this.tq, base = this.base, v = this.v;
    for (let t = 0; t < target.jointCount; t++) {
      const s = sourceOf[t]!;
      if (s >= 0) {
        quatMultiply(tq, 4 * t, frame, 0, this.sq, 4 * s);
        quatMultiply(tq, 4 * t, tq, 4 * t, post, 4 * t);
      }
      // Local translation before placement: the reference offset plus r · F · (source delta).
      if (s >= 0 && !positionDriven[t] && sameChain[t] && this.clip.trackIndex[3 * s]! >= 0) {
        for (let c = 0; c < 3; c++) v[c] = this.pose.t[3 * s + c]! - srcRest.t[3 * s + c]!;
        quatRotateVec3(v, 0, translationFrame, 4 * t, v, 0);
        for (let c = 0; c < 3; c++) base[3 * t + c] = rest.t[3 * t + c]! + ratio[t]! * v[c]!;
      } else for (let c = 0; c < 3; c++) base[3 * t + c] = rest.t[3 * t + c]!;
    }
    this.followParents(true);
    this.positions();
  }

  /**
   * Where the source's foot is, seen from its hip joint, scaled by k and turned by C, from side's target hip
   * joint, into out[o..o+2]: the foot of a leg the map drives only in part (`completedLegs`).
   */
  sourceFootFromHip(out: Float64Array, o: number, side: number): void {
    const { legs, sourceLegs, frame, rootMotionScale: k } = this.map;
    const [hip, foot, upper] = [sourceLegs[4 * side]!, sourceLegs[4 * side + 2]!, legs[4 * side]!];
    const v = this.v;
    for (let c = 0; c < 3; c++) v[c] = k * (this.sp[3 * foot + c]! - this.sp[3 * hip + c]!);
    quatRotateVec3(out, o, frame, 0, v, 0);
    for (let c = 0; c < 3; c++) out[o + c] = out[o + c]! + this.tp[3 * upper + c]!;
  }

  /** The end of side's lower leg (where its foot belongs) into out[o..o+2]. */
  legEnd(out: Float64Array, o: number, side: number): void {
    const lower = this.lowerOf[side]!;
    quatRotateVec3(out, o, this.tq, 4 * lower, this.endLocal, 3 * side);
    for (let c = 0; c < 3; c++) out[o + c] = this.tp[3 * lower + c]! + this.tsc[lower]! * out[o + c]!;
  }

  /** Solves both legs so each foot reaches its target of key `f`, then re-places the skeleton. */
  solveLegs(f: number): void {
    const { legs, targetUp: up, targetGround } = this.map;
    const v = this.v;
    for (let side = 0; side < 2; side++) {
      const targets = this.footTargets[side];
      if (!targets) continue;
      const [upper, lower, foot, toes] = [legs[4 * side]!, legs[4 * side + 1]!, legs[4 * side + 2]!, legs[4 * side + 3]!];
      for (let c = 0; c < 3; c++) v[c] = targets[3 * f + c]!;
      if (this.clampToGround) {
        // The foot's subtree (toes, toe ends) moves rigidly with the foot (IK turns only the thigh and the
        // shin): lift the foot target until every joint of it is at or above its reference height.
        raiseTo(v, 0, up, targetGround[2 * side]!);
        const joints = this.footJoints[side]!;
        const h = v[0]! * up[0]! + v[1]! * up[1]! + v[2]! * up[2]!;
        const footAt = this.tp[3 * foot]! * up[0]! + this.tp[3 * foot + 1]! * up[1]! + this.tp[3 * foot + 2]! * up[2]!;
        let lift = 0;
        for (let i = 0; i < joints.length; i++) {
          const j = joints[i]!;
          const below = this.tp[3 * j]! * up[0]! + this.tp[3 * j + 1]! * up[1]! + this.tp[3 * j + 2]! * up[2]! - footAt;
          lift = Math.max(lift, this.groundHeight[j]! - (h + below));
        }
        if (toes >= 0 && joints.indexOf(toes) < 0) {
          // Toes that do not hang below the foot (an unusual rig): they follow the foot's rotation.
          quatRotateVec3(v, 3, this.tq, 4 * foot, this.toeLocal, 3 * side);
          for (let c = 0; c < 3; c++) v[3 + c] = v[c]! + this.tsc[foot]! * v[3 + c]!;
          lift = Math.max(lift, targetGround[2 * side + 1]! - (v[3]! * up[0]! + v[4]! * up[1]! + v[5]! * up[2]!));
        }
        if (lift > 0) for (let c = 0; c < 3; c++) v[c] = v[c]! + lift * up[c]!;
      }
      this.solveLeg(side, v, 0);
      for (let c = 0; c < 4; c++) {
        this.tq[4 * upper + c] = this.ik[c]!;
        this.tq[4 * lower + c] = this.ik[4 + c]!;
      }
    }
    this.followParents();
    this.positions();
  }

  /**
   * How far (radians) solving side's leg towards `targets[o..o+2]` would turn its thigh or shin away from
   * their transferred directions this key (the larger of the two). Leaves the pose untouched.
   */
  legDeviation(side: number, targets: Float64Array, o: number): number {
    const { legs } = this.map;
    const [upper, lower] = [legs[4 * side]!, legs[4 * side + 1]!];
    const v = this.v, q = this.q;
    this.solveLeg(side, targets, o);
    // Turn of each bone: the angle of new · old⁻¹ applied to the bone's direction.
    let worst = 0;
    for (const [at, from, to] of [[0, 0, 3], [4, 3, 6]] as const) {
      const joint = at === 0 ? upper : lower;
      quatInvert(q, 12, this.tq, 4 * joint);
      quatMultiply(q, 12, this.ik, at, q, 12);
      for (let c = 0; c < 3; c++) v[c] = q[to + c]! - q[from + c]!;
      quatRotateVec3(v, 3, q, 12, v, 0);
      const dot = v[0]! * v[3]! + v[1]! * v[4]! + v[2]! * v[5]!;
      const len = Math.hypot(v[0]!, v[1]!, v[2]!) * Math.hypot(v[3]!, v[4]!, v[5]!);
      if (len > 0) worst = Math.max(worst, Math.acos(Math.min(1, Math.max(-1, dot / len))));
    }
    return worst;
  }

  /**
   * Two-bone IK of side's leg towards targets[o..o+2] into this.ik (upper then lower model rotation),
   * pole from the knee's rest forward; the pose is untouched. Uses v[6..11] and q[0..8] as scratch, so a
   * target held in v must sit in v[0..5].
   */
  private solveLeg(side: number, targets: Float64Array, o: number): void {
    const [upper, lower] = [this.map.legs[4 * side]!, this.map.legs[4 * side + 1]!];
    const v = this.v, q = this.q;
    this.legEnd(v, 6, side);
    quatRotateVec3(v, 9, this.tq, 4 * upper, this.poleLocal, 3 * side);
    // twoBoneIk reads positions at upper, lower (tp) and the end (v[6..8]): copy them into one array.
    for (let c = 0; c < 3; c++) {
      q[c] = this.tp[3 * upper + c]!;
      q[3 + c] = this.tp[3 * lower + c]!;
      q[6 + c] = v[6 + c]!;
    }
    LEG_ARGS[1] = straightLegPoleWeight(q);
    solveTwoBoneIk(this.ik, 0, q, 0, 3, 6, this.tq, 4 * upper, 4 * lower, targets, o, v, 9, LEG_ARGS);
  }

  /** The local rotation of target joint t this key (normalised, in a scratch array read before the next call). */
  localRotation(t: number): Float64Array {
    const q = this.q;
    const parent = this.target.parents[t]!;
    if (parent >= 0) {
      quatInvert(q, 0, this.tq, 4 * parent);
      quatMultiply(q, 0, q, 0, this.tq, 4 * t);
    } else for (let c = 0; c < 4; c++) q[c] = this.tq[4 * t + c]!;
    const len = Math.hypot(q[0]!, q[1]!, q[2]!, q[3]!);
    for (let c = 0; c < 4; c++) q[c] = q[c]! / len;
    return q;
  }

  /**
   * Unmapped joints follow their parents with their local rest rotation; those the leg IK solves (a knee
   * the map left out) only before it has (`beforeIk`), as its starting pose.
   */
  private followParents(beforeIk = false): void {
    const { sourceOf } = this.map;
    const target = this.target, tq = this.tq;
    for (let t = 0; t < target.jointCount; t++) {
      if (sourceOf[t]! >= 0 || (this.solvedByIk[t] && !beforeIk)) continue;
      const parent = target.parents[t]!;
      if (parent >= 0) quatMultiply(tq, 4 * t, tq, 4 * parent, target.rest.r, 4 * t);
      else for (let c = 0; c < 4; c++) tq[4 * t + c] = target.rest.r[4 * t + c]!;
    }
  }

  /** Model positions by FK from the local translations, then the trajectory and IK-style feet placed. */
  private positions(): void {
    const { sourceOf, positionDriven, rootTarget, targetPelvis, frame, rootMotionScale: k, legs } = this.map;
    const target = this.target, tq = this.tq, tp = this.tp, tsc = this.tsc, v = this.v;
    for (let t = 0; t < target.jointCount; t++) {
      const parent = target.parents[t]!;
      const ps = parent >= 0 ? tsc[parent]! : 1;
      tsc[t] = ps * target.rest.s[3 * t]!;
      const s = sourceOf[t]!;
      if (s >= 0 && positionDriven[t] && !this.footPlaced[t]) {
        // The trajectory (and bones whose chains differ): k · C · Ps + the ground offset.
        for (let c = 0; c < 3; c++) v[c] = k * this.sp[3 * s + c]!;
        quatRotateVec3(tp, 3 * t, frame, 0, v, 0);
        for (let c = 0; c < 3; c++) tp[3 * t + c] = tp[3 * t + c]! + this.offset[c]!;
        continue;
      }
      for (let c = 0; c < 3; c++) v[c] = ps * this.base[3 * t + c]!;
      if (parent >= 0) {
        quatRotateVec3(v, 0, tq, 4 * parent, v, 0);
        for (let c = 0; c < 3; c++) tp[3 * t + c] = tp[3 * parent + c]! + v[c]!;
      } else for (let c = 0; c < 3; c++) tp[3 * t + c] = v[c]!;
    }
    // The hips go where the source's hips go (scaled): the midpoint of the two hip joints when both legs
    // are mapped, else the pelvis; the root's subtree moves with them. Not without a frame (unknown axes
    // and sizes): the root then moves relative to its rest, as compileBoneMap's W_RETARGET_NO_FRAME says.
    if (rootTarget >= 0 && positionDriven[rootTarget]) {
      const [ul, ur] = [legs[0]!, legs[4]!];
      const [sl, sr] = [this.map.sourceLegs[0]!, this.map.sourceLegs[4]!];
      let have = true;
      if (ul >= 0 && ur >= 0) {
        for (let c = 0; c < 3; c++) {
          v[c] = 0.5 * k * (this.sp[3 * sl + c]! + this.sp[3 * sr + c]!);
          v[3 + c] = 0.5 * (tp[3 * ul + c]! + tp[3 * ur + c]!);
        }
      } else if (targetPelvis >= 0 && targetPelvis !== rootTarget) {
        const rs = sourceOf[rootTarget]!;
        for (let c = 0; c < 3; c++) {
          v[c] = k * this.sp[3 * rs + c]!;
          v[3 + c] = tp[3 * targetPelvis + c]!;
        }
      } else have = false;
      if (have) {
        quatRotateVec3(v, 0, frame, 0, v, 0);
        for (let c = 0; c < 3; c++) v[c] = v[c]! + this.offset[c]! - v[3 + c]!;
        for (let t = 0; t < target.jointCount; t++) if (this.inRoot[t]) for (let c = 0; c < 3; c++) tp[3 * t + c] = tp[3 * t + c]! + v[c]!;
      }
    }
    for (let side = 0; side < 2; side++) {
      const foot = this.footOf[side]!;
      if (foot < 0 || !this.footPlaced[foot]) continue;
      this.legEnd(v, 3, side);
      for (let c = 0; c < 3; c++) v[3 + c] = v[3 + c]! - tp[3 * foot + c]!;
      const sub = this.footSubtree[side]!;
      for (let t = 0; t < target.jointCount; t++) if (sub[t]) for (let c = 0; c < 3; c++) tp[3 * t + c] = tp[3 * t + c]! + v[3 + c]!;
    }
    // Local translations: the reference offsets, except where a joint was placed in model space.
    const q = this.q;
    for (let t = 0; t < target.jointCount; t++) {
      const placed = (sourceOf[t]! >= 0 && positionDriven[t]) || this.footPlaced[t] || t === rootTarget;
      if (!placed) {
        for (let c = 0; c < 3; c++) this.lt[3 * t + c] = this.base[3 * t + c]!;
        continue;
      }
      const parent = target.parents[t]!;
      if (parent < 0) {
        for (let c = 0; c < 3; c++) this.lt[3 * t + c] = tp[3 * t + c]!;
        continue;
      }
      for (let c = 0; c < 3; c++) v[c] = (tp[3 * t + c]! - tp[3 * parent + c]!) / tsc[parent]!;
      quatInvert(q, 0, tq, 4 * parent);
      quatRotateVec3(this.lt, 3 * t, q, 0, v, 0);
    }
  }
}

/**
 * solveTwoBoneIk's numbers for a leg: weight 1, a pole weight set per key by straightLegPoleWeight (the
 * bend plane kept while the knee is clearly bent), and a soft reach over the last LEG_SOFTNESS of the leg.
 */
const LEG_ARGS = new Float64Array([1, 0, 0, 0]);
/**
 * Share of the leg's length over which its reach saturates (twoBoneIk's softness). A hard reach keeps a leg
 * straight while its foot target is beyond it and bends the knee with unbounded speed as the target comes
 * back within reach: CMU 131_01 on RobotExpressive, a target 9 % beyond the leg 70 ms before, bent the knee
 * 25° within 16 ms (37.7 m/s at 4.73 s). With 2 % the knee moves at most 18.4 m/s there; a foot target
 * within 98 % of the leg is still reached exactly, and one at full reach falls short by 0.7 % of the leg.
 */
const LEG_SOFTNESS = 0.02;
LEG_ARGS[TWO_BONE_SOFTNESS] = LEG_SOFTNESS;

/** Knee bend (angle between thigh and shin) below which the pole alone decides the bend plane, and above which the current plane is kept. */
const POLE_FULL_BELOW = (10 * Math.PI) / 180, POLE_NONE_ABOVE = (30 * Math.PI) / 180;

/**
 * How much the pole decides the bend plane for the chain in q[0..8] (hip, knee, foot): a nearly straight
 * leg's own bend plane is noise (a source knee bent 2° forward in one key and 2° back in the next flipped
 * the retargeted knee by 22 cm between them), so the knee's rest forward takes over, smoothly, as the leg
 * straightens; a bent leg keeps the source's plane.
 */
function straightLegPoleWeight(q: Float64Array): number {
  const ax = q[3]! - q[0]!, ay = q[4]! - q[1]!, az = q[5]! - q[2]!;
  const bx = q[6]! - q[3]!, by = q[7]! - q[4]!, bz = q[8]! - q[5]!;
  const lengths = Math.hypot(ax, ay, az) * Math.hypot(bx, by, bz);
  if (!(lengths > 0)) return 1;
  const bend = Math.acos(Math.min(1, Math.max(-1, (ax * bx + ay * by + az * bz) / lengths)));
  if (bend <= POLE_FULL_BELOW) return 1;
  if (bend >= POLE_NONE_ABOVE) return 0;
  const s = (POLE_NONE_ABOVE - bend) / (POLE_NONE_ABOVE - POLE_FULL_BELOW);
  return s * s * (3 - 2 * s);
}

/** The offset from joint a to joint b in a's model frame, divided by a's model scale, into out[o..o+2]. */
function localOffset(out: Float64Array, o: number, rq: Float64Array, rp: Float64Array, rs: Float64Array, a: number, b: number, inv: Float64Array, d: Float64Array): void {
  for (let c = 0; c < 3; c++) d[c] = (rp[3 * b + c]! - rp[3 * a + c]!) / rs[a]!;
  quatInvert(inv, 0, rq, 4 * a);
  quatRotateVec3(out, o, inv, 0, d, 0);
}

/** Raises the point p[o..o+2] along `up` until its height is at least `height`. */
function raiseTo(p: Float64Array, o: number, up: Float64Array, height: number): void {
  const h = p[o]! * up[0]! + p[o + 1]! * up[1]! + p[o + 2]! * up[2]!;
  if (h < height) for (let c = 0; c < 3; c++) p[o + c] = p[o + c]! + (height - h) * up[c]!;
}

import { expectPose } from "../errors/check-argument.ts";
import { expectInstance, expectMachineOf } from "./check-graph.ts";
import type { GraphInstance, MachineInstance } from "./graph-instance.ts";
import type { Pose } from "../pose/pose.ts";
import { evaluateMachineUnchecked } from "./step.ts";

/**
 * Writes a machine's output pose (its transition stack folded bottom-up) into `out`. A machine with
 * inertialized or dead-blended transitions remembers it as its latest output (their source pose and
 * velocity come from the last two): `step` does this once per machine per frame (through the
 * unchecked form). `mi` must be one of `inst`'s machines and `out` a pose of its skeleton; the checks
 * are identity and typeof tests that allocate nothing.
 */
export function evaluateMachine(inst: GraphInstance, mi: MachineInstance, out: Pose): void {
  expectInstance("evaluateMachine", "inst", inst);
  expectMachineOf("evaluateMachine", "mi", mi, inst);
  expectPose("evaluateMachine", "out", out, inst.graph.skeleton.jointCount);
  evaluateMachineUnchecked(inst, mi, out);
}

export { createUpdateRateLod, updateInterval, isUpdateFrame, extrapolatePose, type UpdateRateBand, type UpdateRateLod } from "./update-rate-lod.ts";
export {
  computeJointImportance, createJointLod, activeJointCount, freezeInactiveJoints, type JointImportance, type JointLod, type JointLodBand,
} from "./joint-lod.ts";
export { createBudgetScheduler, starvationBound, type BudgetScheduler, type BudgetSchedulerOptions } from "./budget-scheduler.ts";

// Motion continuity measured from output poses (docs/transitions.md, "Continuity").
export type { AngularVelocityJump } from "./angular-velocity-jump.ts";
export { jointAngularVelocities, angularVelocityJump, transitionContinuity } from "./angular-velocity-jump.ts";
export type { ContinuityMeter } from "./continuity-meter.ts";
export { createContinuityMeter } from "./continuity-meter.ts";

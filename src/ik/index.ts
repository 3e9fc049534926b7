export { twoBoneIk, type TwoBoneIkSettings } from "./two-bone-ik.ts";
export { aimIk } from "./aim-ik.ts";
export { aimChainIk } from "./aim-chain-ik.ts";
export { footPlacement, MAX_FOOT_PLACEMENT_LEGS, type FootPlacementSettings, type GroundFunction } from "./foot-placement.ts";
export { writeModelPose, CHANGED_ROTATION, CHANGED_POSITION } from "./write-model-pose.ts";
export { legsUp, legsPelvis, LEGS_UP_SNAP_DEGREES, type LegsUp } from "./legs-up.ts";

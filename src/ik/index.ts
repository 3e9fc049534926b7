export { twoBoneIk } from "./two-bone-ik.ts";
export { aimIk } from "./aim-ik.ts";

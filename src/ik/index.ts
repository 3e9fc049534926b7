export { twoBoneIk } from "./two-bone-ik.ts";

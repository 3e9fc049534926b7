import type { CliCommand } from "../context.ts";
import { blendCheckCommand } from "./blend-check.ts";

/** Every CLI command, in the order `animgraph --help` lists them (one file per command beside this one). */
export const COMMANDS: readonly CliCommand[] = [blendCheckCommand];

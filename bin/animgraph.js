#!/usr/bin/env node
// The CLI entry: a thin shim over the compiled library (npm ci builds dist/ through "prepare").
import { main } from "../dist/cli/main.js";

process.exitCode = await main(process.argv.slice(2));

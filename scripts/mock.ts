/** `npm run mock [-- PRISM_OPTIONS]`: Prism's mock of the published sandbox document (scripts/lib/mock-arguments.ts). */
import { spawn } from "node:child_process";
import { prismMockArguments } from "./lib/mock-arguments.js";

const prism = spawn("node_modules/.bin/prism", prismMockArguments(process.argv.slice(2)), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => prism.kill(signal));
prism.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

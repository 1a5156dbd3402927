/** Writes generated/ (published documents, types, operation table) from the spec. */
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { renderGeneratedFiles } from "./lib/generated-files.js";

const bundlesOnly = process.argv.includes("--bundles-only");
const only = bundlesOnly ? /\.ya?ml$/ : /./;
for (const [path, content] of await renderGeneratedFiles({ bundlesOnly })) {
  if (!only.test(path)) continue;
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  console.log(`wrote ${path}`);
}

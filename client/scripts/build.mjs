// Builds dist/ (ESM + .d.ts) from src/ and the repository's generated types, so the package
// carries its own copy of the types and imports nothing from outside its folder.
// Plain Node (no tsx): it also runs as `prepack`, before `npm pack` and `npm publish`.
//   node scripts/build.mjs [--out-dir DIR]   (default: dist/ beside this folder)
// Each run stages in its own folder under .build/ (inside the repository, so node_modules
// resolve), so builds running at once (two test runs in one work tree) do not trip each other.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cp, mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const clientDir = dirname(dirname(fileURLToPath(import.meta.url)));
const { values } = parseArgs({ options: { "out-dir": { type: "string" } } });
const outDir = resolve(values["out-dir"] ?? join(clientDir, "dist"));
const generatedTypes = join(clientDir, "..", "generated", "types");
const stages = join(clientDir, ".build");
const stage = join(stages, randomUUID());
const stagedSrc = join(stage, "src");
// The one module that names generated/ (src/api-types.ts), and where its copies go in the package.
const GENERATED_FROM = "../../generated/types/";
const GENERATED_TO = "./generated/";
const TYPE_FILES = ["full.ts", "variant-r.ts", "variant-d.ts", "required-scopes.ts"];

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

async function stageSources() {
  await cp(join(clientDir, "src"), stagedSrc, { recursive: true });
  await mkdir(join(stagedSrc, "generated"));
  for (const file of TYPE_FILES) {
    await cp(join(generatedTypes, file), join(stagedSrc, "generated", file)).catch(() => {
      throw new Error(`${join(generatedTypes, file)} is missing: build the client inside the repository, after \`npm run generate\``);
    });
  }
  const apiTypes = join(stagedSrc, "api-types.ts");
  await writeFile(apiTypes, (await readFile(apiTypes, "utf8")).replaceAll(GENERATED_FROM, GENERATED_TO));
  // Nothing staged may still reach outside the package.
  for (const file of await filesUnder(stagedSrc)) {
    const source = await readFile(file, "utf8");
    for (const [, specifier] of source.matchAll(/(?:from|import)\s*\(?\s*"([^"]+)"/g)) {
      if (specifier.startsWith(".") && relative(stagedSrc, join(dirname(file), specifier)).startsWith("..")) {
        throw new Error(`${relative(stage, file)} imports ${specifier}, outside the package`);
      }
    }
  }
  const tsconfig = {
    extends: relative(stage, join(clientDir, "tsconfig.build.json")),
    compilerOptions: { rootDir: "./src", outDir },
    include: ["./src"],
  };
  await writeFile(join(stage, "tsconfig.json"), JSON.stringify(tsconfig, null, 2));
}

let status = 1;
try {
  await stageSources();
  await rm(outDir, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  status = spawnSync(process.execPath, [tsc, "-p", join(stage, "tsconfig.json")], { stdio: "inherit" }).status ?? 1;
} finally {
  await rm(stage, { recursive: true, force: true });
  await rmdir(stages).catch(() => undefined); // only when no other build is staging
}
if (status !== 0) process.exit(status);
console.log(`built ${relative(process.cwd(), outDir) || "."}`);

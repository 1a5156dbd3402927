/**
 * The conformance kit as the package `@partner-api/conformance` (conformance/package.json), as
 * other implementations' CI installs it: conformance/src bundled by esbuild into one ES module
 * (dist/cli.js, the `partner-api-conformance` command), the published documents beside it in
 * documents/ and the rule catalogue in rules/, where conformance/src/documents.ts and catalogue.ts
 * look first. Made in a work directory of the caller's, never in conformance/, so builds running at
 * once (two test runs in one checkout) do not overwrite each other's.
 */
import { chmod, cp, mkdir, readdir, readFile } from "node:fs/promises";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { npmPack, type PackedPackage } from "./npm-pack.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const CONFORMANCE_DIR = join(ROOT, "conformance");
const SOURCE_DIR = join(CONFORMANCE_DIR, "src");
/** What the package carries besides its code: the published documents and the catalogue, by folder in the package. */
const DATA_FOLDERS = { documents: join(ROOT, "generated", "openapi"), rules: join(ROOT, "spec", "rules") } as const;
export const CONFORMANCE_BIN = "partner-api-conformance";

interface Manifest {
  name: string;
  version: string;
  bin: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

/** The kit's tarball, in the work directory, under npm's name (partner-api-conformance-<version>.tgz). */
export type PackedKit = PackedPackage;

const readManifest = async (file: string) => JSON.parse(await readFile(file, "utf8")) as Manifest;

/** The kit imports only its own files: a relative import that leaves conformance/src fails the build. */
const ownFilesOnly: Plugin = {
  name: "own-files-only",
  setup(builder) {
    builder.onResolve({ filter: /^\./ }, ({ path, resolveDir, importer }) => {
      const target = resolve(resolveDir, path);
      if (relative(SOURCE_DIR, target).startsWith("..")) {
        return {
          errors: [{ text: `${relative(ROOT, importer)} imports ${path}, outside conformance/src: the package would not contain it` }],
        };
      }
      return undefined;
    });
  },
};

/** Problems with the manifest's dependencies: each pinned exactly as the checkout pins it, and every package the code imports declared. */
function dependencyProblems(kit: Manifest, root: Manifest, imported: Set<string>): string[] {
  const problems: string[] = [];
  const rootPins = { ...root.devDependencies, ...root.dependencies };
  const declared = kit.dependencies ?? {};
  for (const [name, version] of Object.entries(declared)) {
    if (rootPins[name] !== version)
      problems.push(`${name} is ${version} in conformance/package.json but ${rootPins[name] ?? "absent"} in package.json`);
    if (!imported.has(name)) problems.push(`${name} is a dependency the kit's code does not import`);
  }
  for (const name of imported)
    if (!(name in declared)) problems.push(`the kit imports ${name}, which conformance/package.json does not declare`);
  return problems;
}

/** The package name of a bare import specifier (`ajv/dist/x` -> ajv, `@scope/name/x` -> @scope/name). */
const packageOf = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** Builds the package in `workDir`/package and packs it there with npm. */
export async function packConformanceKit(workDir: string): Promise<PackedKit> {
  const packageDir = join(workDir, "package");
  const [kit, root] = await Promise.all([readManifest(join(CONFORMANCE_DIR, "package.json")), readManifest(join(ROOT, "package.json"))]);
  const entry = kit.bin[CONFORMANCE_BIN];
  if (!entry) throw new Error(`conformance/package.json has no bin ${CONFORMANCE_BIN}`);
  await mkdir(packageDir, { recursive: true });
  await cp(join(CONFORMANCE_DIR, "package.json"), join(packageDir, "package.json"));
  await cp(join(CONFORMANCE_DIR, "README.md"), join(packageDir, "README.md"));

  const result = await build({
    entryPoints: [join(SOURCE_DIR, "cli.ts")],
    outfile: join(packageDir, entry),
    bundle: true,
    // The dependencies stay packages the consumer's npm installs, at the versions the manifest pins.
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node22",
    metafile: true,
    logLevel: "silent",
    plugins: [ownFilesOnly],
  });
  const imported = new Set(
    Object.values(result.metafile.outputs)
      .flatMap((output) => output.imports)
      .filter((entry) => entry.external && !entry.path.startsWith("node:") && !builtinModules.includes(entry.path))
      .map((entry) => packageOf(entry.path)),
  );
  const problems = dependencyProblems(kit, root, imported);
  if (problems.length) throw new Error(`the conformance package's dependencies are wrong:\n  ${problems.join("\n  ")}`);
  await chmod(join(packageDir, entry), 0o755);

  for (const [folder, source] of Object.entries(DATA_FOLDERS)) {
    const files = (await readdir(source)).filter((name) => name.endsWith(".yml"));
    if (files.length === 0) throw new Error(`${relative(ROOT, source)} holds no .yml file: run \`npm run generate\` first`);
    await mkdir(join(packageDir, folder));
    await Promise.all(files.map((name) => cp(join(source, name), join(packageDir, folder, name))));
  }

  return npmPack(packageDir, workDir);
}

/**
 * The client generators `npm run check:generators` runs, each with the options partners need to
 * reproduce it (docs/client.md, "Client generators"), and the scenario adapter that drives its output.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { SANDBOX_BUNDLE_PATHS } from "../../generated/deployment.js";

export type DocumentVariant = "r" | "d";

/** What a generator is run on: the sandbox documents, which hold the sandbox operations the scenario uses. */
export const GENERATOR_DOCUMENTS: Readonly<Record<DocumentVariant, string>> = {
  r: SANDBOX_BUNDLE_PATHS.R,
  d: SANDBOX_BUNDLE_PATHS.D,
};

export interface ClientGenerator {
  /** The npm package, as the table and `--only` name it. */
  name: string;
  /** The scenario adapter under scripts/lib/generator-scenarios/, copied beside the clients. */
  adapter: string;
  /** Other files of that folder the generated code imports. */
  support?: readonly string[];
  /**
   * The commands that write the clients into `directory`/r and `directory`/d (node and its
   * arguments, run from the repository root), after `prepare`.
   */
  commands(directory: string, documents: Readonly<Record<DocumentVariant, string>>): string[][];
  /** Writes what the commands or the compiler need beside the clients. */
  prepare?(directory: string, documents: Readonly<Record<DocumentVariant, string>>): void;
}

const bin = (path: string) => resolve("node_modules", path);
const perVariant = (command: (variant: DocumentVariant) => string[]) => [command("r"), command("d")];

/** openapi-zod-client's output imports @zodios/core, axios and zod 3, the ones nested under the generator. */
function linkZodiosDependencies(directory: string): void {
  const modules = join(directory, "node_modules");
  mkdirSync(join(modules, "@zodios"), { recursive: true });
  const nested = resolve("node_modules/openapi-zod-client/node_modules");
  symlinkSync(join(nested, "@zodios/core"), join(modules, "@zodios/core"), "dir");
  symlinkSync(join(nested, "zod"), join(modules, "zod"), "dir");
  symlinkSync(resolve("node_modules/axios"), join(modules, "axios"), "dir");
}

/** Orval takes its mutator (the fetch with base address and key) from a configuration file only. */
function writeOrvalConfig(directory: string, documents: Readonly<Record<DocumentVariant, string>>): void {
  const project = (variant: DocumentVariant) => ({
    input: { target: resolve(documents[variant]) },
    output: {
      target: join(directory, variant, "api.ts"),
      client: "fetch",
      mode: "single",
      override: { mutator: { path: join(directory, "orval-fetch.ts"), name: "partnerFetch" } },
    },
  });
  writeFileSync(join(directory, "orval.config.mjs"), `export default ${JSON.stringify({ r: project("r"), d: project("d") }, null, 2)};\n`);
}

export const CLIENT_GENERATORS: readonly ClientGenerator[] = [
  {
    name: "@hey-api/openapi-ts",
    adapter: "hey-api.ts",
    commands: (directory, documents) =>
      perVariant((variant) => [
        bin("@hey-api/openapi-ts/bin/run.js"),
        "--input",
        documents[variant],
        "--output",
        join(directory, variant),
        "--client",
        "@hey-api/client-fetch",
      ]),
  },
  {
    name: "openapi-typescript-codegen",
    adapter: "openapi-typescript-codegen.ts",
    commands: (directory, documents) =>
      perVariant((variant) => [
        bin("openapi-typescript-codegen/bin/index.js"),
        "--input",
        documents[variant],
        "--output",
        join(directory, variant),
        "--client",
        "fetch",
      ]),
  },
  {
    name: "swagger-typescript-api",
    adapter: "swagger-typescript-api.ts",
    commands: (directory, documents) =>
      perVariant((variant) => [
        bin("swagger-typescript-api/dist/cli.mjs"),
        "generate",
        "--path",
        documents[variant],
        "--output",
        join(directory, variant),
        "--name",
        "api.ts",
      ]),
  },
  {
    name: "openapi-zod-client",
    adapter: "openapi-zod-client.ts",
    prepare: (directory) => {
      linkZodiosDependencies(directory);
      for (const variant of ["r", "d"]) mkdirSync(join(directory, variant), { recursive: true });
    },
    commands: (directory, documents) =>
      perVariant((variant) => [bin("openapi-zod-client/bin.js"), documents[variant], "--output", join(directory, variant, "client.ts")]),
  },
  {
    name: "orval",
    adapter: "orval.ts",
    support: ["orval-fetch.ts"],
    prepare: writeOrvalConfig,
    commands: (directory) => [[bin("orval/dist/bin/orval.mjs"), "--config", join(directory, "orval.config.mjs")]],
  },
];

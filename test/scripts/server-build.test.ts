/**
 * The built server `npm start` runs (scripts/lib/server-build.ts): one bundle whose patched
 * packages are the instances the validator uses, which serves the API and the embed host's files,
 * starts with its code cache, and stops cleanly.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Metafile } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/local-ports.js";
import { buildServer, bundledOnce, SERVE_ARGUMENTS } from "../../scripts/lib/server-build.js";
import { SERVER_NODE_OPTIONS } from "../../scripts/lib/server-node-options.js";
import { ENTRY_FILE } from "../../server/assembly/bundle-files.js";
import { scaled } from "../../scripts/lib/deadlines.js";
import { announcedAddress, servingAddress, spawnServer } from "../../scripts/lib/server-process.js";

const KEY = "sk_sandbox_serverBuildTestKey0000000000000";

let directory: string;
let metafile: Metafile;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "server-build-"));
  metafile = await buildServer(directory);
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The bundled module an input's import of `specifier` became. */
function resolvedImport(input: string, specifier: string): string | undefined {
  return metafile.inputs[input]?.imports.find((entry) => entry.original === specifier)?.path;
}

describe("the built server", () => {
  it("holds one path-to-regexp: the module the validator's route lookup requires is the one the route cache patches", () => {
    const fromValidator = resolvedImport("node_modules/express-openapi-validator/dist/middlewares/openapi.metadata.js", "path-to-regexp");
    expect(fromValidator).toBeDefined();
    expect(resolvedImport("server/api/validator/route-regexp-cache.ts", "path-to-regexp")).toBe(fromValidator);
    expect(bundledOnce(metafile)).toEqual([]);
  });

  it("holds one express-openapi-validator: the start-up shortcuts patch the modules it uses", () => {
    const dist = "node_modules/express-openapi-validator/dist";
    const pairs = [
      ["openapi.schema.validator.js", `${dist}/framework/index.js`, "./openapi.schema.validator"],
      ["middlewares/parsers/schema.preprocessor.js", `${dist}/openapi.validator.js`, "./middlewares/parsers/schema.preprocessor"],
      ["framework/index.js", `${dist}/framework/openapi.spec.loader.js`, "./index"],
    ] as const;
    for (const [module, importer, specifier] of pairs) {
      const fromValidator = resolvedImport(importer, specifier);
      expect(fromValidator, `${importer} imports ${specifier}`).toBeDefined();
      const fromShortcuts = metafile.inputs["server/api/validator/startup-shortcuts.ts"]!.imports.find((entry) =>
        entry.original?.endsWith(module),
      )?.path;
      expect(fromShortcuts, module).toBe(fromValidator);
    }
  });

  it("says when a patched package would be bundled twice", () => {
    const twice = {
      inputs: {
        "node_modules/path-to-regexp/dist/index.js": { bytes: 1, imports: [] },
        "node_modules/express-openapi-validator/node_modules/path-to-regexp/dist/index.js": { bytes: 1, imports: [] },
        "node_modules/express-openapi-validator/dist/index.js": { bytes: 1, imports: [] },
      },
      outputs: {},
    } as unknown as Metafile;
    expect(bundledOnce(twice)).toEqual([expect.stringContaining("path-to-regexp is bundled 2 times")]);
  });

  it("is run by npm run serve as the start-up bench and conformance:ci run it (SERVE_ARGUMENTS)", () => {
    const { scripts } = JSON.parse(readFileSync("package.json", "utf8")) as { scripts: Record<string, string> };
    expect(scripts.serve).toBe(`node ${SERVE_ARGUMENTS.join(" ")}`);
  });

  it("serves the API and the embed host's files, with its code cache, and exits 0 on SIGTERM", async () => {
    const embedPort = await freePort();
    // As npm run serve runs it: with other V8 flags, V8 would reject the code cache.
    const server = spawnServer([...SERVER_NODE_OPTIONS, join(directory, ENTRY_FILE)], {
      PORT: "0",
      EMBED_PORT: String(embedPort),
      LOG_LEVEL: "info",
      PARTNER_API_CONFIG: "/nonexistent.json",
      PARTNER_API_KEYS: `built:${KEY}`,
    });
    const { child, output, exited } = server;
    try {
      const port = /:(\d+)$/.exec((await announcedAddress(server)) ?? "")?.[1];
      expect(port, output()).toBeDefined();
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/api/v1/health`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
      // Found through the source module's address (import.meta.url), rewritten for the bundle.
      const stylesheet = await fetch(`http://127.0.0.1:${embedPort}/assets/embed.css`);
      expect(stylesheet.status).toBe(200);
      expect(await stylesheet.text()).toBe(readFileSync("server/embed/assets/embed.css", "utf8"));
      const listening = output()
        .split("\n")
        .find((line) => line.includes('"msg":"listening"'));
      expect(JSON.parse(listening!).startupMs).toEqual({
        entry: expect.any(Number),
        imported: expect.any(Number),
        storeOpened: expect.any(Number),
        appBuilt: expect.any(Number),
        listening: expect.any(Number),
      });
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
      // V8 accepted the cache written by the build's priming run (else the entry says so).
      expect(output()).not.toContain("starting without it");
    } finally {
      await server.kill();
    }
  });

  it(
    "starts on PGlite (PARTNER_API_DATA_DIR), which it loads from the checkout, with nothing on standard error: no experimental warning",
    async () => {
      const dataDirectory = mkdtempSync(join(tmpdir(), "server-build-data-"));
      const server = spawnServer([...SERVER_NODE_OPTIONS, join(directory, ENTRY_FILE)], {
        LOG_LEVEL: "info",
        PARTNER_API_CONFIG: "/nonexistent.json",
        PARTNER_API_KEYS: `built:${KEY}`,
        DATABASE_URL: "",
        PARTNER_API_DATA_DIR: dataDirectory,
      });
      try {
        const baseUrl = await servingAddress("the built server on PGlite", server);
        expect(server.output()).toContain(`data: embedded PostgreSQL (PGlite) in ${dataDirectory}`);
        expect((await fetch(`${baseUrl}/api/v1/health`, { headers: { Authorization: `Bearer ${KEY}` } })).status).toBe(200);
        expect(await server.stop()).toBe(0);
        expect(server.errors()).toBe("");
      } finally {
        await server.kill();
        rmSync(dataDirectory, { recursive: true, force: true });
      }
    },
    scaled(120_000),
  );
});

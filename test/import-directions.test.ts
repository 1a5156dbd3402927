/**
 * Dependencies point one way: spec -> generated -> server and client; the conformance kit beside them,
 * importing none; scripts, tests and benchmarks on top. Inside the server (server/README.md): the
 * assembly over three front doors (the API, the embedded interface, the dashboard) and their web
 * kit; under them the application (the services one deployment composes, units of work, what runs
 * on its own), the stores, the partners' settings, the domain and the platform. Type imports count:
 * they tie the layers just the same.
 */
import { describe, expect, it } from "vitest";
import {
  fileReferences,
  folderCycles,
  importEdges,
  packageImports,
  packageImportsUnder,
  relativeSpecifiers,
  type ImportEdge,
} from "./support/import-graph.js";

const FOLDERS = ["spec", "generated", "server", "client", "conformance", "scripts", "test", "bench"] as const;
type Folder = (typeof FOLDERS)[number];

/** What each top-level folder may import besides itself. */
const MAY_IMPORT: Record<Folder, readonly Folder[]> = {
  spec: [],
  generated: [],
  server: ["generated"],
  client: ["generated"],
  // The conformance kit ships alone: it reads the published documents and the rule catalogue as files.
  conformance: [],
  scripts: ["generated", "server", "client", "conformance"],
  test: ["generated", "server", "client", "conformance", "scripts"],
  bench: ["generated", "server", "client", "scripts"],
};

const LAYERS = ["assembly", "api", "embed", "dashboard", "web", "application", "store", "partners", "domain", "platform"] as const;
type Layer = (typeof LAYERS)[number];

/** The layer of a server module: its first folder under server/, the process entry with the assembly. */
function layerOf(path: string): Layer | undefined {
  if (path === "server/main.ts") return "assembly";
  const folder = /^server\/([^/]+)\//.exec(path)?.[1];
  return LAYERS.find((layer) => layer === folder);
}

/** What each layer may import besides itself: the front doors reach the stores only through the application's services. */
const MAY_IMPORT_IN_SERVER: Record<Layer, readonly Layer[]> = {
  assembly: LAYERS,
  api: ["web", "application", "partners", "domain", "platform"],
  embed: ["web", "application", "partners", "domain", "platform"],
  dashboard: ["web", "application", "partners", "domain", "platform"],
  web: ["platform"],
  application: ["store", "partners", "domain", "platform"],
  store: ["partners", "domain", "platform"],
  partners: ["domain", "platform"],
  domain: ["platform"],
  platform: [],
};

/** The layers that speak HTTP: only they import Express and its middleware. */
const HTTP_LAYERS: readonly Layer[] = ["assembly", "api", "embed", "dashboard", "web"];
const HTTP_PACKAGES = new Set(["express", "express-openapi-validator", "helmet", "cookie-parser"]);

const folderOf = (path: string) => FOLDERS.find((folder) => path.startsWith(`${folder}/`));
const withoutExtension = (path: string) => path.replace(/\.[cm]?[jt]s$/, "");

/** Why an import breaks the directions, or undefined when it keeps them. */
function brokenRule({ from, to }: ImportEdge): string | undefined {
  const source = folderOf(from);
  const target = folderOf(to);
  if (source === undefined) return undefined;
  if (target === undefined) return `${source}/ imports from outside the source folders`;
  if (target !== source && !MAY_IMPORT[source].includes(target)) return `${source}/ may not import ${target}/`;
  if (source !== "server" || target !== "server") return undefined;
  const sourceLayer = layerOf(from);
  const targetLayer = layerOf(to.replace(/\.js$/, ".ts"));
  if (sourceLayer === undefined) return `${from} is in no layer of the server`;
  if (targetLayer === undefined) return `${to} is in no layer of the server`;
  if (sourceLayer !== targetLayer && !MAY_IMPORT_IN_SERVER[sourceLayer].includes(targetLayer))
    return `the server's ${sourceLayer} may not import its ${targetLayer}`;
  if (to.startsWith("server/api/handlers/")) {
    const allowedImporter = withoutExtension(to) === "server/api/handlers/index" ? "server/assembly/app" : "server/api/handlers/index";
    if (withoutExtension(from) !== allowedImporter) return `only ${allowedImporter}.ts imports ${withoutExtension(to)}`;
  }
  return undefined;
}

describe("import directions", () => {
  const edges = importEdges(process.cwd(), FOLDERS);

  it("are read from every folder of code", () => {
    // The spec may still be one file, with no references to others.
    for (const folder of FOLDERS.filter((name) => name !== "spec"))
      expect(
        edges.some(({ from }) => from.startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
  });

  it("hold for every relative import of the repository", () => {
    const broken = edges.flatMap((edge) => {
      const rule = brokenRule(edge);
      return rule === undefined ? [] : [`${edge.from} -> ${edge.to}: ${rule}`];
    });
    expect(broken).toEqual([]);
  });

  it("form no cycle between folders of the server", () => {
    expect(folderCycles(edges)).toEqual([]);
  });

  it("let only the layers that speak HTTP import Express and its middleware", () => {
    const misplaced = packageImportsUnder(process.cwd(), "server")
      .filter(({ from, packageName }) => HTTP_PACKAGES.has(packageName) && !HTTP_LAYERS.includes(layerOf(from)!))
      .map(({ from, packageName }) => `${from} imports ${packageName}`);
    expect(misplaced).toEqual([]);
  });

  it("place every server module in a layer", () => {
    const unplaced = [...new Set(edges.map(({ from }) => from))].filter(
      (from) => from.startsWith("server/") && layerOf(from) === undefined,
    );
    expect(unplaced).toEqual([]);
  });

  it("refuse an import against the layers", () => {
    expect(brokenRule({ from: "server/assembly/app.ts", to: "scripts/lib/bundle-paths.js" })).toBe("server/ may not import scripts/");
    expect(brokenRule({ from: "generated/operations.ts", to: "server/platform/clock.js" })).toBe("generated/ may not import server/");
    expect(brokenRule({ from: "spec/paths/users.yml", to: "generated/openapi/partner-api.yml" })).toBe("spec/ may not import generated/");
    expect(brokenRule({ from: "spec/partner-api.yml", to: "spec/paths/users.yml" })).toBeUndefined();
    expect(brokenRule({ from: "client/src/client.ts", to: "server/platform/errors.js" })).toBe("client/ may not import server/");
    expect(brokenRule({ from: "test/support/test-server.ts", to: "bench/lib/processes.js" })).toBe("test/ may not import bench/");
    expect(brokenRule({ from: "scripts/keys.ts", to: "server/partners/keys/api-keys.js" })).toBeUndefined();
    expect(brokenRule({ from: "conformance/src/runner.ts", to: "generated/deployment.js" })).toBe("conformance/ may not import generated/");
    expect(brokenRule({ from: "test/conformance-kit/reference-server.test.ts", to: "conformance/src/runner.js" })).toBeUndefined();
  });

  it("refuse sideways and upward imports inside the server", () => {
    expect(brokenRule({ from: "server/embed/embed-app.ts", to: "server/api/handlers/users.js" })).toBe(
      "the server's embed may not import its api",
    );
    expect(brokenRule({ from: "server/api/handlers/users.ts", to: "server/embed/routes/forms.js" })).toBe(
      "the server's api may not import its embed",
    );
    expect(brokenRule({ from: "server/domain/dns/record-service.ts", to: "server/api/http/request-log.js" })).toBe(
      "the server's domain may not import its api",
    );
    expect(brokenRule({ from: "server/domain/dns/record-rules.ts", to: "server/store/store.js" })).toBe(
      "the server's domain may not import its store",
    );
    expect(brokenRule({ from: "server/domain/transfers/transfer-states.ts", to: "server/application/context.js" })).toBe(
      "the server's domain may not import its application",
    );
    expect(brokenRule({ from: "server/api/handlers/dns-records-d.ts", to: "server/store/store.js" })).toBe(
      "the server's api may not import its store",
    );
    expect(brokenRule({ from: "server/api/http/error-handler.ts", to: "server/api/handlers/domains.js" })).toBe(
      "only server/api/handlers/index.ts imports server/api/handlers/domains",
    );
    expect(brokenRule({ from: "server/api/http/routes.ts", to: "server/api/handlers/index.js" })).toBe(
      "only server/assembly/app.ts imports server/api/handlers/index",
    );
    expect(brokenRule({ from: "server/api/handlers/index.ts", to: "server/api/handlers/domains.js" })).toBeUndefined();
    expect(brokenRule({ from: "server/dashboard/dashboard-app.ts", to: "server/embed/views/layout.js" })).toBe(
      "the server's dashboard may not import its embed",
    );
    expect(brokenRule({ from: "server/platform/clock.ts", to: "server/domain/dns/record-rules.js" })).toBe(
      "the server's platform may not import its domain",
    );
    expect(brokenRule({ from: "server/dashboard/routes/webhooks.ts", to: "server/domain/webhooks/endpoints.js" })).toBeUndefined();
  });

  it("find a cycle between folders, whichever import closes it", () => {
    const cycle = folderCycles([
      { from: "server/domain/dns/a.ts", to: "server/domain/domains/b.ts" },
      { from: "server/domain/domains/b.ts", to: "server/domain/dns/c.ts" },
      { from: "server/domain/catalog/d.ts", to: "server/platform/e.ts" },
    ]);
    expect(cycle).toEqual([
      ["server/domain/dns/a.ts -> server/domain/domains/b.ts", "server/domain/domains/b.ts -> server/domain/dns/c.ts"],
    ]);
  });

  it("see every form of import, across lines and type-only ones included", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type {\n  B,\n  C,\n} from "../b.js";',
      'export { d } from "./d.js";',
      'import "./e.js";',
      'const f = await import("./f.js");',
      'import express from "express";',
      'import { PGlite } from "@electric-sql/pglite/worker";',
      'import { readFileSync } from "node:fs";',
    ].join("\n");
    expect(relativeSpecifiers(source).sort()).toEqual(["../b.js", "./a.js", "./d.js", "./e.js", "./f.js"]);
    expect(packageImports(source)).toEqual(["express", "@electric-sql/pglite"]);
  });

  it("see the spec's references to other files, not those inside a document", () => {
    const spec = [
      "$ref: paths/users.yml",
      "$ref: './components/schemas/Domain.yml#/properties/id'",
      "$ref: '#/components/schemas/Domain'",
      '$ref: "../generated/x.yml"',
    ].join("\n");
    expect(fileReferences(spec)).toEqual(["paths/users.yml", "./components/schemas/Domain.yml", "../generated/x.yml"]);
  });
});

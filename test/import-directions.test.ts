/**
 * Dependencies point one way: spec -> generated -> server and client; the conformance kit beside them,
 * importing none; scripts, tests and benchmarks on top (server/README.md). Inside the server, the API's handlers and HTTP middleware, the
 * embedded interface and the partner dashboard are three front doors over one core; none imports
 * another, the core imports none, and only the app reaches the handlers, through their index.
 */
import { describe, expect, it } from "vitest";
import { fileReferences, importEdges, relativeSpecifiers, type ImportEdge } from "./support/import-graph.js";

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

/** Where a server module sits: the modules that assemble and start it, a front door, or the core. */
function serverPart(path: string): "assembly" | "api" | "embed" | "dashboard" | "core" {
  if (/^server\/(?:app|main|config|cached-bundle-loader|bundle-files|startup-timeline)\.ts$|^server\/startup\//.test(path))
    return "assembly";
  if (/^server\/(?:handlers|http)\//.test(path)) return "api";
  if (path.startsWith("server/embed/")) return "embed";
  if (path.startsWith("server/dashboard/")) return "dashboard";
  return "core";
}

const MAY_IMPORT_IN_SERVER: Record<ReturnType<typeof serverPart>, readonly ReturnType<typeof serverPart>[]> = {
  assembly: ["assembly", "api", "embed", "dashboard", "core"],
  api: ["api", "core"],
  embed: ["embed", "core"],
  dashboard: ["dashboard", "core"],
  core: ["core"],
};

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
  const sourcePart = serverPart(from);
  const targetPart = serverPart(to.replace(/\.js$/, ".ts"));
  if (!MAY_IMPORT_IN_SERVER[sourcePart].includes(targetPart)) return `the server's ${sourcePart} may not import its ${targetPart}`;
  if (to.startsWith("server/handlers/")) {
    const allowedImporter = withoutExtension(to) === "server/handlers/index" ? "server/app" : "server/handlers/index";
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

  it("refuse an import against the layers", () => {
    expect(brokenRule({ from: "server/app.ts", to: "scripts/lib/bundle-paths.js" })).toBe("server/ may not import scripts/");
    expect(brokenRule({ from: "generated/operations.ts", to: "server/clock.js" })).toBe("generated/ may not import server/");
    expect(brokenRule({ from: "spec/paths/users.yml", to: "generated/openapi/partner-api.yml" })).toBe("spec/ may not import generated/");
    expect(brokenRule({ from: "spec/partner-api.yml", to: "spec/paths/users.yml" })).toBeUndefined();
    expect(brokenRule({ from: "client/src/client.ts", to: "server/errors.js" })).toBe("client/ may not import server/");
    expect(brokenRule({ from: "test/support/test-server.ts", to: "bench/lib/processes.js" })).toBe("test/ may not import bench/");
    expect(brokenRule({ from: "scripts/keys.ts", to: "server/auth/api-keys.js" })).toBeUndefined();
    expect(brokenRule({ from: "conformance/src/runner.ts", to: "generated/deployment.js" })).toBe("conformance/ may not import generated/");
    expect(brokenRule({ from: "test/conformance-kit/reference-server.test.ts", to: "conformance/src/runner.js" })).toBeUndefined();
  });

  it("refuse sideways imports inside the server", () => {
    expect(brokenRule({ from: "server/embed/embed-app.ts", to: "server/handlers/users.js" })).toBe(
      "the server's embed may not import its api",
    );
    expect(brokenRule({ from: "server/handlers/users.ts", to: "server/embed/html.js" })).toBe("the server's api may not import its embed");
    expect(brokenRule({ from: "server/dns/record-service.ts", to: "server/http/request-log.js" })).toBe(
      "the server's core may not import its api",
    );
    expect(brokenRule({ from: "server/http/error-handler.ts", to: "server/handlers/domains.js" })).toBe(
      "only server/handlers/index.ts imports server/handlers/domains",
    );
    expect(brokenRule({ from: "server/http/routes.ts", to: "server/handlers/index.js" })).toBe(
      "only server/app.ts imports server/handlers/index",
    );
    expect(brokenRule({ from: "server/handlers/index.ts", to: "server/handlers/domains.js" })).toBeUndefined();
    expect(brokenRule({ from: "server/dashboard/dashboard-app.ts", to: "server/embed/views/layout.js" })).toBe(
      "the server's dashboard may not import its embed",
    );
    expect(brokenRule({ from: "server/embed/embed-app.ts", to: "server/dashboard/views/layout.js" })).toBe(
      "the server's embed may not import its dashboard",
    );
    expect(brokenRule({ from: "server/dashboard/routes/webhooks.ts", to: "server/webhooks/endpoints.js" })).toBeUndefined();
  });

  it("see every form of import, across lines and type-only ones included", () => {
    const source = [
      'import { a } from "./a.js";',
      'import type {\n  B,\n  C,\n} from "../b.js";',
      'export { d } from "./d.js";',
      'import "./e.js";',
      'const f = await import("./f.js");',
      'import express from "express";',
    ].join("\n");
    expect(relativeSpecifiers(source).sort()).toEqual(["../b.js", "./a.js", "./d.js", "./e.js", "./f.js"]);
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

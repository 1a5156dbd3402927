import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, sep, join, relative, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { SOURCE_PATH } from "../../scripts/lib/bundle-paths.js";
import { readSourceDocument } from "../../scripts/lib/source-document.js";
import { loadDocument, type OpenApiDocument } from "../support/openapi-document.js";

const SPEC_DIR = dirname(SOURCE_PATH);

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );

/** Every file a `$ref` of a YAML file of spec/ names, as a path relative to spec/. */
function referencedFiles(): Set<string> {
  const found = new Set<string>();
  const collect = (node: unknown, file: string): void => {
    if (Array.isArray(node)) node.forEach((child) => collect(child, file));
    else if (typeof node === "object" && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key === "$ref" && typeof value === "string") found.add(relative(SPEC_DIR, resolve(dirname(file), value)));
        else collect(value, file);
      }
    }
  };
  for (const file of filesUnder(SPEC_DIR).filter((path) => path.endsWith(".yml"))) collect(parse(readFileSync(file, "utf8")), file);
  return found;
}

/** The document without the project's variant extensions, whose references only scripts/lib/source-document.ts follows. */
function withoutVariantExtensions(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutVariantExtensions);
  if (typeof node !== "object" || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== "x-variant-schemas" && key !== "x-variant-examples")
      .map(([key, value]) => [key, withoutVariantExtensions(value)]),
  );
}

describe("the spec's files (spec/, the openapi-starter layout)", () => {
  const root = parse(readFileSync(SOURCE_PATH, "utf8")) as OpenApiDocument;

  it("give each path, webhook event and component a file of its own, named after it", () => {
    for (const [path, item] of Object.entries<{ $ref: string }>(root.paths)) {
      // The base address itself has no name of its own: `root`.
      expect(item, path).toEqual({ $ref: `paths/${path === "/" ? "root" : path.slice(1).replaceAll("/", "_")}.yml` });
    }
    for (const [event, item] of Object.entries<{ $ref: string }>(root["x-webhooks"]))
      expect(item, event).toEqual({ $ref: `webhooks/${event}.yml` });
    for (const [kind, group] of Object.entries<Record<string, unknown>>(root.components)) {
      if (kind === "securitySchemes") continue;
      for (const [name, entry] of Object.entries(group))
        expect(entry, `${kind}/${name}`).toEqual({ $ref: `components/${kind}/${name}.yml` });
    }
  });

  it("are each reached from the root, so none is left behind when an operation goes", () => {
    const reached = referencedFiles();
    const files = filesUnder(SPEC_DIR)
      .map((file) => relative(SPEC_DIR, file))
      .filter((file) => file !== relative(SPEC_DIR, SOURCE_PATH))
      // The rule catalogue is a source of its own (generated/rules.*, the conformance kit), not part of the document.
      .filter((file) => !file.startsWith(`rules${sep}`));
    expect(files.filter((file) => !reached.has(file))).toEqual([]);
    expect([...reached].filter((file) => !files.includes(file))).toEqual([]);
  });

  it("keep long descriptions in Markdown files, read as the description's text", () => {
    const markdown = filesUnder(SPEC_DIR).filter((file) => file.endsWith(".md"));
    expect(markdown.length).toBeGreaterThan(0);
    const source = readSourceDocument();
    expect(source.info).toMatchObject({ description: readFileSync(join(SPEC_DIR, "descriptions/info.md"), "utf8") });
  });

  it("are read by Redocly's bundler, which lints them, as the same document the published ones are derived from", async () => {
    const dir = await mkdtemp(join(tmpdir(), "partner-api-bundle-"));
    try {
      const output = join(dir, "bundle.json");
      await promisify(execFile)("node_modules/.bin/redocly", [
        "bundle",
        SOURCE_PATH,
        "--config",
        "redocly.yaml",
        "--ext",
        "json",
        "-o",
        output,
      ]);
      const bundled = JSON.parse(await readFile(output, "utf8")) as unknown;
      // Redocly treats x-variant-schemas as an unknown extension and inlines its first reference.
      expect(withoutVariantExtensions(bundled)).toEqual(withoutVariantExtensions(readSourceDocument()));
    } finally {
      await rm(dir, { recursive: true });
    }
  });

  it("point x-variant-schemas at components, as the single file did", () => {
    const media = loadDocument("source").paths["/api/v1/domains/{domain_id}"].get.responses["200"].content["application/json"];
    expect(media["x-variant-schemas"]).toEqual({ R: { $ref: "#/components/schemas/DomainMinimal" } });
  });

  it("repeat the DNS page size of x-dns-limits wherever a page of records is bounded", () => {
    const source = loadDocument("source");
    const perPage = source["x-dns-limits"].records_per_page;
    const limit = source.paths["/api/v1/domains/{domain_id}/dns"].get.parameters.find(
      (parameter: { name: string }) => parameter.name === "limit",
    );
    expect(limit.schema).toMatchObject({ maximum: perPage, default: perPage });
    expect(source.components.schemas.DnsRecordList.properties.records.maxItems).toBe(perPage);
    expect(source.components.schemas.DomainDetail.allOf[1].properties.dns_records.maxItems).toBe(perPage);
  });
});

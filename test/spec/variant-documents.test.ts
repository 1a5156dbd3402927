import { describe, expect, it } from "vitest";
import type { Environment } from "../../generated/deployment.js";
import { readSource } from "../../scripts/lib/generated-files.js";
import { variantDocument } from "../../scripts/lib/variant-document.js";
import { loadDocument, operationsOf } from "../support/openapi-document.js";

const responseSchema = (document: Record<string, any>, path: string, method: string, status: string) =>
  document.paths[path][method].responses[status].content["application/json"].schema;

describe("the published documents", () => {
  const source = loadDocument("source");
  const sourceOperations = operationsOf(source).filter((entry) => entry.location === "paths");

  const servedIn = (environment: Environment) => (entry: (typeof sourceOperations)[number]) =>
    (entry.operation["x-environments"] ?? ["production", "sandbox"]).includes(environment);

  describe.each(["production", "sandbox"] as const)("for %s", (environment) => {
    it.each(["R", "D"] as const)("Variant %s holds exactly the operations marked for it and the environment", (variant) => {
      const published = operationsOf(loadDocument(variant, environment)).filter((entry) => entry.location === "paths");
      const expected = sourceOperations.filter((entry) => entry.operation["x-variants"].includes(variant)).filter(servedIn(environment));
      expect(published.map((entry) => entry.operation.operationId).sort()).toEqual(
        expected.map((entry) => entry.operation.operationId).sort(),
      );
      expect(loadDocument(variant, environment).info["x-variant"]).toBe(variant);
    });

    it("the full document holds every operation of the environment", () => {
      const published = operationsOf(loadDocument("full", environment)).filter((entry) => entry.location === "paths");
      expect(published.length).toBe(sourceOperations.filter(servedIn(environment)).length);
    });
  });

  it("only the sandbox documents have the Sandbox tag and its helpers under /api/v1/sandbox/", () => {
    const helpers = sourceOperations.filter((entry) => !servedIn("production")(entry));
    expect(helpers.map((entry) => entry.operation.operationId).sort()).toEqual([
      "advanceSandboxClock",
      "createSandboxDomain",
      "getSandboxClock",
      "requestSandboxOutboundTransfer",
      "resetSandbox",
      "setSandboxDomainStatus",
    ]);
    for (const entry of helpers) {
      expect(entry.path).toMatch(/^\/api\/v1\/sandbox\//);
      expect(entry.operation.tags).toEqual(["Sandbox"]);
    }
    for (const kind of ["R", "D", "full"] as const) {
      expect(Object.keys(loadDocument(kind, "production").paths).filter((path) => path.startsWith("/api/v1/sandbox"))).toEqual([]);
      expect(loadDocument(kind, "production").tags.map((tag: { name: string }) => tag.name)).not.toContain("Sandbox");
      expect(loadDocument(kind, "sandbox").tags.map((tag: { name: string }) => tag.name)).toContain("Sandbox");
    }
  });

  it("Variant R answers in the minimal shapes", () => {
    const r = loadDocument("R");
    expect(responseSchema(r, "/api/v1/domains/{domain_id}", "get", "200")).toEqual({ $ref: "#/components/schemas/DomainMinimal" });
    expect(responseSchema(r, "/api/v1/users", "post", "201")).toEqual({ $ref: "#/components/schemas/UserSessionMinimal" });
    const list = responseSchema(r, "/api/v1/users/{user_identifier}/domains", "get", "200");
    expect(list.required).toEqual(["domains"]);
    expect(list.properties.domains.items).toEqual({ $ref: "#/components/schemas/DomainMinimal" });
    expect(r.paths["/api/v1/domains/{domain_id}"].get.responses["200"].content["application/json"].example).toEqual({
      id: "dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab",
      name: "example.com",
    });
  });

  it("Variant D and the full document answer in the detailed shapes, which extend the minimal ones", () => {
    for (const kind of ["D", "full"] as const) {
      const document = loadDocument(kind);
      expect(responseSchema(document, "/api/v1/domains/{domain_id}", "get", "200")).toEqual({ $ref: "#/components/schemas/DomainDetail" });
      expect(document.components.schemas.DomainDetail.allOf[0]).toEqual({ $ref: "#/components/schemas/DomainMinimal" });
    }
  });

  it.each(["R", "D", "full"] as const)("the %s document keeps no build-only extensions and no unused components or tags", (kind) => {
    const document = loadDocument(kind);
    const text = JSON.stringify(document);
    expect(text).not.toContain("x-variant-schemas");
    expect(text).not.toContain("x-variant-examples");
    for (const [group, members] of Object.entries<Record<string, unknown>>(document.components)) {
      if (group === "securitySchemes") continue;
      for (const name of Object.keys(members)) expect(text, `${group}/${name}`).toContain(`"#/components/${group}/${name}"`);
    }
    const usedTags = new Set(operationsOf(document).map((entry) => entry.operation.tags[0]));
    expect(document.tags.map((tag: { name: string }) => tag.name).filter((name: string) => !usedTags.has(name))).toEqual([]);
  });

  it("Variant R leaves out what only Variant D uses", () => {
    const r = loadDocument("R");
    expect(r.components.schemas.DnsRecordDCreate).toBeUndefined();
    expect(r.components.schemas.DnsTemplateApply).toBeUndefined();
    expect(r["x-dns-templates"]).toBeUndefined();
    expect(loadDocument("D")["x-dns-templates"]).toBeDefined();
    expect(r.tags.map((tag: { name: string }) => tag.name)).not.toContain("DNS records (Variant D)");
  });

  it("deriving a document leaves the source untouched", async () => {
    const original = await readSource();
    const before = JSON.stringify(original);
    variantDocument(original, "R", "sandbox");
    expect(JSON.stringify(original)).toBe(before);
  });
});

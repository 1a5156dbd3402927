import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { DocumentKind } from "../../generated/deployment.js";
import { loadDocument, operationsOf } from "../support/openapi-document.js";

/** Every method and path of the service description, with the variant(s) it belongs to. */
const DESCRIBED_OPERATIONS = [
  ["POST", "/api/v1/users", ["R", "D"]],
  ["GET", "/api/v1/users/{}", ["R", "D"]],
  ["GET", "/api/v1/users", ["D"]],
  ["PUT", "/api/v1/users/{}", ["D"]],
  ["DELETE", "/api/v1/users/{}", ["D"]],
  ["GET", "/api/v1/users/{}/domains", ["R", "D"]],
  ["GET", "/api/v1/domains/{}", ["R", "D"]],
  ["PUT", "/api/v1/domains/{}", ["R", "D"]],
  ["POST", "/api/v1/domains/{}/renew", ["R", "D"]],
  ["POST", "/api/v1/domains/transfer", ["R", "D"]],
  ["GET", "/api/v1/domains/transfers/{}", ["R", "D"]],
  ["GET", "/api/v1/domains/tlds", ["R", "D"]],
  ["GET", "/api/v1/domains/availability/{}", ["R", "D"]],
  ["POST", "/api/v1/dns_records", ["R"]],
  ["GET", "/api/v1/dns_records/{}", ["R"]],
  ["PATCH", "/api/v1/dns_records/{}", ["R"]],
  ["DELETE", "/api/v1/dns_records/{}", ["R"]],
  ["GET", "/api/v1/domains/{}/dns", ["D"]],
  ["POST", "/api/v1/domains/{}/dns", ["D"]],
  ["PUT", "/api/v1/domains/{}/dns/{}", ["D"]],
  ["DELETE", "/api/v1/domains/{}/dns/{}", ["D"]],
  ["POST", "/api/v1/domains/{}/dns/bulk", ["D"]],
  ["POST", "/api/v1/domains/{}/dns/template", ["D"]],
  ["GET", "/api/v1/health", ["R", "D"]],
  ["GET", "/health", ["R", "D"]],
] as const;

const normalise = (path: string) => path.replace(/\{[^}]+\}/g, "{}");
const key = (method: string, path: string) => `${method.toUpperCase()} ${normalise(path)}`;
/** The production documents: the sandbox helpers are additions, checked with the variant documents. */
const operationKeys = (kind: DocumentKind) =>
  new Set(
    operationsOf(loadDocument(kind, "production"))
      .filter((e) => e.location === "paths")
      .map((e) => key(e.method, e.path)),
  );

describe("the spec covers the service description", () => {
  const full = operationKeys("full");
  const variantR = operationKeys("R");
  const variantD = operationKeys("D");

  it.each(DESCRIBED_OPERATIONS.map(([method, path, variants]) => [`${method} ${path}`, variants] as const))(
    "%s is in the documents of its variants %j",
    (operation, variants) => {
      expect(full.has(operation)).toBe(true);
      expect(variantR.has(operation)).toBe(variants.includes("R" as never));
      expect(variantD.has(operation)).toBe(variants.includes("D" as never));
    },
  );

  it("has no operation the description lacks, except additions marked as such", () => {
    const described = new Set(DESCRIBED_OPERATIONS.map(([method, path]) => `${method} ${path}`));
    const additions = operationsOf(loadDocument("full", "sandbox")).filter(
      (entry) => entry.location === "paths" && entry.operation["x-addition"] === true,
    );
    const additionKeys = new Set(additions.map((entry) => key(entry.method, entry.path)));
    expect([...full].filter((operation) => !described.has(operation) && !additionKeys.has(operation))).toEqual([]);
    for (const { operation } of additions) {
      expect(operation.description, operation.operationId).toMatch(/^'?\*Addition/);
    }
    expect(
      additions
        .map((entry) => entry.operation.tags[0])
        .filter((tag, i, all) => all.indexOf(tag) === i)
        .sort(),
    ).toEqual(["API keys", "DNS records (Variant D)", "DNS zone files", "Domains", "Health", "Sandbox", "Transfers", "Webhook endpoints"]);
  });

  const seed = "../shared/seed/partner-api-service.md";
  it.skipIf(!existsSync(seed))("lists exactly the endpoint tables of the service description (when it is beside the repo)", () => {
    const rows = [...readFileSync(seed, "utf8").matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| (\/\S+) \|/gm)];
    const inTables = new Set(rows.map(([, method, path]) => key(method!, path!)));
    const listed = DESCRIBED_OPERATIONS.map(([method, path]) => `${method} ${path}`);
    // The two health paths are named in prose, not in a table.
    expect(new Set(listed.filter((operation) => !operation.includes("health")))).toEqual(inTables);
  });
});

describe("every operation is fully described", () => {
  const document = loadDocument("source");
  const classes = Object.keys(document["x-rate-limits"].classes);

  it.each(operationsOf(document).map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))(
    "%s has an operationId, one defined tag, a summary and its variants",
    (_name, { operation, location }) => {
      expect(operation.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.tags).toHaveLength(1);
      expect(document.tags.map((tag: { name: string }) => tag.name)).toContain(operation.tags[0]);
      expect(operation.summary).toBeTruthy();
      expect(operation["x-variants"].length).toBeGreaterThan(0);
      // Health checks, sandbox helpers and the partner's own settings count against the overall limits only.
      if (location === "paths" && !["Health", "Sandbox", "Webhook endpoints", "API keys"].includes(operation.tags[0]))
        expect(classes).toContain(operation["x-rate-limit-class"]);
      else expect(operation["x-rate-limit-class"]).toBeUndefined();
    },
  );

  it("uses every rate-limit class of the description", () => {
    const used = new Set(operationsOf(document).map((entry) => entry.operation["x-rate-limit-class"]));
    expect(classes.filter((name) => !used.has(name))).toEqual([]);
  });
});

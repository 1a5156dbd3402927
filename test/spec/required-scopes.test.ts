/**
 * The lint of restricted keys (issue 36): every operation of the source names the scope a key needs
 * (`x-required-scope`), one the generated table and the scope check know; its rendering in the
 * published documents; and the grants of operations whose scope is a decision, not a pattern.
 */
import { describe, expect, it } from "vitest";
import { keyScopes, operationTable, type OperationId } from "../../generated/operations.js";
import { requiredScopeSentence } from "../../scripts/lib/required-scope-docs.js";
import { loadDocument, operationsOf } from "../support/openapi-document.js";

const source = loadDocument("source");
const allowed = new Set<string>([...keyScopes, "any", "unrestricted"]);

describe("x-required-scope", () => {
  const operations = operationsOf(source).filter((entry) => entry.location === "paths");

  it.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))(
    "%s names a known scope",
    (_name, { operation }) => {
      expect(allowed, `${operation.operationId}: x-required-scope ${operation["x-required-scope"]}`).toContain(
        operation["x-required-scope"],
      );
    },
  );

  it("is `any` on the operations without authentication, and the key operations and the sandbox reset ask for a full key", () => {
    for (const entry of operations)
      if (Array.isArray(entry.operation.security) && entry.operation.security.length === 0)
        expect(entry.operation["x-required-scope"], entry.operation.operationId).toBe("any");
    const full = Object.entries(operationTable)
      .filter(([, info]) => info.requiredScope === "unrestricted")
      .map(([id]) => id)
      .sort();
    expect(full).toEqual(["createApiKey", "getApiKey", "listApiKeys", "resetSandbox", "revokeApiKey", "rollApiKey"]);
  });

  it("follows the resource of the path: DNS under dns:*, users under users:*, domains and the catalogue under domains:*", () => {
    const resourceOf = (id: OperationId) => operationTable[id].requiredScope.split(":")[0];
    for (const [id, info] of Object.entries(operationTable) as Array<[OperationId, (typeof operationTable)[OperationId]]>) {
      if (info.requiredScope === "any" || info.requiredScope === "unrestricted") continue;
      if (/\/dns(\/|$)|dns_records|\/zone/.test(info.path)) expect(resourceOf(id), id).toBe("dns");
      else if (info.path.startsWith("/api/v1/sandbox/")) expect(resourceOf(id), id).toBe("sandbox");
      else if (info.path.startsWith("/api/v1/webhook_endpoints")) expect(resourceOf(id), id).toBe("webhooks");
      else if (info.path.startsWith("/api/v1/events")) expect(resourceOf(id), id).toBe("events");
      else if (/^\/api\/v1\/users(\/\{user_identifier\})?$/.test(info.path)) expect(resourceOf(id), id).toBe("users");
      else expect(resourceOf(id), id).toBe("domains");
      // A write never hides behind a read scope.
      if (info.method !== "get") expect(info.requiredScope, id).toMatch(/:write$/);
    }
  });

  it("is in the generated table for every operation, and shown in the published descriptions", () => {
    const published = new Map(operationsOf(loadDocument("full")).map((entry) => [entry.operation.operationId as string, entry.operation]));
    for (const { operation } of operationsOf(source).filter((entry) => entry.location === "paths")) {
      const id = operation.operationId as OperationId;
      expect(operationTable[id].requiredScope).toBe(operation["x-required-scope"]);
      const authenticated = !(Array.isArray(operation.security) && operation.security.length === 0);
      const shown = published.get(id)!.description as string;
      if (authenticated) expect(shown, id).toContain(requiredScopeSentence(operation["x-required-scope"]));
    }
  });
});

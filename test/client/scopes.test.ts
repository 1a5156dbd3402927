/** The client's scope helpers: the generated `x-required-scope` of every operation, and the read-with-write rule. */
import { describe, expect, it } from "vitest";
import { KEY_SCOPES, requiredScopeOf, scopesAllow, type ScopedOperationId } from "../../client/src/index.js";
import { keyScopes, operationTable } from "../../generated/operations.js";

describe("requiredScopeOf", () => {
  it("answers the spec's scope of every operation", () => {
    for (const [id, info] of Object.entries(operationTable)) expect(requiredScopeOf(id as ScopedOperationId), id).toBe(info.requiredScope);
    expect(KEY_SCOPES).toEqual(keyScopes);
  });

  it.each([
    [["dns:write"], "createDomainDnsRecord", true],
    [["dns:write"], "listDomainDnsRecords", true],
    [["dns:read"], "createDomainDnsRecord", false],
    [["dns:write"], "listUsers", false],
    [["events:read"], "getApiHealth", true],
    [["users:write", "dns:write"], "createApiKey", false],
    [null, "createApiKey", true],
  ] as const)("a key with %j may call %s: %s", (scopes, id, allowed) => {
    expect(scopesAllow(scopes, id)).toBe(allowed);
  });
});

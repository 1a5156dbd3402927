/** The grant of a restricted key: parsing as the API and the dashboard share it, scopes, client addresses, record names. */
import { describe, expect, it } from "vitest";
import { clientAllowed, normalizeClientRange, parseKeyGrant, scopesAllow } from "../../../../server/partners/keys/key-grant.js";
import { recordAllowed } from "../../../../server/domain/access/key-restrictions.js";

const now = new Date("2026-11-22T10:00:00Z");

describe("parseKeyGrant", () => {
  it("normalises what it keeps", () => {
    expect(
      parseKeyGrant(
        {
          scopes: ["dns:write", "users:read", "dns:write"],
          restrictions: {
            domains: ["Example.COM"],
            record_names: ["_ACME-challenge", "@"],
            record_types: ["txt"],
            client_ips: ["192.0.2.7/24", "2001:DB8::1"],
          },
          expires_at: "2026-12-01T00:00:00Z",
        },
        now,
      ),
    ).toEqual({
      grant: {
        scopes: ["users:read", "dns:write"],
        restrictions: {
          domains: ["example.com"],
          recordNames: ["_acme-challenge", "@"],
          recordTypes: ["TXT"],
          clientIps: ["192.0.2.0/24", "2001:db8::1/128"],
        },
        expiresAt: new Date("2026-12-01T00:00:00Z"),
      },
    });
    expect(parseKeyGrant({}, now)).toEqual({ grant: { scopes: null, restrictions: null, expiresAt: null } });
  });

  it.each([
    [{ scopes: [] }, "scopes"],
    [{ scopes: ["dns:admin"] }, "scopes"],
    [{ restrictions: { domains: ["example.com"] } }, "restrictions"],
    [{ scopes: ["dns:read"], restrictions: { domains: [] } }, "restrictions.domains"],
    [{ scopes: ["dns:read"], restrictions: { record_names: ["bad name"] } }, "restrictions.record_names.0"],
    [{ scopes: ["dns:read"], restrictions: { client_ips: ["300.1.1.1"] } }, "restrictions.client_ips.0"],
    [{ scopes: ["dns:read"], restrictions: { owners: ["x"] } }, "restrictions.owners"],
    [{ scopes: ["dns:read"], expires_at: "2026-11-22T09:00:00Z" }, "expires_at"],
    [{ scopes: ["dns:read"], expires_at: "2028-01-01T00:00:00Z" }, "expires_at"],
    [{ scopes: ["dns:read"], expires_at: "soon" }, "expires_at"],
  ])("refuses %j at %s", (input, field) => {
    const parsed = parseKeyGrant(input, now);
    expect("problems" in parsed && parsed.problems.map((problem) => problem.field)).toContain(field);
  });
});

describe("scopes", () => {
  it.each([
    [["dns:write"], "dns:read", true],
    [["dns:read"], "dns:write", false],
    [["events:read"], "any", true],
    [["events:read"], "unrestricted", false],
    [null, "unrestricted", true],
    [["users:write"], "domains:read", false],
  ] as const)("%j grants %s: %s", (scopes, required, granted) => {
    expect(scopesAllow(scopes as never, required)).toBe(granted);
  });
});

describe("client addresses", () => {
  it.each([
    [["192.0.2.0/24"], "192.0.2.200", true],
    [["192.0.2.0/24"], "192.0.3.1", false],
    [["192.0.2.7/32"], "::ffff:192.0.2.7", true],
    [["2001:db8::/32"], "2001:db8:1::5", true],
    [["2001:db8::/32"], "2001:db9::5", false],
    [["2001:db8::/32"], "192.0.2.1", false],
    [["127.0.0.1/32"], undefined, false],
  ])("%j allows %s: %s", (ranges, address, allowed) => {
    expect(
      clientAllowed(
        ranges.map((range) => normalizeClientRange(range)!),
        address,
      ),
    ).toBe(allowed);
  });

  it.each([
    ["10.1.2.3/8", "10.0.0.0/8"],
    ["::1", "::1/128"],
    ["10.0.0.0/33", null],
    ["example.com", null],
  ])("normalises %s to %s", (text, normalized) => {
    expect(normalizeClientRange(text)).toBe(normalized);
  });
});

describe("record restrictions", () => {
  const acme = { domains: null, recordNames: ["_acme-challenge"], recordTypes: ["TXT"], clientIps: null };
  it.each([
    ["_acme-challenge", "TXT", null],
    ["_ACME-challenge", "txt", null],
    ["www", "TXT", "record_names"],
    ["_acme-challenge", "A", "record_types"],
  ])("%s %s: %s", (name, type, refusal) => {
    expect(recordAllowed(acme, name, type)).toBe(refusal);
  });
});

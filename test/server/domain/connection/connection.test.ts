/**
 * "Is it pointing at us?": the partner's connection requirements (GET/PUT
 * /api/v1/connection_requirements), a domain's check (GET .../connection) from the zone and from
 * the sandbox's magic nameservers, the fix applied as a change set, and domain.connection_changed.
 */
import { beforeEach, describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { useTestServer } from "../../../support/test-server.js";

type Requirement = components["schemas"]["ConnectionRequirement"];

const s = useTestServer();
let domainId = "";
let otherDomainId = "";
const HOUR_S = 3600;

beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "b1" } });
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
  otherDomainId = await s.registerDomainFor("b1", "gracehopper.com", "partner_b");
});

const REQUIREMENTS: Requirement[] = [
  { kind: "apex", addresses: ["203.0.113.10"] },
  { kind: "www", target: "Sites.Partner.example." },
  { kind: "txt", name: "_partner-verify", value: "token-8f2k" },
];
const put = (requirements: Requirement[]) => s.api.PUT("/api/v1/connection_requirements", { body: { requirements } });
const check = (domain_id = domainId) => s.api.GET("/api/v1/domains/{domain_id}/connection", { params: { path: { domain_id } } });
const changed = () => s.outbox.events.filter((event) => event.type === "domain.connection_changed").map((event) => event.payload);
const createD = (body: components["schemas"]["DnsRecordDCreate"]) =>
  s.api.POST("/api/v1/domains/{domain_id}/dns", { params: { path: { domain_id: domainId } }, body });

/** Puts the domain on custom nameservers as a carried-out change would, at the test clock's now. */
async function delegate(nameservers: string[]) {
  const store = s.services.store;
  const domain = (await store.findDomain(domainId))!;
  const now = s.clock.now();
  await store.saveDomain({ ...domain, nameservers, updatedAt: now });
  await store.delegations.saveAppliedNameserverChange({
    domainId,
    partnerId: domain.partnerId,
    nameservers,
    requestedAt: now,
    completesAt: now,
  });
}

describe("connection requirements", () => {
  it("are none until set, then read back in one spelling, per partner", async () => {
    expect((await s.api.GET("/api/v1/connection_requirements")).data).toEqual({ requirements: [], updated_at: null });
    const { data, response } = await put(REQUIREMENTS);
    expect(response.status).toBe(200);
    expect(data!.requirements[1]).toEqual({ kind: "www", target: "sites.partner.example" });
    expect((await s.api.GET("/api/v1/connection_requirements")).data!.requirements).toEqual(data!.requirements);
    expect((await s.otherPartner.GET("/api/v1/connection_requirements")).data!.requirements).toEqual([]);
  });

  it.each([
    [[{ kind: "apex", addresses: ["203.0.113.300"] }], "requirements[0].addresses[0]", "invalid_address"],
    [[{ kind: "apex", addresses: ["203.0.113.1"], target: "a.example" }], "requirements[0].addresses", "required"],
    [[{ kind: "www", target: "localhost" }], "requirements[0].target", "invalid_host_name"],
    [[{ kind: "www", target: "a.example", name: "x" }], "requirements[0].name", "not_allowed"],
    [
      [
        { kind: "www", target: "a.example" },
        { kind: "www", target: "b.example" },
      ],
      "requirements[1].kind",
      "duplicate_requirement",
    ],
    [[{ kind: "txt", name: "_v", value: 'say "hi"' }], "requirements[0].value", "invalid_value"],
    [
      [
        { kind: "txt", name: "_v", value: "a" },
        { kind: "txt", name: "_V", value: "b" },
      ],
      "requirements[1].name",
      "duplicate_requirement",
    ],
    [
      [
        { kind: "www", target: "a.example" },
        { kind: "txt", name: "www", value: "b" },
      ],
      "requirements[1].name",
      "conflicting_requirement",
    ],
  ] as Array<[Requirement[], string, string]>)("refuses %j with 422 naming %s", async (requirements, field, code) => {
    const { error, response } = await put(requirements);
    expect(response.status).toBe(422);
    expect((error as { details: unknown }).details).toEqual({ field, code });
    expect((await s.api.GET("/api/v1/connection_requirements")).data!.requirements).toEqual([]);
  });
});

describe("the check on the service's nameservers", () => {
  it("answers no_requirements without any, and 403 for another partner's domain", async () => {
    expect((await check()).data).toMatchObject({ status: "no_requirements", configured: null, source: "none", requirements: [] });
    expect((await check(otherDomainId)).response.status).toBe(403);
  });

  it("says what is missing, and its change set configures the domain, with one event", async () => {
    await put(REQUIREMENTS);
    await createD({ type: "A", name: "@", content: "192.0.2.1" });
    await createD({ type: "A", name: "www", content: "192.0.2.1" });
    const before = (await check()).data!;
    expect(before).toMatchObject({ status: "not_configured", configured: false, source: "zone" });
    expect(before.requirements.map((result) => result.satisfied)).toEqual([false, false, false]);
    expect(before.requirements[0]!.fixes).toEqual([
      {
        action: "update",
        record_id: expect.any(String),
        record: { type: "A", name: "@", content: "203.0.113.10", value: "203.0.113.10", ttl: 300 },
      },
    ]);
    expect(before.requirements[1]!.fixes.map((fix) => fix.action)).toEqual(["delete", "create"]);
    expect(changed()).toEqual([]);

    const applied = await s.api.POST("/api/v1/domains/{domain_id}/dns/changes", {
      params: { path: { domain_id: domainId } },
      body: before.change_set!,
    });
    expect(applied.response.status).toBe(200);
    const after = (await check()).data!;
    expect(after).toMatchObject({ status: "configured", configured: true });
    expect(after.change_set).toBeUndefined();
    expect(after.requirements.every((result) => result.satisfied && result.fixes.length === 0)).toBe(true);
    expect(changed()).toEqual([
      { domain_id: domainId, data: { domain_id: domainId, domain_name: "adalovelace.com", configured: true, status: "configured" } },
    ]);
  });

  it("sends the event again when a write or a new requirement breaks it, and not for writes that change nothing", async () => {
    await put([{ kind: "txt", name: "_v", value: "one" }]);
    const created = await createD({ type: "TXT", name: "_v", content: "one" });
    await createD({ type: "TXT", name: "_v", content: "other" });
    expect(changed().map((event) => (event.data as { configured: boolean }).configured)).toEqual([true]);
    await put([{ kind: "txt", name: "_v", value: "two" }]);
    expect(changed().map((event) => (event.data as { configured: boolean }).configured)).toEqual([true, false]);
    await s.api.DELETE("/api/v1/domains/{domain_id}/dns/{record_id}", {
      params: { path: { domain_id: domainId, record_id: created.data!.id } },
    });
    expect(changed()).toHaveLength(2);
  });
});

describe("the check on custom nameservers (sandbox magic)", () => {
  beforeEach(async () => {
    await put([
      { kind: "apex", addresses: ["203.0.113.10"] },
      { kind: "www", target: "sites.partner.example" },
    ]);
  });

  it("correct: configured from simulated resolution, without a change set", async () => {
    await delegate(["ns1.correct.sandbox-dns.test", "ns2.correct.sandbox-dns.test"]);
    expect((await check()).data).toMatchObject({ status: "configured", source: "sandbox_resolution" });
  });

  it("misconfigured: other addresses and targets found, the records the host must answer as fixes", async () => {
    await delegate(["ns1.misconfigured.sandbox-dns.test", "ns2.misconfigured.sandbox-dns.test"]);
    const answer = (await check()).data!;
    expect(answer).toMatchObject({ status: "not_configured", source: "sandbox_resolution" });
    expect(answer.requirements[0]!.found).toEqual([{ id: null, type: "A", name: "@", content: "198.51.100.66", value: "198.51.100.66" }]);
    expect(answer.requirements[1]!.fixes).toEqual([
      {
        action: "create",
        record_id: null,
        record: { type: "CNAME", name: "www", content: "sites.partner.example", value: "sites.partner.example", ttl: 300 },
      },
    ]);
  });

  it("unreachable, and nameservers of no magic zone: unknown with the reason, never a guess", async () => {
    await delegate(["ns1.unreachable.sandbox-dns.test", "ns2.unreachable.sandbox-dns.test"]);
    expect((await check()).data).toMatchObject({ status: "unknown", configured: null, reason: expect.stringMatching(/do not answer/) });
    await delegate(["ns1.example-dns.net", "ns2.example-dns.net"]);
    const answer = (await check()).data!;
    expect(answer).toMatchObject({ status: "unknown", configured: null, source: "none" });
    expect(answer.requirements.map((result) => result.satisfied)).toEqual([null, null]);
  });

  it("propagating: satisfied an hour after the nameservers took effect, with the event as the clock passes it", async () => {
    await s.services.persistence.transaction(async () => undefined);
    await delegate(["ns1.propagating.sandbox-dns.test", "ns2.propagating.sandbox-dns.test"]);
    // A write to the domain lets the unit of work see the delegation (a nameserver change carried out does the same).
    await createD({ type: "TXT", name: "_note", content: "hello" });
    expect((await check()).data).toMatchObject({ status: "not_configured", reason: expect.stringMatching(/propagating/) });
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: HOUR_S / 2 } });
    expect(changed()).toEqual([]);
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: HOUR_S } });
    expect((await check()).data).toMatchObject({ status: "configured" });
    expect(changed().map((event) => (event.data as { configured: boolean }).configured)).toEqual([true]);
  });
});

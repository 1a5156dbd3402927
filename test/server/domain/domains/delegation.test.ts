/** Custom nameservers, glue and DNSSEC DS records over the API, on the sandbox clock. */
import { beforeEach, describe, expect, it } from "vitest";
import { useTestServer } from "../../../support/test-server.js";

const s = useTestServer();
let domainId: string;
beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
});

const domainPath = () => ({ params: { path: { domain_id: domainId } } });
const setNameservers = (nameservers: string[]) =>
  s.api.PUT("/api/v1/domains/{domain_id}/nameservers", { ...domainPath(), body: { nameservers } });
const getDomain = async () => (await s.api.GET("/api/v1/domains/{domain_id}", domainPath())).data!;
const advance = (seconds: number) => s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds } });
const eventTypes = () => s.services.eventLog.events.map((event) => event.type);
const setGlue = (host: string, body: { ipv4?: string[]; ipv6?: string[] }) =>
  s.api.PUT("/api/v1/domains/{domain_id}/nameservers/glue/{host}", { params: { path: { domain_id: domainId, host } }, body });

describe("custom nameservers", () => {
  it("are pending for the registry's delay, then in effect with domain.nameservers_changed; the records stop being served", async () => {
    expect(await getDomain()).toMatchObject({ dns_active: true, nameserver_change: null });
    const { data, response } = await setNameservers(["NS1.Example-DNS.net", "ns2.example-dns.net"]);
    expect(response.status).toBe(200);
    expect(data).toMatchObject({
      nameservers: ["ns1.partner-dns.invalid", "ns2.partner-dns.invalid"],
      dns_active: true,
      nameserver_change: {
        nameservers: ["ns1.example-dns.net", "ns2.example-dns.net"],
        requested_at: "2026-11-22T10:00:00Z",
        completes_at: "2026-11-22T10:10:00Z",
      },
    });
    await advance(9 * 60);
    expect((await getDomain()).nameserver_change).not.toBeNull();
    const { data: advanced } = await advance(60);
    expect(advanced!.changes).toEqual([{ object: "domain", id: domainId, from: "active", to: "active", at: "2026-11-22T10:10:00Z" }]);
    expect(await getDomain()).toMatchObject({
      nameservers: ["ns1.example-dns.net", "ns2.example-dns.net"],
      dns_active: false,
      nameserver_change: null,
    });
    expect(eventTypes()).toContain("domain.nameservers_changed");
  });

  it("return to the service's own with DELETE, after the same delay", async () => {
    await setNameservers(["ns1.example-dns.net", "ns2.example-dns.net"]);
    await advance(600);
    const { data } = await s.api.DELETE("/api/v1/domains/{domain_id}/nameservers", domainPath());
    expect(data!.nameserver_change!.nameservers).toEqual(["ns1.partner-dns.invalid", "ns2.partner-dns.invalid"]);
    await advance(600);
    expect(await getDomain()).toMatchObject({ dns_active: true, nameservers: ["ns1.partner-dns.invalid", "ns2.partner-dns.invalid"] });
  });

  it("a second request replaces the pending one; asking for what is in effect cancels it", async () => {
    await setNameservers(["ns1.example-dns.net", "ns2.example-dns.net"]);
    s.clock.advance(5 * 60_000);
    const { data } = await setNameservers(["ns1.other-dns.net", "ns2.other-dns.net", "ns3.other-dns.net"]);
    expect(data!.nameserver_change).toMatchObject({
      nameservers: ["ns1.other-dns.net", "ns2.other-dns.net", "ns3.other-dns.net"],
      completes_at: "2026-11-22T10:15:00Z",
    });
    const { data: cancelled } = await s.api.DELETE("/api/v1/domains/{domain_id}/nameservers", domainPath());
    expect(cancelled!.nameserver_change).toBeNull();
    await advance(3600);
    expect((await getDomain()).dns_active).toBe(true);
  });

  it.each([
    [["ns1.example-dns.net"], 422],
    [Array.from({ length: 14 }, (_, i) => `ns${i}.example-dns.net`), 422],
    [["ns1.example-dns.net", "NS1.example-dns.net"], 422],
    [["ns1.partner-dns.invalid", "ns1.example-dns.net"], 422],
    [["ns1.example-dns.net", "not a host"], 422],
  ])("refuses %j with %i", async (nameservers, status) => {
    const { response, error } = await setNameservers(nameservers);
    expect(response.status).toBe(status);
    expect(error).toBeDefined();
  });

  it("refuses in-bailiwick hosts without glue (422 glue_required) and takes them with it", async () => {
    const refused = await setNameservers(["ns1.adalovelace.com", "ns2.example-dns.net"]);
    expect(refused.response.status).toBe(422);
    expect(refused.error).toMatchObject({ details: { code: "glue_required", field: "nameservers.0" } });
    expect((await setGlue("ns1.adalovelace.com", { ipv4: ["203.0.113.53"], ipv6: ["2001:DB8:0::53"] })).data).toMatchObject({
      host: "ns1.adalovelace.com",
      ipv4: ["203.0.113.53"],
      ipv6: ["2001:db8::53"],
    });
    expect((await setNameservers(["ns1.adalovelace.com", "ns2.example-dns.net"])).response.status).toBe(200);
    const inUse = await s.api.DELETE("/api/v1/domains/{domain_id}/nameservers/glue/{host}", {
      params: { path: { domain_id: domainId, host: "ns1.adalovelace.com" } },
    });
    expect(inUse.response.status).toBe(409);
  });

  it("refuses a domain that is not active (409 invalid_status)", async () => {
    await s.api.PUT("/api/v1/sandbox/domains/{domain_id}/status", { ...domainPath(), body: { status: "suspended" } });
    const { response, error } = await setNameservers(["ns1.example-dns.net", "ns2.example-dns.net"]);
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ details: { code: "invalid_status" } });
  });

  it("is another partner's domain: 403", async () => {
    const { response } = await s.otherPartner.PUT("/api/v1/domains/{domain_id}/nameservers", {
      ...domainPath(),
      body: { nameservers: ["ns1.example-dns.net", "ns2.example-dns.net"] },
    });
    expect(response.status).toBe(403);
  });
});

describe("glue records", () => {
  it.each([
    ["ns1.elsewhere.com", { ipv4: ["203.0.113.53"] }, "invalid_value"],
    ["ns1.adalovelace.com", { ipv4: ["10.0.0.1"] }, "non_public_address"],
    ["ns1.adalovelace.com", { ipv6: ["fe80::1"] }, "non_public_address"],
    ["ns1.adalovelace.com", { ipv4: ["203.0.113.300"] }, "invalid_value"],
    ["ns1.adalovelace.com", {}, "missing_required_field"],
  ])("refuses %s %j: 422 %s", async (host, body, code) => {
    const { response, error } = await setGlue(host, body);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ details: { code } });
  });

  it("lists, replaces and removes a host's glue", async () => {
    await setGlue("ns2.adalovelace.com", { ipv4: ["198.51.100.2"] });
    await setGlue("NS1.adalovelace.com", { ipv4: ["198.51.100.1"] });
    await setGlue("ns2.adalovelace.com", { ipv6: ["2001:db8::2"] });
    const list = async () =>
      (await s.api.GET("/api/v1/domains/{domain_id}/nameservers/glue", domainPath())).data!.glue_records.map(({ host, ipv4, ipv6 }) => ({
        host,
        ipv4,
        ipv6,
      }));
    expect(await list()).toEqual([
      { host: "ns1.adalovelace.com", ipv4: ["198.51.100.1"], ipv6: [] },
      { host: "ns2.adalovelace.com", ipv4: [], ipv6: ["2001:db8::2"] },
    ]);
    const hostPath = (host: string) => ({ params: { path: { domain_id: domainId, host } } });
    expect(
      (await s.api.DELETE("/api/v1/domains/{domain_id}/nameservers/glue/{host}", hostPath("ns1.adalovelace.com"))).response.status,
    ).toBe(204);
    expect(
      (await s.api.DELETE("/api/v1/domains/{domain_id}/nameservers/glue/{host}", hostPath("ns1.adalovelace.com"))).response.status,
    ).toBe(404);
    expect(await list()).toEqual([{ host: "ns2.adalovelace.com", ipv4: [], ipv6: ["2001:db8::2"] }]);
  });
});

describe("DNSSEC DS records", () => {
  const ds = { key_tag: 2371, algorithm: 13 as const, digest_type: 2 as const, digest: "AB".repeat(32) };
  const add = (body: Record<string, unknown>) =>
    s.api.POST("/api/v1/domains/{domain_id}/dnssec/ds_records", { ...domainPath(), body: body as typeof ds });

  it("adds one with its digest in lower case, lists and removes it, sending domain.updated", async () => {
    const { data, response } = await add(ds);
    expect(response.status).toBe(201);
    expect(data).toMatchObject({ key_tag: 2371, algorithm: 13, digest_type: 2, digest: "ab".repeat(32) });
    expect(data!.id).toMatch(/^ds_/);
    expect((await s.api.GET("/api/v1/domains/{domain_id}/dnssec/ds_records", domainPath())).data!.ds_records).toEqual([data]);
    expect(eventTypes()).toContain("domain.updated");
    const remove = () =>
      s.api.DELETE("/api/v1/domains/{domain_id}/dnssec/ds_records/{ds_id}", { params: { path: { domain_id: domainId, ds_id: data!.id } } });
    expect((await remove()).response.status).toBe(204);
    expect((await remove()).response.status).toBe(404);
  });

  it("refuses the same record twice (409 duplicate_ds_record), and more than the limit", async () => {
    await add(ds);
    const { response, error } = await add({ ...ds, digest: ds.digest.toLowerCase() });
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ details: { code: "duplicate_ds_record" } });
    for (let keyTag = 1; keyTag < 8; keyTag++) expect((await add({ ...ds, key_tag: keyTag })).response.status).toBe(201);
    const over = await add({ ...ds, key_tag: 9 });
    expect(over.response.status).toBe(409);
    expect(over.error).toMatchObject({ details: { code: "ds_limit_exceeded", limit: 8 } });
  });

  it.each([
    [{ digest_type: 1 }, "digest"],
    [{ digest: "ab".repeat(31) }, "digest"],
    [{ digest: "zz".repeat(32) }, "digest"],
    [{ digest_type: 4, digest: "ab".repeat(32) }, "digest"],
  ])("refuses %j: 422 naming %s", async (override, field) => {
    const { response, error } = await add({ ...ds, ...override });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ details: { field } });
  });

  it.each([[{ key_tag: 65536 }], [{ algorithm: 5 }], [{ digest_type: 3 }]])("refuses %j at the schema: 422", async (override) => {
    expect((await add({ ...ds, ...override })).response.status).toBe(422);
  });
});

/**
 * Two instances on one PostgreSQL database, raced: each rule the service keeps holds by the
 * database (constraints and serializable transactions), not by one process seeing every request.
 * Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one (CI runs it).
 */
import { describe, expect, it } from "vitest";
import { useTwoInstances } from "../support/server-instances.js";

const databaseUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)("two instances on one database, raced", () => {
  const instances = useTwoInstances(databaseUrl!);
  /** Requests spread over both instances, all in flight at once, each sent again after a 503 as its Retry-After says. */
  const race = (count: number, request: (i: number) => [string, string, unknown?]) =>
    Promise.all(Array.from({ length: count }, (_, i) => instances[i % instances.length]!.callUntilServed(...request(i))));
  const statuses = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status).sort();
  /** A run of its own: the database outlives the test, so each test's names are new. */
  const run = `r${Date.now().toString(36)}`;
  let counter = 0;
  const fresh = (what: string) => `${what}-${run}-${++counter}`;

  async function userWithDomain(): Promise<{ user: string; domainId: string; expiresAt: string }> {
    const user = fresh("user");
    expect((await instances[0]!.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
    const domain = await instances[1]!.call("POST", "/api/v1/sandbox/domains", { user_identifier: user, domain_name: `${fresh("d")}.com` });
    expect(domain.status).toBe(201);
    return { user, domainId: domain.body.id, expiresAt: domain.body.expires_at };
  }

  it("finds or creates one user however many sessions are opened for it at once", async () => {
    const user = fresh("user");
    const answers = await race(24, () => ["POST", "/api/v1/users", { user_identifier: user }]);
    expect(answers.filter((answer) => answer.status !== 201).map(({ status, body }) => `${status} ${body?.message}`)).toEqual([]);
    const read = await instances[0]!.call("GET", `/api/v1/users/${user}`);
    expect(read.status).toBe(200);
    expect(read.body.user_identifier).toBe(user);
  });

  it("lets through only the renewals that stay within ten years, charging only those", async () => {
    const { user, domainId } = await userWithDomain();
    const spentBefore = (await instances[0]!.call("GET", `/api/v1/users/${user}`)).body.total_spent;
    // Each alone ends the registration 6 years ahead; two would end it 11 years ahead.
    const answers = await race(8, () => ["POST", `/api/v1/domains/${domainId}/renew`, { years: 5 }]);
    expect(statuses(answers)).toEqual([200, ...Array(7).fill(422)]);
    const renewed = answers.find((answer) => answer.status === 200)!;
    const domain = await instances[1]!.call("GET", `/api/v1/domains/${domainId}`);
    expect(domain.body.expires_at).toBe(renewed.body.expires_at);
    const spentAfter = (await instances[0]!.call("GET", `/api/v1/users/${user}`)).body.total_spent;
    expect(Number(spentAfter) - Number(spentBefore)).toBeCloseTo(Number(renewed.body.renewal_cost), 2);
  });

  it("keeps a CNAME alone at its name when a CNAME and an A record are created there at once", async () => {
    const { domainId } = await userWithDomain();
    const answers = await race(10, (i) => [
      "POST",
      `/api/v1/domains/${domainId}/dns`,
      i % 2 === 0 ? { type: "CNAME", name: "www", content: "example.net" } : { type: "A", name: "www", content: `192.0.2.${i}` },
    ]);
    expect(answers.every((answer) => answer.status === 201 || answer.status === 409)).toBe(true);
    const records = (await instances[0]!.call("GET", `/api/v1/domains/${domainId}/dns`)).body.records as Array<{ type: string }>;
    const types = new Set(records.map((record) => record.type));
    expect(types.has("CNAME") && types.has("A")).toBe(false);
    if (types.has("CNAME")) expect(records).toHaveLength(1);
  });

  it("creates the same record once when it is sent many times at once", async () => {
    const { domainId } = await userWithDomain();
    const answers = await race(12, () => ["POST", `/api/v1/domains/${domainId}/dns`, { type: "A", name: "api", content: "192.0.2.7" }]);
    expect(statuses(answers)).toEqual([201, ...Array(11).fill(409)]);
    expect((await instances[1]!.call("GET", `/api/v1/domains/${domainId}/dns`)).body.total).toBe(1);
  });

  it("starts one transfer of a name however many are started at once", async () => {
    const user = fresh("user");
    await instances[0]!.call("POST", "/api/v1/users", { user_identifier: user });
    const name = `${fresh("moving")}.org`;
    const answers = await race(10, () => [
      "POST",
      "/api/v1/domains/transfer",
      { domain_name: name, user_identifier: user, auth_code: "Xk8#pL2q!Rm9" },
    ]);
    expect(statuses(answers)).toEqual([201, ...Array(9).fill(409)]);
  });

  it("registers a name once when users of both instances buy it at once", async () => {
    const users = [fresh("user"), fresh("user")];
    await Promise.all(users.map((user, i) => instances[i]!.call("POST", "/api/v1/users", { user_identifier: user })));
    const name = `${fresh("wanted")}.com`;
    const answers = await race(10, (i) => ["POST", "/api/v1/sandbox/domains", { user_identifier: users[i % 2], domain_name: name }]);
    expect(statuses(answers)).toEqual([201, ...Array(9).fill(409)]);
  });

  it("never passes the record cap of a domain with writes spread over both instances", async () => {
    const { domainId } = await userWithDomain();
    // Fill to a few below the cap through bulk requests, then race single creates for the last places.
    const max = 1000;
    for (let batch = 0; batch < 10; batch++) {
      const records = Array.from({ length: batch === 9 ? 95 : 100 }, (_, i) => ({
        type: "A",
        name: `h${batch}x${i}`,
        content: "192.0.2.1",
      }));
      const bulk = await instances[batch % 2]!.call("POST", `/api/v1/domains/${domainId}/dns/bulk`, { records });
      expect(bulk.status).toBe(200);
    }
    const answers = await race(20, (i) => [
      "POST",
      `/api/v1/domains/${domainId}/dns`,
      { type: "A", name: `last${i}`, content: "192.0.2.2" },
    ]);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 422)).toHaveLength(15);
    expect((await instances[0]!.call("GET", `/api/v1/domains/${domainId}/dns?limit=1`)).body.total).toBe(max);
  });

  it("leaves no record behind of a user deleted while records are being created", async () => {
    const { user, domainId } = await userWithDomain();
    const creates = race(30, (i) => ["POST", `/api/v1/domains/${domainId}/dns`, { type: "A", name: `n${i}`, content: "192.0.2.3" }]);
    const deletion = instances[1]!.call("DELETE", `/api/v1/users/${user}`);
    const [answers, deleted] = await Promise.all([creates, deletion]);
    expect(deleted.status).toBe(204);
    expect(answers.every((answer) => answer.status === 201 || answer.status === 404)).toBe(true);
    for (const created of answers.filter((answer) => answer.status === 201))
      expect((await instances[0]!.call("GET", `/api/v1/dns_records/${created.body.id}`)).status).toBe(404);
    expect((await instances[0]!.call("GET", `/api/v1/domains/${domainId}`)).status).toBe(404);
  });

  it("keeps a domain within its DS records, each once, with creations spread over both instances", async () => {
    const { domainId } = await userWithDomain();
    const ds = (keyTag: number) => ({ key_tag: keyTag, algorithm: 13, digest_type: 2, digest: "AB".repeat(32) });
    // Twelve different records for eight places, each sent twice.
    const answers = await race(24, (i) => ["POST", `/api/v1/domains/${domainId}/dnssec/ds_records`, ds(1 + (i % 12))]);
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(8);
    expect(answers.filter((answer) => answer.status !== 201).map((answer) => answer.body?.details?.code ?? answer.status)).toSatisfy(
      (codes: unknown[]) => codes.every((code) => code === "ds_limit_exceeded" || code === "duplicate_ds_record"),
    );
    const kept = (await instances[1]!.call("GET", `/api/v1/domains/${domainId}/dnssec/ds_records`)).body.ds_records as Array<{
      key_tag: number;
    }>;
    expect(kept).toHaveLength(8);
    expect(new Set(kept.map((record) => record.key_tag)).size).toBe(8);
  });

  it("keeps one pending nameserver change, one of those asked, when changes are asked on both instances at once", async () => {
    const { domainId } = await userWithDomain();
    const sets = Array.from({ length: 10 }, (_, i) => [`ns1.host${i}.example.net`, `ns2.host${i}.example.net`]);
    const answers = await race(10, (i) => ["PUT", `/api/v1/domains/${domainId}/nameservers`, { nameservers: sets[i] }]);
    expect(statuses(answers)).toEqual(Array(10).fill(200));
    const pending = (await instances[0]!.call("GET", `/api/v1/domains/${domainId}`)).body.nameserver_change as { nameservers: string[] };
    expect(sets.map((set) => set.join())).toContain(pending.nameservers.join());
  });

  it("answered none of the races with a 500", () => {
    for (const instance of instances) expect(instance.process.output()).not.toMatch(/"level":50|Internal|unexpected error/);
  });
});

/**
 * Restricted keys (issue 36) through the API: the scope of every operation checked before any
 * handler runs, the key operations, restrictions on every DNS write path, client addresses,
 * expiry, the request log, and the ACME scenario.
 */
import { describe, expect, it } from "vitest";
import { operationTable, type OperationId, type Scope } from "../../../../generated/operations.js";
import { PARTNER_A_KEY, PARTNER_B_KEY, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();

interface Answer {
  status: number;
  body: any;
}

async function call(key: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const response = await fetch(`${s.baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** Makes a restricted key through the API with partner A's full key; answers the key itself. */
async function restrictedKey(grant: { scopes: string[]; restrictions?: object; expires_at?: string }, name = "job key"): Promise<string> {
  const made = await call(PARTNER_A_KEY, "POST", "/api/v1/api_keys", { name, ...grant });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.secret as string;
}

const concretePath = (template: string) => template.replace(/\{[^}]+\}/g, "x1");

/** A scope that does not grant `required`: the `read` of its resource for a write, else another resource's. */
function lackingScope(required: string): Scope[] {
  if (required === "unrestricted") return ["users:write", "domains:write", "dns:write", "webhooks:write", "events:read", "sandbox:write"];
  const [resource, access] = required.split(":");
  if (access === "write" && resource !== "events") return [`${resource}:read` as Scope];
  return resource === "events" ? ["users:write"] : ["events:read"];
}

const checked = (Object.entries(operationTable) as Array<[OperationId, (typeof operationTable)[OperationId]]>).filter(
  ([, info]) => info.authenticated && info.requiredScope !== "any" && info.environments.includes("sandbox"),
);

describe("the scope of every operation", () => {
  // One test over the whole table: a key per distinct grant, not per operation (a key costs a request).
  it("refuses, on every operation, a key without the operation's scope before any handler runs", async () => {
    const keys = new Map<string, string>();
    for (const [id, info] of checked) {
      const required = info.requiredScope;
      const lacking = lackingScope(required);
      let key = keys.get(lacking.join());
      if (!key) keys.set(lacking.join(), (key = await restrictedKey({ scopes: lacking })));
      const method = info.method.toUpperCase();
      const before = await call(PARTNER_A_KEY, "GET", "/api/v1/users");
      const events = s.outbox.events.length;
      // An empty body and unknown ids: a handler or the validator would answer 400, 404 or 422 instead.
      const answer = await call(key, method, concretePath(info.path), method === "GET" || method === "DELETE" ? undefined : {});
      expect(answer.status, id).toBe(403);
      // Variant R's record operations answer their errors in the list shape, which names the scope in its message.
      if ((info.listErrorStatuses as readonly number[]).includes(403))
        expect(answer.body.errors[0], id).toContain(required === "unrestricted" ? "full key" : required);
      else
        expect(answer.body, id).toMatchObject({
          error: "forbidden",
          details: { code: "insufficient_scope", required_scope: required, key_scopes: lacking },
        });
      expect(s.outbox.events.length, id).toBe(events);
      expect(await call(PARTNER_A_KEY, "GET", "/api/v1/users"), id).toEqual(before);
    }
    expect(checked.length).toBeGreaterThan(50);
  });

  it("grants the read of a resource with its write, and `any` operations to every key", async () => {
    const key = await restrictedKey({ scopes: ["users:write"] });
    expect((await call(key, "GET", "/api/v1/users")).status).toBe(200);
    expect((await call(key, "GET", "/api/v1/health")).status).toBe(200);
    expect((await call(key, "GET", "/api/v1/domains/tlds")).status).toBe(403);
  });
});

describe("the key operations", () => {
  it("make, list, read, roll and revoke restricted keys; full keys only, each partner its own", async () => {
    const made = await call(PARTNER_A_KEY, "POST", "/api/v1/api_keys", {
      name: "monitor",
      scopes: ["domains:read"],
      restrictions: { domains: ["Example.COM"], client_ips: ["192.0.2.0/24", "2001:db8::1"] },
      expires_at: new Date(s.clock.now().getTime() + 86_400_000).toISOString(),
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      name: "monitor",
      environment: "sandbox",
      scopes: ["domains:read"],
      restrictions: { domains: ["example.com"], record_names: null, record_types: null, client_ips: ["192.0.2.0/24", "2001:db8::1/128"] },
      last_used_at: null,
    });
    expect(made.body.secret).toMatch(/^sk_sandbox_/);
    const id = made.body.id as string;
    const { secret: _secret, ...shown } = made.body;
    expect((await call(PARTNER_A_KEY, "GET", `/api/v1/api_keys/${id}`)).body).toEqual(shown);
    expect((await call(PARTNER_A_KEY, "GET", "/api/v1/api_keys")).body.api_keys).toEqual([shown]);
    // Another partner's key reads as unknown, and restricted keys manage no keys.
    expect((await call(PARTNER_B_KEY, "GET", `/api/v1/api_keys/${id}`)).status).toBe(404);
    expect((await call(PARTNER_B_KEY, "DELETE", `/api/v1/api_keys/${id}`)).status).toBe(404);
    // Its client addresses are checked first: this test's requests come from 127.0.0.1.
    expect((await call(made.body.secret, "GET", "/api/v1/api_keys")).body.details).toEqual({
      code: "key_restricted",
      restriction: "client_ips",
    });

    const rolled = await call(PARTNER_A_KEY, "POST", `/api/v1/api_keys/${id}/roll`, { grace_seconds: 60 });
    expect(rolled.status).toBe(201);
    expect(rolled.body).toMatchObject({
      name: "monitor",
      scopes: ["domains:read"],
      restrictions: shown.restrictions,
      expires_at: shown.expires_at,
    });
    expect(rolled.body.id).not.toBe(id);
    expect((await call(PARTNER_A_KEY, "GET", `/api/v1/api_keys/${id}`)).body.expires_at).toBe(
      new Date(s.clock.now().getTime() + 60_000).toISOString(),
    );
    expect((await call(PARTNER_A_KEY, "DELETE", `/api/v1/api_keys/${rolled.body.id}`)).status).toBe(204);
    expect((await call(rolled.body.secret, "GET", "/api/v1/health")).status).toBe(401);
    expect((await call(PARTNER_A_KEY, "GET", `/api/v1/api_keys/${rolled.body.id}`)).status).toBe(404);
  });

  it("never answers a key twice: a replay of its creation is 409 secret_shown_once", async () => {
    const send = () =>
      fetch(`${s.baseUrl}/api/v1/api_keys`, {
        method: "POST",
        headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json", "Idempotency-Key": "make-key-1" },
        body: JSON.stringify({ name: "once", scopes: ["events:read"] }),
      });
    expect((await send()).status).toBe(201);
    const replay = await send();
    expect(replay.status).toBe(409);
    expect(await replay.json()).toMatchObject({ details: { code: "secret_shown_once" }, message: expect.stringContaining("roll the key") });
    expect((await call(PARTNER_A_KEY, "GET", "/api/v1/api_keys")).body.api_keys).toHaveLength(1);
  });

  it.each([
    ["no scopes", { name: "k" }, 400],
    ["an unknown scope", { name: "k", scopes: ["dns:admin"] }, 422],
    ["a bad domain", { name: "k", scopes: ["dns:write"], restrictions: { domains: ["not a domain"] } }, 422],
    ["a bad range", { name: "k", scopes: ["dns:write"], restrictions: { client_ips: ["10.0.0.0/33"] } }, 422],
    ["an expiry in the past", { name: "k", scopes: ["dns:write"], expires_at: "2020-01-01T00:00:00Z" }, 422],
    ["a blank name", { name: "  ", scopes: ["dns:write"] }, 422],
  ])("refuses %s", async (_label, body, status) => {
    const answer = await call(PARTNER_A_KEY, "POST", "/api/v1/api_keys", body);
    expect(answer.status).toBe(status);
    expect(answer.body.error).toBe("validation_error");
    expect((await call(PARTNER_A_KEY, "GET", "/api/v1/api_keys")).body.api_keys).toEqual([]);
  });

  it("ends a key at its expiry (the deployment's clock) and at its revocation, from the next request on", async () => {
    const key = await restrictedKey({ scopes: ["users:read"], expires_at: new Date(s.clock.now().getTime() + 3_600_000).toISOString() });
    expect((await call(key, "GET", "/api/v1/users")).status).toBe(200);
    s.clock.advance(3_600_000);
    expect((await call(key, "GET", "/api/v1/users")).status).toBe(401);
  });
});

describe("client addresses", () => {
  it.each([
    [["127.0.0.1"], 200],
    [["127.0.0.0/8", "2001:db8::/32"], 200],
    [["10.0.0.0/8"], 403],
    [["::1"], 403],
  ])("a key restricted to %j answers %i from 127.0.0.1", async (clientIps, status) => {
    const key = await restrictedKey({ scopes: ["users:read"], restrictions: { client_ips: clientIps } });
    const answer = await call(key, "GET", "/api/v1/users");
    expect(answer.status).toBe(status);
    if (status === 403) expect(answer.body.details).toEqual({ code: "key_restricted", restriction: "client_ips" });
  });
});

describe("domain restrictions", () => {
  it("show a key only its domains, and refuse every other by id or by name", async () => {
    await call(PARTNER_A_KEY, "POST", "/api/v1/users", { user_identifier: "u1" });
    const mine = await s.registerDomainFor("u1", "adalovelace.com");
    const other = await s.registerDomainFor("u1", "charlesbabbage.com");
    const key = await restrictedKey({ scopes: ["domains:write", "users:read"], restrictions: { domains: ["adalovelace.com"] } });
    const listed = await call(key, "GET", "/api/v1/users/u1/domains");
    expect(listed.body.domains.map((domain: { id: string }) => domain.id)).toEqual([mine]);
    expect(listed.body.total).toBe(1);
    expect((await call(key, "GET", `/api/v1/domains/${mine}`)).status).toBe(200);
    for (const answer of [
      await call(key, "GET", `/api/v1/domains/${other}`),
      await call(key, "PUT", `/api/v1/domains/${other}`, { auto_renew: false }),
      await call(key, "POST", "/api/v1/domains/transfer", {
        user_identifier: "u1",
        domain_name: "gracehopper.com",
        auth_code: "tac_123456",
      }),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.details).toEqual({ code: "key_restricted", restriction: "domains" });
    }
    expect((await call(PARTNER_A_KEY, "GET", `/api/v1/domains/${other}`)).body.auto_renew).toBe(true);
    // Deleting the user would delete the other domain too.
    const deleter = await restrictedKey({ scopes: ["users:write"], restrictions: { domains: ["adalovelace.com"] } });
    expect((await call(deleter, "DELETE", "/api/v1/users/u1")).body.details).toEqual({ code: "key_restricted", restriction: "domains" });
    expect((await call(PARTNER_A_KEY, "GET", "/api/v1/users/u1")).status).toBe(200);
  });
});

describe("the ACME scenario", () => {
  async function setUp() {
    await call(PARTNER_A_KEY, "POST", "/api/v1/users", { user_identifier: "u1" });
    const domainId = await s.registerDomainFor("u1", "adalovelace.com");
    const otherId = await s.registerDomainFor("u1", "charlesbabbage.com");
    const www = (
      await call(PARTNER_A_KEY, "POST", `/api/v1/domains/${domainId}/dns`, { type: "A", name: "www", content: "192.0.2.1", ttl: 300 })
    ).body;
    const key = await restrictedKey(
      { scopes: ["dns:write"], restrictions: { domains: ["adalovelace.com"], record_names: ["_acme-challenge"], record_types: ["TXT"] } },
      "certbot",
    );
    return { domainId, otherId, www, key };
  }
  const challenge = { type: "TXT", name: "_acme-challenge", content: "gfj9Xq-Xp4nL2kU1yNnS9gZs8r9vRZmNHoOeYkqW4Zo", ttl: 60 };

  it("sets and removes the challenge TXT record in both variants, and nothing else", async () => {
    const { domainId, otherId, www, key } = await setUp();
    const created = await call(key, "POST", `/api/v1/domains/${domainId}/dns`, challenge);
    expect(created.status).toBe(201);
    const listed = await call(key, "GET", `/api/v1/domains/${domainId}/dns`);
    expect(listed.status).toBe(200);
    expect(listed.body.records.map((record: { name: string }) => record.name)).toEqual(["_acme-challenge"]);
    expect((await call(key, "DELETE", `/api/v1/domains/${domainId}/dns/${created.body.id}`)).status).toBe(204);
    const r = await call(key, "POST", "/api/v1/dns_records", {
      domain_id: domainId,
      type: "TXT",
      name: "_acme-challenge",
      value: "token-2",
      ttl: 60,
    });
    expect(r.status).toBe(201);
    expect((await call(key, "DELETE", `/api/v1/dns_records/${r.body.id}`)).status).toBe(204);

    const refusals: Array<[string, Answer, string]> = [
      ["another name", await call(key, "POST", `/api/v1/domains/${domainId}/dns`, { ...challenge, name: "www2" }), "record_names"],
      [
        "another type",
        await call(key, "POST", `/api/v1/domains/${domainId}/dns`, { ...challenge, type: "A", content: "192.0.2.9" }),
        "record_types",
      ],
      ["another domain", await call(key, "POST", `/api/v1/domains/${otherId}/dns`, challenge), "domains"],
      ["another record", await call(key, "DELETE", `/api/v1/domains/${domainId}/dns/${www.id}`), "record_names"],
      [
        "a record changed",
        await call(key, "PUT", `/api/v1/domains/${domainId}/dns/${www.id}`, { content: "192.0.2.7", ttl: 300 }),
        "record_names",
      ],
      ["Variant R elsewhere", await call(key, "DELETE", `/api/v1/dns_records/${www.id}`), "record_names"],
      [
        "a bulk with one record outside",
        await call(key, "POST", `/api/v1/domains/${domainId}/dns/bulk`, { records: [challenge, { ...challenge, name: "x" }] }),
        "record_names",
      ],
      [
        "a change set deleting another record",
        await call(key, "POST", `/api/v1/domains/${domainId}/dns/changes`, { creates: [challenge], deletes: [{ id: www.id }] }),
        "record_names",
      ],
      [
        "a template",
        await call(key, "POST", `/api/v1/domains/${domainId}/dns/template`, { template_id: "google-workspace" }),
        "record_names",
      ],
    ];
    for (const [label, answer, restriction] of refusals) {
      expect(answer.status, label).toBe(403);
      const details = answer.body.details ?? null;
      if (details) expect(details, label).toEqual({ code: "key_restricted", restriction });
    }
    for (const [label, method, path] of [
      ["users", "GET", "/api/v1/users"],
      ["the domain", "GET", `/api/v1/domains/${domainId}`],
      ["keys", "GET", "/api/v1/api_keys"],
      ["a new key", "POST", "/api/v1/api_keys"],
      ["webhooks", "GET", "/api/v1/webhook_endpoints"],
    ] as const) {
      const answer = await call(key, method, path, method === "POST" ? { name: "more", scopes: ["dns:write"] } : undefined);
      expect(answer.status, label).toBe(403);
      expect(answer.body.details.code, label).toBe("insufficient_scope");
    }
    // Nothing refused changed anything: the partner's own key sees www alone.
    const records = await call(PARTNER_A_KEY, "GET", `/api/v1/domains/${domainId}/dns`);
    expect(records.body.records.map((record: { name: string }) => record.name)).toEqual(["www"]);
    expect((await call(PARTNER_A_KEY, "GET", `/api/v1/domains/${otherId}/dns`)).body.records).toEqual([]);
  });

  it("is in the request log with its key and each scope decision", async () => {
    const { domainId, key } = await setUp();
    await call(key, "POST", `/api/v1/domains/${domainId}/dns`, challenge);
    await call(key, "GET", "/api/v1/users");
    await call(key, "POST", `/api/v1/domains/${domainId}/dns`, { ...challenge, name: "www2" });
    await s.requests.flush();
    // This test's key: the request log of a database store keeps the earlier tests' keys of the same name.
    const keyId = (await call(PARTNER_A_KEY, "GET", "/api/v1/api_keys")).body.api_keys.find(
      (listed: { last_four: string }) => listed.last_four === key.slice(-4),
    ).id;
    const page = await s.services.persistence.requestHistory.page({
      partnerId: "partner_a",
      environment: "sandbox",
      filter: {},
      before: null,
      limit: 50,
    });
    const ofKey = page.filter((entry) => entry.keyId === keyId);
    // One instant on the test's clock: the log orders them by request id, so compare them as a set.
    const decisions = ofKey.map(({ keyId: id, scopeDecision, scopeDetail, status }) => ({ id, scopeDecision, scopeDetail, status }));
    expect(decisions).toHaveLength(3);
    expect(decisions).toEqual(
      expect.arrayContaining([
        { id: keyId, scopeDecision: "key_restricted", scopeDetail: "record_names", status: 403 },
        { id: keyId, scopeDecision: "insufficient_scope", scopeDetail: "users:read", status: 403 },
        { id: keyId, scopeDecision: "allowed", scopeDetail: null, status: 201 },
      ]),
    );
  });
});

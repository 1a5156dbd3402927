/**
 * The contract suite: run against any implementation with
 * `npm run conformance -- --base-url URL --api-key KEY [--second-key KEY] [--variant R|D|both]`.
 * Every operation is called, every answer checked against the published document by Ajv; then the
 * behavioural rules the spec states; then schema-breaking inputs, each of which must be refused.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContractClient, operationsOfDocument, type CallResult } from "./support/contract-client.js";
import { prepareFixtures, RECEIVER_URL, type Fixtures } from "./support/fixtures.js";
import { mutationsOf } from "./support/mutations.js";
import { missingNeed, SCENARIOS } from "./support/scenarios.js";
import { loadTarget } from "./support/target.js";

const target = loadTarget();
const client = new ContractClient(target);
const operations = operationsOfDocument(target.document);
let fixtures: Fixtures;

beforeAll(async () => {
  fixtures = await prepareFixtures(client, target);
}, 120_000);

// Webhook endpoints are configuration a sandbox reset keeps: remove the ones this suite made.
afterAll(async () => {
  if (target.stateless || !client.has("listWebhookEndpoints")) return;
  const { body } = await client.call("listWebhookEndpoints");
  for (const endpoint of body?.endpoints ?? []) {
    if (String(endpoint.url).startsWith(RECEIVER_URL)) await client.call("deleteWebhookEndpoint", { path: { endpoint_id: endpoint.id } });
  }
});

const PRISM_PROXY_ANSWERS_ITSELF = "Prism's proxy answers this itself, in its own shape (stoplightio/prism#1827)";

/** Fails with every violation of the document, named precisely. */
function expectConforming(result: CallResult): void {
  expect(result.violations, result.violations.join("\n")).toEqual([]);
}

const successStatus = (responses: Record<string, unknown>) => Math.min(...Object.keys(responses).map(Number).filter((s) => s >= 200 && s < 300));
const isAuthenticated = (operation: Record<string, any>) => !(Array.isArray(operation.security) && operation.security.length === 0);
const documentedClientErrors = (operation: Record<string, any>) => Object.keys(operation.responses).map(Number).filter((s) => s >= 400 && s < 500);

describe("the suite", () => {
  it("has a scenario for every operation of the document", () => {
    expect(operations.map((op) => op.operationId).filter((id) => !SCENARIOS[id])).toEqual([]);
  });
});

describe.each(operations.filter((op) => !SCENARIOS[op.operationId]?.destructive))("$operationId ($method $path)", (op) => {
  const scenario = SCENARIOS[op.operationId]!;

  it("answers its documented success status with a body that conforms", async (context) => {
    const missing = missingNeed(scenario, fixtures);
    if (missing) return context.skip(missing);
    const result = await client.call(op.operationId, await scenario.input(fixtures, client));
    expectConforming(result);
    expect(result.status, JSON.stringify(result.body)).toBe(successStatus(op.operation.responses));
  });

  if (isAuthenticated(op.operation)) it("refuses a request without a key with 401 unauthorized", async (context) => {
    if (target.throughPrismProxy) return context.skip(PRISM_PROXY_ANSWERS_ITSELF);
    const missing = missingNeed(scenario, fixtures);
    if (missing) return context.skip(missing);
    const input = await scenario.input(fixtures, client);
    const result = await client.call(op.operationId, { ...input, key: null });
    expectConforming(result);
    expect(result.status).toBe(401);
    expect(result.body).toMatchObject({ error: "unauthorized" });
  });

  if (isAuthenticated(op.operation)) it("reports its rate limits in X-RateLimit-* headers", async (context) => {
    const missing = missingNeed(scenario, fixtures);
    if (missing) return context.skip(missing);
    const result = await client.call(op.operationId, await scenario.input(fixtures, client));
    const limit = Number(result.headers.get("x-ratelimit-limit"));
    const remaining = Number(result.headers.get("x-ratelimit-remaining"));
    const reset = Number(result.headers.get("x-ratelimit-reset"));
    for (const name of ["x-ratelimit-limit", "x-ratelimit-remaining", "x-ratelimit-reset"]) expect(result.headers.get(name), name).toMatch(/^\d+$/);
    expect(remaining).toBeLessThanOrEqual(limit);
    if (!target.stateless) expect(reset).toBeGreaterThan(0);
  });

  const body = op.operation.requestBody?.content?.["application/json"];
  if (body?.example !== undefined && typeof body.example === "object" && !Array.isArray(body.example)) it(
    "refuses every body that breaks one constraint of its schema with a documented 4xx",
    async (context) => {
      const missing = missingNeed(scenario, fixtures);
      if (missing) return context.skip(missing);
      const input = await scenario.input(fixtures, client);
      const mutations = mutationsOf(target.document, body.schema, body.example);
      const allowed = documentedClientErrors(op.operation).filter((status) => status !== 401 && status !== 429);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...mutations), async (mutation) => {
          const result = await client.call(op.operationId, { ...input, body: mutation.body });
          expect(result.violations, `${mutation.breaks}: ${result.violations.join("; ")}`).toEqual([]);
          expect(allowed, `${mutation.breaks}: answered ${result.status} ${JSON.stringify(result.body)}`).toContain(result.status);
        }),
        { seed: Number(process.env.CONTRACT_SEED ?? 8), numRuns: Math.min(mutations.length * 2, 40) },
      );
    },
  );
});

describe.skipIf(target.stateless)("the rules the spec states", () => {
  it("finds or creates a user: the same user_identifier twice is 201 both times, with a login_url valid 24 hours", async () => {
    const first = await client.call("createUserSession", { body: { user_identifier: `contract_${fixtures.run}_again` } });
    const second = await client.call("createUserSession", { body: { user_identifier: `contract_${fixtures.run}_again` } });
    [first, second].forEach(expectConforming);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(() => new URL(second.body.login_url)).not.toThrow();
  });

  it("user_identifier: 255 characters accepted, 256 refused", async () => {
    const at = await client.call("createUserSession", { body: { user_identifier: `c${fixtures.run}`.padEnd(255, "x") } });
    const over = await client.call("createUserSession", { body: { user_identifier: `c${fixtures.run}`.padEnd(256, "x") } });
    [at, over].forEach(expectConforming);
    expect(at.status).toBe(201);
    expect([400, 422]).toContain(over.status);
  });

  it("a missing user_identifier is 400 validation_error with field user_identifier, code missing_required_field", async () => {
    const result = await client.call("createUserSession", { body: { email: "a@example.com" } });
    expectConforming(result);
    expect(result.status).toBe(400);
    expect(result.body).toMatchObject({ error: "validation_error", details: { field: "user_identifier", code: "missing_required_field" } });
  });

  it("an invalid e-mail is 422 with field email, code invalid_format", async () => {
    const result = await client.call("createUserSession", { body: { user_identifier: fixtures.user, email: "not-an-email" } });
    expectConforming(result);
    expect(result.status).toBe(422);
    expect(result.body).toMatchObject({ details: { field: "email", code: "invalid_format" } });
  });

  it.runIf(client.has("listUsers"))("list users: limit defaults to 50, takes 100, refuses 0 and 101", async () => {
    const byDefault = await client.call("listUsers", {});
    expectConforming(byDefault);
    expect(byDefault.body.limit).toBe(50);
    expect((await client.call("listUsers", { query: { limit: 100 } })).status).toBe(200);
    for (const limit of [0, 101]) {
      const refused = await client.call("listUsers", { query: { limit } });
      expectConforming(refused);
      expect(refused.status, `limit ${limit}`).toBe(400);
    }
  });

  it("an unknown user is 404 not_found", async () => {
    const result = await client.call("getUser", { path: { user_identifier: `contract_${fixtures.run}_nobody` } });
    expect(result.status, `${result.label} for an unknown user`).toBe(404);
    expectConforming(result);
  });

  it("renew years: 0 and 11 refused, 1 accepted", async (context) => {
    if (!fixtures.domainId) return context.skip("needs a domain");
    for (const years of [0, 11]) {
      const refused = await client.call("renewDomain", { path: { domain_id: fixtures.domainId }, body: { years } });
      expectConforming(refused);
      expect([400, 422], `years ${years}`).toContain(refused.status);
    }
    expect((await client.call("renewDomain", { path: { domain_id: fixtures.domainId }, body: { years: 1 } })).status).toBe(200);
  });

  it.runIf(client.has("createDomainDnsRecord"))("DNS ttl: 60 and 86400 accepted, 59 and 86401 refused; TXT strings of 255 accepted, 256 refused", async (context) => {
    if (!fixtures.domainId) return context.skip("needs a domain");
    const create = (record: Record<string, unknown>) => client.call("createDomainDnsRecord", { path: { domain_id: fixtures.domainId! }, body: record });
    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ type: "A", name: "ttl-min", content: "192.0.2.1", ttl: 60 }, true],
      [{ type: "A", name: "ttl-max", content: "192.0.2.1", ttl: 86400 }, true],
      [{ type: "A", name: "ttl-low", content: "192.0.2.1", ttl: 59 }, false],
      [{ type: "A", name: "ttl-high", content: "192.0.2.1", ttl: 86401 }, false],
      [{ type: "TXT", name: "txt-255", content: "t".repeat(255) }, true],
      [{ type: "TXT", name: "txt-256", content: "t".repeat(256) }, false],
      [{ type: "CNAME", name: "@", content: "example.com" }, false],
      [{ type: "MX", name: "mx", content: "mail.example.com" }, false],
    ];
    for (const [record, accepted] of cases) {
      const result = await create(record);
      expectConforming(result);
      if (accepted) expect(result.status, JSON.stringify(record)).toBe(201);
      else expect([400, 422], JSON.stringify(record)).toContain(result.status);
    }
  });

  it.runIf(client.has("bulkCreateDomainDnsRecords"))("bulk is partial: valid records are created, invalid ones reported by index", async (context) => {
    if (!fixtures.domainId) return context.skip("needs a domain");
    const result = await client.call("bulkCreateDomainDnsRecords", {
      path: { domain_id: fixtures.domainId },
      body: { records: [{ type: "A", name: "partial", content: "192.0.2.40" }, { type: "A", name: "partial2", content: "999.1.1.1" }] },
    });
    expectConforming(result);
    expect(result.status).toBe(200);
    expect(result.body.created).toHaveLength(1);
    expect(result.body.errors).toEqual([expect.objectContaining({ index: 1 })]);
  });

  it.runIf(client.has("createDnsRecord"))("Variant R record errors use the list shape", async (context) => {
    if (!fixtures.domainId) return context.skip("needs a domain");
    const result = await client.call("createDnsRecord", { body: { domain_id: fixtures.domainId, type: "A", name: "bad", value: "not-an-ip" } });
    expectConforming(result);
    expect(result.status).toBe(422);
    expect(result.body).toEqual({ errors: [expect.any(String)] });
  });

  it("another partner's domain is 403 forbidden (with --second-key)", async (context) => {
    if (!target.secondKey) return context.skip("needs --second-key");
    if (!fixtures.domainId) return context.skip("needs a domain");
    const result = await client.call("getDomain", { path: { domain_id: fixtures.domainId }, key: target.secondKey });
    expectConforming(result);
    expect(result.status).toBe(403);
    expect(result.body).toMatchObject({ error: "forbidden" });
  });

  it("an unknown query parameter is refused with 400", async () => {
    const result = await client.call("listTlds", { query: { unexpected: 1 } });
    expectConforming(result);
    expect(result.status).toBe(400);
  });

  it("a body that is not JSON is refused with 400 or 415, never 5xx", async (context) => {
    if (target.throughPrismProxy) return context.skip(PRISM_PROXY_ANSWERS_ITSELF);
    const malformed = await client.call("createUserSession", { rawBody: "{not json" });
    const wrongType = await client.call("createUserSession", { rawBody: "user_identifier=u1", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    [malformed, wrongType].forEach(expectConforming);
    expect(malformed.status).toBe(400);
    expect(wrongType.status).toBe(415);
  });
});

describe("destructive operations, last", () => {
  it.each(operations.filter((op) => SCENARIOS[op.operationId]?.destructive))("$operationId answers its documented success status", async (op) => {
    const result = await client.call(op.operationId, await SCENARIOS[op.operationId]!.input(fixtures, client));
    expectConforming(result);
    expect(result.status).toBe(successStatus(op.operation.responses));
  });
});

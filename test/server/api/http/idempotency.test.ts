/** Idempotency keys on every POST (the spec's "Idempotent requests"), on each store. */
import { beforeEach, describe, expect, it } from "vitest";
import { operationTable } from "../../../../generated/operations.js";
import { IDEMPOTENCY_KEY_LIFETIME_MS, requestFingerprint } from "../../../../server/platform/idempotency/idempotent-requests.js";
import { loadDocument } from "../../../support/openapi-document.js";
import { PARTNER_A_KEY, PARTNER_B_KEY, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();
let domainId: string;
beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
});

/** A POST as a partner's job queue sends it: raw body text, with or without a key. */
function post(path: string, body: string | null, key?: string, apiKey = PARTNER_A_KEY) {
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (body !== null) headers["Content-Type"] = "application/json";
  if (key !== undefined) headers["Idempotency-Key"] = key;
  return fetch(`${s.baseUrl}${path}`, { method: "POST", headers, body: body ?? undefined });
}
const renew = (key?: string, body = '{"years":1}') => post(`/api/v1/domains/${domainId}/renew`, body, key);
const expiryYear = async () => (await s.services.store.findDomain(domainId))!.expiresAt.getUTCFullYear();
const renewedEvents = () => s.outbox.events.filter((event) => event.type === "domain.renewed");

describe("a retried POST with the same key and body", () => {
  it("answers the first answer again, marked Idempotent-Replayed, and runs nothing: one renewal, one charge, one event", async () => {
    const before = await expiryYear();
    const first = await renew("renew-1");
    const second = await renew("renew-1");
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get("Idempotent-Replayed")).toBeNull();
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await second.json()).toEqual(await first.json());
    expect(second.headers.get("X-Request-Id")).not.toBe(first.headers.get("X-Request-Id"));
    expect(await expiryYear()).toBe(before + 1);
    expect(renewedEvents()).toHaveLength(1);
    expect((await s.services.store.findUser("partner_a", "u1"))!.totalSpent).toBe(1299 + 1499);
  });

  it("counts the same JSON value as the same body, however spaced or ordered", async () => {
    const create = (body: string) => post(`/api/v1/domains/${domainId}/dns`, body, "rec-1");
    const first = await create('{"type":"A","name":"www","content":"192.0.2.1","ttl":300}');
    const second = await create('{ "ttl": 300, "content": "192.0.2.1",\n "name": "www", "type": "A" }');
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await s.services.store.countRecords(domainId)).toBe(1);
  });

  it("stores the operation's own refusal and answers it again (a 404), in the operation's shape", async () => {
    const missing = () => post("/api/v1/domains/dom_missing/renew", '{"years":1}', "renew-missing");
    const first = await missing();
    const again = await missing();
    expect([first.status, again.status]).toEqual([404, 404]);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await again.json()).toEqual(await first.json());
  });

  it("answers a 204 again without a body", async () => {
    const [first, second] = [await post("/api/v1/sandbox/reset", null, "reset-1"), await post("/api/v1/sandbox/reset", null, "reset-1")];
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(second.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await second.text()).toBe("");
  });
});

describe("the same key with another body", () => {
  it("is refused 422 idempotency_key_reused, and nothing runs", async () => {
    await renew("renew-2", '{"years":1}');
    const before = await expiryYear();
    const reused = await renew("renew-2", '{"years":2}');
    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual({
      error: "unprocessable_entity",
      message: "This Idempotency-Key was used with another request body; use a new key for a new request",
      details: { field: "Idempotency-Key", code: "idempotency_key_reused" },
    });
    expect(await expiryYear()).toBe(before);
  });

  it("is refused in the list shape where the operation answers 422 in it (Variant R records)", async () => {
    const create = (value: string) =>
      post("/api/v1/dns_records", JSON.stringify({ domain_id: domainId, type: "A", name: "www", value, ttl: 300 }), "r-1");
    expect((await create("192.0.2.1")).status).toBe(201);
    const reused = await create("192.0.2.2");
    expect(reused.status).toBe(422);
    expect(await reused.json()).toEqual({
      errors: ["This Idempotency-Key was used with another request body; use a new key for a new request"],
    });
  });
});

describe("the same key while its first request runs", () => {
  it("answers 409 idempotency_key_in_use with Retry-After, and the stored answer once the first has answered", async () => {
    const scope = {
      partnerId: "partner_a",
      environment: "sandbox" as const,
      method: "POST",
      path: `/api/v1/domains/${domainId}/renew`,
      key: "held",
    };
    const keys = s.services.persistence.idempotency;
    const claim = await keys.claim(scope, requestFingerprint({}, { years: 1 }), s.services.clock.now(), new Date(0), 60_000);
    const held = await renew("held");
    expect(held.status).toBe(409);
    expect(held.headers.get("Retry-After")).toBe("1");
    expect(await held.json()).toMatchObject({ error: "conflict", details: { field: "Idempotency-Key", code: "idempotency_key_in_use" } });
    // Another body under a held key is a reuse all the same.
    expect((await renew("held", '{"years":2}')).status).toBe(422);
    if (claim.state !== "claimed") throw new Error("not claimed");
    const firstAnswer = { error: "not_found", message: "the first request's answer" };
    await keys.complete(scope, claim.token, { status: 404, body: firstAnswer, headers: {} });
    const after = await renew("held");
    expect([after.status, await after.json()]).toEqual([404, firstAnswer]);
  });

  it("of concurrent duplicates, runs exactly one; the others answer its answer or 409 with Retry-After", async () => {
    const before = await expiryYear();
    const answers = await Promise.all(Array.from({ length: 6 }, () => renew("renew-race")));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses.every((status) => status === 200 || status === 409)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect(answer.headers.get("Retry-After")).toBe("1");
      expect(((await answer.json()) as { details: { code: string } }).details.code).toBe("idempotency_key_in_use");
    }
    expect(answers.filter((a) => a.status === 200 && a.headers.get("Idempotent-Replayed") === null)).toHaveLength(1);
    expect(await expiryYear()).toBe(before + 1);
    expect(renewedEvents()).toHaveLength(1);
  });
});

describe("what takes no key", () => {
  it("a request refused before it ran (400, 401) stores nothing: the same key then runs", async () => {
    expect((await renew("renew-3", '{"years":"one"}')).status).toBe(400);
    expect(
      (await post(`/api/v1/domains/${domainId}/renew`, '{"years":1}', "renew-3", "sk_sandbox_unknown0000000000000000000000")).status,
    ).toBe(401);
    const ran = await renew("renew-3", '{"years":2}');
    expect(ran.status).toBe(200);
    expect(ran.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("keeps a key for 24 hours from its first use, then runs it again", async () => {
    expect((await renew("renew-4")).status).toBe(200);
    s.clock.advance(IDEMPOTENCY_KEY_LIFETIME_MS - 1000);
    expect((await renew("renew-4")).headers.get("Idempotent-Replayed")).toBe("true");
    s.clock.advance(2000);
    const later = await renew("renew-4");
    expect(later.status).toBe(200);
    expect(later.headers.get("Idempotent-Replayed")).toBeNull();
  });

  it("scopes a key to the partner and the path: the same value elsewhere is another key", async () => {
    const other = await s.registerDomainFor("u1", "adalovelace.net");
    expect((await renew("shared")).status).toBe(200);
    const elsewhere = await post(`/api/v1/domains/${other}/renew`, '{"years":1}', "shared");
    expect([elsewhere.status, elsewhere.headers.get("Idempotent-Replayed")]).toEqual([200, null]);
    const otherPartner = await post("/api/v1/users", '{"user_identifier":"u1"}', "shared", PARTNER_B_KEY);
    expect([otherPartner.status, otherPartner.headers.get("Idempotent-Replayed")]).toEqual([201, null]);
  });

  // A key of 256 characters or with a space: the kit's idempotency.key-bounds.
  it.each([
    ["empty", ""],
    ["a character outside ASCII", "clé"],
  ])("refuses a key that is %s with 400, naming the header", async (_what, key) => {
    const answer = await fetch(`${s.baseUrl}/api/v1/domains/${domainId}/renew`, {
      method: "POST",
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json", "Idempotency-Key": key },
      body: '{"years":1}',
    }).catch(() => null);
    // fetch itself refuses to send a header value outside Latin-1 text; what it sends is refused by the API.
    if (answer === null) return;
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { error: string }).error).toBe("validation_error");
  });
});

describe("the document", () => {
  it("accepts Idempotency-Key on every POST and documents the 409 of a key in use", () => {
    const document = loadDocument("full") as { paths: Record<string, Record<string, any>>; components: Record<string, any> };
    const resolved = (parameter: { $ref?: string; name?: string }) =>
      parameter.$ref ? document.components.parameters[parameter.$ref.split("/").pop()!] : parameter;
    const posts = Object.values(operationTable).filter((operation) => operation.method === "post");
    expect(posts.length).toBeGreaterThan(10);
    for (const { path } of posts) {
      const operation = document.paths[path]!.post;
      expect(
        operation.parameters?.some((parameter: { $ref?: string }) => resolved(parameter).name === "Idempotency-Key"),
        `${path} takes Idempotency-Key`,
      ).toBe(true);
      expect(operation.responses["409"], `${path} documents 409`).toBeDefined();
    }
  });
});

describe("a retried POST whose answer carried a signing secret (shown once)", () => {
  const receiverUrl = "http://127.0.0.1:9/hooks";
  const createEndpoint = (key: string) => post("/api/v1/webhook_endpoints", JSON.stringify({ url: receiverUrl }), key);
  const rotate = (endpointId: string, key: string) => post(`/api/v1/webhook_endpoints/${endpointId}/rotate_secret`, "{}", key);
  /** The answer the store keeps for a key, read back as a replay would read it. */
  async function storedAnswer(path: string, key: string, body: unknown) {
    const scope = { partnerId: "partner_a", environment: "sandbox" as const, method: "POST", path, key };
    const claim = await s.services.persistence.idempotency.claim(scope, requestFingerprint({}, body), s.clock.now(), new Date(0), 60_000);
    expect(claim.state).toBe("completed");
    return claim.state === "completed" ? claim.answer : null;
  }

  const shownOnce = (id: string) => ({
    error: "conflict",
    message: `This Idempotency-Key already answered webhook endpoint ${id} with its signing secret, which is shown once and not kept: rotate the secret to learn a new one`,
    details: { field: "Idempotency-Key", code: "secret_shown_once" },
  });

  it("refuses to answer the creation again (409 secret_shown_once, naming the endpoint), creates nothing, and the store never held the secret", async () => {
    const first = await createEndpoint("create-endpoint-1");
    expect(first.status).toBe(201);
    const created = (await first.json()) as { id: string; secret: string };
    expect(created.secret).toMatch(/^whsec_/);
    const again = await createEndpoint("create-endpoint-1");
    expect(again.status).toBe(409);
    expect(again.headers.get("Retry-After")).toBeNull();
    expect(await again.json()).toEqual(shownOnce(created.id));
    const stored = await storedAnswer("/api/v1/webhook_endpoints", "create-endpoint-1", { url: receiverUrl });
    expect(JSON.stringify(stored)).not.toContain(created.secret);
    expect((await s.api.GET("/api/v1/webhook_endpoints")).data!.endpoints).toHaveLength(1);
  });

  it("refuses to answer a rotation again (409 secret_shown_once), and rotates once", async () => {
    const { id } = (await (await createEndpoint("create-endpoint-2")).json()) as { id: string };
    const first = await rotate(id, "rotate-1");
    expect(first.status).toBe(200);
    const { secret } = (await first.json()) as { secret: string };
    const again = await rotate(id, "rotate-1");
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(shownOnce(id));
    const stored = await storedAnswer(`/api/v1/webhook_endpoints/${id}/rotate_secret`, "rotate-1", {});
    expect(JSON.stringify(stored)).not.toContain(secret);
    expect((await s.services.webhooks.store.findEndpoint(id))?.secret).toBe(secret);
  });
});

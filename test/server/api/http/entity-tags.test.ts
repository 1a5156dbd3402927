/** ETag and If-Match on users, domains and DNS records (the spec's "Concurrent edits"), on each store. */
import { beforeEach, describe, expect, it } from "vitest";
import { PARTNER_A_KEY, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();
let domainId: string;
let recordId: string;
beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
  const created = await call("POST", `/api/v1/domains/${domainId}/dns`, { type: "A", name: "www", content: "192.0.2.1", ttl: 300 });
  recordId = created.body.id;
});

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${s.baseUrl}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${PARTNER_A_KEY}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get("ETag"), body: text ? JSON.parse(text) : undefined };
}
const recordR = () => call("GET", `/api/v1/dns_records/${recordId}`);
const putD = (content: string, ifMatch?: string) =>
  call("PUT", `/api/v1/domains/${domainId}/dns/${recordId}`, { content }, ifMatch === undefined ? {} : { "If-Match": ifMatch });

describe("ETag", () => {
  it("is strong, stable while nothing changes, the same in both variants, and new after a change", async () => {
    const created = await call("POST", "/api/v1/dns_records", { domain_id: domainId, type: "TXT", name: "t", value: "v=1" });
    expect(created.etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect((await call("GET", `/api/v1/dns_records/${created.body.id}`)).etag).toBe(created.etag);
    const [first, again] = [await recordR(), await recordR()];
    expect(first.etag).toBe(again.etag);
    const changed = await putD("192.0.2.2");
    expect(changed.etag).not.toBe(first.etag);
    expect((await recordR()).etag).toBe(changed.etag);
  });

  it("is given for a domain and a user, and not changed by what they show of other resources", async () => {
    const domain = await call("GET", `/api/v1/domains/${domainId}`);
    const user = await call("GET", "/api/v1/users/u1");
    expect(domain.etag).toMatch(/^"/);
    expect(user.etag).toMatch(/^"/);
    await call("POST", `/api/v1/domains/${domainId}/dns`, { type: "A", name: "api", content: "192.0.2.9" });
    expect((await call("GET", `/api/v1/domains/${domainId}`)).etag).toBe(domain.etag);
  });
});

describe("If-Match", () => {
  it("applies a change sent with the current tag, or with *", async () => {
    const { etag } = await recordR();
    const changed = await putD("192.0.2.2", etag!);
    expect(changed.status).toBe(200);
    expect((await putD("192.0.2.3", "*")).status).toBe(200);
    expect((await putD("192.0.2.4", `"stale", ${(await recordR()).etag}`)).status).toBe(200);
  });

  it("refuses a stale tag with 412, the current tag in ETag and details, and changes nothing", async () => {
    const { etag: stale } = await recordR();
    await putD("192.0.2.2");
    const current = await recordR();
    const refused = await putD("192.0.2.3", stale!);
    expect(refused.status).toBe(412);
    expect(refused.etag).toBe(current.etag);
    expect(refused.body).toEqual({
      error: "precondition_failed",
      message: "The DNS record changed since you read it; read it again and send the change with its current ETag",
      details: { etag: current.etag },
    });
    expect((await recordR()).body.value).toBe("192.0.2.2");
    const deleteStale = await call("DELETE", `/api/v1/dns_records/${recordId}`, undefined, { "If-Match": stale! });
    expect(deleteStale.status).toBe(412);
    expect((await recordR()).status).toBe(200);
    expect((await call("DELETE", `/api/v1/dns_records/${recordId}`, undefined, { "If-Match": current.etag! })).status).toBe(204);
  });

  it("never matches a weak tag (strong comparison), and refuses a malformed header with 400", async () => {
    const { etag } = await recordR();
    expect((await putD("192.0.2.2", `W/${etag}`)).status).toBe(412);
    const malformed = await putD("192.0.2.2", "not-a-tag");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: "validation_error", details: { field: "If-Match", code: "invalid_format" } });
  });

  it("answers 404 for a record that does not exist, whatever If-Match says", async () => {
    expect((await call("PATCH", "/api/v1/dns_records/rec_missing", { ttl: 600 }, { "If-Match": "*" })).status).toBe(404);
  });

  it("guards domain settings and users the same way", async () => {
    const domain = await call("GET", `/api/v1/domains/${domainId}`);
    expect((await call("PUT", `/api/v1/domains/${domainId}`, { auto_renew: false }, { "If-Match": domain.etag! })).status).toBe(200);
    const staleDomain = await call("PUT", `/api/v1/domains/${domainId}`, { auto_renew: true }, { "If-Match": domain.etag! });
    expect([staleDomain.status, staleDomain.body.error]).toEqual([412, "precondition_failed"]);
    const user = await call("GET", "/api/v1/users/u1");
    const updated = await call("PUT", "/api/v1/users/u1", { email: "ada@example.com" }, { "If-Match": user.etag! });
    expect(updated.status).toBe(200);
    expect((await call("GET", "/api/v1/users/u1")).etag).toBe(updated.etag);
    expect((await call("DELETE", "/api/v1/users/u1", undefined, { "If-Match": user.etag! })).status).toBe(412);
    expect((await call("DELETE", "/api/v1/users/u1", undefined, { "If-Match": updated.etag! })).status).toBe(204);
  });

  it("lets exactly one of concurrent writers holding the same tag through", async () => {
    const { etag } = await recordR();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => putD(`192.0.2.${10 + i}`, etag!)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412, 412, 412, 412, 412]);
  });

  it("answers a replayed creation with its ETag", async () => {
    const send = () =>
      fetch(`${s.baseUrl}/api/v1/domains/${domainId}/dns`, {
        method: "POST",
        headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json", "Idempotency-Key": "create-1" },
        body: JSON.stringify({ type: "TXT", name: "@", content: "replayed" }),
      });
    const [first, replay] = [await send(), await send()];
    expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
    expect(replay.headers.get("ETag")).toBe(first.headers.get("ETag"));
  });
});

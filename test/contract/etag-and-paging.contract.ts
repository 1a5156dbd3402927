/**
 * The contract of entity tags (the spec's "Concurrent edits") and of the user's domain list paged
 * by cursor, checked on the operations a deployment serves.
 */
import { describe, expect, it } from "vitest";
import { ContractClient, type CallResult } from "./support/contract-client.js";
import { newRunId } from "./support/fixtures.js";
import { RateLimitPacer } from "./support/rate-limit-pacer.js";
import { loadTarget } from "./support/target.js";

const target = loadTarget();
const client = new ContractClient(target, new RateLimitPacer());
const run = newRunId();

function expectConforming(result: CallResult): void {
  expect(result.violations, result.violations.join("\n")).toEqual([]);
}

describe.skipIf(target.stateless)("entity tags and If-Match", () => {
  it("a user's ETag is stable on reads, new after a change; a stale If-Match is 412 with the current tag and changes nothing", async (context) => {
    if (!client.has("updateUser")) return context.skip("the deployment does not serve updateUser (Variant R)");
    const user = `contract_${run}_etag`;
    await client.call("createUserSession", { body: { user_identifier: user } });
    const read = await client.call("getUser", { path: { user_identifier: user } });
    const again = await client.call("getUser", { path: { user_identifier: user } });
    [read, again].forEach(expectConforming);
    const tag = read.headers.get("etag");
    expect(tag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(again.headers.get("etag")).toBe(tag);
    const changed = await client.call("updateUser", {
      path: { user_identifier: user },
      body: { email: `${run}@example.com` },
      headers: { "If-Match": tag! },
    });
    expectConforming(changed);
    expect(changed.status).toBe(200);
    const current = changed.headers.get("etag");
    expect(current).not.toBe(tag);
    const stale = await client.call("updateUser", {
      path: { user_identifier: user },
      body: { email: `stale-${run}@example.com` },
      headers: { "If-Match": tag! },
    });
    expectConforming(stale);
    expect(stale.status).toBe(412);
    expect(stale.headers.get("etag")).toBe(current);
    expect(stale.body).toMatchObject({ error: "precondition_failed", details: { etag: current } });
    expect((await client.call("getUser", { path: { user_identifier: user } })).body.email).toBe(`${run}@example.com`);
    const any = await client.call("updateUser", { path: { user_identifier: user }, body: { email: null }, headers: { "If-Match": "*" } });
    expect(any.status).toBe(200);
  });
});

describe.skipIf(target.stateless)("the user's domain list, paged by cursor", () => {
  it("pages to the end with limit 1: each domain once, no gap, no duplicate, as the whole list", async (context) => {
    if (!client.has("createSandboxDomain")) return context.skip("the deployment cannot create domains (production)");
    const user = `contract_${run}_pages`;
    await client.call("createUserSession", { body: { user_identifier: user } });
    for (const i of [1, 2, 3])
      expect(
        (await client.call("createSandboxDomain", { body: { user_identifier: user, domain_name: `pages-${run}-${i}.com` } })).status,
      ).toBe(201);
    const whole = await client.call("listUserDomains", { path: { user_identifier: user } });
    expectConforming(whole);
    expect(whole.body.next_cursor ?? null).toBeNull();
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const result: CallResult = await client.call("listUserDomains", {
        path: { user_identifier: user },
        query: cursor === null ? { limit: 1 } : { limit: 1, cursor },
      });
      expectConforming(result);
      expect(result.status).toBe(200);
      seen.push(...result.body.domains.map((domain: { id: string }) => domain.id));
      cursor = result.body.next_cursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual(whole.body.domains.map((domain: { id: string }) => domain.id));
    expect(new Set(seen).size).toBe(3);
  });
});

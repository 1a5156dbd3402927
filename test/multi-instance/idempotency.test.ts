/**
 * Idempotency keys across two instances on one PostgreSQL database: a job queue's retry may reach
 * either instance, while the first attempt still runs on the other or after it answered.
 * Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one (CI runs it).
 */
import { describe, expect, it } from "vitest";
import { useTwoInstances } from "../support/server-instances.js";

const databaseUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)("idempotency keys on two instances of one database", () => {
  const instances = useTwoInstances(databaseUrl!);
  const run = `i${Date.now().toString(36)}`;
  let counter = 0;
  const fresh = (what: string) => `${what}-${run}-${++counter}`;

  async function userWithDomain() {
    const user = fresh("user");
    expect((await instances[0]!.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
    const domain = await instances[1]!.call("POST", "/api/v1/sandbox/domains", { user_identifier: user, domain_name: `${fresh("d")}.com` });
    expect(domain.status).toBe(201);
    return { user, domainId: domain.body.id as string, expiresAt: domain.body.expires_at as string };
  }

  it("runs a renewal sent with one key to both instances at once exactly once, and charges it once", async () => {
    const { user, domainId, expiresAt } = await userWithDomain();
    const spentBefore = Number((await instances[0]!.call("GET", `/api/v1/users/${user}`)).body.total_spent);
    const key = fresh("key");
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        // A job queue's retry: after a 503 the same key is sent again when Retry-After says.
        instances[i % 2]!.callUntilServed("POST", `/api/v1/domains/${domainId}/renew`, { years: 1 }, { "Idempotency-Key": key }),
      ),
    );
    expect(
      answers.filter(({ status }) => status !== 200 && status !== 409).map(({ status, body }) => `${status} ${body?.message}`),
    ).toEqual([]);
    const ran = answers.filter((answer) => answer.status === 200 && answer.headers.get("Idempotent-Replayed") === null);
    expect(ran).toHaveLength(1);
    for (const replay of answers.filter((answer) => answer.status === 200)) expect(replay.body).toEqual(ran[0]!.body);
    for (const busy of answers.filter((answer) => answer.status === 409)) expect(busy.headers.get("Retry-After")).toBe("1");
    const domain = await instances[1]!.call("GET", `/api/v1/domains/${domainId}`);
    expect(new Date(domain.body.expires_at).getUTCFullYear()).toBe(new Date(expiresAt).getUTCFullYear() + 1);
    const spentAfter = Number((await instances[0]!.call("GET", `/api/v1/users/${user}`)).body.total_spent);
    expect(spentAfter - spentBefore).toBeCloseTo(Number(ran[0]!.body.renewal_cost), 2);
  });

  it("answers a retry on the other instance with the first instance's answer, and refuses the key with another body there", async () => {
    const { domainId } = await userWithDomain();
    const key = fresh("key");
    const record = { type: "TXT", name: "@", content: "v=retry-test" };
    const first = await instances[0]!.call("POST", `/api/v1/domains/${domainId}/dns`, record, { "Idempotency-Key": key });
    const retry = await instances[1]!.call("POST", `/api/v1/domains/${domainId}/dns`, record, { "Idempotency-Key": key });
    expect([first.status, retry.status, retry.headers.get("Idempotent-Replayed")]).toEqual([201, 201, "true"]);
    expect(retry.body).toEqual(first.body);
    const reused = await instances[1]!.call(
      "POST",
      `/api/v1/domains/${domainId}/dns`,
      { ...record, content: "v=other" },
      { "Idempotency-Key": key },
    );
    expect([reused.status, reused.body.details.code]).toEqual([422, "idempotency_key_reused"]);
    expect((await instances[0]!.call("GET", `/api/v1/domains/${domainId}/dns`)).body.total).toBe(1);
  });
});

/**
 * The dashboard on two instances of one PostgreSQL database, as a newcomer uses it: signed in on
 * one instance and still on the other (sessions are shared), a key made on one and taken by the
 * other's API, the call in the request log of either, a webhook endpoint delivered to, and the
 * key revoked on one refused by the other from its next request.
 * Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one (CI runs it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../scripts/lib/deadlines.js";
import { DEFAULT_ACCOUNT_LIMITS } from "../../server/partners/accounts/account-limits.js";
import { hashPassword } from "../../server/partners/accounts/passwords.js";
import { newId } from "../../server/platform/ids.js";
import { openPersistence } from "../../server/assembly/open-persistence.js";
import { DashboardBrowser, visibleText } from "../support/dashboard-browser.js";
import { freePort } from "../support/listen.js";
import { freshDatabase, startInstance, type Instance } from "../support/server-instances.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

const databaseUrl = process.env.PARTNER_API_TEST_DATABASE_URL;
const OWNER = { email: "owner@two-instances.test", password: "a long enough password" };
/** A member whose password a client guesses, on both instances (its hash is cheap, so attempts come quickly). */
const GUESSED = { email: "guessed@two-instances.test", password: "the guessed member's password" };

describe.skipIf(!databaseUrl)("the dashboard on two instances of one database", () => {
  const instances: Array<{ instance: Instance; dashboard: string }> = [];
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    const database = await freshDatabase(databaseUrl!);
    const persistence = await openPersistence({ kind: "postgres", databaseUrl: database }, "sandbox");
    try {
      const now = new Date();
      await persistence.accounts.createAccount(
        { id: "ptn_two", name: "Two Instances Inc", createdAt: now },
        {
          id: newId("mem"),
          partnerId: "ptn_two",
          email: OWNER.email,
          passwordHash: await hashPassword(OWNER.password, 12),
          role: "owner",
          createdAt: now,
        },
      );
      await persistence.accounts.addMember({
        id: newId("mem"),
        partnerId: "ptn_two",
        email: GUESSED.email,
        passwordHash: await hashPassword(GUESSED.password, 10),
        role: "developer",
        createdAt: now,
      });
    } finally {
      await persistence.close();
    }
    const ports = [await freePort(), await freePort()];
    const started = await Promise.all(
      ports.map((port) => startInstance(database, { DASHBOARD_PORT: String(port), PARTNER_API_DASHBOARD_URL: `http://127.0.0.1:${port}` })),
    );
    instances.push(...started.map((instance, i) => ({ instance, dashboard: `http://127.0.0.1:${ports[i]}` })));
    receiver = await startWebhookReceiver();
  }, scaled(60_000));

  afterAll(async () => {
    await Promise.all(instances.map(({ instance }) => instance.stop()));
    await receiver?.stop();
  });

  it("makes a key on one, sees the other's calls with it, delivers a webhook, and revokes it for both", async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const onA = new DashboardBrowser(a.dashboard);
    await onA.signIn(OWNER.email, OWNER.password);
    // The same browser session on the other instance.
    const onB = new DashboardBrowser(b.dashboard);
    for (const [name, value] of onA.cookies) onB.cookies.set(name, value);
    expect((await onB.get("/keys")).status).toBe(200);

    await onA.get("/keys");
    const created = await onA.post("/keys", { name: "Across instances" });
    expect(created.status).toBe(201);
    const key = /sk_sandbox_[A-Za-z0-9]{32}/.exec(created.text)![0];
    const call = (instance: Instance) => fetch(`${instance.baseUrl}/api/v1/domains/tlds`, { headers: { Authorization: `Bearer ${key}` } });
    const onInstanceB = await call(b.instance);
    expect(onInstanceB.status).toBe(200);
    const requestId = onInstanceB.headers.get("x-request-id")!;
    // Instance B writes its log in batches, a moment after its requests.
    await expect
      .poll(async () => visibleText((await onA.get(`/logs?request_id=${requestId}`)).text), { timeout: scaled(10_000) })
      .toContain("GET /api/v1/domains/tlds 200");
    expect(visibleText((await onA.get(`/logs?request_id=${requestId}`)).text)).toContain("Across instances");

    await onB.get("/webhooks/new");
    const endpoint = await onB.post("/webhooks", { url: receiver.url, description: "Shared" });
    expect(endpoint.status).toBe(201);
    const endpointId = /\/webhooks\/(whe_[A-Za-z0-9]+)\/edit/.exec(endpoint.text)![1]!;
    await onA.get(`/webhooks/${endpointId}`);
    expect((await onA.post(`/webhooks/${endpointId}/test`)).status).toBe(303);
    await expect.poll(() => receiver.received.length, { timeout: scaled(10_000) }).toBe(1);
    await expect
      .poll(async () => visibleText((await onB.get(`/webhooks/${endpointId}`)).text), { timeout: scaled(10_000) })
      .toMatch(/succeeded HTTP 200/);

    const keyId = /\/keys\/(key_[A-Za-z0-9]+)\/revoke/.exec((await onB.get("/keys")).text)![1]!;
    await onB.get(`/keys/${keyId}/revoke`);
    expect((await onB.post(`/keys/${keyId}/revoke`)).status).toBe(303);
    expect((await call(a.instance)).status).toBe(401);
    expect((await call(b.instance)).status).toBe(401);
  });

  it("counts a client's wrong passwords on both instances together, and lets its right one in once the wait is over", async () => {
    const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
    const attempt = async (on: string, password: string) => {
      const browser = new DashboardBrowser(on);
      await browser.get("/sign-in");
      return browser.post("/sign-in", { email: GUESSED.email, password });
    };
    // Counted apart, each instance would give its own free attempts and then its first wait's attempt:
    // 2 * (free + 1) wrong answers at least before a refusal. Counted together, fewer: the free ones
    // and one a wait, of which a slow machine (the waits are windows on the clock's grid) may see a few.
    const answers: number[] = [];
    let refused: Awaited<ReturnType<typeof attempt>> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const answer = await attempt([a, b][i % 2]!.dashboard, `guess ${i}`);
      answers.push(answer.status);
      if (answer.status === 429) refused = answer;
    }
    expect(refused).toBeDefined();
    expect(answers.filter((status) => status === 401).length).toBeLessThan(2 * (DEFAULT_ACCOUNT_LIMITS.signInFreeAttempts + 1));
    const wait = Number(refused!.headers.get("retry-after"));
    expect(wait * 1000).toBeLessThanOrEqual(DEFAULT_ACCOUNT_LIMITS.signInMaxDelayMs);
    await expect
      .poll(async () => (await attempt(b.dashboard, GUESSED.password)).status, { timeout: scaled(wait * 1000 + 10_000), interval: 1000 })
      .toBe(303);
  });
});

/**
 * What bounds the dashboard's password work: sign-in slows a guessing client without locking the
 * member out, the current password of a password change counts as sign-in does, sign-up is limited
 * per client and overall, and scrypt runs in a bounded queue that refuses with 429 when full.
 * Clients are told apart by X-Forwarded-For, which the dashboard reads only from the proxy it is
 * told to trust (loopback here: the test's own requests).
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_ACCOUNT_LIMITS, DEFAULT_PASSWORD_HASHING } from "../../../server/partners/accounts/account-limits.js";
import { loadDeploymentConfig } from "../../../server/assembly/config.js";
import { type DashboardBrowser, visibleText } from "../../support/dashboard-browser.js";
import { OWNER_A, startDashboardTestServer, useDashboardTestServer } from "../../support/dashboard-test-server.js";

const server = useDashboardTestServer({ dashboard: { trustProxy: "loopback" } });

/** A browser whose requests the trusted proxy forwards from `client`. */
function browserFrom(client: string): DashboardBrowser {
  const browser = server.browser();
  const request = browser.request.bind(browser);
  browser.request = (method, path, init = {}) =>
    request(method, path, { ...init, headers: { ...init.headers, "X-Forwarded-For": client } });
  return browser;
}

async function signInAttempt(browser: DashboardBrowser, password: string, email = OWNER_A.email) {
  await browser.get("/sign-in");
  return browser.post("/sign-in", { email, password });
}

const { signInFreeAttempts, signInMaxDelayMs } = DEFAULT_ACCOUNT_LIMITS;

describe("POST /sign-in", () => {
  it("keeps a member's sign-in open from their own client while another client guesses their password", async () => {
    const attacker = browserFrom("203.0.113.9");
    const statuses = new Set<number>();
    for (let i = 0; i < 30; i++) statuses.add((await signInAttempt(attacker, `guess ${i}`)).status);
    expect(statuses).toEqual(new Set([401, 429]));
    const member = browserFrom("198.51.100.7");
    expect((await signInAttempt(member, OWNER_A.password)).status).toBe(303);
  });

  it("slows a guessing client with a delay it can wait out, never a lock, known address or not", async () => {
    for (const email of [OWNER_A.email, "nobody@nowhere.test"]) {
      const guesser = browserFrom("203.0.113.10");
      for (let i = 0; i < signInFreeAttempts; i++) expect((await signInAttempt(guesser, `guess ${i}`, email)).status).toBe(401);
      // Well past the free attempts, the refusal still names a wait no longer than the longest delay.
      let refused = await signInAttempt(guesser, "guess", email);
      for (let i = 0; i < 40; i++) {
        if (refused.status === 429) break;
        refused = await signInAttempt(guesser, "guess", email);
      }
      for (let i = 0; i < 20; i++) await signInAttempt(guesser, "guess", email);
      refused = await signInAttempt(guesser, email === OWNER_A.email ? OWNER_A.password : "guess", email);
      expect(refused.status).toBe(429);
      const wait = Number(refused.headers.get("retry-after"));
      expect(wait).toBeGreaterThan(0);
      expect(wait * 1000).toBeLessThanOrEqual(signInMaxDelayMs);
      expect(visibleText(refused.text)).toContain("Too many sign-in attempts");
      server.api.clock.advance(wait * 1000);
      // The member's right password works from that same client once the wait is over.
      if (email === OWNER_A.email) expect((await signInAttempt(guesser, OWNER_A.password, email)).status).toBe(303);
      else expect((await signInAttempt(guesser, "guess", email)).status).toBe(401);
    }
  });

  it("answers the same refusal for a known and an unknown address", async () => {
    const answers = [];
    for (const email of [OWNER_A.email, "nobody@nowhere.test"]) {
      const guesser = browserFrom("203.0.113.11");
      for (let i = 0; i <= signInFreeAttempts + 1; i++) await signInAttempt(guesser, `guess ${i}`, email);
      const refused = await signInAttempt(guesser, "guess", email);
      answers.push({
        status: refused.status,
        text: visibleText(refused.text)
          .replace(email, "ADDRESS")
          .replace(/\d+ seconds?/, "N seconds"),
      });
    }
    expect(answers[0]!.status).toBe(429);
    expect(answers[0]).toEqual(answers[1]);
  });

  it("reads the client from X-Forwarded-For only through a trusted proxy", async () => {
    const untrusting = await startDashboardTestServer();
    try {
      // Without a trusted proxy, a new X-Forwarded-For at each attempt is still one client: the socket's.
      const statuses: number[] = [];
      for (let i = 0; i < signInFreeAttempts + 5; i++) {
        const browser = untrusting.browser();
        await browser.get("/sign-in");
        const answer = await browser.post(
          "/sign-in",
          { email: OWNER_A.email, password: `guess ${i}` },
          { "X-Forwarded-For": `192.0.2.${i}` },
        );
        statuses.push(answer.status);
      }
      expect(statuses).toContain(429);
    } finally {
      await untrusting.close();
    }
  });
});

describe("PARTNER_API_TRUST_PROXY", () => {
  const trustOf = (value: string | undefined) =>
    loadDeploymentConfig({ PARTNER_API_CONFIG: "/nonexistent.json", PARTNER_API_TRUST_PROXY: value }).dashboardTrustProxy;

  it("takes Express's trust-proxy values: a hop count, addresses, subnets and named ranges; none by default", () => {
    expect(trustOf(undefined)).toBe(false);
    expect(trustOf("")).toBe(false);
    expect(trustOf("1")).toBe(1);
    expect(trustOf("loopback")).toBe("loopback");
    expect(trustOf("10.0.0.0/8, 192.0.2.1, uniquelocal")).toBe("10.0.0.0/8, 192.0.2.1, uniquelocal");
  });

  it.each(["true", "yes", "10.0.0.0/99", "-1", "1.5", "proxy.example.com"])("refuses %s, naming the setting", (value) => {
    expect(() => trustOf(value)).toThrow(/PARTNER_API_TRUST_PROXY/);
  });
});

describe("POST /account/password", () => {
  it("throttles wrong current passwords as sign-in does", async () => {
    const member = browserFrom("198.51.100.20");
    await member.signIn(OWNER_A.email, OWNER_A.password);
    await member.get("/account");
    const statuses: number[] = [];
    for (let i = 0; i < signInFreeAttempts + 10; i++)
      statuses.push(
        (await member.post("/account/password", { current_password: `guess ${i}`, new_password: "another long password" })).status,
      );
    expect(statuses.slice(0, signInFreeAttempts)).toEqual(Array(signInFreeAttempts).fill(422));
    expect(statuses).toContain(429);
    const refused = await member.post("/account/password", { current_password: OWNER_A.password, new_password: "another long password" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(visibleText(refused.text)).toContain("Too many attempts");
    // Nothing changed: the old password still signs in, from another client.
    expect((await signInAttempt(browserFrom("198.51.100.21"), OWNER_A.password)).status).toBe(303);
  });
});

describe("POST /sign-up", () => {
  const signUp = async (browser: DashboardBrowser, i: number) => {
    await browser.get("/sign-up");
    return browser.post("/sign-up", { partner_name: `Company ${i}`, email: `person${i}@company.test`, password: "a long enough password" });
  };

  it("is limited per client", async () => {
    const flooder = browserFrom("203.0.113.30");
    const statuses: number[] = [];
    for (let i = 0; i <= DEFAULT_ACCOUNT_LIMITS.signUpsPerClient; i++) statuses.push((await signUp(flooder, i)).status);
    expect(statuses.slice(0, -1).every((status) => status === 202)).toBe(true);
    const refused = await signUp(flooder, 99);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(visibleText(refused.text)).toContain("Too many sign-ups");
    // Another client is not held up.
    expect((await signUp(browserFrom("198.51.100.30"), 100)).status).toBe(202);
  });

  it("is limited overall, whatever the clients", async () => {
    const limited = await startDashboardTestServer({ dashboard: { trustProxy: "loopback", accountLimits: { signUpsGlobal: 3 } } });
    try {
      const from = (i: number) => {
        const browser = limited.browser();
        const request = browser.request.bind(browser);
        browser.request = (method, path, init = {}) =>
          request(method, path, { ...init, headers: { ...init.headers, "X-Forwarded-For": `192.0.2.${i}` } });
        return browser;
      };
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await signUp(from(i), i)).status);
      expect(statuses).toEqual([202, 202, 202, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe("the password hashing queue", () => {
  it("refuses sign-in, sign-up, password change and invitations with 429 and Retry-After while it is full", async () => {
    const owner = await server.signedIn();
    await owner.get("/team");
    await owner.post("/team/invitations", { email: "dev@partner-a.test", role: "developer" });
    const invitation = new URL(server.mails.at(-1)!.link!).pathname;
    await owner.get("/account");
    const signingIn = server.browser();
    await signingIn.get("/sign-in");
    const signingUp = server.browser();
    await signingUp.get("/sign-up");
    const invitee = server.browser();
    await invitee.get(invitation);

    const hashing = server.dashboard.dashboard.passwordHashing;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = [];
    while (!hashing.full) holders.push(hashing.run(() => held));
    try {
      const answers = [
        await signingIn.post("/sign-in", { email: OWNER_A.email, password: OWNER_A.password }),
        await signingUp.post("/sign-up", { partner_name: "Busy", email: "busy@company.test", password: "a long enough password" }),
        await owner.post("/account/password", { current_password: OWNER_A.password, new_password: "another long password" }),
        await invitee.post(invitation, { password: "a long enough password" }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(429);
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(visibleText(answers[0]!.text)).toContain("busy");
    } finally {
      release();
      await Promise.all(holders);
    }
    // Once it drains, the same forms go through.
    expect((await signingIn.post("/sign-in", { email: OWNER_A.email, password: OWNER_A.password })).status).toBe(303);
    expect((await invitee.post(invitation, { password: "a long enough password" })).status).toBe(303);
  });

  it("runs a sign-up only on a free place, so sign-ups never stand before a member's sign-in", async () => {
    const hashing = server.dashboard.dashboard.passwordHashing;
    const signingUp = server.browser();
    await signingUp.get("/sign-up");
    const signingIn = server.browser();
    await signingIn.get("/sign-in");
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const holders = Array.from({ length: DEFAULT_PASSWORD_HASHING.concurrency }, () => hashing.run(() => held));
    const signIn = signingIn.post("/sign-in", { email: OWNER_A.email, password: OWNER_A.password });
    try {
      const refused = await signingUp.post("/sign-up", {
        partner_name: "Busy",
        email: "busy@company.test",
        password: "a long enough password",
      });
      expect(refused.status).toBe(429);
      expect(visibleText(refused.text)).toContain("busy");
    } finally {
      release();
      await Promise.all(holders);
    }
    // The member's sign-in waited for a place rather than being refused.
    expect((await signIn).status).toBe(303);
  });
});

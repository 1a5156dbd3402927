/** Dashboard accounts: sign-up by a confirmed link, sign-in and out, password change, and what they never reveal. */
import { describe, expect, it } from "vitest";
import { DEFAULT_ACCOUNT_LIMITS } from "../../../server/partners/accounts/account-limits.js";
import { hashPassword, verifyPassword } from "../../../server/partners/accounts/passwords.js";
import { visibleText } from "../../support/dashboard-browser.js";
import { OWNER_A, useDashboardTestServer } from "../../support/dashboard-test-server.js";

const server = useDashboardTestServer();

describe("password hashes", () => {
  it("are scrypt with OWASP's parameters by default, salted, and verify only the password hashed", async () => {
    const hash = await hashPassword("a long enough password");
    expect(hash).toMatch(/^scrypt\$ln=17,r=8,p=1\$/);
    expect(await hashPassword("a long enough password")).not.toBe(hash);
    expect(await verifyPassword("a long enough password", hash)).toBe(true);
    expect(await verifyPassword("a long enough passworD", hash)).toBe(false);
    expect(await verifyPassword("anything", "plain text")).toBe(false);
  });
});

describe("sign-up", () => {
  it("sends a confirmation link; following it creates the account with its owner signed in", async () => {
    const browser = server.browser();
    await browser.get("/sign-up");
    const answer = await browser.post("/sign-up", {
      partner_name: "Acme Hosting",
      email: "Ada@Acme.test",
      password: "a long enough password",
    });
    expect(answer.status).toBe(202);
    expect(visibleText(answer.text)).toContain("We sent a link to ada@acme.test");
    const [mail] = server.mails;
    expect(mail).toMatchObject({ to: "ada@acme.test", subject: "Confirm your partner dashboard account" });
    const path = new URL(mail!.link!).pathname;
    // Opening the link changes nothing (mail scanners open links); the button does.
    expect((await browser.get(path)).status).toBe(200);
    const confirmed = await browser.post(path);
    expect(confirmed.status).toBe(303);
    expect(confirmed.location).toBe("/keys?welcome=1");
    const keys = await browser.get("/keys");
    expect(keys.status).toBe(200);
    expect(visibleText(keys.text)).toContain("Acme Hosting");
    // The link works once.
    const again = server.browser();
    await again.get(path);
    expect((await again.post(path)).status).toBe(410);
    // And the password chosen at sign-up signs in.
    expect(
      (await server.signedIn({ email: "ada@acme.test", password: "a long enough password" })).cookies.has("__Host-dashboard_session"),
    ).toBe(true);
  });

  it("answers a taken address exactly as a new one, and tells only the address's owner", async () => {
    const taken = server.browser();
    await taken.get("/sign-up");
    const fresh = server.browser();
    await fresh.get("/sign-up");
    const forTaken = await taken.post("/sign-up", { partner_name: "Someone", email: OWNER_A.email, password: "a long enough password" });
    const forNew = await fresh.post("/sign-up", { partner_name: "Someone", email: "nobody@else.test", password: "a long enough password" });
    expect(forTaken.status).toBe(forNew.status);
    expect(visibleText(forTaken.text).replace(OWNER_A.email, "ADDRESS")).toBe(
      visibleText(forNew.text).replace("nobody@else.test", "ADDRESS"),
    );
    expect(server.mails.map((mail) => [mail.to, mail.subject])).toEqual([
      [OWNER_A.email, "You already have a partner dashboard account"],
      ["nobody@else.test", "Confirm your partner dashboard account"],
    ]);
  });

  it("refuses a short password and a missing company name beside their fields, keeping what was typed", async () => {
    const browser = server.browser();
    await browser.get("/sign-up");
    const answer = await browser.post("/sign-up", { partner_name: "", email: "ada@acme.test", password: "short" });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain('aria-invalid="true"');
    expect(visibleText(answer.text)).toContain("Use at least 10 characters.");
    expect(visibleText(answer.text)).toContain("Enter your company's name.");
    expect(answer.text).toContain('value="ada@acme.test"');
    expect(answer.text).not.toContain("short");
    expect(server.mails).toEqual([]);
  });

  it("is closed where no mail is delivered", async () => {
    const browser = server.browser();
    server.dashboard.dashboard.signUpOpen = false;
    try {
      await browser.get("/sign-in");
      expect((await browser.post("/sign-up", { partner_name: "X", email: "x@y.test", password: "a long enough password" })).status).toBe(
        403,
      );
      expect(visibleText((await browser.get("/sign-up")).text)).toContain("Sign-up is not available here");
    } finally {
      server.dashboard.dashboard.signUpOpen = true;
    }
  });
});

describe("sign-in", () => {
  it("opens a session in a __Host- cookie, HttpOnly and SameSite, and returns to the page asked for", async () => {
    const browser = server.browser();
    const asked = await browser.get("/webhooks");
    expect(asked.status).toBe(303);
    expect(asked.location).toBe("/sign-in?next=%2Fwebhooks");
    await browser.get(asked.location!);
    const answer = await browser.post("/sign-in", { email: OWNER_A.email, password: OWNER_A.password, next: "/webhooks" });
    expect(answer.status).toBe(303);
    expect(answer.location).toBe("/webhooks");
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith("__Host-dashboard_session="))!;
    // Express writes the attributes in its order, with an Expires beside Max-Age.
    const attributes = cookie.split("; ").slice(1);
    expect(attributes).toEqual(
      expect.arrayContaining(["Path=/", "Secure", "HttpOnly", "SameSite=Lax", expect.stringMatching(/^Max-Age=\d+$/)]),
    );
    expect(attributes.filter((attribute) => !attribute.startsWith("Expires="))).toHaveLength(5);
    expect((await browser.get("/webhooks")).status).toBe(200);
  });

  it("never redirects to another site after sign-in", async () => {
    for (const next of ["//evil.test/", "https://evil.test/", "/\\evil.test", "/sign-out"]) {
      const browser = server.browser();
      await browser.get("/sign-in");
      expect((await browser.post("/sign-in", { email: OWNER_A.email, password: OWNER_A.password, next })).location).toBe("/keys");
    }
  });

  it("answers an unknown address and a wrong password alike", async () => {
    const answers = [];
    for (const email of [OWNER_A.email, "nobody@nowhere.test"]) {
      const browser = server.browser();
      await browser.get("/sign-in");
      const answer = await browser.post("/sign-in", { email, password: "not the password" });
      answers.push({ status: answer.status, text: visibleText(answer.text).replace(email, "ADDRESS") });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(401);
    expect(answers[0]!.text).toContain("The e-mail address or the password is not right.");
  });

  it("makes a client wait after too many wrong passwords on an address, for unknown addresses alike; other addresses go on", async () => {
    for (const email of [OWNER_A.email, "nobody@nowhere.test"]) {
      const browser = server.browser();
      await browser.get("/sign-in");
      for (let i = 0; i < DEFAULT_ACCOUNT_LIMITS.signInFreeAttempts; i++)
        expect((await browser.post("/sign-in", { email, password: `guess ${i}` })).status).toBe(401);
      let refused = await browser.post("/sign-in", { email, password: "guess" });
      while (refused.status === 401) refused = await browser.post("/sign-in", { email, password: "guess" });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(visibleText(refused.text)).toContain("Too many sign-in attempts.");
    }
    // Another address is not held up, and the wait passing lets the owner in again.
    expect((await server.signedIn({ email: "owner@partner-b.test", password: "correct horse battery B" })).cookies.size).toBeGreaterThan(0);
    server.api.clock.advance(DEFAULT_ACCOUNT_LIMITS.signInMaxDelayMs);
    expect((await server.signedIn()).cookies.has("__Host-dashboard_session")).toBe(true);
  });

  it("never promotes a session value the browser had before signing in (session fixation)", async () => {
    const attacker = await server.signedIn();
    const planted = attacker.cookies.get("__Host-dashboard_session")!;
    const victim = server.browser();
    victim.cookies.set("__Host-dashboard_session", planted);
    await victim.get("/sign-in");
    await victim.post("/sign-in", { email: OWNER_A.email, password: OWNER_A.password });
    expect(victim.cookies.get("__Host-dashboard_session")).not.toBe(planted);
    // The value planted names no session any more.
    expect((await attacker.get("/keys")).status).toBe(303);
  });

  it("signs out: the cookie is cleared and its session ends on the server", async () => {
    const browser = await server.signedIn();
    const value = browser.cookies.get("__Host-dashboard_session")!;
    const out = await browser.post("/sign-out");
    expect(out.location).toBe("/sign-in?signed_out=1");
    expect(browser.cookies.has("__Host-dashboard_session")).toBe(false);
    browser.cookies.set("__Host-dashboard_session", value);
    expect((await browser.get("/keys")).status).toBe(303);
  });

  it("ends sessions after their 12 hours", async () => {
    const browser = await server.signedIn();
    server.api.clock.advance(12 * 3_600_000);
    expect((await browser.get("/keys")).status).toBe(303);
  });
});

describe("password change", () => {
  it("needs the current password, signs out the member's other browsers, and keeps this one", async () => {
    const here = await server.signedIn();
    const elsewhere = await server.signedIn();
    await here.get("/account");
    const wrong = await here.post("/account/password", { current_password: "wrong", new_password: "another long password" });
    expect(wrong.status).toBe(422);
    expect(visibleText(wrong.text)).toContain("The current password is not right.");
    const changed = await here.post("/account/password", { current_password: OWNER_A.password, new_password: "another long password" });
    expect(changed.location).toBe("/account?changed=1");
    expect((await here.get("/account")).status).toBe(200);
    expect((await elsewhere.get("/account")).status).toBe(303);
    expect((await server.signedIn({ email: OWNER_A.email, password: "another long password" })).cookies.size).toBeGreaterThan(0);
    const old = server.browser();
    await old.get("/sign-in");
    expect((await old.post("/sign-in", { email: OWNER_A.email, password: OWNER_A.password })).status).toBe(401);
  });
});

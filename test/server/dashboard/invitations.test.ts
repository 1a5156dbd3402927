/**
 * Invitations never tell whether an address has an account, and never make a member of an address
 * nobody proved: a link mailed to the address proves it when followed; an existing account joins
 * only with its own password; a link shown to the inviting owner (no mail sent) creates nobody.
 */
import { describe, expect, it } from "vitest";
import { hashPassword } from "../../../server/partners/accounts/passwords.js";
import { DEFAULT_ACCOUNT_LIMITS } from "../../../server/partners/accounts/account-limits.js";
import { newId } from "../../../server/platform/ids.js";
import { type DashboardBrowser, visibleText } from "../../support/dashboard-browser.js";
import { type DashboardTestServer, OWNER_B, TEST_PASSWORD_COST, useDashboardTestServer } from "../../support/dashboard-test-server.js";

const DEVELOPER_B = { email: "dev@partner-b.test", password: "developer B's own password" };

async function addDeveloperOfB(server: DashboardTestServer) {
  await server.api.services.persistence.accounts.addMember({
    id: newId("mem"),
    partnerId: "partner_b",
    email: DEVELOPER_B.email,
    passwordHash: await hashPassword(DEVELOPER_B.password, TEST_PASSWORD_COST),
    role: "developer",
    createdAt: server.api.clock.now(),
  });
}

/** Partner A's owner invites `email`; answers the link's path, from the mail or, where none is sent, the team page. */
async function invite(server: DashboardTestServer, owner: DashboardBrowser, email: string): Promise<string> {
  await owner.get("/team");
  const answer = await owner.post("/team/invitations", { email, role: "developer" });
  const link = server.mails.at(-1)?.link ?? /(http:\/\/dashboard\.test\/invitations\/[A-Za-z0-9_-]+)/.exec(answer.text)?.[1];
  return new URL(link!).pathname;
}

describe("invitations mailed to the address", () => {
  const server = useDashboardTestServer();

  it("open alike for a new address and one that has an account", async () => {
    await addDeveloperOfB(server);
    const owner = await server.signedIn();
    const pages = [];
    for (const email of ["newcomer@partner-a.test", DEVELOPER_B.email]) {
      const page = await server.browser().get(await invite(server, owner, email));
      pages.push({ status: page.status, text: visibleText(page.text).replace(email, "ADDRESS") });
    }
    expect(pages[0]).toEqual(pages[1]);
    expect(server.mails.map((mail) => mail.subject)).toEqual([
      "owner@partner-a.test invited you to Partner A",
      "owner@partner-a.test invited you to Partner A",
    ]);
  });

  it("let an address's existing account join with its own password, moving it and ending its sessions", async () => {
    await addDeveloperOfB(server);
    const before = await server.signedIn(DEVELOPER_B);
    const path = await invite(server, await server.signedIn(), DEVELOPER_B.email);
    const invitee = server.browser();
    await invitee.get(path);
    const wrong = await invitee.post(path, { password: "a new password of my choice" });
    expect(wrong.status).toBe(401);
    expect(visibleText(wrong.text)).toContain("The password is not right.");
    const joined = await invitee.post(path, { password: DEVELOPER_B.password });
    expect(joined.status).toBe(303);
    expect(joined.location).toBe("/keys?welcome=1");
    expect(visibleText((await invitee.get("/team")).text)).toContain(`${DEVELOPER_B.email} (you) developer`);
    expect((await server.api.services.persistence.accounts.findMemberByEmail(DEVELOPER_B.email))!.partnerId).toBe("partner_a");
    // Signed in to the account it left: that session ended.
    expect((await before.get("/keys")).status).toBe(303);
  });

  it("keep the only owner of another account where it is, saying so only after its password", async () => {
    const path = await invite(server, await server.signedIn(), OWNER_B.email);
    const invitee = server.browser();
    await invitee.get(path);
    const refused = await invitee.post(path, { password: OWNER_B.password });
    expect(refused.status).toBe(409);
    expect(visibleText(refused.text)).toContain("only owner");
    expect((await server.api.services.persistence.accounts.findMemberByEmail(OWNER_B.email))!.partnerId).toBe("partner_b");
    // The link still works once the account has another owner.
    expect((await server.browser().get(path)).status).toBe(200);
  });

  it("throttle an account's password as sign-in does", async () => {
    await addDeveloperOfB(server);
    const path = await invite(server, await server.signedIn(), DEVELOPER_B.email);
    const invitee = server.browser();
    await invitee.get(path);
    const statuses = [];
    for (let i = 0; i < DEFAULT_ACCOUNT_LIMITS.signInFreeAttempts + 3; i++)
      statuses.push((await invitee.post(path, { password: `guess number ${i}` })).status);
    expect(statuses).toContain(429);
  });
});

describe("invitations where no mail is sent (the link is shown to the inviting owner)", () => {
  const server = useDashboardTestServer({ mailDelivers: false });

  it("create no member with an address nobody proved, and answer alike whatever exists", async () => {
    await addDeveloperOfB(server);
    const owner = await server.signedIn();
    const answers = [];
    for (const email of ["squatted@real-company.test", DEVELOPER_B.email]) {
      const path = await invite(server, owner, email);
      const holder = server.browser();
      const opened = await holder.get(path);
      const accepted = await holder.post(path, { password: "a long enough password" });
      answers.push({
        opened: visibleText(opened.text).replace(email, "ADDRESS"),
        status: accepted.status,
        text: visibleText(accepted.text).replace(email, "ADDRESS"),
      });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0]!.status).toBe(401);
    expect(await server.api.services.persistence.accounts.findMemberByEmail("squatted@real-company.test")).toBeUndefined();
  });

  it("let an existing account join after signing in with it", async () => {
    await addDeveloperOfB(server);
    const path = await invite(server, await server.signedIn(), DEVELOPER_B.email);
    const invitee = server.browser();
    await invitee.get(path);
    expect((await invitee.post(path, { password: DEVELOPER_B.password })).location).toBe("/keys?welcome=1");
    expect((await server.api.services.persistence.accounts.findMemberByEmail(DEVELOPER_B.email))!.partnerId).toBe("partner_a");
  });
});

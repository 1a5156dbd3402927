/** Transfer settings in the embedded interface: the lock switch, the code on request, and the answer to another registrar. */
import { describe, expect, it } from "vitest";
import { textOf } from "./support/embed-browser.js";
import { useSignedInUser } from "./support/signed-in-user.js";

const signedIn = useSignedInUser({ startPage: (domainId) => `/domains/${domainId}/transfer` });
const DAY_S = 86_400;

const path = () => ({ params: { path: { domain_id: signedIn.domainId } } });
const lockOf = async () => (await signedIn.server.api.GET("/api/v1/domains/{domain_id}", path())).data!.transfer_lock;
/** Moves the sandbox clock, which ends the browser session on the way: the user opens the interface again. */
async function advance(seconds: number) {
  await signedIn.server.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds } });
  await signedIn.browser.open(await signedIn.server.loginUrl("u1"));
}
const settingsPage = () => signedIn.browser.get(`/domains/${signedIn.domainId}/transfer`);

/** Past the 60 days, unlocked, with a pending request from another registrar. */
async function requested(registrar = "Example Registrar Inc.") {
  await advance(61 * DAY_S);
  await signedIn.server.api.PUT("/api/v1/domains/{domain_id}", { ...path(), body: { transfer_lock: false } });
  const code = (await signedIn.server.api.GET("/api/v1/domains/{domain_id}/auth_code", path())).data!.auth_code;
  await signedIn.server.api.POST("/api/v1/sandbox/domains/{domain_id}/transfer_out", {
    ...path(),
    body: { auth_code: code, gaining_registrar: registrar },
  });
  return code;
}

describe("GET /domains/{id}/transfer", () => {
  it("is linked from the domain list", async () => {
    const list = await signedIn.browser.get("/domains");
    expect(list.html).toContain(
      `<a href="/domains/${signedIn.domainId}/transfer">Transfer settings<span class="visually-hidden"> of adalovelace.com</span></a>`,
    );
  });

  it("shows the lock on, and in the first 60 days when the code becomes available, without a code in the page", async () => {
    const page = await settingsPage();
    expect(page.status).toBe(200);
    const text = textOf(page.html);
    expect(text).toContain("Transfer settings of adalovelace.com");
    expect(page.html).toContain('role="switch" aria-checked="true" name="transfer_lock" value="false"');
    expect(text).toContain(
      "The transfer code is available from January 21, 2027. Registries allow no transfer within 60 days of a registration or a transfer.",
    );
    expect(page.html).not.toContain("Show the transfer code");
    expect(page.html).not.toContain("tac_");
  });
});

describe("POST /domains/{id}/transfer-lock", () => {
  it("turns the lock off and on as the API would, saying so, with domain.updated", async () => {
    const off = await signedIn.browser.post(`/domains/${signedIn.domainId}/transfer-lock`, { transfer_lock: "false" });
    expect(off.url).toBe(`${signedIn.server.embedUrl}/domains/${signedIn.domainId}/transfer?done=lock`);
    expect(textOf(off.html)).toContain("The transfer lock of adalovelace.com is off.");
    expect(off.html).toContain('role="switch" aria-checked="false" name="transfer_lock" value="true"');
    expect(await lockOf()).toBe(false);
    expect(signedIn.server.outbox.events.map((event) => event.type)).toEqual(["domain.updated"]);
    const on = await signedIn.browser.post(`/domains/${signedIn.domainId}/transfer-lock`, { transfer_lock: "true" });
    expect(textOf(on.html)).toContain("The transfer lock of adalovelace.com is on.");
    expect(await lockOf()).toBe(true);
  });
});

describe("POST /domains/{id}/transfer-code", () => {
  it("reveals the code on request only, after the 60 days, the same as the API's, and not cached", async () => {
    await advance(60 * DAY_S);
    const page = await settingsPage();
    expect(page.html).toContain("Show the transfer code");
    expect(page.html).not.toContain("tac_");
    const revealed = await signedIn.browser.post(`/domains/${signedIn.domainId}/transfer-code`, {});
    expect(revealed.status).toBe(200);
    expect(revealed.headers.get("cache-control")).toBe("no-store");
    const { data } = await signedIn.server.api.GET("/api/v1/domains/{domain_id}/auth_code", path());
    expect(revealed.html).toContain(`value="${data!.auth_code}" readonly`);
    expect(textOf(revealed.html)).toContain("The transfer lock is on: turn it off before the other registrar uses the code.");
    // Not kept in the page: the next visit asks again.
    expect((await settingsPage()).html).not.toContain(data!.auth_code);
  });

  it("within the 60 days says from when, and reveals nothing", async () => {
    await settingsPage();
    const refused = await signedIn.browser.post(`/domains/${signedIn.domainId}/transfer-code`, {});
    expect(refused.status).toBe(409);
    expect(textOf(refused.html)).toContain("The transfer code is available from January 21, 2027.");
    expect(refused.html).not.toContain("tac_");
  });
});

describe("POST /domains/{id}/transfer-out", () => {
  it("shows a pending request; rejecting it keeps the domain and says so", async () => {
    await requested();
    const page = await settingsPage();
    expect(textOf(page.html)).toContain(
      "Example Registrar Inc. asked on January 22, 2027 to take this domain over. Unless you reject the request, the domain moves there on January 27, 2027.",
    );
    const rejected = await signedIn.browser.post(`/domains/${signedIn.domainId}/transfer-out`, { decision: "reject" });
    expect(rejected.url).toBe(`${signedIn.server.embedUrl}/domains/${signedIn.domainId}/transfer?done=rejected`);
    expect(textOf(rejected.html)).toContain("You rejected the transfer. adalovelace.com stays here.");
    expect(textOf(rejected.html)).toContain("The last transfer request, from Example Registrar Inc., was rejected on January 22, 2027.");
    expect(signedIn.server.outbox.events.map((event) => event.type).at(-1)).toBe("domain.transfer_out.rejected");
  });

  it("approving it moves the domain away: a page says so, and the list no longer has it", async () => {
    await requested();
    await settingsPage();
    const approved = await signedIn.browser.post(`/domains/${signedIn.domainId}/transfer-out`, { decision: "approve" });
    expect(approved.status).toBe(200);
    expect(textOf(approved.html)).toContain("adalovelace.com was transferred to Example Registrar Inc.");
    expect((await signedIn.browser.get("/domains")).html).not.toContain("adalovelace.com");
    expect((await settingsPage()).status).toBe(404);
  });

  it("answers a request answered meanwhile with where the domain stands", async () => {
    await requested();
    await settingsPage();
    await signedIn.server.api.POST("/api/v1/domains/{domain_id}/transfer_out", { ...path(), body: { decision: "reject" } });
    const late = await signedIn.browser.post(`/domains/${signedIn.domainId}/transfer-out`, { decision: "approve" });
    expect(late.status).toBe(409);
    expect(textOf(late.html)).toContain("There is no transfer request to answer any more.");
    expect((await signedIn.server.api.GET("/api/v1/domains/{domain_id}", path())).response.status).toBe(200);
  });
});

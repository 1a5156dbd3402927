/** Registrar controls: the transfer lock, the transfer-out code and outbound transfers (sandbox-simulated). */
import { beforeEach, describe, expect, it } from "vitest";
import { useTestServer } from "../../../support/test-server.js";

const s = useTestServer();
const DAY_S = 86_400;
let domainId = "";
beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  domainId = await s.registerDomainFor("u1", "lovelace.com");
});

const path = (domain_id = domainId) => ({ params: { path: { domain_id } } });
const getDomain = () => s.api.GET("/api/v1/domains/{domain_id}", path());
const setLock = (transfer_lock: boolean) => s.api.PUT("/api/v1/domains/{domain_id}", { ...path(), body: { transfer_lock } });
const authCode = () => s.api.GET("/api/v1/domains/{domain_id}/auth_code", path());
const advance = (seconds: number) => s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds } });
const requestOut = (auth_code: string, gaining_registrar?: string) =>
  s.api.POST("/api/v1/sandbox/domains/{domain_id}/transfer_out", { ...path(), body: { auth_code, gaining_registrar } });
const outbound = () => s.api.GET("/api/v1/domains/{domain_id}/transfer_out", path());
const answer = (decision: "approve" | "reject") =>
  s.api.POST("/api/v1/domains/{domain_id}/transfer_out", { ...path(), body: { decision } });
const eventTypes = () => s.outbox.events.map((event) => event.type).filter((type) => type.startsWith("domain.transfer_out."));

/** Past the waiting period, unlocked, with the code read: ready to be requested. */
async function readyToLeave(): Promise<string> {
  await advance(61 * DAY_S);
  expect((await setLock(false)).response.status).toBe(200);
  const { data } = await authCode();
  return data!.auth_code;
}

describe("transfer lock", () => {
  it("is on after registration, in the detail and the list", async () => {
    expect((await getDomain()).data).toMatchObject({ transfer_lock: true });
    const list = await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } });
    expect(list.data!.domains[0]).toMatchObject({ transfer_lock: true });
  });

  it("is turned off and on through PUT, with domain.updated", async () => {
    const { data } = await setLock(false);
    expect(data).toMatchObject({ transfer_lock: false });
    expect((await getDomain()).data).toMatchObject({ transfer_lock: false });
    const updated = s.outbox.events.filter((event) => event.type === "domain.updated").at(-1)!;
    expect(updated.payload).toMatchObject({ data: { transfer_lock: false } });
    expect((await setLock(true)).data).toMatchObject({ transfer_lock: true });
  });

  it("cannot be changed on a domain that is not active (422 invalid_status)", async () => {
    await s.api.PUT("/api/v1/sandbox/domains/{domain_id}/status", { ...path(), body: { status: "suspended" } });
    const { error, response } = await setLock(false);
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "unprocessable_entity", details: { field: "transfer_lock", code: "invalid_status" } });
  });
});

describe("GET /api/v1/domains/{domain_id}/auth_code", () => {
  it("is refused within 60 days of the registration, saying when it is available", async () => {
    const { error, response } = await authCode();
    expect(response.status).toBe(409);
    expect(error).toMatchObject({
      error: "conflict",
      details: { field: "purchased_at", code: "transfer_not_yet_allowed", available_at: "2027-01-21T10:00:00Z" },
    });
  });

  it("answers one strong code from day 60 on, the same on every read, also while locked", async () => {
    await advance(60 * DAY_S);
    const first = await authCode();
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({ domain_id: domainId, domain_name: "lovelace.com", transfer_lock: true });
    expect(first.data!.auth_code).toMatch(/^tac_[A-Za-z0-9]{24}$/);
    expect((await authCode()).data!.auth_code).toBe(first.data!.auth_code);
  });

  it("gives another partner's domain 403", async () => {
    const { response } = await s.otherPartner.GET("/api/v1/domains/{domain_id}/auth_code", path());
    expect(response.status).toBe(403);
  });
});

describe("outbound transfers", () => {
  it("refuses a locked domain at once (409 transfer_locked)", async () => {
    await advance(61 * DAY_S);
    const code = (await authCode()).data!.auth_code;
    const { error, response } = await requestOut(code);
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ details: { field: "transfer_lock", code: "transfer_locked" } });
    expect(eventTypes()).toEqual([]);
  });

  it("refuses a wrong code at once (422 auth_code)", async () => {
    await readyToLeave();
    const { error, response } = await requestOut("tac_wrong");
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ details: { field: "auth_code", code: "invalid_value" } });
  });

  it("waits for the answer; reject ends it and keeps the domain", async () => {
    const code = await readyToLeave();
    const requested = await requestOut(code, "Example Registrar Inc.");
    expect(requested.response.status).toBe(201);
    expect(requested.data).toMatchObject({ status: "pending", gaining_registrar: "Example Registrar Inc.", completed_at: null });
    expect((await requestOut(code)).error).toMatchObject({ details: { code: "transfer_in_progress" } });
    expect((await answer("reject")).data).toMatchObject({ status: "rejected" });
    expect((await outbound()).data).toMatchObject({ status: "rejected" });
    expect((await getDomain()).response.status).toBe(200);
    expect(eventTypes()).toEqual(["domain.transfer_out.requested", "domain.transfer_out.rejected"]);
    expect((await answer("approve")).error).toMatchObject({ details: { code: "invalid_status" } });
  });

  it("approve completes it: the domain leaves the user", async () => {
    await readyToLeave();
    await requestOut((await authCode()).data!.auth_code);
    expect((await answer("approve")).data).toMatchObject({ status: "completed" });
    expect((await getDomain()).response.status).toBe(404);
    expect(eventTypes()).toEqual(["domain.transfer_out.requested", "domain.transfer_out.completed"]);
    const user = await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } });
    expect(user.data).toMatchObject({ domain_count: 0 });
  });

  it("completes 5 days after the request without an answer, on the sandbox clock", async () => {
    const code = await readyToLeave();
    const { data } = await requestOut(code);
    const early = await advance(5 * DAY_S - 60);
    expect(early.data!.changes).toEqual([]);
    const late = await advance(60);
    expect(late.data!.changes).toEqual([{ object: "transfer", id: data!.id, from: "pending", to: "completed", at: data!.auto_approve_at }]);
    expect((await getDomain()).response.status).toBe(404);
  });

  it.each([
    ["sandbox-approve", "completed"],
    ["sandbox-reject", "rejected"],
    ["sandbox-cancel", "cancelled"],
  ])("magic gaining registrar %s: %s an hour later", async (registrar, status) => {
    const code = await readyToLeave();
    await requestOut(code, registrar);
    const { data } = await advance(3600);
    expect(data!.changes).toMatchObject([{ object: "transfer", from: "pending", to: status }]);
    expect(eventTypes()).toEqual(["domain.transfer_out.requested", `domain.transfer_out.${status}`]);
  });
});

/** Transfers (start, read, the state machine behind them) and the catalogue (TLDs, availability). */
import { beforeEach, describe, expect, it } from "vitest";
import { DAY } from "../../../../server/platform/clock.js";
import { ApiError } from "../../../../server/platform/errors.js";
import { inTransaction } from "../../../../server/application/transactions.js";
import { moveTransfer } from "../../../../server/domain/transfers/transfer-service.js";
import type { TransferStatus } from "../../../../server/domain/transfers/transfer-states.js";
import { useTestServer } from "../../../support/test-server.js";

const s = useTestServer();
beforeEach(async () => {
  await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
  await s.otherPartner.POST("/api/v1/users", { body: { user_identifier: "b1" } });
});

const NOW = "2026-11-22T10:00:00Z";
const TRF_ID = /^trf_[A-Za-z0-9]+$/;

const transfer = (domain_name: string, extra: { user_identifier?: string; extend_registration?: boolean } = {}) =>
  s.api.POST("/api/v1/domains/transfer", { body: { domain_name, user_identifier: "u1", auth_code: "Xk8#pL2q!Rm9", ...extra } });
/** Starts a transfer of partner A's user u1 and returns its id, failing loudly if refused. */
const startedTransfer = async (domain_name = "turing.com", extra: { extend_registration?: boolean } = {}) => {
  const { data, response } = await transfer(domain_name, extra);
  expect(response.status).toBe(201);
  return data!.transfer_id;
};
const getTransfer = (transfer_id: string) => s.api.GET("/api/v1/domains/transfers/{transfer_id}", { params: { path: { transfer_id } } });
const userU1 = async () => (await s.api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u1" } } })).data!;
const domainsOfU1 = async () =>
  (await s.api.GET("/api/v1/users/{user_identifier}/domains", { params: { path: { user_identifier: "u1" } } })).data!;
const availability = (domain_name: string) =>
  s.api.GET("/api/v1/domains/availability/{domain_name}", { params: { path: { domain_name } } });
const moveThrough = async (id: string, ...statuses: TransferStatus[]) => {
  for (const status of statuses) await inTransaction(s.services, (tx) => moveTransfer(tx, id, status));
};
const eventsOf = (type: string) => s.outbox.events.filter((event) => event.type === type);
const invalid = (message: string, code = "invalid_format") => ({
  error: "validation_error",
  message,
  details: { field: "domain_name", code },
});

describe("POST /api/v1/domains/transfer", () => {
  it("starts a pending transfer with 201, costing the TLD's transfer price, due 7 days later", async () => {
    const { data, response } = await transfer("turing.com");
    expect(response.status).toBe(201);
    expect(data).toEqual({
      transfer_id: expect.stringMatching(TRF_ID),
      domain_name: "turing.com",
      status: "pending",
      estimated_completion: "2026-11-29T10:00:00Z",
      cost: "12.99",
      currency: "USD",
    });
  });

  it("adds one year's renewal price when extend_registration is true", async () => {
    const { data } = await transfer("turing.com", { extend_registration: true });
    expect(data).toMatchObject({ cost: "27.98", currency: "USD" });
  });

  it("charges the transfer price of the name's TLD, not its registration price", async () => {
    expect((await transfer("turing.io")).data!.cost).toBe("49.00");
    expect((await transfer("turing.net", { extend_registration: false })).data!.cost).toBe("13.99");
    expect((await transfer("turing.org", { extend_registration: true })).data!.cost).toBe("23.98");
  });

  it("estimates completion 7 days after the clock at the time of the request", async () => {
    s.clock.advance(3 * DAY + 90 * 60_000);
    expect((await transfer("turing.com")).data!.estimated_completion).toBe("2026-12-02T11:30:00Z");
  });

  it("stores the name in lower-case ASCII", async () => {
    expect((await transfer("Turing.COM")).data!.domain_name).toBe("turing.com");
    expect((await transfer("münchen.de")).data!.domain_name).toBe("xn--mnchen-3ya.de");
  });

  it("gives every transfer its own id", async () => {
    const first = await startedTransfer("turing.com");
    const second = await startedTransfer("turing.net");
    expect(first).not.toBe(second);
  });

  it("answers 404 for an unknown user", async () => {
    const { error, response } = await transfer("turing.com", { user_identifier: "nobody" });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "User nobody not found" });
    expect(await s.services.store.activeTransferOf("turing.com")).toBeFalsy();
  });

  it("answers 404 for a user of partner B", async () => {
    const { error, response } = await transfer("turing.com", { user_identifier: "b1" });
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "User b1 not found" });
  });

  it("answers 409 already_registered for a domain registered through this service", async () => {
    await s.registerDomainFor("u1", "adalovelace.com");
    const { error, response } = await transfer("adalovelace.com");
    expect(response.status).toBe(409);
    expect(error).toEqual({
      error: "conflict",
      message: "adalovelace.com is already registered through this service",
      details: { field: "domain_name", code: "already_registered" },
    });
    expect(await s.services.store.activeTransferOf("adalovelace.com")).toBeFalsy();
  });

  it("answers 409 for a domain registered by another partner's user, whatever the case of the name", async () => {
    await s.registerDomainFor("b1", "gracehopper.com", "partner_b");
    const { error, response } = await transfer("GraceHopper.com");
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ error: "conflict", details: { code: "already_registered" } });
  });

  it("answers 409 transfer_in_progress for a second transfer of the same name", async () => {
    await startedTransfer("turing.com");
    const { error, response } = await transfer("turing.com", { extend_registration: true });
    expect(response.status).toBe(409);
    expect(error).toEqual({
      error: "conflict",
      message: "A transfer of turing.com is already in progress",
      details: { field: "domain_name", code: "transfer_in_progress" },
    });
  });

  it("answers 409 while the first transfer is in_progress, also to partner B", async () => {
    const id = await startedTransfer("turing.com");
    await moveThrough(id, "in_progress");
    expect((await transfer("turing.com")).response.status).toBe(409);
    const other = await s.otherPartner.POST("/api/v1/domains/transfer", {
      body: { domain_name: "turing.com", user_identifier: "b1", auth_code: "x" },
    });
    expect(other.response.status).toBe(409);
  });

  it.each([["failed" as const], ["cancelled" as const]])("accepts a new transfer once the first has %s", async (final) => {
    const id = await startedTransfer("turing.com");
    await moveThrough(id, "in_progress", final);
    expect((await transfer("turing.com")).response.status).toBe(201);
  });

  it.each([
    ["a name without a TLD", "turing", invalid("domain_name must be a domain name such as example.com")],
    ["a TLD the service does not sell", "turing.zz", invalid("The TLD .zz is not offered", "invalid_value")],
    [
      "a .uk name (moved by tag change, transfer price 0)",
      "turing.uk",
      invalid(".uk domains are moved by a registrar tag change, not by a transfer", "invalid_value"),
    ],
    ["a label starting with a hyphen", "-turing.com", invalid("domain_name must be a domain name such as example.com")],
    ["a label ending with a hyphen", "turing-.com", invalid("domain_name must be a domain name such as example.com")],
    ["a label of 64 characters", `${"a".repeat(64)}.com`, invalid("domain_name must be a domain name such as example.com")],
    ["an underscore", "tu_ring.com", invalid("domain_name must be a domain name such as example.com")],
    ["a subdomain", "www.turing.com", invalid("domain_name must be a domain name such as example.com")],
    ["an empty label", ".com", invalid("domain_name must be a domain name such as example.com")],
    ["hyphens in the third and fourth position", "ab--cd.com", invalid("domain_name must be a domain name such as example.com")],
  ])("refuses %s with 422 and starts nothing", async (_label, domain_name, expected) => {
    const { error, response } = await transfer(domain_name);
    expect(response.status).toBe(422);
    expect(error).toEqual(expected);
    expect(s.outbox.events).toEqual([]);
  });

  it("accepts a label of 63 characters", async () => {
    expect((await transfer(`${"a".repeat(63)}.com`)).response.status).toBe(201);
  });

  it.each([["😀.com"], ["xn--e28h.com"], ["☃.com"], ["xn--n3h.com"]])(
    "refuses %j, a name IDNA2008 does not allow, with 422 and starts nothing",
    async (domain_name) => {
      const { error, response } = await transfer(domain_name);
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ error: "validation_error", details: { field: "domain_name", code: "invalid_format" } });
      expect(s.outbox.events).toEqual([]);
    },
  );

  it("takes the Unicode and the A-label spelling of a name as one name: the second transfer is in progress already", async () => {
    await startedTransfer("münchen.de");
    const { error, response } = await transfer("xn--mnchen-3ya.de");
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ details: { code: "transfer_in_progress" } });
  });

  it("refuses an unsold TLD before looking at the user", async () => {
    const { response } = await transfer("turing.zz", { user_identifier: "nobody" });
    expect(response.status).toBe(422);
  });

  it.each([
    [
      "auth_code missing",
      { domain_name: "turing.com", user_identifier: "u1" },
      "auth_code",
      "missing_required_field",
      "auth_code is required",
    ],
    ["domain_name missing", { user_identifier: "u1", auth_code: "x" }, "domain_name", "missing_required_field", "domain_name is required"],
    [
      "user_identifier missing",
      { domain_name: "turing.com", auth_code: "x" },
      "user_identifier",
      "missing_required_field",
      "user_identifier is required",
    ],
    [
      "an unknown field",
      { domain_name: "turing.com", user_identifier: "u1", auth_code: "x", years: 2 },
      "years",
      "unknown_field",
      "years is not an accepted field",
    ],
  ])("refuses %s with 400", async (_label, body, field, code, message) => {
    const { error, response } = await s.api.POST("/api/v1/domains/transfer", { body: body as never });
    expect(response.status).toBe(400);
    expect(error).toEqual({ error: "validation_error", message, details: { field, code } });
    expect(await s.services.store.activeTransferOf("turing.com")).toBeFalsy();
  });

  it("refuses extend_registration that is not a boolean with 400 invalid_type", async () => {
    const { error, response } = await s.api.POST("/api/v1/domains/transfer", {
      body: { domain_name: "turing.com", user_identifier: "u1", auth_code: "x", extend_registration: "yes" } as never,
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "extend_registration", code: "invalid_type" } });
  });

  it("refuses an empty auth_code with 422 too_short", async () => {
    const { error, response } = await s.api.POST("/api/v1/domains/transfer", {
      body: { domain_name: "turing.com", user_identifier: "u1", auth_code: "" },
    });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "auth_code", code: "too_short" } });
  });
});

describe("GET /api/v1/domains/transfers/{transfer_id}", () => {
  it("reads a pending transfer with 200: started_at set, completed_at and domain_id null", async () => {
    const id = await startedTransfer("turing.com");
    s.clock.advance(DAY);
    const { data, response } = await getTransfer(id);
    expect(response.status).toBe(200);
    expect(data).toEqual({
      transfer_id: id,
      domain_name: "turing.com",
      status: "pending",
      started_at: NOW,
      completed_at: null,
      domain_id: null,
      history: [{ status: "pending", at: NOW }],
    });
  });

  it("answers 403 when partner B reads partner A's transfer", async () => {
    const id = await startedTransfer("turing.com");
    const { error, response } = await s.otherPartner.GET("/api/v1/domains/transfers/{transfer_id}", {
      params: { path: { transfer_id: id } },
    });
    expect(response.status).toBe(403);
    expect(error).toEqual({ error: "forbidden", message: "You do not have access to this transfer" });
  });

  it("answers 404 for an unknown transfer", async () => {
    const { error, response } = await getTransfer("trf_nope");
    expect(response.status).toBe(404);
    expect(error).toEqual({ error: "not_found", message: "Transfer trf_nope not found" });
  });

  it("answers 400 for an id longer than 64 characters", async () => {
    const { error, response } = await getTransfer(`trf_${"x".repeat(61)}`);
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: "validation_error", details: { field: "transfer_id", code: "too_long" } });
  });
});

describe("the transfer state machine", () => {
  it("completes pending -> in_progress -> completed: the domain is created under the user", async () => {
    const id = await startedTransfer("turing.com");
    s.clock.advance(DAY);
    await moveThrough(id, "in_progress");
    expect((await getTransfer(id)).data).toMatchObject({ status: "in_progress", completed_at: null, domain_id: null });
    s.clock.advance(4 * DAY);
    await moveThrough(id, "completed");

    const { data } = await getTransfer(id);
    expect(data).toEqual({
      transfer_id: id,
      domain_name: "turing.com",
      status: "completed",
      started_at: NOW,
      completed_at: "2026-11-27T10:00:00Z",
      domain_id: expect.stringMatching(/^dom_/),
      history: [
        { status: "pending", at: NOW },
        { status: "in_progress", at: "2026-11-23T10:00:00Z" },
        { status: "completed", at: "2026-11-27T10:00:00Z" },
      ],
    });
    const domains = await domainsOfU1();
    expect(domains.total).toBe(1);
    expect(domains.domains[0]).toMatchObject({
      id: data!.domain_id,
      name: "turing.com",
      purchased_at: "2026-11-27T10:00:00Z",
      expires_at: "2027-11-27T10:00:00Z",
    });
    expect((await s.api.GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: data!.domain_id! } } })).data).toMatchObject({
      name: "turing.com",
      user_identifier: "u1",
    });
  });

  it("charges the user the transfer cost on completion, not before", async () => {
    const id = await startedTransfer("turing.com", { extend_registration: true });
    expect((await userU1()).total_spent).toBe("0.00");
    await moveThrough(id, "in_progress", "completed");
    expect((await userU1()).total_spent).toBe("27.98");
    expect((await userU1()).domain_count).toBe(1);
  });

  it("extends the registration by a year on completion when asked", async () => {
    const id = await startedTransfer("turing.com", { extend_registration: true });
    await moveThrough(id, "in_progress", "completed");
    expect((await domainsOfU1()).domains[0]!.expires_at).toBe("2028-11-22T10:00:00Z");
  });

  it("emits transfer.status_changed with previous_status on every transition", async () => {
    const id = await startedTransfer("turing.com");
    await moveThrough(id, "in_progress", "completed");
    const events = eventsOf("transfer.status_changed");
    expect(events.map((event) => event.payload)).toEqual([
      {
        previous_status: "pending",
        data: {
          transfer_id: id,
          domain_name: "turing.com",
          status: "in_progress",
          started_at: NOW,
          completed_at: null,
          domain_id: null,
          history: [
            { status: "pending", at: NOW },
            { status: "in_progress", at: NOW },
          ],
        },
      },
      {
        previous_status: "in_progress",
        data: expect.objectContaining({
          transfer_id: id,
          status: "completed",
          completed_at: NOW,
          domain_id: expect.stringMatching(/^dom_/),
        }),
      },
    ]);
    expect(events.every((event) => event.partnerId === "partner_a")).toBe(true);
  });

  it("emits domain.registered with the new domain when a transfer completes", async () => {
    const id = await startedTransfer("turing.com");
    await moveThrough(id, "in_progress");
    expect(eventsOf("domain.registered")).toEqual([]);
    await moveThrough(id, "completed");
    const domainId = (await getTransfer(id)).data!.domain_id;
    expect(eventsOf("domain.registered")).toEqual([
      expect.objectContaining({
        partnerId: "partner_a",
        payload: { data: expect.objectContaining({ id: domainId, name: "turing.com", user_identifier: "u1" }) },
      }),
    ]);
  });

  it("makes the name taken once completed: availability false, a new transfer 409 already_registered", async () => {
    const id = await startedTransfer("turing.com");
    await moveThrough(id, "in_progress", "completed");
    expect((await availability("turing.com")).data).toMatchObject({ available: false, price: null, currency: null });
    expect((await transfer("turing.com")).error).toMatchObject({ details: { code: "already_registered" } });
  });

  it.each([
    ["failed from in_progress", ["in_progress", "failed"] as TransferStatus[]],
    ["cancelled from pending", ["cancelled"] as TransferStatus[]],
    ["cancelled from in_progress", ["in_progress", "cancelled"] as TransferStatus[]],
  ])("leaves no domain and no charge when %s", async (_label, path) => {
    const id = await startedTransfer("turing.com");
    s.clock.advance(2 * DAY);
    await moveThrough(id, ...path);
    const final = path[path.length - 1]!;
    expect((await getTransfer(id)).data).toEqual({
      transfer_id: id,
      domain_name: "turing.com",
      status: final,
      started_at: NOW,
      completed_at: "2026-11-24T10:00:00Z",
      domain_id: null,
      history: [{ status: "pending", at: NOW }, ...path.map((status) => ({ status, at: "2026-11-24T10:00:00Z" }))],
    });
    expect(await domainsOfU1()).toEqual({ domains: [], total: 0, next_cursor: null });
    expect((await userU1()).total_spent).toBe("0.00");
    expect(eventsOf("transfer.status_changed").at(-1)!.payload).toMatchObject({
      previous_status: path.length > 1 ? path[path.length - 2] : "pending",
      data: { status: final },
    });
    expect(eventsOf("domain.registered")).toEqual([]);
  });

  it.each([
    ["pending", [], "completed"],
    ["pending", [], "failed"],
    ["pending", [], "pending"],
    ["in_progress", ["in_progress"], "pending"],
    ["in_progress", ["in_progress"], "in_progress"],
    ["completed", ["in_progress", "completed"], "pending"],
    ["completed", ["in_progress", "completed"], "cancelled"],
    ["failed", ["in_progress", "failed"], "in_progress"],
    ["cancelled", ["cancelled"], "in_progress"],
  ] as Array<[TransferStatus, TransferStatus[], TransferStatus]>)(
    "refuses %s -> %s with a 409 ApiError and changes nothing",
    async (from, path, to) => {
      const id = await startedTransfer("turing.com");
      await moveThrough(id, ...path);
      const before = (await getTransfer(id)).data;
      const eventCount = s.outbox.events.length;
      let thrown: unknown;
      try {
        await inTransaction(s.services, (tx) => moveTransfer(tx, id, to));
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ApiError);
      expect(thrown).toMatchObject({
        status: 409,
        code: "conflict",
        message: `A ${from} transfer cannot become ${to}`,
        details: { field: "status", code: "invalid_status" },
      });
      expect((await getTransfer(id)).data).toEqual(before);
      expect(s.outbox.events).toHaveLength(eventCount);
    },
  );

  it("refuses to move an unknown transfer with a 404 ApiError", async () => {
    await expect(inTransaction(s.services, (tx) => moveTransfer(tx, "trf_nope", "in_progress"))).rejects.toThrow(
      expect.objectContaining({ status: 404, code: "not_found" }),
    );
  });
});

describe("GET /api/v1/domains/tlds", () => {
  it("lists at least 20 TLDs ordered by name, prices as decimal strings in USD", async () => {
    const { data, response } = await s.api.GET("/api/v1/domains/tlds");
    expect(response.status).toBe(200);
    const names = data!.tlds.map((entry) => entry.tld);
    expect(names.length).toBeGreaterThanOrEqual(20);
    expect(names).toEqual([...names].sort());
    expect(new Set(names).size).toBe(names.length);
    for (const entry of data!.tlds) {
      expect(entry.tld).toMatch(/^[a-z]{2,}$/);
      for (const price of [entry.registration_price, entry.renewal_price, entry.transfer_price])
        expect(price).toMatch(/^(0|[1-9][0-9]*)\.[0-9]{2}$/);
      expect(entry.currency).toBe("USD");
    }
  });

  it("gives .com its catalogue prices", async () => {
    const { data } = await s.api.GET("/api/v1/domains/tlds");
    expect(data!.tlds.find((entry) => entry.tld === "com")).toEqual({
      tld: "com",
      registration_price: "12.99",
      renewal_price: "14.99",
      transfer_price: "12.99",
      currency: "USD",
      available: true,
    });
  });

  it("lists .uk with a transfer price of 0.00 and .ai closed to new registrations", async () => {
    const { data } = await s.api.GET("/api/v1/domains/tlds");
    expect(data!.tlds.find((entry) => entry.tld === "uk")).toMatchObject({ transfer_price: "0.00", available: true });
    expect(data!.tlds.find((entry) => entry.tld === "ai")).toMatchObject({ available: false });
  });
});

describe("GET /api/v1/domains/availability/{domain_name}", () => {
  it("reports an available name with its price in USD", async () => {
    const { data, response } = await availability("turing.com");
    expect(response.status).toBe(200);
    expect(data).toEqual({
      domain_name: "turing.com",
      available: true,
      price: "12.99",
      currency: "USD",
      premium: false,
      suggestions: expect.any(Array),
    });
  });

  it("reports a registered name as taken, with null price and currency", async () => {
    await s.registerDomainFor("u1", "adalovelace.com");
    const { data } = await availability("adalovelace.com");
    expect(data).toEqual({
      domain_name: "adalovelace.com",
      available: false,
      price: null,
      currency: null,
      premium: false,
      suggestions: expect.any(Array),
    });
  });

  it("reports a name being transferred as taken", async () => {
    await startedTransfer("turing.com");
    expect((await availability("turing.com")).data).toMatchObject({ available: false, price: null, currency: null });
  });

  it.each([["nic.com"], ["whois.net"], ["example.org"]])("reports the reserved name %s as unavailable", async (name) => {
    expect((await availability(name)).data).toMatchObject({ domain_name: name, available: false, price: null, currency: null });
  });

  it("reports a name under a TLD closed to registrations as unavailable", async () => {
    expect((await availability("turing.ai")).data).toMatchObject({ available: false, price: null, currency: null });
  });

  it.each([
    ["x.com", true, "324.75"],
    ["ab.com", true, "324.75"],
    ["abc.io", true, "975.00"],
    ["abcd.com", false, "12.99"],
    ["turing.io", false, "39.00"],
  ])("prices %s with premium %s at %s", async (name, premium, price) => {
    expect((await availability(name)).data).toMatchObject({ domain_name: name, available: true, premium, price, currency: "USD" });
  });

  it("flags a taken premium name as premium without a price", async () => {
    await s.registerDomainFor("u1", "ab.com");
    expect((await availability("ab.com")).data).toMatchObject({ available: false, premium: true, price: null, currency: null });
  });

  it("treats the name case-insensitively and answers in lower case", async () => {
    await s.registerDomainFor("u1", "adalovelace.com");
    expect((await availability("AdaLovelace.COM")).data).toMatchObject({ domain_name: "adalovelace.com", available: false });
    expect((await availability("EXAMPLE.COM")).data!.domain_name).toBe("example.com");
  });

  it("normalises a Unicode name to its xn-- form, the same as the ASCII form", async () => {
    const unicode = (await availability("münchen.de")).data!;
    expect(unicode).toMatchObject({ domain_name: "xn--mnchen-3ya.de", available: true, price: "8.99" });
    expect((await availability("xn--mnchen-3ya.de")).data).toEqual(unicode);
  });

  it("accepts a label of 63 characters", async () => {
    expect((await availability(`${"a".repeat(63)}.com`)).response.status).toBe(200);
  });

  // 😀.com and xn--e28h.com: the kit's catalogue.invalid-names-refused.
  it.each([["☃.com"], ["xn--n3h.com"]])(
    "refuses %j, a name IDNA2008 does not allow, with 422 instead of reporting it available",
    async (name) => {
      const { error, response } = await availability(name);
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ error: "validation_error", details: { field: "domain_name", code: "invalid_format" } });
    },
  );

  it.each([
    ["no TLD", "turing", invalid("domain_name must be a domain name such as example.com")],
    ["an unsold TLD", "turing.zz", invalid("The TLD .zz is not offered", "invalid_value")],
    ["a leading hyphen", "-turing.com", invalid("domain_name must be a domain name such as example.com")],
    ["a trailing hyphen", "turing-.com", invalid("domain_name must be a domain name such as example.com")],
    ["a label of 64 characters", `${"a".repeat(64)}.com`, invalid("domain_name must be a domain name such as example.com")],
    ["a space", "tu ring.com", invalid("domain_name must be a domain name such as example.com")],
    ["a subdomain", "www.turing.com", invalid("domain_name must be a domain name such as example.com")],
    ["a bare TLD", "com", invalid("domain_name must be a domain name such as example.com")],
  ])("refuses a name with %s with 422", async (_label, name, expected) => {
    const { error, response } = await availability(name);
    expect(response.status).toBe(422);
    expect(error).toEqual(expected);
  });

  it("suggests at most 5 available names, none equal to the name asked", async () => {
    await s.registerDomainFor("u1", "adalovelace.net");
    const { data } = await availability("adalovelace.com");
    expect(data!.suggestions.length).toBeGreaterThan(0);
    expect(data!.suggestions.length).toBeLessThanOrEqual(5);
    expect(data!.suggestions).not.toContain("adalovelace.com");
    expect(data!.suggestions).not.toContain("adalovelace.net");
    expect(new Set(data!.suggestions).size).toBe(data!.suggestions.length);
    for (const suggestion of data!.suggestions) {
      expect((await availability(suggestion)).data).toMatchObject({ domain_name: suggestion, available: true });
    }
  });

  it("suggests no name that is being transferred", async () => {
    await startedTransfer("turing.net");
    expect((await availability("turing.com")).data!.suggestions).not.toContain("turing.net");
  });
});

/**
 * What every Persistence promises, written once: each implementation's test file runs it with one
 * line (`describeStoreContract("PGlite", open)`). Each test works under partner and user ids of its
 * own, so the tests share one database.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Cents } from "../../../server/platform/money.js";
import type { OutboxEvent } from "../../../server/platform/events.js";
import type { IdempotencyScope } from "../../../server/platform/idempotency/idempotency-store.js";
import type { RequestRecord } from "../../../server/partners/request-history/request-history-store.js";
import type { Persistence } from "../../../server/store/persistence.js";
import type { DnsRecordRow } from "../../../server/domain/dns/record-store.js";
import type { DomainRow } from "../../../server/domain/domains/domain-store.js";
import type { TransferRow } from "../../../server/domain/transfers/transfer-store.js";
import type { UserRow } from "../../../server/domain/users/user-store.js";
import type { WebhookDeliveryRow, WebhookEndpointRow } from "../../../server/domain/webhooks/webhook-store.js";
import { describeDelegationStore } from "./delegation-store-contract.js";
import { describeConnectionStore } from "./connection-store-contract.js";
import { describeDomainDetailStore } from "./domain-detail-store-contract.js";
import { describeWindowStore } from "./window-store-contract.js";
import { describeTransferOutStore } from "./transfer-out-store-contract.js";
import { describeUserPages } from "./user-pages-contract.js";

export const at = (iso: string) => new Date(`2026-01-01T${iso}Z`);
export const uniqueId = (prefix: string) => `${prefix}_${randomUUID().slice(0, 12)}`;

export function userRow(partnerId: string, userIdentifier: string, overrides: Partial<UserRow> = {}): UserRow {
  return {
    partnerId,
    userIdentifier,
    email: null,
    createdAt: at("00:00:00"),
    lastLogin: at("00:00:00"),
    updatedAt: at("00:00:00"),
    totalSpent: 0 as Cents,
    ...overrides,
  };
}

export function domainRow(owner: UserRow, overrides: Partial<DomainRow> = {}): DomainRow {
  return {
    id: uniqueId("dom"),
    partnerId: owner.partnerId,
    userIdentifier: owner.userIdentifier,
    name: `${uniqueId("d")}.com`,
    status: "active",
    purchasedAt: at("00:00:00"),
    expiresAt: new Date("2027-01-01T00:00:00Z"),
    autoRenew: true,
    whoisPrivacy: false,
    nameservers: ["ns1.example.net", "ns2.example.net"],
    registrationPrice: 1299 as Cents,
    renewalPrice: 1499 as Cents,
    currency: "USD",
    updatedAt: at("00:00:00"),
    ...overrides,
  };
}

export function recordRow(domainId: string, overrides: Partial<DnsRecordRow> = {}): DnsRecordRow {
  return {
    id: uniqueId("rec"),
    domainId,
    type: "A",
    name: "www",
    content: "192.0.2.1",
    ttl: 3600,
    priority: null,
    comment: null,
    locked: false,
    createdAt: at("00:00:00"),
    updatedAt: at("00:00:00"),
    ...overrides,
  };
}

export function transferRow(owner: UserRow, overrides: Partial<TransferRow> = {}): TransferRow {
  return {
    id: uniqueId("trf"),
    partnerId: owner.partnerId,
    userIdentifier: owner.userIdentifier,
    domainName: `${uniqueId("t")}.com`,
    status: "pending",
    authCode: "auth-code",
    extendRegistration: true,
    cost: 999 as Cents,
    currency: "USD",
    startedAt: at("00:00:00"),
    estimatedCompletion: at("01:00:00"),
    completedAt: null,
    domainId: null,
    history: [{ status: "pending", at: at("00:00:00") }],
    ...overrides,
  };
}

function endpointRow(partnerId: string, overrides: Partial<WebhookEndpointRow> = {}): WebhookEndpointRow {
  return {
    id: uniqueId("whe"),
    partnerId,
    url: "https://receiver.example/hooks",
    events: ["domain.registered"],
    description: null,
    enabled: true,
    failing: false,
    secret: "whsec_one",
    previousSecret: { secret: "whsec_old", expiresAt: at("02:00:00") },
    createdAt: at("00:00:00"),
    updatedAt: at("00:00:00"),
    ...overrides,
  };
}

function deliveryRow(endpoint: WebhookEndpointRow, overrides: Partial<WebhookDeliveryRow> = {}): WebhookDeliveryRow {
  return {
    id: uniqueId("whd"),
    endpointId: endpoint.id,
    partnerId: endpoint.partnerId,
    event: {
      id: uniqueId("evt"),
      partnerId: endpoint.partnerId,
      type: "domain.registered",
      createdAt: at("00:00:00"),
      payload: { name: "a.com" },
    },
    status: "pending",
    attempts: [],
    nextAttemptAt: at("00:00:00"),
    createdAt: at("00:00:00"),
    ...overrides,
  };
}

export function describeStoreContract(name: string, open: () => Promise<{ persistence: Persistence; close(): Promise<void> }>): void {
  describe(`the store contract on ${name}`, () => {
    let persistence: Persistence;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ persistence, close } = await open());
    });
    afterAll(() => close());

    /** A partner of the test's own with one user. */
    async function aUser(overrides: Partial<UserRow> = {}) {
      const user = userRow(uniqueId("ptn"), uniqueId("usr"), overrides);
      await persistence.store.saveUser(user);
      return user;
    }
    async function aDomain(overrides: Partial<DomainRow> = {}) {
      const user = await aUser();
      const domain = domainRow(user, overrides);
      await persistence.store.saveDomain(domain);
      return { user, domain };
    }

    describeDelegationStore(() => persistence);
    describeConnectionStore(() => persistence);
    describeTransferOutStore(() => persistence);
    describeUserPages(() => persistence);
    describeDomainDetailStore(() => persistence);
    describeWindowStore(() => persistence);

    describe("users", () => {
      it("finds a saved user as saved, and a changed one as changed", async () => {
        const user = await aUser({ email: "a@example.com", totalSpent: 2500 as Cents });
        expect(await persistence.store.findUser(user.partnerId, user.userIdentifier)).toEqual(user);
        const changed = { ...user, lastLogin: at("05:00:00"), totalSpent: 4000 as Cents };
        await persistence.store.saveUser(changed);
        expect(await persistence.store.findUser(user.partnerId, user.userIdentifier)).toEqual(changed);
        expect(await persistence.store.findUser(user.partnerId, "someone-else")).toBeUndefined();
      });

      it("pages users by each sort, both directions, ties by user_identifier ascending, with domain counts and the total", async () => {
        const partnerId = uniqueId("ptn");
        const users = [
          userRow(partnerId, "c", { createdAt: at("01:00:00"), lastLogin: at("03:00:00") }),
          userRow(partnerId, "a", { createdAt: at("02:00:00"), lastLogin: at("01:00:00") }),
          userRow(partnerId, "b", { createdAt: at("02:00:00"), lastLogin: at("02:00:00") }),
        ];
        for (const user of users) await persistence.store.saveUser(user);
        await persistence.store.saveDomain(domainRow(users[1]!));
        await persistence.store.saveDomain(domainRow(users[1]!));
        await persistence.store.saveDomain(domainRow(users[0]!));
        const page = async (sort: "created_at" | "last_login" | "domain_count", order: "asc" | "desc", offset = 0, limit = 10) => {
          const result = await persistence.store.listUsers(partnerId, { sort, order, offset, limit });
          return { ids: result.users.map((entry) => `${entry.user.userIdentifier}${entry.domainCount}`), total: result.total };
        };
        expect(await page("created_at", "asc")).toEqual({ ids: ["c1", "a2", "b0"], total: 3 });
        expect(await page("created_at", "desc")).toEqual({ ids: ["a2", "b0", "c1"], total: 3 });
        expect(await page("last_login", "asc")).toEqual({ ids: ["a2", "b0", "c1"], total: 3 });
        expect(await page("last_login", "desc")).toEqual({ ids: ["c1", "b0", "a2"], total: 3 });
        expect(await page("domain_count", "asc")).toEqual({ ids: ["b0", "c1", "a2"], total: 3 });
        expect(await page("domain_count", "desc")).toEqual({ ids: ["a2", "c1", "b0"], total: 3 });
        expect(await page("domain_count", "desc", 1, 1)).toEqual({ ids: ["c1"], total: 3 });
        expect(await page("domain_count", "desc", 5, 1)).toEqual({ ids: [], total: 3 });
        expect(await persistence.store.listUsers(uniqueId("ptn"), { sort: "created_at", order: "asc", offset: 0, limit: 5 })).toEqual({
          users: [],
          total: 0,
        });
      });

      it("deletes a user with its domains, records, transfers and login sessions, and keeps what answers its browser sessions", async () => {
        const { user, domain } = await aDomain();
        const record = recordRow(domain.id);
        await persistence.store.saveRecord(record);
        const transfer = transferRow(user);
        await persistence.store.saveTransfer(transfer);
        await persistence.store.saveSession({
          tokenHash: uniqueId("tok"),
          partnerId: user.partnerId,
          userIdentifier: user.userIdentifier,
          expiresAt: at("12:00:00"),
          locale: null,
        });
        const [tokenHash] = await persistence.store.sessionsOfUser(user.partnerId, user.userIdentifier);
        const embed = {
          idHash: uniqueId("emb"),
          loginTokenHash: tokenHash!,
          partnerId: user.partnerId,
          userIdentifier: user.userIdentifier,
          csrfToken: "csrf",
        };
        await persistence.store.saveEmbedSession(embed);

        await persistence.store.deleteUser(user.partnerId, user.userIdentifier);

        expect(await persistence.store.findUser(user.partnerId, user.userIdentifier)).toBeUndefined();
        expect(await persistence.store.findDomain(domain.id)).toBeUndefined();
        expect(await persistence.store.findDomainByName(domain.name)).toBeUndefined();
        expect(await persistence.store.findRecord(record.id)).toBeUndefined();
        expect(await persistence.store.findTransfer(transfer.id)).toBeUndefined();
        expect(await persistence.store.activeTransferOf(transfer.domainName)).toBeUndefined();
        expect(await persistence.store.findSession(tokenHash!)).toBeUndefined();
        expect(await persistence.store.findEmbedSession(embed.idHash)).toBeUndefined();
        expect(await persistence.store.findEndedEmbedSession(embed.idHash)).toEqual({
          idHash: embed.idHash,
          partnerId: user.partnerId,
          expiresAt: at("12:00:00"),
        });
        expect(await persistence.store.partnersWithData()).not.toContain(user.partnerId);
      });

      it("deletes every user of a partner on a sandbox reset, and no other partner's", async () => {
        const one = await aDomain();
        const other = await aUser();
        await persistence.store.saveUser(userRow(one.user.partnerId, uniqueId("usr")));
        expect(await persistence.store.partnersWithData()).toEqual(expect.arrayContaining([one.user.partnerId, other.partnerId]));
        await persistence.store.deletePartnerData(one.user.partnerId);
        expect(
          (await persistence.store.listUsers(one.user.partnerId, { sort: "created_at", order: "asc", offset: 0, limit: 10 })).total,
        ).toBe(0);
        expect(await persistence.store.findDomain(one.domain.id)).toBeUndefined();
        expect(await persistence.store.findUser(other.partnerId, other.userIdentifier)).toEqual(other);
        expect(await persistence.store.partnersWithData()).not.toContain(one.user.partnerId);
      });
    });

    describe("domains", () => {
      it("finds a domain by id and by name, copies that do not change the stored one", async () => {
        const { domain } = await aDomain();
        const found = await persistence.store.findDomain(domain.id);
        expect(found).toEqual(domain);
        found!.nameservers.push("ns3.example.net");
        expect(await persistence.store.findDomainByName(domain.name)).toEqual(domain);
        expect(await persistence.store.findDomain("dom_unknown")).toBeUndefined();
      });

      it("lists a user's domains newest purchase first, ties by name, and counts them", async () => {
        const user = await aUser();
        const older = domainRow(user, { name: `b-${uniqueId("x")}.com`, purchasedAt: at("01:00:00") });
        const newerB = domainRow(user, { name: `b-${uniqueId("x")}.com`, purchasedAt: at("02:00:00") });
        const newerA = domainRow(user, { name: `a-${uniqueId("x")}.com`, purchasedAt: at("02:00:00") });
        for (const domain of [older, newerB, newerA]) await persistence.store.saveDomain(domain);
        expect((await persistence.store.domainsOfUser(user.partnerId, user.userIdentifier)).map((d) => d.id)).toEqual([
          newerA.id,
          newerB.id,
          older.id,
        ]);
        expect(await persistence.store.countDomains(user.partnerId, user.userIdentifier)).toBe(3);
        const expired = domainRow(user, { name: `e-${uniqueId("x")}.com`, status: "expired", expiresAt: at("00:00:00") });
        await persistence.store.saveDomain(expired);
        const endingBy = async (until: Date) =>
          (await persistence.store.activeDomainsEndingBy(user.partnerId, until)).map((d) => d.id).sort();
        expect(await endingBy(new Date("2100-01-01T00:00:00Z"))).toEqual([older.id, newerA.id, newerB.id].sort());
        expect(await endingBy(new Date("2000-01-01T00:00:00Z"))).toEqual([]);
      });

      it("saves a changed domain in place", async () => {
        const { user, domain } = await aDomain();
        const renewed = { ...domain, expiresAt: new Date("2030-01-01T00:00:00Z"), autoRenew: false };
        await persistence.store.saveDomain(renewed);
        expect(await persistence.store.findDomain(domain.id)).toEqual(renewed);
        expect(await persistence.store.countDomains(user.partnerId, user.userIdentifier)).toBe(1);
      });
    });

    describe("DNS records", () => {
      it("lists records by name without regard to case in code-point order, then type, creation and id, and pages after any position", async () => {
        const { domain } = await aDomain();
        const records = [
          recordRow(domain.id, { name: "b", type: "TXT" }),
          recordRow(domain.id, { name: "B", type: "A", createdAt: at("00:00:02") }),
          recordRow(domain.id, { name: "b", type: "A", createdAt: at("00:00:01") }),
          recordRow(domain.id, { name: "a-b", type: "A" }),
          recordRow(domain.id, { name: "a", type: "MX", priority: 10, content: "mail.example.com" }),
          recordRow(domain.id, { name: "_dmarc", type: "TXT" }),
        ];
        for (const record of records) await persistence.store.saveRecord(record);
        const expected = [records[5], records[4], records[3], records[2], records[1], records[0]].map((r) => r!.id);
        expect((await persistence.store.recordsOfDomain(domain.id)).map((r) => r.id)).toEqual(expected);
        expect((await persistence.store.recordPage(domain.id, null, 2)).map((r) => r.id)).toEqual(expected.slice(0, 2));
        const fourth = records[2]!;
        expect((await persistence.store.recordPage(domain.id, fourth, 10)).map((r) => r.id)).toEqual(expected.slice(4));
        // A position no record holds: between the two A records at b.
        const between = { name: "B", type: "A" as const, createdAt: at("00:00:01"), id: "~" };
        expect((await persistence.store.recordPage(domain.id, between, 10)).map((r) => r.id)).toEqual(expected.slice(4));
        expect(await persistence.store.findRecord(records[4]!.id)).toEqual(records[4]);
        expect(await persistence.store.countRecords(domain.id)).toBe(6);
      });

      it("finds the records at a name without regard to case", async () => {
        const { domain } = await aDomain();
        const upper = recordRow(domain.id, { name: "WWW" });
        const lower = recordRow(domain.id, { name: "www", type: "AAAA", content: "2001:db8::1" });
        await persistence.store.saveRecord(upper);
        await persistence.store.saveRecord(lower);
        await persistence.store.saveRecord(recordRow(domain.id, { name: "mail" }));
        expect((await persistence.store.recordsAtName(domain.id, "Www")).map((r) => r.id).sort()).toEqual([upper.id, lower.id].sort());
        expect(await persistence.store.recordsAtName(domain.id, "ftp")).toEqual([]);
      });

      it("adds records all or none, within the bound of records per domain", async () => {
        const { domain } = await aDomain();
        expect(await persistence.store.addRecords(domain.id, [recordRow(domain.id), recordRow(domain.id)], 3)).toBe(true);
        const refused = [recordRow(domain.id), recordRow(domain.id)];
        expect(await persistence.store.addRecords(domain.id, refused, 3)).toBe(false);
        expect(await persistence.store.findRecord(refused[0]!.id)).toBeUndefined();
        expect(await persistence.store.countRecords(domain.id)).toBe(2);
        expect(await persistence.store.addRecords(domain.id, [recordRow(domain.id)], 3)).toBe(true);
        expect(await persistence.store.countRecords(domain.id)).toBe(3);
      });

      it("keeps the bound when many writers add at once", async () => {
        const { domain } = await aDomain();
        const outcomes = await Promise.all(
          Array.from({ length: 12 }, () => persistence.store.addRecords(domain.id, [recordRow(domain.id), recordRow(domain.id)], 10)),
        );
        expect(outcomes.filter(Boolean)).toHaveLength(5);
        expect(await persistence.store.countRecords(domain.id)).toBe(10);
      });

      it("saves a changed record in place and deletes it", async () => {
        const { domain } = await aDomain();
        const record = recordRow(domain.id, { name: "zzz" });
        await persistence.store.saveRecord(record);
        const moved = { ...record, name: "aaa", content: "192.0.2.9", updatedAt: at("03:00:00") };
        await persistence.store.saveRecord(moved);
        expect(await persistence.store.recordsOfDomain(domain.id)).toEqual([moved]);
        expect(await persistence.store.countRecords(domain.id)).toBe(1);
        await persistence.store.deleteRecord(record.id);
        expect(await persistence.store.findRecord(record.id)).toBeUndefined();
        expect(await persistence.store.countRecords(domain.id)).toBe(0);
      });

      it("keeps a record's comment and lock as written, added or saved, and changes them in place", async () => {
        const { domain } = await aDomain();
        const noted = recordRow(domain.id, {
          name: "_verify",
          type: "TXT",
          content: "token",
          comment: "Verification — keep ✓",
          locked: true,
        });
        expect(await persistence.store.addRecords(domain.id, [noted, recordRow(domain.id)], 10)).toBe(true);
        expect(await persistence.store.findRecord(noted.id)).toEqual(noted);
        const unlocked = { ...noted, comment: null, locked: false, updatedAt: at("03:00:00") };
        await persistence.store.saveRecord(unlocked);
        expect(await persistence.store.recordsAtName(domain.id, "_verify")).toEqual([unlocked]);
      });
    });

    describe("transfers", () => {
      it("finds a transfer with its history, and the one active transfer of a name until it completes", async () => {
        const user = await aUser();
        const transfer = transferRow(user);
        await persistence.store.saveTransfer(transfer);
        expect(await persistence.store.findTransfer(transfer.id)).toEqual(transfer);
        expect(await persistence.store.activeTransferOf(transfer.domainName)).toEqual(transfer);
        expect((await persistence.store.activeTransfersOfPartner(user.partnerId)).map((t) => t.id)).toEqual([transfer.id]);
        const completed: TransferRow = {
          ...transfer,
          status: "completed",
          completedAt: at("01:00:00"),
          history: [...transfer.history, { status: "completed", at: at("01:00:00") }],
        };
        await persistence.store.saveTransfer(completed);
        expect(await persistence.store.findTransfer(transfer.id)).toEqual(completed);
        expect(await persistence.store.activeTransferOf(transfer.domainName)).toBeUndefined();
        expect(await persistence.store.activeTransfersOfPartner(user.partnerId)).toEqual([]);
      });
    });

    describe("sessions", () => {
      it("keeps a user's login sessions oldest first, and deletes one with the browser sessions opened from it", async () => {
        const user = await aUser();
        const hashes = [uniqueId("tok"), uniqueId("tok"), uniqueId("tok")];
        // The first keeps the language its partner chose, in the canonical case the API stores.
        for (const tokenHash of hashes)
          await persistence.store.saveSession({
            tokenHash,
            partnerId: user.partnerId,
            userIdentifier: user.userIdentifier,
            expiresAt: at("12:00:00"),
            locale: tokenHash === hashes[0] ? "de-CH" : null,
          });
        expect(await persistence.store.sessionsOfUser(user.partnerId, user.userIdentifier)).toEqual(hashes);
        expect(await persistence.store.findSession(hashes[0]!)).toEqual({
          tokenHash: hashes[0],
          partnerId: user.partnerId,
          userIdentifier: user.userIdentifier,
          expiresAt: at("12:00:00"),
          locale: "de-CH",
        });
        expect((await persistence.store.findSession(hashes[1]!))?.locale).toBeNull();
        const embeds = [uniqueId("emb"), uniqueId("emb")].map((idHash) => ({
          idHash,
          loginTokenHash: hashes[0]!,
          partnerId: user.partnerId,
          userIdentifier: user.userIdentifier,
          csrfToken: "csrf",
        }));
        for (const embed of embeds) await persistence.store.saveEmbedSession(embed);
        expect(await persistence.store.findEmbedSession(embeds[0]!.idHash)).toEqual(embeds[0]);
        expect(await persistence.store.embedSessionsOfUser(user.partnerId, user.userIdentifier)).toEqual(embeds.map((e) => e.idHash));
        await persistence.store.deleteEmbedSession(embeds[1]!.idHash);
        expect(await persistence.store.embedSessionsOfUser(user.partnerId, user.userIdentifier)).toEqual([embeds[0]!.idHash]);
        await persistence.store.deleteSession(hashes[0]!);
        expect(await persistence.store.sessionsOfUser(user.partnerId, user.userIdentifier)).toEqual(hashes.slice(1));
        expect(await persistence.store.findEmbedSession(embeds[0]!.idHash)).toBeUndefined();
        expect(await persistence.store.findEndedEmbedSession(embeds[0]!.idHash)).toBeUndefined();
      });

      it("deletes the login sessions that ended by the partner's time, and the ended browser sessions past theirs", async () => {
        const user = await aUser();
        const session = (tokenHash: string, expiresAt: Date) => ({
          tokenHash,
          partnerId: user.partnerId,
          userIdentifier: user.userIdentifier,
          expiresAt,
          locale: null,
        });
        await persistence.store.saveSession(session("tok_early", at("01:00:00")));
        await persistence.store.saveSession(session(`tok_${uniqueId("x")}`, at("05:00:00")));
        expect(await persistence.store.partnersWithSessions()).toContain(user.partnerId);
        expect(await persistence.store.deleteEndedSessions(user.partnerId, at("02:00:00"))).toBe(1);
        expect(await persistence.store.sessionsOfUser(user.partnerId, user.userIdentifier)).toHaveLength(1);
        expect(await persistence.store.deleteEndedSessions(user.partnerId, at("05:00:00"))).toBe(1);
        expect(await persistence.store.partnersWithSessions()).not.toContain(user.partnerId);
      });
    });

    describe("webhooks", () => {
      it("keeps a partner's endpoints oldest first and deletes one with its deliveries", async () => {
        const partnerId = uniqueId("ptn");
        const first = endpointRow(partnerId);
        const second = endpointRow(partnerId, { events: null, previousSecret: null, description: "all events" });
        await persistence.webhooks.saveEndpoint(first);
        await persistence.webhooks.saveEndpoint(second);
        expect(await persistence.webhooks.findEndpoint(first.id)).toEqual(first);
        expect(await persistence.webhooks.endpointsOf(partnerId)).toEqual([first, second]);
        expect((await persistence.webhooks.allEndpoints()).map((e) => e.id)).toEqual(expect.arrayContaining([first.id, second.id]));
        const delivery = deliveryRow(first);
        await persistence.webhooks.saveDelivery(delivery);
        await persistence.webhooks.deleteEndpoint(first.id);
        expect(await persistence.webhooks.findEndpoint(first.id)).toBeUndefined();
        expect(await persistence.webhooks.findDelivery(delivery.id)).toBeUndefined();
        expect(await persistence.webhooks.endpointsOf(partnerId)).toEqual([second]);
      });

      it("pages an endpoint's deliveries newest first, and forgets finished ones created before a time", async () => {
        const endpoint = endpointRow(uniqueId("ptn"));
        await persistence.webhooks.saveEndpoint(endpoint);
        const old = deliveryRow(endpoint, {
          status: "succeeded",
          nextAttemptAt: null,
          attempts: [{ attemptedAt: at("00:00:01"), statusCode: 200, error: null, durationMs: 12 }],
        });
        const pending = deliveryRow(endpoint, { createdAt: at("00:00:05") });
        const recent = deliveryRow(endpoint, { status: "failed", nextAttemptAt: null, createdAt: at("00:00:09") });
        for (const delivery of [old, pending, recent]) await persistence.webhooks.saveDelivery(delivery);
        expect(await persistence.webhooks.findDelivery(old.id)).toEqual(old);
        expect(await persistence.webhooks.deliveriesOf(endpoint.id, { limit: 2, offset: 0 })).toEqual({
          deliveries: [recent, pending],
          total: 3,
        });
        expect(await persistence.webhooks.deliveriesOf(endpoint.id, { limit: 2, offset: 5 })).toEqual({ deliveries: [], total: 3 });
        expect(await persistence.webhooks.endpointsWithPendingDeliveries()).toContain(endpoint.id);
        expect(await persistence.webhooks.deleteFinishedDeliveriesBefore(endpoint.id, at("00:00:07"))).toBe(1);
        expect(await persistence.webhooks.deliveriesOf(endpoint.id, { limit: 10, offset: 0 })).toEqual({
          deliveries: [recent, pending],
          total: 2,
        });
      });

      it("claims the oldest due delivery, one at a time per endpoint, until it is saved or its lease ends", async () => {
        const endpoint = endpointRow(uniqueId("ptn"));
        await persistence.webhooks.saveEndpoint(endpoint);
        const notYetDue = deliveryRow(endpoint, { createdAt: at("00:00:00"), nextAttemptAt: at("09:00:00") });
        const oldest = deliveryRow(endpoint, { createdAt: at("00:00:01") });
        const next = deliveryRow(endpoint, { createdAt: at("00:00:02") });
        for (const delivery of [notYetDue, oldest, next]) await persistence.webhooks.saveDelivery(delivery);

        expect(await persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 60_000)).toEqual(oldest);
        expect(await persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 60_000)).toBeUndefined();
        await persistence.webhooks.saveDelivery({ ...oldest, status: "succeeded", nextAttemptAt: null });
        expect(await persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 1)).toEqual(next);
        await new Promise((resolve) => setTimeout(resolve, 20));
        // The instance that claimed it said nothing within its lease: the delivery is claimed again.
        expect(await persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 60_000)).toEqual(next);
      });

      it("keeps one outbox entry per event an endpoint takes, and fans it out in order to the endpoints of its time", async () => {
        const partnerId = uniqueId("ptn");
        const registrations = endpointRow(partnerId);
        const everything = endpointRow(partnerId, { events: null });
        const paused = endpointRow(partnerId, { events: null, enabled: false });
        for (const endpoint of [registrations, everything, paused]) await persistence.webhooks.saveEndpoint(endpoint);
        const event = (type: OutboxEvent["type"], n: number): OutboxEvent => ({
          id: uniqueId("evt"),
          partnerId,
          type,
          createdAt: at(`00:00:0${n}`),
          payload: { n },
        });
        const events = [event("domain.registered", 1), event("user.deleted", 2), event("domain.registered", 3)];
        await persistence.webhooks.addToOutbox(events);
        expect(await persistence.webhooks.partnersWithOutbox()).toContain(partnerId);
        // Created after the events were emitted: it gets none of them.
        const later = endpointRow(partnerId, { events: null });
        await persistence.webhooks.saveEndpoint(later);
        expect(await persistence.webhooks.fanOutOldest(partnerId, 2, at("01:00:00"))).toBe(2);
        expect(await persistence.webhooks.fanOutOldest(partnerId, 2, at("01:00:00"))).toBe(1);
        expect(await persistence.webhooks.fanOutOldest(partnerId, 2, at("01:00:00"))).toBe(0);
        expect(await persistence.webhooks.partnersWithOutbox()).not.toContain(partnerId);
        const sent = async (endpoint: WebhookEndpointRow) =>
          (await persistence.webhooks.deliveriesOf(endpoint.id, { limit: 10, offset: 0 })).deliveries.map((d) => d.event.id).reverse();
        expect(await sent(registrations)).toEqual([events[0]!.id, events[2]!.id]);
        expect(await sent(everything)).toEqual(events.map((e) => e.id));
        expect(await sent(paused)).toEqual([]);
        expect(await sent(later)).toEqual([]);
        expect(await persistence.webhooks.dueDeliveriesOf(partnerId, at("01:00:00"), 10)).toBe(5);
        expect(await persistence.webhooks.dueDeliveriesOf(partnerId, at("01:00:00"), 2)).toBe(2);
        expect(await persistence.webhooks.dueDeliveriesOf(partnerId, at("00:59:59"), 10)).toBe(0);
      });

      it("attempts a delivery queued directly after the deliveries of events that entered the outbox before it", async () => {
        const partnerId = uniqueId("ptn");
        const endpoint = endpointRow(partnerId, { events: null });
        await persistence.webhooks.saveEndpoint(endpoint);
        const emitted = deliveryRow(endpoint).event;
        await persistence.webhooks.addToOutbox([{ ...emitted, partnerId }]);
        const direct = deliveryRow(endpoint);
        await persistence.webhooks.saveDelivery(direct);
        // Not before the earlier event is fanned out, and then after it.
        expect(await persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 60_000)).toBeUndefined();
        await persistence.webhooks.fanOutOldest(partnerId, 10, at("00:00:00"));
        const first = await persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 60_000);
        expect(first?.event.id).toBe(emitted.id);
        expect(await persistence.webhooks.recordAttempt({ ...first!, status: "succeeded", nextAttemptAt: null })).toBe(true);
        expect((await persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 60_000))?.id).toBe(direct.id);
      });

      it("records an attempt only on a delivery still there, and sets an endpoint's failing flag only on an endpoint still there", async () => {
        const endpoint = endpointRow(uniqueId("ptn"));
        await persistence.webhooks.saveEndpoint(endpoint);
        const delivery = deliveryRow(endpoint);
        await persistence.webhooks.saveDelivery(delivery);
        await persistence.webhooks.markEndpointFailing(endpoint.id, true);
        expect((await persistence.webhooks.findEndpoint(endpoint.id))?.failing).toBe(true);
        await persistence.webhooks.deleteEndpoint(endpoint.id);
        expect(await persistence.webhooks.recordAttempt({ ...delivery, status: "succeeded", nextAttemptAt: null })).toBe(false);
        await persistence.webhooks.markEndpointFailing(endpoint.id, false);
        expect(await persistence.webhooks.findEndpoint(endpoint.id)).toBeUndefined();
        expect(await persistence.webhooks.findDelivery(delivery.id)).toBeUndefined();
      });

      it("hands a due delivery to one of many claimants at once", async () => {
        const endpoint = endpointRow(uniqueId("ptn"));
        await persistence.webhooks.saveEndpoint(endpoint);
        await persistence.webhooks.saveDelivery(deliveryRow(endpoint));
        await persistence.webhooks.saveDelivery(deliveryRow(endpoint));
        const claims = await Promise.all(
          Array.from({ length: 8 }, () => persistence.webhooks.claimDueDelivery(endpoint.id, at("01:00:00"), 60_000)),
        );
        expect(claims.filter((claim) => claim !== undefined)).toHaveLength(1);
      });
    });

    describe("rate-limit counters", () => {
      const counter = (key: string, limit: number, windowStart = 1_000) => ({ key, windowStart, limit });

      it("counts a request in every counter, or in none when one is full", async () => {
        const scope = uniqueId("key");
        const counters = [counter(`${scope}:minute`, 3), counter(`${scope}:second`, 1)];
        expect(await persistence.rateLimits.consume(counters)).toEqual({ counts: [1, 1], refused: [] });
        expect(await persistence.rateLimits.consume(counters)).toEqual({ counts: [1, 1], refused: [1] });
        expect(await persistence.rateLimits.peek(counters)).toEqual([1, 1]);
      });

      it("counts a counter of an earlier window as 0", async () => {
        const scope = uniqueId("key");
        await persistence.rateLimits.consume([counter(`${scope}:s`, 1, 1_000)]);
        expect(await persistence.rateLimits.peek([counter(`${scope}:s`, 1, 2_000)])).toEqual([0]);
        expect(await persistence.rateLimits.consume([counter(`${scope}:s`, 1, 2_000)])).toEqual({ counts: [1], refused: [] });
      });

      it("lets exactly the limit through when many requests come at once", async () => {
        const scope = uniqueId("key");
        const results = await Promise.all(
          Array.from({ length: 20 }, () => persistence.rateLimits.consume([counter(`${scope}:m`, 7), counter(`${scope}:h`, 100)])),
        );
        expect(results.filter((result) => result.refused.length === 0)).toHaveLength(7);
        expect(await persistence.rateLimits.peek([counter(`${scope}:m`, 7), counter(`${scope}:h`, 100)])).toEqual([7, 7]);
      });

      it("forgets the counters of one key scope only", async () => {
        const [one, other] = [uniqueId("key"), uniqueId("key")];
        await persistence.rateLimits.consume([counter(`${one}:m`, 5), counter(`${other}:m`, 5)]);
        await persistence.rateLimits.forget(one);
        expect(await persistence.rateLimits.peek([counter(`${one}:m`, 5), counter(`${other}:m`, 5)])).toEqual([0, 1]);
      });

      it("forgets the counters of windows that started before a time, whatever their key, and keeps the others", async () => {
        const [ended, current] = [uniqueId("key"), uniqueId("key")];
        await persistence.rateLimits.consume([counter(`${ended}:m`, 5, 1_000), counter(`${current}:m`, 5, 5_000)]);
        await persistence.rateLimits.forgetWindowsBefore(5_000);
        expect(await persistence.rateLimits.peek([counter(`${ended}:m`, 5, 1_000), counter(`${current}:m`, 5, 5_000)])).toEqual([0, 1]);
      });
    });

    describe("sandbox clocks", () => {
      it("adds up advances, concurrent ones too, and resets to 0", async () => {
        const partnerId = uniqueId("ptn");
        expect(await persistence.clockOffsets.offsetOf(partnerId)).toBe(0);
        await Promise.all([1_000, 2_000, 3_000].map((ms) => persistence.clockOffsets.advance(partnerId, ms)));
        expect(await persistence.clockOffsets.offsetOf(partnerId)).toBe(6_000);
        expect(await persistence.clockOffsets.advance(partnerId, 86_400_000 * 400)).toBe(6_000 + 86_400_000 * 400);
        await persistence.clockOffsets.reset(partnerId);
        expect(await persistence.clockOffsets.offsetOf(partnerId)).toBe(0);
      });
    });

    describe("API keys", () => {
      it("finds a key by its hash until it is revoked, and lists an environment's keys", async () => {
        const keys = persistence.apiKeys;
        const key = {
          id: uniqueId("key"),
          hash: uniqueId("h"),
          partnerId: uniqueId("ptn"),
          partnerName: "Acme",
          environment: "sandbox" as const,
          name: "Checkout",
          createdAt: at("00:00:00"),
          hint: "pk_sand",
          lastFour: "abcd",
          lastUsedAt: null,
          expiresAt: null,
          scopes: null,
          restrictions: null,
        };
        await keys.addKey(key);
        expect(await keys.findKey(key.hash, at("00:00:00"))).toEqual(key);
        expect(await keys.keysOf("sandbox")).toContainEqual(key);
        expect(await keys.revokeKey(key.hash)).toBe(true);
        expect(await keys.revokeKey(key.hash)).toBe(false);
        expect(await keys.findKey(key.hash, at("00:00:00"))).toBeUndefined();
        expect(await keys.keysOf("sandbox")).not.toContainEqual(key);
      });

      it("lists a partner's keys of an environment, records their last use, and ends a rolled key at its time", async () => {
        const keys = persistence.apiKeys;
        const partnerId = uniqueId("ptn");
        const key = (name: string, environment: "sandbox" | "production" = "sandbox", createdAt = at("00:00:00")) => ({
          id: uniqueId("key"),
          hash: uniqueId("h"),
          partnerId,
          partnerName: "Acme",
          environment,
          name,
          createdAt,
          hint: "sk_sandbox_abcd",
          lastFour: "wxyz",
          lastUsedAt: null,
          expiresAt: null,
          scopes: null,
          restrictions: null,
        });
        const [first, second, live] = [key("first"), key("second", "sandbox", at("00:00:01")), key("live", "production")];
        for (const row of [first, second, live]) await keys.addKey(row);
        expect((await keys.keysOfPartner(partnerId, "sandbox", at("00:00:00"))).map((row) => row.name)).toEqual(["first", "second"]);
        await keys.touchKey(first.hash, at("00:05:00"));
        await keys.touchKey(first.hash, at("00:01:00"));
        expect((await keys.findKey(first.hash, at("00:06:00")))!.lastUsedAt).toEqual(at("00:05:00"));
        expect(await keys.expireKey(partnerId, first.id, at("01:00:00"))).toBe(true);
        // A later end never extends an earlier one.
        expect(await keys.expireKey(partnerId, first.id, at("02:00:00"))).toBe(true);
        expect(await keys.findKey(first.hash, at("00:59:59"))).toBeDefined();
        expect(await keys.findKey(first.hash, at("01:00:00"))).toBeUndefined();
        expect((await keys.keysOfPartner(partnerId, "sandbox", at("01:00:00"))).map((row) => row.name)).toEqual(["second"]);
        expect(await keys.expireKey("someone_else", second.id, at("00:00:00"))).toBe(false);
        expect(await keys.revokeKeyById("someone_else", second.id)).toBe(false);
        expect(await keys.revokeKeyById(partnerId, second.id)).toBe(true);
        expect(await keys.deleteExpiredKeys(at("01:00:00"))).toBeGreaterThanOrEqual(1);
        expect(await keys.keysOf("sandbox")).not.toContainEqual(expect.objectContaining({ id: first.id }));
        expect((await keys.keysOfPartner(partnerId, "production", at("01:00:00"))).map((row) => row.name)).toEqual(["live"]);
      });
    });

    describe("restricted keys", () => {
      it("keep a key's scopes, restrictions and expiry, and refuse it from its expiry on", async () => {
        const keys = persistence.apiKeys;
        const partnerId = uniqueId("ptn");
        const key = {
          id: uniqueId("key"),
          hash: uniqueId("h"),
          partnerId,
          partnerName: "Acme",
          environment: "sandbox" as const,
          name: "certbot",
          createdAt: at("00:00:00"),
          hint: "sk_sandbox_abcd",
          lastFour: "wxyz",
          lastUsedAt: null,
          expiresAt: at("02:00:00"),
          scopes: ["dns:write" as const, "domains:read" as const],
          restrictions: { domains: ["example.com"], recordNames: ["_acme-challenge", "@"], recordTypes: ["TXT"], clientIps: null },
        };
        await keys.addKey(key);
        expect(await keys.findKey(key.hash, at("01:00:00"))).toEqual(key);
        expect(await keys.keysOfPartner(partnerId, "sandbox", at("01:00:00"))).toEqual([key]);
        expect(await keys.findKey(key.hash, at("02:00:00"))).toBeUndefined();
        const partial = {
          ...key,
          id: uniqueId("key"),
          hash: uniqueId("h"),
          expiresAt: null,
          scopes: ["events:read" as const],
          restrictions: null,
        };
        await keys.addKey(partial);
        expect(await keys.findKey(partial.hash, at("03:00:00"))).toEqual(partial);
      });
    });

    describe("dashboard accounts", () => {
      const member = (partnerId: string, email: string, role: "owner" | "developer" = "owner") => ({
        id: uniqueId("mem"),
        partnerId,
        email,
        passwordHash: "scrypt$ln=10,r=8,p=1$c2FsdA$aGFzaA",
        role,
        createdAt: at("00:00:00"),
      });

      it("create an account with its owner once per address, and find members by id and address", async () => {
        const { accounts } = persistence;
        const partnerId = uniqueId("ptn");
        const email = `${uniqueId("a")}@example.test`;
        const owner = member(partnerId, email);
        expect(await accounts.createAccount({ id: partnerId, name: "Acme", createdAt: at("00:00:00") }, owner)).toBe(true);
        const other = uniqueId("ptn");
        expect(await accounts.createAccount({ id: other, name: "Copycat", createdAt: at("00:00:00") }, member(other, email))).toBe(false);
        expect(await accounts.findPartner(other)).toBeUndefined();
        expect(await accounts.findPartner(partnerId)).toEqual({ id: partnerId, name: "Acme", createdAt: at("00:00:00") });
        expect(await accounts.findMemberByEmail(email)).toEqual(owner);
        expect(await accounts.findMember(owner.id)).toEqual(owner);
        expect(await accounts.addMember(member(partnerId, email, "developer"))).toBe(false);
        await accounts.setPasswordHash(owner.id, "scrypt$ln=10,r=8,p=1$b3RoZXI$aGFzaA");
        expect((await accounts.findMember(owner.id))!.passwordHash).toBe("scrypt$ln=10,r=8,p=1$b3RoZXI$aGFzaA");
      });

      it("never leave an account without an owner, and remove a member with its sessions", async () => {
        const { accounts } = persistence;
        const partnerId = uniqueId("ptn");
        const owner = member(partnerId, `${uniqueId("o")}@example.test`);
        await accounts.createAccount({ id: partnerId, name: "Acme", createdAt: at("00:00:00") }, owner);
        const developer = member(partnerId, `${uniqueId("d")}@example.test`, "developer");
        expect(await accounts.addMember(developer)).toBe(true);
        expect(await accounts.setRole(partnerId, owner.id, "developer")).toBe("last_owner");
        expect(await accounts.removeMember(partnerId, owner.id)).toBe("last_owner");
        expect(await accounts.setRole("someone_else", developer.id, "owner")).toBe("not_found");
        expect(await accounts.setRole(partnerId, developer.id, "owner")).toBe("done");
        expect(await accounts.setRole(partnerId, owner.id, "developer")).toBe("done");
        const session = {
          idHash: uniqueId("s"),
          memberId: owner.id,
          partnerId,
          csrfToken: "t",
          createdAt: at("00:00:00"),
          expiresAt: at("12:00:00"),
        };
        await accounts.saveSession(session);
        expect(await accounts.findSession(session.idHash)).toEqual(session);
        expect(await accounts.removeMember(partnerId, owner.id)).toBe("done");
        expect(await accounts.findSession(session.idHash)).toBeUndefined();
        expect((await accounts.membersOf(partnerId)).map((row) => row.id)).toEqual([developer.id]);
      });

      it("move a member to another account with its new role, ending its sessions, never its account's last owner", async () => {
        const { accounts } = persistence;
        const [from, to] = [uniqueId("ptn"), uniqueId("ptn")];
        const owner = member(from, `${uniqueId("o")}@example.test`);
        await accounts.createAccount({ id: from, name: "From", createdAt: at("00:00:00") }, owner);
        await accounts.createAccount({ id: to, name: "To", createdAt: at("00:00:00") }, member(to, `${uniqueId("o")}@example.test`));
        const developer = member(from, `${uniqueId("d")}@example.test`, "developer");
        await accounts.addMember(developer);
        const session = {
          idHash: uniqueId("s"),
          memberId: developer.id,
          partnerId: from,
          csrfToken: "t",
          createdAt: at("00:00:00"),
          expiresAt: at("12:00:00"),
        };
        await accounts.saveSession(session);
        expect(await accounts.moveMember(from, owner.id, to, "developer")).toBe("last_owner");
        expect(await accounts.moveMember(to, developer.id, from, "owner")).toBe("not_found");
        expect(await accounts.moveMember(from, developer.id, uniqueId("ptn"), "owner")).toBe("not_found");
        expect(await accounts.moveMember(from, developer.id, to, "owner")).toBe("done");
        expect(await accounts.findMember(developer.id)).toEqual({ ...developer, partnerId: to, role: "owner" });
        expect(await accounts.findSession(session.idHash)).toBeUndefined();
        expect((await accounts.membersOf(from)).map((row) => row.id)).toEqual([owner.id]);
      });

      it("use invitations and sign-up links once, and forget what ended", async () => {
        const { accounts } = persistence;
        const partnerId = uniqueId("ptn");
        const owner = member(partnerId, `${uniqueId("o")}@example.test`);
        await accounts.createAccount({ id: partnerId, name: "Acme", createdAt: at("00:00:00") }, owner);
        const invitation = {
          tokenHash: uniqueId("i"),
          partnerId,
          email: "new@example.test",
          role: "developer" as const,
          invitedBy: owner.email,
          createdAt: at("00:00:00"),
          expiresAt: at("01:00:00"),
        };
        await accounts.saveInvitation(invitation);
        expect(await accounts.invitationsOf(partnerId)).toEqual([invitation]);
        expect(await accounts.deleteInvitation(invitation.tokenHash)).toBe(true);
        expect(await accounts.deleteInvitation(invitation.tokenHash)).toBe(false);
        const signUp = {
          tokenHash: uniqueId("u"),
          email: "x@example.test",
          partnerName: "X",
          passwordHash: "h",
          expiresAt: at("01:00:00"),
        };
        await accounts.savePendingSignUp(signUp);
        expect(await accounts.takePendingSignUp(signUp.tokenHash)).toEqual(signUp);
        expect(await accounts.takePendingSignUp(signUp.tokenHash)).toBeUndefined();
        const ended = {
          idHash: uniqueId("s"),
          memberId: owner.id,
          partnerId,
          csrfToken: "t",
          createdAt: at("00:00:00"),
          expiresAt: at("00:30:00"),
        };
        const open = { ...ended, idHash: uniqueId("s"), expiresAt: at("05:00:00") };
        await accounts.saveSession(ended);
        await accounts.saveSession(open);
        expect(await accounts.deleteExpired(at("01:00:00"))).toBeGreaterThanOrEqual(1);
        expect(await accounts.findSession(ended.idHash)).toBeUndefined();
        expect(await accounts.findSession(open.idHash)).toEqual(open);
        await accounts.deleteSessionsOf(owner.id, open.idHash);
        expect(await accounts.findSession(open.idHash)).toEqual(open);
        await accounts.deleteSessionsOf(owner.id);
        expect(await accounts.findSession(open.idHash)).toBeUndefined();
      });
    });

    describe("the request log", () => {
      const record = (partnerId: string, i: number, overrides: Partial<RequestRecord> = {}): RequestRecord => ({
        partnerId,
        environment: "sandbox",
        at: new Date(at("00:00:00").getTime() + i * 1000),
        method: "GET",
        route: i % 2 === 0 ? "/api/v1/users" : "/api/v1/domains/tlds",
        status: i % 3 === 0 ? 404 : 200,
        requestId: `req_${partnerId}_${i}`,
        durationMs: 1.5,
        keyName: "Checkout",
        ...overrides,
      });

      it("pages a partner's requests of an environment newest first, filtered by status class, route and request id", async () => {
        const log = persistence.requestHistory;
        const partnerId = uniqueId("ptn");
        await log.append(Array.from({ length: 7 }, (_, i) => record(partnerId, i)));
        await log.append([record(partnerId, 7, { environment: "production" }), record(uniqueId("ptn"), 8)]);
        const query = { partnerId, environment: "sandbox" as const, filter: {}, before: null, limit: 3 };
        const first = await log.page(query);
        expect(first.map((row) => row.requestId)).toEqual([6, 5, 4].map((i) => `req_${partnerId}_${i}`));
        expect(first[0]).toMatchObject({ ...record(partnerId, 6), at: record(partnerId, 6).at });
        const rest = await log.page({ ...query, before: first.at(-1)!, limit: 10 });
        expect(rest.map((row) => row.requestId)).toEqual([3, 2, 1, 0].map((i) => `req_${partnerId}_${i}`));
        const page = (filter: object) =>
          log.page({ ...query, filter, limit: 10 }).then((rows) => rows.map((row) => row.requestId.split("_").at(-1)));
        expect(await page({ statusClass: 4 })).toEqual(["6", "3", "0"]);
        expect(await page({ route: "/api/v1/domains/tlds" })).toEqual(["5", "3", "1"]);
        expect(await page({ requestId: `req_${partnerId}_2` })).toEqual(["2"]);
        expect(await page({ statusClass: 2, route: "/api/v1/users" })).toEqual(["4", "2"]);
      });

      it("keeps which key made each request and what its scopes decided", async () => {
        const log = persistence.requestHistory;
        const partnerId = uniqueId("ptn");
        await log.append([
          record(partnerId, 1, { keyId: "key_1", scopeDecision: "insufficient_scope", scopeDetail: "dns:write", status: 403 }),
          record(partnerId, 2, { keyId: "key_1", scopeDecision: "key_restricted", scopeDetail: "record_names", status: 403 }),
          record(partnerId, 3, { keyId: null, scopeDecision: "allowed", scopeDetail: null }),
          record(partnerId, 4),
        ]);
        const rows = await log.page({ partnerId, environment: "sandbox", filter: {}, before: null, limit: 10 });
        expect(
          rows.map(({ keyId, scopeDecision, scopeDetail }) => [keyId ?? null, scopeDecision ?? "allowed", scopeDetail ?? null]),
        ).toEqual([
          [null, "allowed", null],
          [null, "allowed", null],
          ["key_1", "key_restricted", "record_names"],
          ["key_1", "insufficient_scope", "dns:write"],
        ]);
      });

      it("keeps each partner's newest entries up to the count kept, and none older than the age kept", async () => {
        const log = persistence.requestHistory;
        const partnerId = uniqueId("ptn");
        const other = uniqueId("ptn");
        await log.append(Array.from({ length: 6 }, (_, i) => record(partnerId, i)));
        await log.append(Array.from({ length: 2 }, (_, i) => record(other, i)));
        const query = { partnerId, environment: "sandbox" as const, filter: {}, before: null, limit: 10 };
        const ids = async (of = query) => (await log.page(of)).map((row) => row.requestId.split("_").at(-1));
        // At 00:00:05 the entries are 5..0 seconds old: the newest 4 are kept by count, and of them those of at most 2 s by age.
        await log.prune(at("00:00:05"), { maxAgeMs: 60_000, keepLatest: 4 });
        expect(await ids()).toEqual(["5", "4", "3", "2"]);
        expect(await ids({ ...query, partnerId: other })).toEqual(["1", "0"]);
        await log.prune(at("00:00:05"), { maxAgeMs: 2_000, keepLatest: 4 });
        expect(await ids()).toEqual(["5", "4", "3"]);
      });

      it("counts requests refused for the rate limits in one entry per key, method, route and minute", async () => {
        const log = persistence.requestHistory;
        const partnerId = uniqueId("ptn");
        const refused = (i: number, overrides: Partial<RequestRecord> = {}) => record(partnerId, i, { status: 429, ...overrides });
        // Seconds 0 to 9 of one minute, in one batch and in several, as instances write them.
        await log.append([refused(0), refused(2), refused(4)]);
        await log.append([refused(6)]);
        await log.append([refused(8), refused(1, { keyName: "Other key" }), refused(70), record(partnerId, 9)]);
        const entries = await log.page({ partnerId, environment: "sandbox", filter: {}, before: null, limit: 10 });
        expect(entries.map((entry) => [entry.requestId.split("_").at(-1), entry.status, entry.count])).toEqual([
          ["70", 429, 1],
          ["9", 404, 1],
          ["1", 429, 1],
          ["0", 429, 5],
        ]);
      });
    });

    describe("framing origins", () => {
      it("are kept per partner and environment, replaced whole, and none when emptied", async () => {
        const origins = persistence.framingOrigins;
        const partnerId = uniqueId("ptn");
        await origins.setOrigins(partnerId, "sandbox", ["https://a.example", "https://*.b.example"]);
        await origins.setOrigins(partnerId, "production", ["https://live.example"]);
        expect(await origins.originsOf(partnerId, "sandbox")).toEqual(["https://a.example", "https://*.b.example"]);
        await origins.setOrigins(partnerId, "sandbox", ["https://c.example"]);
        expect(await origins.originsOf(partnerId, "sandbox")).toEqual(["https://c.example"]);
        await origins.setOrigins(partnerId, "sandbox", []);
        expect(await origins.originsOf(partnerId, "sandbox")).toEqual([]);
        expect(await origins.originsOf(partnerId, "production")).toEqual(["https://live.example"]);
        expect(await origins.originsOf(uniqueId("ptn"), "sandbox")).toEqual([]);
      });
    });

    describe("the partners' look", () => {
      it("keeps an accent colour and a logo per partner and environment, each set and removed on its own", async () => {
        const { branding } = persistence;
        const partnerId = uniqueId("ptn");
        const now = new Date("2026-11-22T10:00:00Z");
        expect(await branding.brandingOf(partnerId, "sandbox")).toEqual({ accentColour: null, logo: null });
        expect(await branding.logoOf(partnerId, "sandbox")).toBeNull();
        const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 1, 2, 255]);
        await branding.setLogo(partnerId, "sandbox", { type: "image/png", bytes }, now);
        await branding.setAccentColour(partnerId, "sandbox", "#6a1b9a", now);
        await branding.setAccentColour(partnerId, "production", "#123456", now);
        const look = await branding.brandingOf(partnerId, "sandbox");
        expect(look).toEqual({ accentColour: "#6a1b9a", logo: { type: "image/png", version: expect.any(String) } });
        expect(await branding.logoOf(partnerId, "sandbox")).toEqual({ type: "image/png", bytes });
        // A new logo is a new version; the colour stays.
        await branding.setLogo(partnerId, "sandbox", { type: "image/webp", bytes: Buffer.from("RIFF0000WEBPVP8 ") }, now);
        const changed = await branding.brandingOf(partnerId, "sandbox");
        expect(changed.logo!.version).not.toBe(look.logo!.version);
        expect(changed.accentColour).toBe("#6a1b9a");
        await branding.setAccentColour(partnerId, "sandbox", null, now);
        await branding.setLogo(partnerId, "sandbox", null, now);
        expect(await branding.brandingOf(partnerId, "sandbox")).toEqual({ accentColour: null, logo: null });
        expect(await branding.brandingOf(partnerId, "production")).toEqual({ accentColour: "#123456", logo: null });
        expect(await branding.brandingOf(uniqueId("ptn"), "sandbox")).toEqual({ accentColour: null, logo: null });
      });
    });

    describe("transactions", () => {
      it("writes all of a unit of work, or none of it when the work throws", async () => {
        const user = userRow(uniqueId("ptn"), uniqueId("usr"));
        await expect(
          persistence.transaction(async ({ store }) => {
            await store.saveUser(user);
            throw new Error("the handler found a rule broken");
          }),
        ).rejects.toThrow("the handler found a rule broken");
        expect(await persistence.store.findUser(user.partnerId, user.userIdentifier)).toBeUndefined();
        await persistence.transaction(({ store }) => store.saveUser(user));
        expect(await persistence.store.findUser(user.partnerId, user.userIdentifier)).toEqual(user);
      });

      it("leaves users, domains, records, transfers and sessions as they were when the work throws after writing", async () => {
        const { store } = persistence;
        const partnerId = uniqueId("ptn");
        const kept = userRow(partnerId, uniqueId("usr"), { createdAt: at("01:00:00"), lastLogin: at("01:00:00") });
        const deleted = userRow(partnerId, uniqueId("usr"), { createdAt: at("02:00:00"), lastLogin: at("00:30:00") });
        const newcomer = userRow(partnerId, uniqueId("usr"), { createdAt: at("03:00:00"), lastLogin: at("03:00:00") });
        const domain = domainRow(kept);
        const deletedDomain = domainRow(deleted);
        const record = recordRow(domain.id);
        const session = (user: UserRow, tokenHash: string) => ({
          tokenHash,
          partnerId,
          userIdentifier: user.userIdentifier,
          expiresAt: at("12:00:00"),
          locale: null,
        });
        const tokens = [uniqueId("tok"), uniqueId("tok"), uniqueId("tok")];
        const transfer = transferRow(kept);
        for (const user of [kept, deleted]) await store.saveUser(user);
        for (const row of [domain, deletedDomain]) await store.saveDomain(row);
        await store.addRecords(domain.id, [record], 10);
        await store.addRecords(deletedDomain.id, [recordRow(deletedDomain.id, { name: "mail" })], 10);
        for (const token of tokens) await store.saveSession(session(deleted, token));
        await store.saveSession(session(kept, uniqueId("tok")));
        await store.saveTransfer(transfer);
        const newDomain = domainRow(newcomer);
        const newToken = uniqueId("tok");
        const users = [kept, deleted, newcomer];
        const state = async () => ({
          orders: await Promise.all(
            (["created_at", "last_login", "domain_count"] as const).flatMap((sort) =>
              (["asc", "desc"] as const).map(async (order) =>
                (await store.listUsers(partnerId, { limit: 10, offset: 0, sort, order })).users.map(({ user, domainCount }) => [
                  user,
                  domainCount,
                ]),
              ),
            ),
          ),
          users: await Promise.all(users.map((user) => store.findUser(partnerId, user.userIdentifier))),
          domains: await Promise.all(users.map((user) => store.domainsOfUser(partnerId, user.userIdentifier))),
          newDomain: [await store.findDomain(newDomain.id), await store.findDomainByName(newDomain.name)],
          records: await Promise.all([domain, deletedDomain].map((row) => store.recordsOfDomain(row.id))),
          atNames: await Promise.all(["www", "mail", "moved"].map((name) => store.recordsAtName(domain.id, name))),
          counts: [await store.countRecords(domain.id), await store.countRecords(domain.id, { type: "A" })],
          transfer: [await store.findTransfer(transfer.id), await store.activeTransferOf(transfer.domainName)],
          sessions: await Promise.all(users.map((user) => store.sessionsOfUser(partnerId, user.userIdentifier))),
          newSession: await store.findSession(newToken),
        });
        const before = await state();
        await expect(
          persistence.transaction(async ({ store }) => {
            await store.saveUser(newcomer);
            await store.saveUser({ ...kept, lastLogin: at("09:00:00"), email: "moved@example.com" });
            await store.saveDomain(newDomain);
            await store.saveDomain({ ...domain, autoRenew: false, nameservers: ["ns9.example.net"] });
            await store.addRecords(
              domain.id,
              [recordRow(domain.id), recordRow(domain.id, { name: "mail", type: "TXT", content: "x" })],
              10,
            );
            await store.saveRecord({ ...record, name: "moved", content: "192.0.2.9", comment: "moved", locked: true });
            await store.saveTransfer({ ...transfer, status: "completed", completedAt: at("02:00:00") });
            await store.saveSession(session(newcomer, newToken));
            await store.deleteSession(tokens[0]!);
            await store.deleteUser(partnerId, deleted.userIdentifier);
            throw new Error("the handler found a rule broken");
          }),
        ).rejects.toThrow("the handler found a rule broken");
        expect(await state()).toEqual(before);
      });

      it("leaves webhook endpoints, deliveries and the outbox as they were when the work throws after writing", async () => {
        const { webhooks } = persistence;
        const partnerId = uniqueId("ptn");
        const [first, second] = [endpointRow(partnerId), endpointRow(partnerId, { events: null })];
        for (const endpoint of [first, second]) await webhooks.saveEndpoint(endpoint);
        const pending = deliveryRow(first);
        await webhooks.saveDelivery(pending);
        const added = endpointRow(partnerId);
        const redelivery = deliveryRow(second);
        const state = async () => ({
          endpoints: await webhooks.endpointsOf(partnerId),
          added: await webhooks.findEndpoint(added.id),
          deliveries: await Promise.all([first, second].map((endpoint) => webhooks.deliveriesOf(endpoint.id, { limit: 10, offset: 0 }))),
          redelivery: await webhooks.findDelivery(redelivery.id),
          due: await webhooks.dueDeliveriesOf(partnerId, at("01:00:00"), 10),
          pending: (await webhooks.endpointsWithPendingDeliveries()).filter((id) => id === first.id || id === second.id).sort(),
          outbox: (await webhooks.partnersWithOutbox()).includes(partnerId),
        });
        const before = await state();
        await expect(
          persistence.transaction(async ({ webhooks }) => {
            await webhooks.saveEndpoint(added);
            await webhooks.saveEndpoint({ ...first, url: "https://elsewhere.example/hooks", events: null });
            await webhooks.markEndpointFailing(second.id, true);
            await webhooks.saveDelivery(redelivery);
            await webhooks.saveDelivery({ ...pending, status: "succeeded", nextAttemptAt: null });
            await webhooks.addToOutbox([
              { id: uniqueId("evt"), partnerId, type: "domain.registered", createdAt: at("00:00:01"), payload: {} },
            ]);
            await webhooks.deleteEndpoint(first.id);
            throw new Error("the work failed");
          }),
        ).rejects.toThrow("the work failed");
        expect(await state()).toEqual(before);
      });

      it("keeps none of the events a unit of work saved when it throws", async () => {
        const { events } = persistence;
        const partnerId = uniqueId("ptn");
        const event = (iso: string, partner = partnerId): OutboxEvent => ({
          id: uniqueId("evt"),
          partnerId: partner,
          type: "user.deleted",
          createdAt: at(iso),
          payload: { iso },
        });
        const kept = [event("01:00:00"), event("03:00:00")];
        await events.saveEvents(kept);
        const unsaved = [event("04:00:00"), event("02:00:00"), event("00:30:00"), event("01:00:00", uniqueId("ptn"))];
        const all = { types: null, createdAfter: null, createdBefore: null, after: null, limit: 10 };
        const state = async () => ({
          page: await events.eventPage(partnerId, all),
          between: await events.eventsBetween(partnerId, at("00:00:00"), at("05:00:00"), null, 10),
          unsaved: await Promise.all(unsaved.map((row) => events.findEvent(row.partnerId, row.id))),
          otherPartner: await events.eventPage(unsaved[3]!.partnerId, all),
        });
        const before = await state();
        await expect(
          persistence.transaction(async ({ events }) => {
            await events.saveEvents(unsaved);
            throw new Error("the work failed");
          }),
        ).rejects.toThrow("the work failed");
        expect(await state()).toEqual(before);
        expect(before.page).toEqual([kept[1], kept[0]]);
      });

      it("runs units of work that check and then write one after another: both see the rule", async () => {
        const user = userRow(uniqueId("ptn"), uniqueId("usr"));
        await persistence.store.saveUser(user);
        // Each adds the user's first domain only if it has none: at once, exactly one may.
        const addFirst = () =>
          persistence.transaction(async ({ store }) => {
            if ((await store.countDomains(user.partnerId, user.userIdentifier)) > 0) return false;
            await new Promise((resolve) => setTimeout(resolve, 20));
            await store.saveDomain(domainRow(user));
            return true;
          });
        expect((await Promise.all([addFirst(), addFirst(), addFirst()])).filter(Boolean)).toHaveLength(1);
        expect(await persistence.store.countDomains(user.partnerId, user.userIdentifier)).toBe(1);
      });
    });

    describe("idempotency keys", () => {
      const aScope = (): IdempotencyScope => ({
        partnerId: uniqueId("ptn"),
        environment: "sandbox",
        method: "POST",
        path: "/api/v1/domains/dom_1/renew",
        key: uniqueId("key"),
      });
      const now = at("10:00:00");
      const dayBefore = new Date(now.getTime() - 24 * 3600_000);
      const answer = { status: 200, body: { id: "dom_1", renewed: [1, "two", null] }, headers: { etag: '"abc"' } };

      it("gives a free key to exactly one of concurrent claims; the others see it running with its fingerprint", async () => {
        const scope = aScope();
        const claims = await Promise.all(
          Array.from({ length: 5 }, () => persistence.idempotency.claim(scope, "fp1", now, dayBefore, 60_000)),
        );
        expect(claims.filter((claim) => claim.state === "claimed")).toHaveLength(1);
        expect(claims.filter((claim) => claim.state === "running")).toEqual(Array(4).fill({ state: "running", fingerprint: "fp1" }));
      });

      it("answers a completed key with its answer until it is older than keptSince, then gives it anew", async () => {
        const scope = aScope();
        const claim = await persistence.idempotency.claim(scope, "fp1", now, dayBefore, 60_000);
        if (claim.state !== "claimed") throw new Error("not claimed");
        expect(await persistence.idempotency.complete(scope, claim.token, answer)).toBe(true);
        expect(await persistence.idempotency.claim(scope, "fp2", now, dayBefore, 60_000)).toEqual({
          state: "completed",
          fingerprint: "fp1",
          answer,
        });
        const dayLater = new Date(now.getTime() + 24 * 3600_000 + 1);
        expect(
          (await persistence.idempotency.claim(scope, "fp2", dayLater, new Date(dayLater.getTime() - 24 * 3600_000), 60_000)).state,
        ).toBe("claimed");
      });

      it("gives an unanswered key again once its lease ran out; the first claim can then no longer store its answer", async () => {
        const scope = aScope();
        const first = await persistence.idempotency.claim(scope, "fp1", now, dayBefore, 1);
        await new Promise((resolve) => setTimeout(resolve, 20));
        const second = await persistence.idempotency.claim(scope, "fp1", now, dayBefore, 60_000);
        if (first.state !== "claimed" || second.state !== "claimed") throw new Error("not claimed");
        expect(await persistence.idempotency.complete(scope, first.token, answer)).toBe(false);
        expect(await persistence.idempotency.complete(scope, second.token, answer)).toBe(true);
      });

      it("frees a key its claim releases, and only its claim", async () => {
        const scope = aScope();
        const claim = await persistence.idempotency.claim(scope, "fp1", now, dayBefore, 60_000);
        if (claim.state !== "claimed") throw new Error("not claimed");
        await persistence.idempotency.release(scope, "another-token");
        expect((await persistence.idempotency.claim(scope, "fp1", now, dayBefore, 60_000)).state).toBe("running");
        await persistence.idempotency.release(scope, claim.token);
        expect((await persistence.idempotency.claim(scope, "fp1", now, dayBefore, 60_000)).state).toBe("claimed");
      });

      it("keeps keys apart by partner, environment, method and path", async () => {
        const scope = aScope();
        await persistence.idempotency.claim(scope, "fp", now, dayBefore, 60_000);
        for (const other of [
          { partnerId: uniqueId("ptn") },
          { environment: "production" as const },
          { method: "PUT" },
          { path: "/api/v1/users" },
        ])
          expect((await persistence.idempotency.claim({ ...scope, ...other }, "fp", now, dayBefore, 60_000)).state).toBe("claimed");
      });

      it("forgets the keys first used before a time", async () => {
        const [old, recent] = [aScope(), aScope()];
        await persistence.idempotency.claim(old, "fp", at("01:00:00"), dayBefore, 60_000);
        await persistence.idempotency.claim(recent, "fp", at("03:00:00"), dayBefore, 60_000);
        expect(await persistence.idempotency.deleteCreatedBefore(at("02:00:00"))).toBeGreaterThanOrEqual(1);
        expect((await persistence.idempotency.claim(old, "fp", now, dayBefore, 60_000)).state).toBe("claimed");
        expect((await persistence.idempotency.claim(recent, "fp", now, dayBefore, 60_000)).state).toBe("running");
      });

      it("stores no answer, and releases no key, in a transaction that rolls back", async () => {
        const [answered, released] = [aScope(), aScope()];
        const claims: string[] = [];
        for (const scope of [answered, released]) {
          const claim = await persistence.idempotency.claim(scope, "fp", now, dayBefore, 60_000);
          if (claim.state !== "claimed") throw new Error("not claimed");
          claims.push(claim.token);
        }
        await expect(
          persistence.transaction(async ({ idempotency }) => {
            await idempotency.complete(answered, claims[0]!, answer);
            await idempotency.release(released, claims[1]!);
            throw new Error("the work failed");
          }),
        ).rejects.toThrow("the work failed");
        for (const scope of [answered, released])
          expect((await persistence.idempotency.claim(scope, "fp", now, dayBefore, 60_000)).state).toBe("running");
        // The claim is still the one taken: its answer can be stored.
        expect(await persistence.idempotency.complete(answered, claims[0]!, answer)).toBe(true);
      });
    });

    describe("the event history", () => {
      const event = (partnerId: string, type: OutboxEvent["type"], iso: string): OutboxEvent => ({
        id: uniqueId("evt"),
        partnerId,
        type,
        createdAt: at(iso),
        payload: { data: { n: iso } },
      });

      it("keeps events as saved, lists them newest first after any place, filtered by type and time", async () => {
        const partnerId = uniqueId("ptn");
        const events = [
          event(partnerId, "user.deleted", "01:00:00"),
          event(partnerId, "domain.registered", "02:00:00"),
          event(partnerId, "user.deleted", "03:00:00"),
          event(partnerId, "user.deleted", "03:00:00"),
        ];
        await persistence.events.saveEvents(events);
        await persistence.events.saveEvents([event(uniqueId("ptn"), "user.deleted", "02:30:00")]);
        expect(await persistence.events.findEvent(partnerId, events[1]!.id)).toEqual(events[1]);
        expect(await persistence.events.findEvent("someone else", events[1]!.id)).toBeUndefined();
        const all = { types: null, createdAfter: null, createdBefore: null, after: null, limit: 10 };
        const newestFirst = [events[3]!, events[2]!].sort((a, b) => (a.id < b.id ? 1 : -1)).concat(events[1]!, events[0]!);
        expect((await persistence.events.eventPage(partnerId, all)).map((e) => e.id)).toEqual(newestFirst.map((e) => e.id));
        const afterSecond = await persistence.events.eventPage(partnerId, { ...all, after: newestFirst[1]! });
        expect(afterSecond.map((e) => e.id)).toEqual(newestFirst.slice(2).map((e) => e.id));
        const typed = await persistence.events.eventPage(partnerId, { ...all, types: ["domain.registered"] });
        expect(typed.map((e) => e.id)).toEqual([events[1]!.id]);
        const between = await persistence.events.eventPage(partnerId, {
          ...all,
          createdAfter: at("02:00:00"),
          createdBefore: at("03:00:00"),
        });
        expect(between.map((e) => e.id)).toEqual([events[1]!.id]);
      });

      it("reads a range oldest first, and forgets events created before a time", async () => {
        const partnerId = uniqueId("ptn");
        const events = [event(partnerId, "user.deleted", "01:00:00"), event(partnerId, "domain.registered", "02:00:00")];
        await persistence.events.saveEvents(events);
        expect((await persistence.events.eventsBetween(partnerId, at("00:00:00"), at("05:00:00"), null, 10)).map((e) => e.id)).toEqual(
          events.map((e) => e.id),
        );
        expect(await persistence.events.eventsBetween(partnerId, at("00:00:00"), at("05:00:00"), ["domain.registered"], 10)).toEqual([
          events[1],
        ]);
        expect(await persistence.events.prune(at("02:30:00"), { maxAgeMs: 3_600_000, keepLatest: 10 })).toBeGreaterThanOrEqual(1);
        expect(await persistence.events.findEvent(partnerId, events[0]!.id)).toBeUndefined();
        expect(await persistence.events.findEvent(partnerId, events[1]!.id)).toEqual(events[1]);
      });
    });

    describe("the event history's bounds", () => {
      it("keeps each partner's newest events up to the count kept, and none older than the age kept", async () => {
        const partnerId = uniqueId("ptn");
        const other = uniqueId("ptn");
        const events = ["01:00:00", "02:00:00", "03:00:00", "04:00:00"].map((iso) => ({
          id: uniqueId("evt"),
          partnerId,
          type: "user.deleted" as const,
          createdAt: at(iso),
          payload: {},
        }));
        const othersEvent = { ...events[0]!, id: uniqueId("evt"), partnerId: other };
        await persistence.events.saveEvents([...events, othersEvent]);
        const all = { types: null, createdAfter: null, createdBefore: null, after: null, limit: 10 };
        await persistence.events.prune(at("04:00:00"), { maxAgeMs: 86_400_000, keepLatest: 3 });
        expect((await persistence.events.eventPage(partnerId, all)).map((e) => e.id)).toEqual([
          events[3]!.id,
          events[2]!.id,
          events[1]!.id,
        ]);
        expect((await persistence.events.eventPage(other, all)).map((e) => e.id)).toEqual([othersEvent.id]);
        await persistence.events.prune(at("04:30:00"), { maxAgeMs: 2 * 3_600_000, keepLatest: 3 });
        expect((await persistence.events.eventPage(partnerId, all)).map((e) => e.id)).toEqual([events[3]!.id, events[2]!.id]);
      });
    });

    describe("a user's domain pages", () => {
      it("pages a user's domains newest purchase first, ties by name, filtered by status, counting what it selects", async () => {
        const user = await aUser();
        const domains = [
          domainRow(user, { name: "b.com", purchasedAt: at("01:00:00") }),
          domainRow(user, { name: "a.com", purchasedAt: at("01:00:00") }),
          domainRow(user, { name: "c.com", purchasedAt: at("02:00:00"), status: "expired" }),
        ];
        for (const domain of domains) await persistence.store.saveDomain(domain);
        const page = (query: Partial<Parameters<Persistence["store"]["domainPage"]>[2]>) =>
          persistence.store.domainPage(user.partnerId, user.userIdentifier, { status: null, after: null, limit: 10, ...query });
        expect((await page({})).domains.map((d) => d.name)).toEqual(["c.com", "a.com", "b.com"]);
        expect((await page({ limit: 1, after: { purchasedAt: at("01:00:00"), name: "a.com" } })).domains.map((d) => d.name)).toEqual([
          "b.com",
        ]);
        expect(await page({ status: "active" })).toMatchObject({ total: 2, domains: [{ name: "a.com" }, { name: "b.com" }] });
      });
    });
  });
}

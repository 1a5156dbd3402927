/**
 * A request's admission on PostgreSQL (migrations/0019_request_admission.sql): the rate limits'
 * count, the stored key's check and the partner's clock in one call. On each PostgreSQL the tests
 * have (test-databases.ts); the servers use it only where they cache keys and clocks.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgRequestAdmission } from "../../../server/store/postgres/pg-shared-stores.js";
import type { PostgresPersistence } from "../../../server/store/postgres/index.js";
import { uniqueId } from "./store-contract.js";
import { TEST_DATABASES } from "./test-databases.js";

for (const database of TEST_DATABASES) {
  describe(`a request's admission on ${database.name}`, () => {
    let persistence: PostgresPersistence;
    let drop: () => Promise<void>;
    let admission: PgRequestAdmission;
    beforeAll(async () => {
      ({ persistence, drop } = await database.open());
      admission = new PgRequestAdmission(persistence.sql);
    });
    afterAll(() => drop());

    const NOW = new Date("2026-11-27T10:00:00Z");
    const counters = (scope: string, limit = 2) => [{ key: `${scope}:minute`, windowStart: 1000, limit }];
    async function aKey(overrides: { expiresAt?: Date | null } = {}) {
      const id = uniqueId("key");
      await persistence.apiKeys.addKey({
        id,
        hash: uniqueId("hash"),
        partnerId: uniqueId("ptn"),
        partnerName: "Admitted Ltd",
        environment: "sandbox",
        name: "admitted",
        createdAt: NOW,
        hint: "sk_sandbox_ab",
        lastFour: "abcd",
        lastUsedAt: null,
        expiresAt: overrides.expiresAt ?? null,
        scopes: null,
        restrictions: null,
      });
      return id;
    }

    it("counts a request of an accepted key as the rate limits count, and reads no clock unless asked", async () => {
      const scope = uniqueId("scope");
      const keyId = await aKey();
      const request = { keyId, clockOf: null, now: NOW };
      expect(await admission.admit(counters(scope), request)).toEqual({ keyAccepted: true, counts: [1], refused: [], clockOffsetMs: 0 });
      expect(await admission.admit(counters(scope), request)).toEqual({ keyAccepted: true, counts: [2], refused: [], clockOffsetMs: 0 });
      expect(await admission.admit(counters(scope), request)).toEqual({ keyAccepted: true, counts: [2], refused: [0], clockOffsetMs: 0 });
    });

    it("refuses a revoked or an expired key and counts nothing for it; a key of the configuration (no id) is not checked", async () => {
      const scope = uniqueId("scope");
      const revoked = await aKey();
      await persistence.apiKeys.revokeKeyById(
        (await persistence.apiKeys.keysOf("sandbox")).find((key) => key.id === revoked)!.partnerId,
        revoked,
      );
      const expired = await aKey({ expiresAt: NOW });
      const refused = { keyAccepted: false, counts: [], refused: [], clockOffsetMs: 0 };
      expect(await admission.admit(counters(scope), { keyId: revoked, clockOf: null, now: NOW })).toEqual(refused);
      expect(await admission.admit(counters(scope), { keyId: expired, clockOf: null, now: NOW })).toEqual(refused);
      expect(await admission.admit(counters(scope), { keyId: uniqueId("key"), clockOf: null, now: NOW })).toEqual(refused);
      expect(await persistence.rateLimits.peek(counters(scope))).toEqual([0]);
      expect((await admission.admit(counters(scope), { keyId: null, clockOf: null, now: NOW })).counts).toEqual([1]);
    });

    it("reads the partner's clock as it stands, and admits a request exempt from the limits with no counter", async () => {
      const partnerId = uniqueId("ptn");
      const keyId = await aKey();
      await persistence.clockOffsets.advance(partnerId, 7_200_000);
      expect(await admission.admit([], { keyId, clockOf: partnerId, now: NOW })).toEqual({
        keyAccepted: true,
        counts: [],
        refused: [],
        clockOffsetMs: 7_200_000,
      });
      expect((await admission.admit([], { keyId, clockOf: uniqueId("ptn"), now: NOW })).clockOffsetMs).toBe(0);
    });
  });
}

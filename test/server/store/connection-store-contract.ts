/**
 * What every store promises of the connection check's data (requirements per partner and
 * environment, each domain's last answer and its recheck): run inside the store contract
 * (store-contract.ts) on memory, PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { ConnectionStateRow } from "../../../server/domain/connection/connection-store.js";
import type { DomainRow } from "../../../server/domain/domains/domain-store.js";
import type { Persistence } from "../../../server/store/persistence.js";
import { at, domainRow, uniqueId, userRow } from "./store-contract.js";

export function describeConnectionStore(persistenceOf: () => Persistence): void {
  describe("connection requirements and states", () => {
    async function aDomain(partnerId = uniqueId("ptn")): Promise<DomainRow> {
      const user = userRow(partnerId, uniqueId("usr"));
      await persistenceOf().store.saveUser(user);
      const domain = domainRow(user);
      await persistenceOf().store.saveDomain(domain);
      return domain;
    }
    const state = (domain: DomainRow, overrides: Partial<ConnectionStateRow> = {}): ConnectionStateRow => ({
      domainId: domain.id,
      partnerId: domain.partnerId,
      configured: false,
      recheckAt: null,
      checkedAt: at("00:00:00"),
      ...overrides,
    });

    it("keeps a partner's requirements per environment, a new list replacing the old whole", async () => {
      const { connections } = persistenceOf().store;
      const partnerId = uniqueId("ptn");
      expect(await connections.requirementsOf(partnerId, "sandbox")).toEqual({ requirements: [], updatedAt: null });
      const requirements = [
        { kind: "apex" as const, addresses: ["203.0.113.10", "2001:db8::10"] },
        { kind: "www" as const, target: "sites.partner.example" },
        { kind: "txt" as const, name: "_verify", value: "token-1" },
      ];
      await connections.saveRequirements(partnerId, "sandbox", requirements, at("01:00:00"));
      await connections.saveRequirements(partnerId, "production", [requirements[1]!], at("02:00:00"));
      expect(await connections.requirementsOf(partnerId, "sandbox")).toEqual({ requirements, updatedAt: at("01:00:00") });
      await connections.saveRequirements(partnerId, "sandbox", [], at("03:00:00"));
      expect(await connections.requirementsOf(partnerId, "sandbox")).toEqual({ requirements: [], updatedAt: at("03:00:00") });
      expect(await connections.requirementsOf(partnerId, "production")).toEqual({
        requirements: [requirements[1]],
        updatedAt: at("02:00:00"),
      });
      expect((await connections.requirementsOf(uniqueId("ptn"), "production")).requirements).toEqual([]);
    });

    it("keeps each domain's last answer, and lists the partner's rechecks due by time", async () => {
      const { connections } = persistenceOf().store;
      const partnerId = uniqueId("ptn");
      const [first, second, third] = [await aDomain(partnerId), await aDomain(partnerId), await aDomain(partnerId)];
      const other = await aDomain();
      expect(await connections.stateOf(first!.id)).toBeUndefined();
      await connections.saveState(state(first!, { configured: true }));
      await connections.saveState(state(second!, { recheckAt: at("05:00:00") }));
      await connections.saveState(state(third!, { recheckAt: at("04:00:00") }));
      await connections.saveState(state(other, { recheckAt: at("01:00:00") }));
      expect(await connections.stateOf(first!.id)).toEqual(state(first!, { configured: true }));
      expect((await connections.rechecksDue(partnerId, at("04:30:00"))).map((row) => row.domainId)).toEqual([third!.id]);
      expect((await connections.rechecksDue(partnerId, at("06:00:00"))).map((row) => row.domainId)).toEqual([third!.id, second!.id]);
      await connections.saveState(state(third!, { configured: true, recheckAt: null, checkedAt: at("04:00:00") }));
      expect(await connections.rechecksDue(partnerId, at("06:00:00"))).toEqual([state(second!, { recheckAt: at("05:00:00") })]);
      expect(await connections.stateOf(third!.id)).toEqual(state(third!, { configured: true, checkedAt: at("04:00:00") }));
    });

    it("writes a state within a unit of work only when the unit commits", async () => {
      const persistence = persistenceOf();
      const domain = await aDomain();
      await expect(
        persistence.transaction(async ({ store }) => {
          await store.connections.saveState(state(domain, { configured: true, recheckAt: at("02:00:00") }));
          throw new Error("undone");
        }),
      ).rejects.toThrow("undone");
      expect(await persistence.store.connections.stateOf(domain.id)).toBeUndefined();
      expect(await persistence.store.connections.rechecksDue(domain.partnerId, at("03:00:00"))).toEqual([]);
    });

    it("forgets a domain's state with its user", async () => {
      const persistence = persistenceOf();
      const domain = await aDomain();
      await persistence.store.connections.saveState(state(domain, { configured: true, recheckAt: at("02:00:00") }));
      await persistence.store.deleteUser(domain.partnerId, domain.userIdentifier);
      expect(await persistence.store.connections.stateOf(domain.id)).toBeUndefined();
      expect(await persistence.store.connections.rechecksDue(domain.partnerId, at("03:00:00"))).toEqual([]);
    });
  });
}

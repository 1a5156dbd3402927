/**
 * What every store promises of delegations (nameserver changes, glue, DS records): run inside the
 * store contract (store-contract.ts) on memory, PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { DsRecordRow, GlueRecordRow, NameserverChangeRow } from "../../../server/domain/domains/delegation-store.js";
import type { DomainRow } from "../../../server/domain/domains/domain-store.js";
import type { Persistence } from "../../../server/store/persistence.js";
import { at, domainRow, uniqueId, userRow } from "./store-contract.js";

export function describeDelegationStore(persistenceOf: () => Persistence): void {
  describe("delegations", () => {
    async function aDomain(partnerId = uniqueId("ptn")): Promise<DomainRow> {
      const user = userRow(partnerId, uniqueId("usr"));
      await persistenceOf().store.saveUser(user);
      const domain = domainRow(user);
      await persistenceOf().store.saveDomain(domain);
      return domain;
    }
    const change = (domain: DomainRow, overrides: Partial<NameserverChangeRow> = {}): NameserverChangeRow => ({
      domainId: domain.id,
      partnerId: domain.partnerId,
      nameservers: ["ns1.custom.net", "ns2.custom.net"],
      requestedAt: at("00:00:00"),
      completesAt: at("00:10:00"),
      ...overrides,
    });

    it("keeps one pending and one applied nameserver change per domain, a new one replacing the old", async () => {
      const { delegations } = persistenceOf().store;
      const domain = await aDomain();
      expect(await delegations.pendingNameserverChange(domain.id)).toBeUndefined();
      await delegations.savePendingNameserverChange(change(domain));
      const replacement = change(domain, { nameservers: ["ns1.other.net", "ns2.other.net", "ns3.other.net"], completesAt: at("00:20:00") });
      await delegations.savePendingNameserverChange(replacement);
      expect(await delegations.pendingNameserverChange(domain.id)).toEqual(replacement);
      expect(await delegations.appliedNameserverChange(domain.id)).toBeUndefined();
      await delegations.saveAppliedNameserverChange(replacement);
      expect(await delegations.deletePendingNameserverChange(domain.id)).toBe(true);
      expect(await delegations.deletePendingNameserverChange(domain.id)).toBe(false);
      expect(await delegations.pendingNameserverChange(domain.id)).toBeUndefined();
      expect(await delegations.appliedNameserverChange(domain.id)).toEqual(replacement);
    });

    it("lists a partner's pending changes by when they complete, and only that partner's", async () => {
      const { delegations } = persistenceOf().store;
      const partnerId = uniqueId("ptn");
      const [late, early, other] = [await aDomain(partnerId), await aDomain(partnerId), await aDomain()];
      await delegations.savePendingNameserverChange(change(late!, { completesAt: at("03:00:00") }));
      await delegations.savePendingNameserverChange(change(early!, { completesAt: at("01:00:00") }));
      await delegations.savePendingNameserverChange(change(other!));
      await delegations.saveAppliedNameserverChange(change(early!, { completesAt: at("00:30:00") }));
      expect((await delegations.pendingNameserverChangesOfPartner(partnerId)).map((row) => row.domainId)).toEqual([early!.id, late!.id]);
    });

    it("sets, replaces, lists by host and removes glue", async () => {
      const { delegations } = persistenceOf().store;
      const domain = await aDomain();
      const glue = (host: string, overrides: Partial<GlueRecordRow> = {}): GlueRecordRow => ({
        domainId: domain.id,
        partnerId: domain.partnerId,
        host,
        ipv4: ["198.51.100.1"],
        ipv6: [],
        updatedAt: at("00:00:00"),
        ...overrides,
      });
      await delegations.saveGlueRecord(glue(`ns2.${domain.name}`));
      await delegations.saveGlueRecord(glue(`ns1.${domain.name}`));
      const replaced = glue(`ns2.${domain.name}`, { ipv4: [], ipv6: ["2001:db8::1"], updatedAt: at("01:00:00") });
      await delegations.saveGlueRecord(replaced);
      expect(await delegations.glueRecordsOf(domain.id)).toEqual([glue(`ns1.${domain.name}`), replaced]);
      expect(await delegations.deleteGlueRecord(domain.id, `ns1.${domain.name}`)).toBe(true);
      expect(await delegations.deleteGlueRecord(domain.id, `ns1.${domain.name}`)).toBe(false);
      expect(await delegations.glueRecordsOf(domain.id)).toEqual([replaced]);
    });

    it("adds, lists oldest first and removes DS records", async () => {
      const { delegations } = persistenceOf().store;
      const domain = await aDomain();
      const ds = (overrides: Partial<DsRecordRow>): DsRecordRow => ({
        id: uniqueId("ds"),
        domainId: domain.id,
        partnerId: domain.partnerId,
        keyTag: 2371,
        algorithm: 13,
        digestType: 2,
        digest: "a".repeat(64),
        createdAt: at("00:00:00"),
        ...overrides,
      });
      const second = ds({ createdAt: at("02:00:00"), keyTag: 65535 });
      const first = ds({ createdAt: at("01:00:00"), digestType: 1, digest: "b".repeat(40) });
      await delegations.saveDsRecord(second);
      await delegations.saveDsRecord(first);
      expect(await delegations.dsRecordsOf(domain.id)).toEqual([first, second]);
      expect(await delegations.deleteDsRecord(domain.id, first.id)).toBe(true);
      expect(await delegations.deleteDsRecord(domain.id, first.id)).toBe(false);
      expect(await delegations.dsRecordsOf(domain.id)).toEqual([second]);
    });

    it("forgets a domain's delegation with its user", async () => {
      const { store } = persistenceOf();
      const domain = await aDomain();
      await store.delegations.savePendingNameserverChange(change(domain));
      await store.delegations.saveGlueRecord({
        domainId: domain.id,
        partnerId: domain.partnerId,
        host: `ns1.${domain.name}`,
        ipv4: ["198.51.100.1"],
        ipv6: [],
        updatedAt: at("00:00:00"),
      });
      await store.deleteUser(domain.partnerId, domain.userIdentifier);
      expect(await store.delegations.pendingNameserverChange(domain.id)).toBeUndefined();
      expect(await store.delegations.glueRecordsOf(domain.id)).toEqual([]);
      expect(await store.delegations.pendingNameserverChangesOfPartner(domain.partnerId)).toEqual([]);
    });

    it("undoes a unit of work's delegation writes when it throws", async () => {
      const persistence = persistenceOf();
      const domain = await aDomain();
      await persistence.store.delegations.savePendingNameserverChange(change(domain));
      await expect(
        persistence.transaction(async ({ store }) => {
          await store.delegations.deletePendingNameserverChange(domain.id);
          await store.delegations.saveAppliedNameserverChange(change(domain));
          await store.delegations.saveDsRecord({
            id: uniqueId("ds"),
            domainId: domain.id,
            partnerId: domain.partnerId,
            keyTag: 1,
            algorithm: 8,
            digestType: 2,
            digest: "c".repeat(64),
            createdAt: at("00:00:00"),
          });
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await persistence.store.delegations.pendingNameserverChange(domain.id)).toEqual(change(domain));
      expect(await persistence.store.delegations.appliedNameserverChange(domain.id)).toBeUndefined();
      expect(await persistence.store.delegations.dsRecordsOf(domain.id)).toEqual([]);
    });
  });
}

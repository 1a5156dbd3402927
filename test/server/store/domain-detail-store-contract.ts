/**
 * What every store promises of a domain's detail read at once (domain-detail-store.ts): the same
 * parts the separate reads give. Run inside the store contract (store-contract.ts) on memory,
 * PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { Persistence } from "../../../server/store/persistence.js";
import { at, domainRow, recordRow, uniqueId, userRow } from "./store-contract.js";

export function describeDomainDetailStore(persistenceOf: () => Persistence): void {
  describe("a domain's detail read at once", () => {
    async function aDomain() {
      const user = userRow(uniqueId("ptn"), uniqueId("usr"));
      await persistenceOf().store.saveUser(user);
      const domain = domainRow(user, { nameservers: ["ns1.example.net", "ns2.example.net"] });
      await persistenceOf().store.saveDomain(domain);
      return domain;
    }

    it("is nothing for an unknown domain", async () => {
      expect(await persistenceOf().store.domainDetailParts(uniqueId("dom"), 10)).toBeUndefined();
    });

    it("gives a bare domain with no records, no pending change and the default controls", async () => {
      const domain = await aDomain();
      expect(await persistenceOf().store.domainDetailParts(domain.id, 10)).toEqual({
        domain,
        records: [],
        pendingNameserverChange: undefined,
        transferControls: undefined,
      });
    });

    it("gives the first records in list order, the pending change (not the applied one) and the controls, as the separate reads do", async () => {
      const { store } = persistenceOf();
      const domain = await aDomain();
      const records = [
        recordRow(domain.id, { name: "www", type: "A", createdAt: at("00:00:02"), content: "192.0.2.2" }),
        recordRow(domain.id, { name: "WWW", type: "A", createdAt: at("00:00:01"), content: "192.0.2.1", comment: "first" }),
        recordRow(domain.id, { name: "@", type: "MX", priority: 10, content: "mail.example.net", locked: true }),
        recordRow(domain.id, { name: "api", type: "TXT", content: 'say "hi"', updatedAt: at("06:30:00.123") }),
      ];
      for (const record of records) await store.saveRecord(record);
      const pending = {
        domainId: domain.id,
        partnerId: domain.partnerId,
        nameservers: ["ns1.new.net", "ns2.new.net"],
        requestedAt: at("01:00:00.250"),
        completesAt: at("01:10:00"),
      };
      await store.delegations.saveAppliedNameserverChange({ ...pending, nameservers: ["ns1.old.net", "ns2.old.net"] });
      await store.delegations.savePendingNameserverChange(pending);
      const controls = {
        domainId: domain.id,
        partnerId: domain.partnerId,
        transferLock: false,
        authCode: "tac_abc",
        authCodeCreatedAt: at("02:00:00.999"),
        updatedAt: at("02:00:00.999"),
      };
      await store.transferOut.saveControls(controls);

      const parts = await store.domainDetailParts(domain.id, 3);
      expect(parts).toEqual({
        domain,
        records: await store.recordPage(domain.id, null, 3),
        pendingNameserverChange: pending,
        transferControls: controls,
      });
      expect(parts!.records.map((record) => record.content)).toEqual(["mail.example.net", 'say "hi"', "192.0.2.1"]);
      expect((await store.domainDetailParts(domain.id, 10))!.records).toEqual(await store.recordPage(domain.id, null, 10));
    });
  });
}

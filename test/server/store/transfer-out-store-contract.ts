/**
 * What every store promises of registrar controls and outbound transfers: run inside the store
 * contract (store-contract.ts) on memory, PGlite and PostgreSQL.
 */
import { describe, expect, it } from "vitest";
import type { DomainRow } from "../../../server/domain/domains/domain-store.js";
import type { OutboundTransferRow, TransferControlsRow } from "../../../server/domain/domains/transfer-out-store.js";
import type { Persistence } from "../../../server/store/persistence.js";
import { at, domainRow, recordRow, uniqueId, userRow } from "./store-contract.js";

export function describeTransferOutStore(persistenceOf: () => Persistence): void {
  describe("registrar controls and outbound transfers", () => {
    async function aDomain(partnerId = uniqueId("ptn")): Promise<DomainRow> {
      const user = userRow(partnerId, uniqueId("usr"));
      await persistenceOf().store.saveUser(user);
      const domain = domainRow(user);
      await persistenceOf().store.saveDomain(domain);
      return domain;
    }
    const controls = (domain: DomainRow, overrides: Partial<TransferControlsRow> = {}): TransferControlsRow => ({
      domainId: domain.id,
      partnerId: domain.partnerId,
      transferLock: false,
      authCode: null,
      authCodeCreatedAt: null,
      updatedAt: at("00:00:00"),
      ...overrides,
    });
    const outbound = (domain: DomainRow, overrides: Partial<OutboundTransferRow> = {}): OutboundTransferRow => ({
      id: uniqueId("tro"),
      domainId: domain.id,
      partnerId: domain.partnerId,
      domainName: domain.name,
      status: "pending",
      gainingRegistrar: "Example Registrar Inc.",
      requestedAt: at("01:00:00"),
      autoApproveAt: at("02:00:00"),
      completedAt: null,
      ...overrides,
    });

    it("keeps a domain's controls; a code once made is kept whatever a later write says", async () => {
      const { transferOut } = persistenceOf().store;
      const domain = await aDomain();
      expect(await transferOut.controlsOf(domain.id)).toBeUndefined();
      await transferOut.saveControls(controls(domain));
      expect(await transferOut.controlsOf(domain.id)).toEqual(controls(domain));
      const withCode = controls(domain, { authCode: "tac_first", authCodeCreatedAt: at("00:05:00"), updatedAt: at("00:05:00") });
      await transferOut.saveControls(withCode);
      await transferOut.saveControls(
        controls(domain, { transferLock: true, authCode: "tac_second", authCodeCreatedAt: at("00:06:00"), updatedAt: at("00:06:00") }),
      );
      expect(await transferOut.controlsOf(domain.id)).toEqual({ ...withCode, transferLock: true, updatedAt: at("00:06:00") });
      const other = await aDomain();
      const found = await transferOut.controlsOfDomains([domain.id, other.id]);
      expect([...found.keys()]).toEqual([domain.id]);
      expect(await transferOut.controlsOfDomains([])).toEqual(new Map());
    });

    it("answers a domain's latest outbound transfer and the partner's pending ones, oldest first", async () => {
      const { transferOut } = persistenceOf().store;
      const partnerId = uniqueId("ptn");
      const [first, second] = [await aDomain(partnerId), await aDomain(partnerId)];
      const rejected = outbound(first, { status: "rejected", completedAt: at("01:30:00") });
      await transferOut.saveOutboundTransfer(rejected);
      const later = outbound(first, { requestedAt: at("03:00:00"), autoApproveAt: at("04:00:00") });
      await transferOut.saveOutboundTransfer(later);
      const earlier = outbound(second, { requestedAt: at("00:30:00") });
      await transferOut.saveOutboundTransfer(earlier);
      expect(await transferOut.latestOutboundTransfer(first.id)).toEqual(later);
      expect(await transferOut.pendingOutboundTransfersOfPartner(partnerId)).toEqual([earlier, later]);
      const completed = { ...later, status: "completed" as const, completedAt: at("03:30:00") };
      await transferOut.saveOutboundTransfer(completed);
      expect(await transferOut.latestOutboundTransfer(first.id)).toEqual(completed);
      expect(await transferOut.pendingOutboundTransfersOfPartner(partnerId)).toEqual([earlier]);
      expect(await transferOut.pendingOutboundTransfersOfPartner(uniqueId("ptn"))).toEqual([]);
    });

    it("deletes a domain with its records, controls and transfers; the owner's domain count follows", async () => {
      const { store } = persistenceOf();
      const domain = await aDomain();
      await store.addRecords(domain.id, [recordRow(domain.id)], 10);
      await store.transferOut.saveControls(controls(domain));
      await store.transferOut.saveOutboundTransfer(outbound(domain));
      await store.deleteDomain(domain.id);
      expect(await store.findDomain(domain.id)).toBeUndefined();
      expect(await store.findDomainByName(domain.name)).toBeUndefined();
      expect(await store.countRecords(domain.id)).toBe(0);
      expect(await store.countDomains(domain.partnerId, domain.userIdentifier)).toBe(0);
      expect(await store.transferOut.controlsOf(domain.id)).toBeUndefined();
      expect(await store.transferOut.latestOutboundTransfer(domain.id)).toBeUndefined();
      expect(await store.transferOut.pendingOutboundTransfersOfPartner(domain.partnerId)).toEqual([]);
    });

    it("leaves controls, transfers and the domain as they were when a unit of work throws", async () => {
      const persistence = persistenceOf();
      const domain = await aDomain();
      await persistence.store.transferOut.saveControls(controls(domain));
      const pending = outbound(domain);
      await persistence.store.transferOut.saveOutboundTransfer(pending);
      await expect(
        persistence.transaction(async ({ store }) => {
          await store.transferOut.saveControls(controls(domain, { transferLock: true }));
          await store.transferOut.saveOutboundTransfer({ ...pending, status: "completed", completedAt: at("01:10:00") });
          await store.deleteDomain(domain.id);
          throw new Error("rolled back");
        }),
      ).rejects.toThrow("rolled back");
      expect(await persistence.store.findDomain(domain.id)).toEqual(domain);
      expect(await persistence.store.transferOut.controlsOf(domain.id)).toEqual(controls(domain));
      expect(await persistence.store.transferOut.latestOutboundTransfer(domain.id)).toEqual(pending);
    });
  });
}

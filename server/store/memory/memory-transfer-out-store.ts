/**
 * Registrar controls and outbound transfers in memory: journaled Maps keyed by domain, so a unit
 * of work that throws leaves them as they were. Only a domain's latest outbound transfer is kept:
 * the port reads no other.
 */
import type { OutboundTransferRow, TransferControlsRow, TransferOutStore } from "../../domain/domains/transfer-out-store.js";
import { JournaledMap } from "./undo-journal.js";

const byRequest = (a: OutboundTransferRow, b: OutboundTransferRow) =>
  a.requestedAt.getTime() - b.requestedAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class MemoryTransferOutStore implements TransferOutStore {
  private readonly controls = new JournaledMap<string, TransferControlsRow>();
  private readonly latestOutbound = new JournaledMap<string, OutboundTransferRow>();

  async controlsOf(domainId: string) {
    const row = this.controls.get(domainId);
    return row && { ...row };
  }

  async controlsOfDomains(domainIds: readonly string[]) {
    const found = new Map<string, TransferControlsRow>();
    for (const id of domainIds) {
      const row = this.controls.get(id);
      if (row) found.set(id, { ...row });
    }
    return found;
  }

  async saveControls(row: TransferControlsRow) {
    // A code once made is kept: two first reads at once answer the same code (the PostgreSQL store's rule too).
    const kept = this.controls.get(row.domainId);
    const code = kept?.authCode != null ? { authCode: kept.authCode, authCodeCreatedAt: kept.authCodeCreatedAt } : {};
    this.controls.set(row.domainId, { ...row, ...code });
  }

  async latestOutboundTransfer(domainId: string) {
    const row = this.latestOutbound.get(domainId);
    return row && { ...row };
  }

  async pendingOutboundTransfersOfPartner(partnerId: string) {
    return [...this.latestOutbound.values()]
      .filter((row) => row.partnerId === partnerId && row.status === "pending")
      .sort(byRequest)
      .map((row) => ({ ...row }));
  }

  async saveOutboundTransfer(row: OutboundTransferRow) {
    const latest = this.latestOutbound.get(row.domainId);
    if (!latest || latest.id === row.id || byRequest(latest, row) <= 0) this.latestOutbound.set(row.domainId, { ...row });
  }

  /** Forgets everything of a domain that is deleted (with its user, a sandbox reset, or a transfer out). */
  forgetDomain(domainId: string): void {
    this.controls.delete(domainId);
    this.latestOutbound.delete(domainId);
  }
}

/**
 * Where a domain's connection answer is checked again: in the unit of work of any write that may
 * have turned it (its records, its nameservers), and as time passes a propagation's end (the
 * sweep and a sandbox clock advance: connection-propagation.ts). The events a unit emits say which
 * domains it touched, so no write path has to remember to ask.
 */
import { reconsiderConnection } from "../domain/connection/connection-service.js";
import type { OutboxEvent } from "../platform/events.js";
import type { Services } from "./context.js";

/** The domain an event is about, when what it says may change the domain's connection answer. */
function touchedDomain(event: OutboxEvent): string | null {
  if (event.type.startsWith("dns_record.")) return typeof event.payload.domain_id === "string" ? event.payload.domain_id : null;
  // A nameserver change carried out, or a domain's status or settings: its delegation may differ.
  if (event.type === "domain.nameservers_changed" || event.type === "domain.updated" || event.type === "domain.registered") {
    const data = event.payload.data as { id?: unknown } | undefined;
    return typeof data?.id === "string" ? data.id : null;
  }
  return null;
}

/**
 * Checks again, within the unit of work, each domain the unit's events touched, for partners that
 * declare requirements (one read for those that do not).
 */
export async function reconsiderTouchedDomains(services: Services, events: readonly OutboxEvent[]): Promise<void> {
  const byPartner = new Map<string, Set<string>>();
  for (const event of events) {
    const domainId = touchedDomain(event);
    if (domainId === null) continue;
    let ids = byPartner.get(event.partnerId);
    if (!ids) byPartner.set(event.partnerId, (ids = new Set()));
    ids.add(domainId);
  }
  for (const [partnerId, domainIds] of byPartner) {
    const { requirements } = await services.store.connections.requirementsOf(partnerId, services.deployment.environment);
    if (requirements.length === 0) continue;
    for (const domainId of domainIds) {
      const domain = await services.store.findDomain(domainId);
      if (domain?.partnerId === partnerId) await reconsiderConnection(services, domain, requirements);
    }
  }
}

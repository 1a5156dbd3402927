/**
 * The connection check of one domain (GET /api/v1/domains/{domain_id}/connection, the embedded
 * interface's domain page) and its re-evaluation after whatever may change the answer, which
 * keeps the last answer and sends `domain.connection_changed` when it turns.
 */
import type { components } from "../../../generated/types/full.js";
import type { Environment } from "../../../generated/deployment.js";
import { timestamp, type Clock } from "../../platform/clock.js";
import type { EventOutbox } from "../../platform/events.js";
import { DEFAULT_TTL } from "../dns/default-ttl.js";
import type { RecordStore } from "../dns/record-store.js";
import { delegationOf, type DelegationServices } from "../domains/delegation.js";
import type { DomainRow, DomainStore } from "../domains/domain-store.js";
import { apiErrors } from "../../platform/errors.js";
import { readRequirements, type ConnectionRequirement } from "./connection-requirements.js";
import { checkRequirement, fixesAsChangeSet, recordsWanted, type RequirementResult } from "./connection-check.js";
import type { ConnectionStore, StoredRequirements } from "./connection-store.js";
import { magicZoneOf, simulatedAnswer } from "./sandbox-resolution.js";

/** The check as Variant D answers it, with its change set (Variant R's clients read it without). */
export type DomainConnection = components["schemas"]["DomainConnectionWithChangeSet"];

export interface ConnectionServices {
  store: Pick<RecordStore, "recordsOfDomain"> & { connections: ConnectionStore } & DelegationServices["store"];
  clock: Clock;
  outbox: EventOutbox;
  deployment: { environment: Environment };
}

export interface ConnectionCheck {
  answer: DomainConnection;
  /** When the answer may turn without a write (a propagation ending); null when it cannot. */
  recheckAt: Date | null;
  /** Why the answer is what it is, for pages that say it in the reader's language (the API's `reason` is English). */
  situation: "no_requirements" | "zone" | "custom_unknown" | "no_answer" | "propagating" | "simulated";
}

const changeSetOf = (results: RequirementResult[] | null) => {
  const changeSet = results && fixesAsChangeSet(results);
  return changeSet ? { change_set: changeSet } : {};
};

/** Checks the domain against its partner's requirements, from the source the domain's delegation allows. */
export async function checkConnection(
  services: ConnectionServices,
  domain: DomainRow,
  // The partner's requirements when the caller has read them already (a sweep over its domains).
  known?: readonly ConnectionRequirement[],
): Promise<ConnectionCheck> {
  const now = services.clock.now();
  const { environment } = services.deployment;
  const requirements = known ?? (await services.store.connections.requirementsOf(domain.partnerId, environment)).requirements;
  const base = { domain_id: domain.id, domain_name: domain.name, checked_at: timestamp(now) };
  const answer = (
    status: DomainConnection["status"],
    source: DomainConnection["source"],
    results: RequirementResult[] | null,
    reason: string | null = null,
  ): DomainConnection => ({
    ...base,
    status,
    configured: status === "configured" ? true : status === "not_configured" ? false : null,
    source,
    reason,
    requirements: (results ??
      requirements.map((requirement) => ({ requirement, satisfied: null, found: [], fixes: [] }))) as DomainConnection["requirements"],
    ...changeSetOf(source === "zone" ? results : null),
  });
  const statusOf = (results: RequirementResult[]) => (results.every((result) => result.satisfied) ? "configured" : "not_configured");
  if (requirements.length === 0) return { answer: answer("no_requirements", "none", []), recheckAt: null, situation: "no_requirements" };

  const delegation = await delegationOf(services, domain);
  if (!delegation.custom) {
    const records = await services.store.recordsOfDomain(domain.id);
    const results = requirements.map((requirement) => checkRequirement(requirement, records, DEFAULT_TTL.D));
    return { answer: answer(statusOf(results), "zone", results), recheckAt: null, situation: "zone" };
  }
  const nameservers = delegation.nameservers.join(", ");
  const zone = environment === "sandbox" ? magicZoneOf(delegation.nameservers) : null;
  if (!zone) {
    const reason = `The domain uses custom nameservers (${nameservers}); the service cannot read what they answer, so it does not say whether the requirements are met.`;
    return { answer: answer("unknown", "none", null, reason), recheckAt: null, situation: "custom_unknown" };
  }
  const simulated = simulatedAnswer(zone, requirements, delegation.appliedAt, now);
  if (simulated.kind === "no_answer")
    return {
      answer: answer("unknown", "none", null, `The custom nameservers (${nameservers}) do not answer.`),
      recheckAt: null,
      situation: "no_answer",
    };
  if (simulated.kind === "propagating") {
    const when = simulated.until ? ` until ${timestamp(simulated.until)}` : "";
    const results = requirements.map((requirement) => ({ requirement, satisfied: false, found: [], fixes: [] }));
    const reason = `The nameserver change is still propagating: resolvers answer from the nameservers before it${when}.`;
    return {
      answer: answer("not_configured", "sandbox_resolution", results, reason),
      recheckAt: simulated.until,
      situation: "propagating",
    };
  }
  // A record the custom nameservers answer is not the service's to change: the fix is what their host must answer.
  const results = requirements.map((requirement) => {
    const result = checkRequirement(requirement, simulated.records, DEFAULT_TTL.D);
    return result.satisfied ? result : { ...result, fixes: recordsWanted(requirement, DEFAULT_TTL.D) };
  });
  return { answer: answer(statusOf(results), "sandbox_resolution", results), recheckAt: null, situation: "simulated" };
}

/**
 * Checks the domain again and keeps the answer, sending `domain.connection_changed` when it turned
 * between configured and not. An unknown answer, or no requirements, leaves the last known one.
 * Runs inside the unit of work whose writes may have changed it, so the event is sent exactly when
 * they are committed.
 */
export async function reconsiderConnection(
  services: ConnectionServices,
  domain: DomainRow,
  requirements?: readonly ConnectionRequirement[],
): Promise<void> {
  const { answer, recheckAt } = await checkConnection(services, domain, requirements);
  const state = await services.store.connections.stateOf(domain.id);
  const before = state?.configured ?? false;
  const known = answer.configured ?? before;
  const sameRecheck = (state?.recheckAt?.getTime() ?? null) === (recheckAt?.getTime() ?? null);
  if (known === before && sameRecheck) return;
  const now = services.clock.now();
  await services.store.connections.saveState({
    domainId: domain.id,
    partnerId: domain.partnerId,
    configured: known,
    recheckAt,
    checkedAt: now,
  });
  if (known !== before)
    services.outbox.emit(domain.partnerId, "domain.connection_changed", {
      domain_id: domain.id,
      data: { domain_id: domain.id, domain_name: domain.name, configured: known, status: known ? "configured" : "not_configured" },
    });
}

/**
 * Far enough ahead that every active domain's registration ends before it, and a time every store
 * can hold: PostgreSQL reads no year beyond 9999 in the form a JavaScript Date is written.
 */
const END_OF_TIME = new Date("9999-12-31T23:59:59Z");

/**
 * Replaces the partner's requirements (checked whole first: 422 naming every broken rule) and
 * checks each of its active domains against them, in the caller's unit of work.
 */
export async function replaceRequirements(
  services: ConnectionServices & { store: Pick<DomainStore, "activeDomainsEndingBy"> },
  partnerId: string,
  given: readonly ConnectionRequirement[],
): Promise<StoredRequirements> {
  const read = readRequirements(given);
  if (read.problems) throw apiErrors.invalidValues(read.problems);
  const now = services.clock.now();
  await services.store.connections.saveRequirements(partnerId, services.deployment.environment, read.requirements, now);
  for (const domain of await services.store.activeDomainsEndingBy(partnerId, END_OF_TIME))
    await reconsiderConnection(services, domain, read.requirements);
  return { requirements: read.requirements, updatedAt: now };
}

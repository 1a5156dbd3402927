/** The in-memory adapter of the connection store (server/domain/connection/connection-store.ts), journaled like the rest of MemoryStore. */
import type { Environment } from "../../../generated/deployment.js";
import type { ConnectionRequirement } from "../../domain/connection/connection-requirements.js";
import {
  NO_REQUIREMENTS,
  type ConnectionStateRow,
  type ConnectionStore,
  type StoredRequirements,
} from "../../domain/connection/connection-store.js";
import { JournaledMap } from "./undo-journal.js";

const copyRequirements = (requirements: readonly ConnectionRequirement[]): ConnectionRequirement[] =>
  requirements.map((requirement) => ({ ...requirement, ...(requirement.addresses ? { addresses: [...requirement.addresses] } : {}) }));

export class MemoryConnectionStore implements ConnectionStore {
  private readonly requirements = new JournaledMap<string, StoredRequirements>();
  private readonly states = new JournaledMap<string, ConnectionStateRow>();
  /**
   * Per partner, the domains with a recheck pending: few at any time (propagations under way). Each
   * set is replaced whole, never added to, so an undo removes the one a unit put there.
   */
  private readonly recheckingByPartner = new JournaledMap<string, ReadonlySet<string>>(() => true);

  async requirementsOf(partnerId: string, environment: Environment): Promise<StoredRequirements> {
    const kept = this.requirements.get(`${environment}:${partnerId}`) ?? NO_REQUIREMENTS;
    return { requirements: copyRequirements(kept.requirements), updatedAt: kept.updatedAt };
  }

  async saveRequirements(partnerId: string, environment: Environment, requirements: ConnectionRequirement[], now: Date): Promise<void> {
    this.requirements.set(`${environment}:${partnerId}`, { requirements: copyRequirements(requirements), updatedAt: now });
  }

  async stateOf(domainId: string): Promise<ConnectionStateRow | undefined> {
    const state = this.states.get(domainId);
    return state && { ...state };
  }

  async saveState(state: ConnectionStateRow): Promise<void> {
    this.keep(state);
  }

  private keep(state: ConnectionStateRow): void {
    this.states.set(state.domainId, { ...state });
    const rechecking = this.recheckingByPartner.get(state.partnerId) ?? new Set<string>();
    // Replaced, never changed in place, so the journal can put the one before back.
    if (state.recheckAt !== null && !rechecking.has(state.domainId))
      this.recheckingByPartner.set(state.partnerId, new Set([...rechecking, state.domainId]));
    if (state.recheckAt === null && rechecking.has(state.domainId)) {
      const rest = new Set([...rechecking].filter((id) => id !== state.domainId));
      if (rest.size > 0) this.recheckingByPartner.set(state.partnerId, rest);
      else this.recheckingByPartner.delete(state.partnerId);
    }
  }

  /** Removes what was kept of a domain deleted with its user. */
  forgetDomain(domainId: string): void {
    const state = this.states.get(domainId);
    if (!state) return;
    if (state.recheckAt !== null) this.keep({ ...state, recheckAt: null });
    this.states.delete(domainId);
  }

  async rechecksDue(partnerId: string, until: Date): Promise<ConnectionStateRow[]> {
    return [...(this.recheckingByPartner.get(partnerId) ?? [])]
      .map((domainId) => this.states.get(domainId)!)
      .filter((state) => state.recheckAt !== null && state.recheckAt <= until)
      .sort((a, b) => a.recheckAt!.getTime() - b.recheckAt!.getTime() || (a.domainId < b.domainId ? -1 : 1))
      .map((state) => ({ ...state }));
  }
}

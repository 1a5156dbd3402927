/**
 * What the connection check keeps: each partner's requirements per environment (like its other
 * settings, a partner may try them in the sandbox first), and per domain the last answer the
 * partner was told of, so `domain.connection_changed` is sent only when the answer turns.
 */
import type { Environment } from "../../../generated/deployment.js";
import type { ConnectionRequirement } from "./connection-requirements.js";

export interface StoredRequirements {
  requirements: ConnectionRequirement[];
  /** Null when the partner never set any. */
  updatedAt: Date | null;
}

export const NO_REQUIREMENTS: StoredRequirements = { requirements: [], updatedAt: null };

export interface ConnectionStateRow {
  domainId: string;
  partnerId: string;
  /** The last known answer; a domain without a row was never configured. */
  configured: boolean;
  /** When the answer may change without a write (a propagation ending on the sandbox clock); null when it cannot. */
  recheckAt: Date | null;
  checkedAt: Date;
}

/** The port of the store that keeps them, reached as `store.connections` (within units of work too). */
export interface ConnectionStore {
  requirementsOf(partnerId: string, environment: Environment): Promise<StoredRequirements>;
  /** Replaces the whole list (an empty one included). */
  saveRequirements(partnerId: string, environment: Environment, requirements: ConnectionRequirement[], now: Date): Promise<void>;
  stateOf(domainId: string): Promise<ConnectionStateRow | undefined>;
  saveState(state: ConnectionStateRow): Promise<void>;
  /** The partner's domains whose answer may have changed by `until`, by recheck time. */
  rechecksDue(partnerId: string, until: Date): Promise<ConnectionStateRow[]>;
}

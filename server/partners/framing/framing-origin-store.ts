/**
 * The origins each partner set in the dashboard as allowed to frame its users' embedded interface,
 * per environment; the embed host adds them to those of its configuration (server/partners/framing/framing.ts).
 */
import type { Environment } from "../../../generated/deployment.js";

export interface FramingOriginStore {
  /** In the order they were set; none when the partner set none. */
  originsOf(partnerId: string, environment: Environment): Promise<string[]>;
  /** Replaces the partner's origins of the environment. */
  setOrigins(partnerId: string, environment: Environment, origins: readonly string[]): Promise<void>;
}

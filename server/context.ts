/** What every handler receives besides its input: the caller and the deployment's services. */
import type { Partner } from "./auth/api-keys.js";
import type { Clock } from "./clock.js";
import type { EventOutbox } from "./events.js";
import type { Store } from "./store/types.js";
import type { Environment } from "./auth/api-keys.js";
import type { Variant } from "../generated/operations.js";

export interface Deployment {
  environment: Environment;
  variants: readonly Variant[];
  /** Base URL of the embed host that login_url points at. */
  embedBaseUrl: string;
}

export interface Services {
  store: Store;
  clock: Clock;
  outbox: EventOutbox;
  deployment: Deployment;
}

export interface RequestContext {
  /** Null only for operations without authentication (GET /health). */
  partner: Partner | null;
  services: Services;
}

/** The authenticated partner; the auth middleware guarantees it for authenticated operations. */
export function partnerOf(context: RequestContext): Partner {
  if (!context.partner) throw new Error("authenticated operation reached without a partner");
  return context.partner;
}

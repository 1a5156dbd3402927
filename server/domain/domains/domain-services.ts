/**
 * What the domain services use of a deployment's services: the users, domains and records they
 * read and write (and, to tell whether a name is free, the names taken), the time, the events'
 * outbox and the environment. The application's Services (application/context.ts) has these and
 * more; the domain rules name only what they need.
 */
import type { Deployment } from "../../platform/deployment.js";
import type { Clock } from "../../platform/clock.js";
import type { EventOutbox } from "../../platform/events.js";
import type { RegisteredNames } from "../catalog/availability.js";
import type { RecordStore } from "../dns/record-store.js";
import type { UserStore } from "../users/user-store.js";
import type { DelegationStore } from "./delegation-store.js";
import type { DomainStore } from "./domain-store.js";
import type { WithTransferOut } from "./transfer-out-store.js";

export interface DomainServices {
  store: UserStore & DomainStore & RecordStore & RegisteredNames & { readonly delegations: DelegationStore } & WithTransferOut;
  clock: Clock;
  outbox: EventOutbox;
  deployment: Pick<Deployment, "environment">;
}

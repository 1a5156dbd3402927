/** What the dashboard's routes are given: the deployment's services and accounts, and the signed-in member of a request. */
import type { Response } from "express";
import type { Accounts } from "../../partners/accounts/accounts.js";
import type { MemberRow, PartnerAccountRow } from "../../partners/accounts/account-store.js";
import type { DashboardSessions, SignedIn } from "../../partners/accounts/dashboard-sessions.js";
import type { PasswordHashingQueue } from "../../partners/accounts/password-hashing-queue.js";
import type { Services } from "../../application/context.js";
import type { Chrome, Section } from "../views/layout.js";

export interface Dashboard {
  services: Services;
  accounts: Accounts;
  sessions: DashboardSessions;
  /** Where this process hashes and checks passwords: bounded, refusing when full. */
  passwordHashing: PasswordHashingQueue;
  /** Writes what the API instance of this process buffered for the request log (null: no API here). */
  flushRequestLog: () => Promise<void>;
  /** Route templates of the operations the deployment serves, for the request log's filter. */
  routes: readonly string[];
  /** Where partners call the API, for the examples the pages show. */
  apiBaseUrl: string;
  /** Whether sign-up links reach anyone (server/partners/accounts/mailer.ts). */
  signUpOpen: boolean;
  log: (message: string, error?: unknown) => void;
}

/** A request of a signed-in member. */
export interface MemberRequest {
  dashboard: Dashboard;
  signedIn: SignedIn;
  member: MemberRow;
  partner: PartnerAccountRow;
  /** The services as this partner sees them (its sandbox clock). */
  services: Services;
  chrome: (current: Section | null) => Chrome;
}

export const memberOf = (res: Response): MemberRequest => res.locals.member as MemberRequest;
export const dashboardOf = (res: Response): Dashboard => res.locals.dashboard as Dashboard;

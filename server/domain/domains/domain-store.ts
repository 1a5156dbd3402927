/** Registered domains as stored, and the port of the store that keeps them. */
import type { components } from "../../../generated/types/full.js";
import type { Cents } from "../../platform/money.js";

type Schemas = components["schemas"];

export interface DomainRow {
  id: string;
  partnerId: string;
  userIdentifier: string;
  name: string;
  status: Schemas["DomainStatus"];
  purchasedAt: Date;
  expiresAt: Date;
  autoRenew: boolean;
  whoisPrivacy: boolean;
  nameservers: string[];
  registrationPrice: Cents;
  renewalPrice: Cents;
  currency: string;
  updatedAt: Date;
}

/** A domain's place in its user's list: newest purchase first, then by name in code-point order. */
export interface DomainListPosition {
  purchasedAt: Date;
  name: string;
}

export interface DomainPageQuery {
  /** Only domains of this status; null for all. */
  status: DomainRow["status"] | null;
  /** Start after this place; null from the start. */
  after: DomainListPosition | null;
  limit: number;
}

/** The domains of every partner's users. */
export interface DomainStore {
  findDomain(id: string): Promise<DomainRow | undefined>;
  findDomainByName(name: string): Promise<DomainRow | undefined>;
  domainsOfUser(partnerId: string, userIdentifier: string): Promise<DomainRow[]>;
  countDomains(partnerId: string, userIdentifier: string): Promise<number>;
  /** At most `limit` of the user's domains in list order (DomainListPosition), and how many the status selects in all pages. */
  domainPage(partnerId: string, userIdentifier: string, query: DomainPageQuery): Promise<{ domains: DomainRow[]; total: number }>;
  /** The partner's active domains whose registration ends by `until` (what the sweep expires or renews). */
  activeDomainsEndingBy(partnerId: string, until: Date): Promise<DomainRow[]>;
  saveDomain(domain: DomainRow): Promise<void>;
  /** Removes the domain with its records and everything kept per domain (a domain transferred to another registrar). */
  deleteDomain(id: string): Promise<void>;
}

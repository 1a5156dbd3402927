/**
 * The data every benchmark target serves: a partner with 150 users, one of them with a domain of
 * 5 records (the read), and 100 more domains the writes are spread over, as a partner's users
 * add records to their own zones (one zone taking every write would grow to tens of thousands
 * of records, which no zone has).
 */
import type { Services } from "../../server/context.js";
import { findTld } from "../../server/catalog/tlds.js";
import { registerDomain } from "../../server/domains/registration.js";
import { createRecord } from "../../server/dns/record-service.js";

export const BENCH_KEY = "sk_sandbox_benchmarkPartnerKey00000000000";
export const BENCH_PARTNER = { id: "bench", name: "Benchmark partner" };

export const WRITE_DOMAINS = 100;

export function seed(services: Services): { domainId: string; writeDomainIds: string[] } {
  const now = services.clock.now();
  for (let i = 0; i < 150; i++) {
    services.store.saveUser({ partnerId: BENCH_PARTNER.id, userIdentifier: `user_${String(i).padStart(4, "0")}`, email: null, createdAt: new Date(now.getTime() - i * 1000), lastLogin: now, updatedAt: now, totalSpent: 0 });
  }
  const domain = registerDomain(services.store, services.clock, { partnerId: BENCH_PARTNER.id, userIdentifier: "user_0000", name: "benchmark.com", tld: findTld("com")!, years: 1, charge: 1299 });
  const records = [
    { type: "A", name: "@", content: "192.0.2.1" },
    { type: "AAAA", name: "@", content: "2001:db8::1" },
    { type: "CNAME", name: "www", content: "benchmark.com" },
    { type: "MX", name: "@", content: "mail.benchmark.com", priority: 10 },
    { type: "TXT", name: "@", content: "v=spf1 -all" },
  ] as const;
  for (const record of records) createRecord(services, domain, { ttl: 3600, priority: null, ...record });
  const writeDomainIds = Array.from({ length: WRITE_DOMAINS }, (_, i) =>
    registerDomain(services.store, services.clock, { partnerId: BENCH_PARTNER.id, userIdentifier: `user_${String(i + 1).padStart(4, "0")}`, name: `write-${i}.com`, tld: findTld("com")!, years: 1, charge: 1299 }).id,
  );
  return { domainId: domain.id, writeDomainIds };
}

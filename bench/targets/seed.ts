/**
 * The data every benchmark target serves: a partner with 150 users, one of them with a domain of
 * 5 records (the read), and 100 more domains the writes are spread over, as a partner's users
 * add records to their own zones (one zone taking every write would grow to tens of thousands
 * of records, which no zone has).
 */
import { dnsLimits } from "../../generated/operations.js";
import type { Services } from "../../server/application/context.js";
import { findTld } from "../../server/domain/catalog/tlds.js";
import { registerDomain } from "../../server/domain/domains/registration.js";
import { createRecord } from "../../server/domain/dns/record-service.js";
import { inTransaction } from "../../server/application/transactions.js";

export const BENCH_KEY = "sk_sandbox_benchmarkPartnerKey00000000000";
export const BENCH_PARTNER = { id: "bench", name: "Benchmark partner" };

/** Each holds at most dnsLimits.records_per_domain records: enough for every write of a full `npm run bench` to be a create. */
export const WRITE_DOMAINS = 1000;

/** A .com of a bench partner's user, registered for a year as a purchase would be. */
const registerBenchDomain = (services: Services, userIdentifier: string, name: string) =>
  registerDomain(services.store, services.clock, {
    partnerId: BENCH_PARTNER.id,
    userIdentifier,
    name,
    tld: findTld("com")!,
    years: 1,
    charge: 1299,
  });

export async function seed(services: Services): Promise<{ domainId: string; writeDomainIds: string[] }> {
  const now = services.clock.now();
  for (let i = 0; i < 150; i++) {
    await services.store.saveUser({
      partnerId: BENCH_PARTNER.id,
      userIdentifier: `user_${String(i).padStart(4, "0")}`,
      email: null,
      createdAt: new Date(now.getTime() - i * 1000),
      lastLogin: now,
      updatedAt: now,
      totalSpent: 0,
    });
  }
  const domain = await registerBenchDomain(services, "user_0000", "benchmark.com");
  const records = [
    { type: "A", name: "@", content: "192.0.2.1" },
    { type: "AAAA", name: "@", content: "2001:db8::1" },
    { type: "CNAME", name: "www", content: "benchmark.com" },
    { type: "MX", name: "@", content: "mail.benchmark.com", priority: 10 },
    { type: "TXT", name: "@", content: "v=spf1 -all" },
  ] as const;
  for (const record of records) await inTransaction(services, (tx) => createRecord(tx, domain, { ttl: 3600, priority: null, ...record }));
  const writeDomainIds: string[] = [];
  for (let i = 0; i < WRITE_DOMAINS; i++) {
    // Owned ten each by users 1 to 100, as the hundred write domains used to be one each.
    writeDomainIds.push((await registerBenchDomain(services, `user_${String((i % 100) + 1).padStart(4, "0")}`, `write-${i}.com`)).id);
  }
  return { domainId: domain.id, writeDomainIds };
}

/** A TXT string of the longest length one string may have (255 characters). */
const LONGEST_TXT_STRING = "v=benchmark ".padEnd(255, "abcdefghijklmnopqrstuvwxyz0123456789");

/**
 * The largest zone a partner can build: a domain of the bench partner holding the most records a
 * domain may hold (x-dns-limits), each a TXT record of the longest single string, created through
 * the service as a partner's requests would create them. Returns the domain's id.
 */
export async function seedLargestZone(services: Services): Promise<string> {
  const domain = await registerBenchDomain(services, "user_0000", "largest-zone.com");
  for (let i = 0; i < dnsLimits.records_per_domain; i++) {
    await inTransaction(services, (tx) =>
      createRecord(tx, domain, {
        type: "TXT",
        name: `r${String(i).padStart(4, "0")}`,
        content: LONGEST_TXT_STRING,
        ttl: 3600,
        priority: null,
      }),
    );
  }
  return domain.id;
}

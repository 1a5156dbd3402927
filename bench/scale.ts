/**
 * `npm run bench:scale`: the in-memory store at size. Builds 100,000 users, 200,000 domains and
 * 1,000,000 DNS records through the Store interface, reports build time and memory per record, and
 * the latency of list and lookup operations at 1k and at 1M records: they must stay flat (paged
 * and indexed, no scans).
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { MemoryStore } from "../server/store/memory/memory-store.js";
import type { Store } from "../server/store/store.js";

const { values } = parseArgs({ options: { out: { type: "string" }, users: { type: "string", default: "100000" } } });
const USERS = Number(values.users);
const DOMAINS_PER_USER = 2;
const RECORDS_PER_DOMAIN = 5;
const PARTNER = "scale";
const T0 = Date.parse("2026-01-01T00:00:00Z");

/** Heap in use after a full collection (the script runs with --expose-gc), in bytes. */
function heapInUse(): number {
  global.gc?.();
  return process.memoryUsage().heapUsed;
}

interface Built {
  ms: number;
  domainIds: string[];
  recordIds: string[];
  /** Heap each kind added, with its indexes, in bytes: users, then domains, then records. */
  heap: { users: number; domains: number; records: number };
}

/** Users first, then their domains, then the records, so the heap each kind takes is measured apart. */
async function build(store: Store, users: number): Promise<Built> {
  let buildMs = 0;
  const domainIds: string[] = [];
  const recordIds: string[] = [];
  const phase = async (work: () => Promise<void>) => {
    const before = heapInUse();
    const started = performance.now();
    await work();
    buildMs += performance.now() - started;
    return heapInUse() - before;
  };
  const at = (u: number) => new Date(T0 + u * 1000);
  const usersHeap = await phase(async () => {
    for (let u = 0; u < users; u++)
      await store.saveUser({
        partnerId: PARTNER,
        userIdentifier: `user_${u}`,
        email: `u${u}@example.com`,
        createdAt: at(u),
        lastLogin: at(u),
        updatedAt: at(u),
        totalSpent: 0,
      });
  });
  const domainsHeap = await phase(async () => {
    for (let u = 0; u < users; u++)
      for (let d = 0; d < DOMAINS_PER_USER; d++) {
        const id = `dom_${u}_${d}`;
        domainIds.push(id);
        await store.saveDomain({
          id,
          partnerId: PARTNER,
          userIdentifier: `user_${u}`,
          name: `n${u}x${d}.com`,
          status: "active",
          purchasedAt: at(u),
          expiresAt: new Date(T0 + 365 * 86_400_000),
          autoRenew: true,
          whoisPrivacy: true,
          nameservers: ["ns1.example", "ns2.example"],
          registrationPrice: 1299,
          renewalPrice: 1499,
          currency: "USD",
          updatedAt: at(u),
        });
      }
  });
  // The ids the timings pick from are the benchmark's, not the store's: kept out of the records' figure.
  for (let i = 0; i < domainIds.length * RECORDS_PER_DOMAIN; i++) {
    const domain = Math.floor(i / RECORDS_PER_DOMAIN);
    recordIds.push(`rec_${domainIds[domain]!.slice(4)}_${i % RECORDS_PER_DOMAIN}`);
  }
  const recordsHeap = await phase(async () => {
    for (let i = 0; i < recordIds.length; i++) {
      const domain = domainIds[Math.floor(i / RECORDS_PER_DOMAIN)]!;
      const u = Math.floor(i / (RECORDS_PER_DOMAIN * DOMAINS_PER_USER));
      await store.saveRecord({
        id: recordIds[i]!,
        domainId: domain,
        type: "A",
        name: `h${i % RECORDS_PER_DOMAIN}`,
        content: "192.0.2.1",
        ttl: 3600,
        priority: null,
        comment: null,
        locked: false,
        createdAt: at(u),
        updatedAt: at(u),
      });
    }
  });
  return { ms: buildMs, domainIds, recordIds, heap: { users: usersHeap, domains: domainsHeap, records: recordsHeap } };
}

/** Median microseconds of `operation` over `times` calls with varying arguments. */
async function timeIt(times: number, operation: (i: number) => Promise<unknown>): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    await operation(i);
    samples.push((performance.now() - started) * 1000);
  }
  return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
}

async function operations(store: Store, users: number, domainIds: string[], recordIds: string[]): Promise<Record<string, number>> {
  const pick = <T>(list: T[], i: number) => list[(i * 7919) % list.length]!;
  const timed: Record<string, () => Promise<number>> = {
    "find user": () => timeIt(2000, (i) => store.findUser(PARTNER, `user_${(i * 7919) % users}`)),
    "find domain": () => timeIt(2000, (i) => store.findDomain(pick(domainIds, i))),
    "find domain by name": () => timeIt(2000, (i) => store.findDomainByName(`n${(i * 7919) % users}x1.com`)),
    "find record": () => timeIt(2000, (i) => store.findRecord(pick(recordIds, i))),
    "records of a domain": () => timeIt(2000, (i) => store.recordsOfDomain(pick(domainIds, i))),
    "records at a name (a write's conflict check)": () =>
      timeIt(2000, (i) => store.recordsAtName(pick(domainIds, i), `H${i % RECORDS_PER_DOMAIN}`)),
    "domains of a user": () => timeIt(2000, (i) => store.domainsOfUser(PARTNER, `user_${(i * 7919) % users}`)),
    "list users, first page (100, created_at desc)": () =>
      timeIt(200, () => store.listUsers(PARTNER, { limit: 100, offset: 0, sort: "created_at", order: "desc" })),
    "list users, deep page (offset 90% in, last_login asc)": () =>
      timeIt(200, () => store.listUsers(PARTNER, { limit: 100, offset: Math.floor(users * 0.9), sort: "last_login", order: "asc" })),
    "list users by domain_count (100)": () =>
      timeIt(200, () => store.listUsers(PARTNER, { limit: 100, offset: 0, sort: "domain_count", order: "desc" })),
  };
  // One after another: timings taken at once would measure each other.
  const times: Record<string, number> = {};
  for (const [name, time] of Object.entries(timed)) times[name] = await time();
  return times;
}

const small = new MemoryStore();
const smallUsers = 100; // 100 users, 200 domains, 1,000 records
const smallBuilt = await build(small, smallUsers);
const smallTimes = await operations(small, smallUsers, smallBuilt.domainIds, smallBuilt.recordIds);

const large = new MemoryStore();
const largeBuilt = await build(large, USERS);
const largeTimes = await operations(large, USERS, largeBuilt.domainIds, largeBuilt.recordIds);

const { heap } = largeBuilt;
const totalHeap = heap.users + heap.domains + heap.records;
const objects = USERS * (1 + DOMAINS_PER_USER + DOMAINS_PER_USER * RECORDS_PER_DOMAIN);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const perHundredThousandUsers = (heap.users * 100_000) / USERS;
const perMillionRecords = (heap.records * 1_000_000) / largeBuilt.recordIds.length;
const lines = [
  `# Store at scale, ${new Date().toISOString().slice(0, 10)}`,
  "",
  `Command: \`npm run bench:scale\` (Node ${process.version}, --expose-gc). Built through the Store interface: ${USERS.toLocaleString("en")} users, ${(USERS * DOMAINS_PER_USER).toLocaleString("en")} domains, ${largeBuilt.recordIds.length.toLocaleString("en")} DNS records in ${(largeBuilt.ms / 1000).toFixed(1)} s; heap ${mib(totalHeap)} MiB, about ${Math.round(totalHeap / objects)} bytes per stored object (user, domain or record, with its indexes).`,
  "",
  "Memory of the in-memory store, each kind with its indexes (heap in use after a full collection, before and after adding it):",
  "",
  "| What | heap | per item |",
  "|---|---:|---:|",
  `| 100,000 users | ${mib(perHundredThousandUsers)} MiB | ${Math.round(heap.users / USERS)} bytes |`,
  `| ${(USERS * DOMAINS_PER_USER).toLocaleString("en")} domains | ${mib(heap.domains)} MiB | ${Math.round(heap.domains / (USERS * DOMAINS_PER_USER))} bytes |`,
  `| 1,000,000 DNS records | ${mib(perMillionRecords)} MiB | ${Math.round(heap.records / largeBuilt.recordIds.length)} bytes |`,
  "",
  "| Operation | 1k records (µs, median) | 1M records (µs, median) | ratio |",
  "|---|---:|---:|---:|",
  ...Object.keys(largeTimes).map(
    (name) =>
      `| ${name} | ${smallTimes[name]!.toFixed(1)} | ${largeTimes[name]!.toFixed(1)} | ${(largeTimes[name]! / Math.max(smallTimes[name]!, 0.1)).toFixed(1)} |`,
  ),
  "",
];
const report = lines.join("\n");
console.log(report);
if (values.out) writeFileSync(values.out, report);

/** Starts the reference server in-process on an ephemeral port, with two partners and a manual clock. */
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { Server } from "node:http";
import createClient from "openapi-fetch";
import type { paths } from "../../generated/types/full.js";
import type { Variant } from "../../generated/deployment.js";
import { createApp, type PartnerApi } from "../../server/assembly/app.js";
import { ManualClock } from "../../server/platform/clock.js";
import type { Persistence } from "../../server/store/persistence.js";
import type { DnsRecordRow } from "../../server/domain/dns/record-store.js";
import { findTld } from "../../server/domain/catalog/tlds.js";
import { registerDomain } from "../../server/domain/domains/registration.js";
import type { RateLimitTable } from "../../server/platform/rate-limits/policy.js";
import { keepIdleConnections } from "./listen.js";
import { emptyTestPersistence, type TestStore } from "./test-persistence.js";
import { captureLogger } from "./capture-logger.js";

export interface TestServerOptions {
  variants?: Variant[];
  /** Default: the description's limits. */
  rateLimits?: RateLimitTable;
  /** The jitter of webhook retries; default none (0), so retry times are exact. */
  random?: () => number;
  /** The store this file needs whatever PARTNER_API_TEST_STORE says (a file that reads the memory store's insides). */
  store?: TestStore;
}

export const PARTNER_A_KEY = "sk_sandbox_partnerAkey000000000000000000";
export const PARTNER_B_KEY = "sk_sandbox_partnerBkey000000000000000000";

export interface TestServer extends PartnerApi {
  baseUrl: string;
  clock: ManualClock;
  /** Typed client authenticated as partner A. */
  api: ReturnType<typeof createClient<paths>>;
  /** Typed client authenticated as partner B. */
  otherPartner: ReturnType<typeof createClient<paths>>;
  /** Registers a domain for a user of partner A (what a purchase in the embedded interface does). */
  registerDomainFor(userIdentifier: string, name: string, partnerId?: string): Promise<string>;
  /** Stores `n` A records h0000, h0001, ... in the domain, as if created one by one earlier (no events, no limits). */
  seedRecords(domainId: string, n: number): Promise<DnsRecordRow[]>;
  /**
   * Empties the persistence (data, webhooks, rate-limit counters, clocks) and the event log, restores both keys and the
   * clock: a fresh deployment without rebuilding the app (building compiles every validator, the largest part of a
   * start-up: bench/results/).
   */
  reset(): Promise<void>;
  close(): Promise<void>;
}

/** Points every service at another persistence, as a deployment started on it would be. */
export function usePersistence(api: PartnerApi, persistence: Persistence): void {
  const { services } = api;
  services.persistence = persistence;
  services.store = persistence.store;
  services.events = persistence.events;
  services.webhooks.store = persistence.webhooks;
  services.rateLimitStore = persistence.rateLimits;
  services.clocks.forgetOffsets();
}

const CLOCK_START = "2026-11-22T10:00:00Z";
const PARTNER_A = { id: "partner_a", name: "Partner A" };
const PARTNER_B = { id: "partner_b", name: "Partner B" };

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const clock = new ManualClock(CLOCK_START);
  // Only error-level lines: the unexpected errors (500s) that fail close().
  const errors = captureLogger("error");
  const api = createApp({
    persistence: await emptyTestPersistence(options.store),
    environment: "sandbox",
    variants: options.variants,
    rateLimits: options.rateLimits,
    random: options.random ?? (() => 0),
    embedBaseUrl: "http://embed.test",
    clock,
    partners: [
      { partner: PARTNER_A, keys: [PARTNER_A_KEY] },
      { partner: PARTNER_B, keys: [PARTNER_B_KEY] },
    ],
    logger: errors.logger,
  });
  const server: Server = await new Promise((resolve) => {
    const listening = keepIdleConnections(api.app.listen(0, "127.0.0.1", () => resolve(listening)));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = (key: string) => createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });
  return {
    ...api,
    baseUrl,
    clock,
    api: client(PARTNER_A_KEY),
    otherPartner: client(PARTNER_B_KEY),
    async registerDomainFor(userIdentifier, name, partnerId = "partner_a") {
      const tld = findTld(name.split(".").pop()!)!;
      const registration = { partnerId, userIdentifier, name, tld, years: 1, charge: tld.registration };
      return (await registerDomain(api.services.store, clock, registration)).id;
    },
    async seedRecords(domainId, n) {
      const at = clock.now();
      const rows = Array.from(
        { length: n },
        (_, i): DnsRecordRow => ({
          id: `rec_h${domainId}${String(i).padStart(4, "0")}`,
          domainId,
          type: "A",
          name: `h${String(i).padStart(4, "0")}`,
          content: "192.0.2.1",
          ttl: 300,
          priority: null,
          comment: null,
          locked: false,
          createdAt: at,
          updatedAt: at,
        }),
      );
      for (const row of rows) await api.services.store.saveRecord(row);
      return rows;
    },
    async reset() {
      usePersistence(api, await emptyTestPersistence(options.store));
      api.outbox.events.length = 0;
      clock.set(CLOCK_START);
      api.keys.addKey(PARTNER_A, PARTNER_A_KEY);
      api.keys.addKey(PARTNER_B, PARTNER_B_KEY);
    },
    close: () =>
      new Promise((resolve, reject) => {
        if (errors.lines.length > 0) reject(new Error(`the server logged unexpected errors: ${errors.text()}`));
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * One server for a test file, reset before each test: call at the top of the file. The returned
 * object stands for the server started in beforeAll.
 */
export function useTestServer(options: TestServerOptions = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  beforeEach(() => server!.reset());
  afterAll(async () => {
    await server?.close();
  });
  return new Proxy({} as TestServer, { get: (_target, property) => Reflect.get(server!, property) });
}

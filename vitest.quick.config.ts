import { defineConfig } from "vitest/config";
import { scaled } from "./scripts/lib/deadlines.js";

/**
 * `npm run test:quick`, for a developer between edits: the table tests of the pure modules (DNS rules,
 * domain names, zone file reader and writer, key grants, rate limiter, store, ids, clock, webhook address policy), the spec's own checks
 * (constraints, examples, coverage of the service description), and API tests of the common paths:
 * authentication and HTTP, domains, Variant D's DNS records and templates, the embed host's CSRF
 * checks. Left to `npm test`: the type check, the spec lints, every other API and embed test, server
 * processes (start-up, build), property tests, the client package, the spec diff and the
 * broken-server run, the slow-client and rate-window waits, the contract suite.
 */
export default defineConfig({
  test: {
    include: [
      "test/server/domain/catalog/**/*.test.ts",
      "test/server/domain/dns/record-*.test.ts",
      "test/server/domain/dns/mail-policy-records.test.ts",
      "test/server/domain/dns/template-variables.test.ts",
      "test/server/domain/zone-files/zone-{reader,writer}.test.ts",
      "test/server/partners/keys/key-grant.test.ts",
      "test/server/platform/rate-limits/rate-limiter.test.ts",
      // The memory store's contract and the store's pure pieces; the PGlite suites are npm test's.
      "test/server/store/{memory-store-contract,record-list,records-at-name,sorted-keys}.test.ts",
      "test/server/domain/webhooks/address-policy.test.ts",
      "test/server/api/validator/route-regexp-cache.test.ts",
      "test/server/platform/clock.test.ts",
      "test/server/platform/ids.test.ts",
      "test/spec/constraints.test.ts",
      "test/spec/examples.test.ts",
      "test/spec/service-description-coverage.test.ts",
      "test/server/api/http/auth-and-http.test.ts",
      "test/server/domain/domains/domains.test.ts",
      "test/server/domain/dns/dns-records-d.test.ts",
      "test/server/domain/dns/dns-template-variables.test.ts",
      "test/server/embed/csrf.test.ts",
    ],
    testTimeout: scaled(30_000),
    hookTimeout: scaled(60_000),
    maxWorkers: 2,
    isolate: false,
  },
});

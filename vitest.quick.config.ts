import { defineConfig } from "vitest/config";

/**
 * `npm run test:quick`, for a developer between edits: the table tests of the pure modules (DNS rules,
 * domain names, rate limiter, store, ids, clock, webhook address policy), the spec's own checks
 * (constraints, examples, coverage of the service description), and the API tests of the common
 * paths (authentication and HTTP, domains, DNS records, users, the embedded interface without a
 * browser). Left to `npm test`: no type check, no start-up or build of a server process, no property
 * tests, no client packaging, spec diff or broken-server run, no slow-client or rate-window waits.
 */
export default defineConfig({
  test: {
    include: [
      "test/server/catalog/**/*.test.ts",
      "test/server/dns/record-*.test.ts",
      "test/server/dns/mail-policy-records.test.ts",
      "test/server/dns/template-variables.test.ts",
      "test/server/dns/dns-records*.test.ts",
      "test/server/dns/dns-template-variables.test.ts",
      "test/server/domains/**/*.test.ts",
      "test/server/embed/**/*.test.ts",
      "test/server/rate-limits/rate-limiter.test.ts",
      "test/server/store/**/*.test.ts",
      "test/server/webhooks/address-policy.test.ts",
      "test/server/webhooks/sender.test.ts",
      "test/server/http/auth-and-http.test.ts",
      "test/server/http/integer-query.test.ts",
      "test/server/http/route-regexp-cache.test.ts",
      "test/server/clock.test.ts",
      "test/server/ids.test.ts",
      "test/spec/constraints.test.ts",
      "test/spec/examples.test.ts",
      "test/spec/service-description-coverage.test.ts",
    ],
    testTimeout: 30_000,
    maxWorkers: 2,
    isolate: false,
  },
});

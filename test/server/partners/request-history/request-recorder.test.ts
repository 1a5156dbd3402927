/** The recorder's buffer: what waits for a database to be written, bounded whatever a client sends. */
import { describe, expect, it } from "vitest";
import { RequestRecorder } from "../../../../server/partners/request-history/request-recorder.js";
import type { RequestHistoryStore, RequestRecord } from "../../../../server/partners/request-history/request-history-store.js";

const T0 = Date.parse("2026-01-01T00:00:00Z");

const refused = (i: number, route = "/api/v1/users"): RequestRecord => ({
  partnerId: "ptn_a",
  environment: "sandbox",
  at: new Date(T0 + i),
  method: "GET",
  route,
  status: 429,
  requestId: `req_${i}`,
  durationMs: 0.2,
  keyName: "Key",
});

/** A store that keeps what each append was given. */
function appendsOf(): { store: RequestHistoryStore; appends: RequestRecord[][] } {
  const appends: RequestRecord[][] = [];
  const store: RequestHistoryStore = {
    async append(records) {
      appends.push(records.map((record) => ({ ...record })));
    },
    page: async () => [],
    prune: async () => 0,
  };
  return { store, appends };
}

describe("the request recorder", () => {
  it("counts refusals waiting to be written into one record per key, method, route and minute", async () => {
    const { store, appends } = appendsOf();
    const recorder = new RequestRecorder(
      () => store,
      () => true,
      () => undefined,
    );
    for (let i = 0; i < 3_000; i++) recorder.record(refused(i, i % 3 === 0 ? "/api/v1/domains/tlds" : "/api/v1/users"));
    await recorder.flush();
    const written = appends.flat();
    expect(written.map((record) => [record.route, record.count ?? 1, record.requestId])).toEqual([
      ["/api/v1/domains/tlds", 1_000, "req_0"],
      ["/api/v1/users", 2_000, "req_1"],
    ]);
  });
});

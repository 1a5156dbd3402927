/** The user-list iterators over GET /api/v1/users against the reference server. */
import { beforeEach, describe, expect, it } from "vitest";
import { DEFAULT_RATE_LIMITS } from "../../server/platform/rate-limits/policy.js";
import { createPartnerClient, isPreconditionFailed, PartnerApiError, type RetryClock } from "../../client/src/index.js";
import { PARTNER_A_KEY, PARTNER_B_KEY, useTestServer } from "../support/test-server.js";

const s = useTestServer({
  rateLimits: { ...DEFAULT_RATE_LIMITS, classes: { ...DEFAULT_RATE_LIMITS.classes, user_retrieval: { limit: 3, window: 60 } } },
});
const IDS = ["u01", "u02", "u03", "u04", "u05", "u06", "u07"];

/** A client that records the query of each request it sends. */
function recordingClient(key = PARTNER_A_KEY, retry?: { clock: RetryClock }) {
  const queries: string[] = [];
  const fetch = (request: Request) => {
    queries.push(new URL(request.url).search);
    return globalThis.fetch(request);
  };
  return { api: createPartnerClient({ apiKey: key, baseUrl: s.baseUrl, fetch, retry }), queries };
}

beforeEach(async () => {
  const { api } = recordingClient();
  // One a second, so created_at orders them.
  for (const user_identifier of IDS) {
    await api.POST("/api/v1/users", { body: { user_identifier } });
    s.clock.advance(1000);
  }
});

describe("paginateUsers", () => {
  it("walks every page, oldest first, each after the one before by its next_cursor", async () => {
    const { api, queries } = recordingClient();
    const seen: string[] = [];
    for await (const user of api.paginateUsers({ pageSize: 3 })) seen.push(user.user_identifier);
    expect(seen).toEqual(IDS);
    expect(queries).toHaveLength(3);
    expect(queries[0]).toBe("?limit=3&sort=created_at&order=asc&offset=0");
    for (const query of queries.slice(1)) expect(query).toMatch(/^\?limit=3&sort=created_at&order=asc&cursor=[^&]+$/);
  });

  it("skips no user when one already read is deleted during the walk", async () => {
    const { api } = recordingClient();
    const seen: string[] = [];
    for await (const user of api.paginateUsers({ pageSize: 3 })) {
      seen.push(user.user_identifier);
      if (user.user_identifier === "u03")
        await api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u01" } } });
    }
    expect(seen).toEqual(IDS);
  });

  it("walks by offset a server that answers no next_cursor (one before the addition)", async () => {
    const queries: string[] = [];
    const withoutCursors = async (request: Request) => {
      queries.push(new URL(request.url).search);
      const response = await globalThis.fetch(request);
      const { next_cursor: _dropped, ...body } = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
    };
    const api = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, fetch: withoutCursors });
    const seen: string[] = [];
    for await (const user of api.paginateUsers({ pageSize: 3 })) seen.push(user.user_identifier);
    expect(seen).toEqual(IDS);
    expect(queries).toEqual([
      "?limit=3&sort=created_at&order=asc&offset=0",
      "?limit=3&sort=created_at&order=asc&offset=3",
      "?limit=3&sort=created_at&order=asc&offset=6",
    ]);
  });

  it("takes the sort and order; stops after the page that reaches total", async () => {
    const { api, queries } = recordingClient();
    const seen: string[] = [];
    for await (const user of api.paginateUsers({ pageSize: 7, order: "desc" })) seen.push(user.user_identifier);
    expect(seen).toEqual([...IDS].reverse());
    expect(queries).toHaveLength(1);
  });

  it("asks for pages of 100 by default", async () => {
    const { api, queries } = recordingClient();
    const seen = [];
    for await (const user of api.paginateUsers()) seen.push(user);
    expect(seen).toHaveLength(7);
    expect(queries).toEqual(["?limit=100&sort=created_at&order=asc&offset=0"]);
  });

  it("yields nothing for a partner without users", async () => {
    const { api, queries } = recordingClient(PARTNER_B_KEY);
    const seen = [];
    for await (const user of api.paginateUsers()) seen.push(user);
    expect(seen).toEqual([]);
    expect(queries).toHaveLength(1);
  });

  it("stopping early sends no further request", async () => {
    const { api, queries } = recordingClient();
    for await (const user of api.paginateUsers({ pageSize: 2 })) if (user.user_identifier === "u02") break;
    expect(queries).toHaveLength(1);
  });
});

describe("userPages", () => {
  it("yields each page with total, limit and next_cursor, null on the last", async () => {
    const { api } = recordingClient();
    const pages = [];
    for await (const page of api.userPages({ pageSize: 3 }))
      pages.push({ total: page.total, limit: page.limit, count: page.users.length, last: page.next_cursor === null });
    expect(pages).toEqual([
      { total: 7, limit: 3, count: 3, last: false },
      { total: 7, limit: 3, count: 3, last: false },
      { total: 7, limit: 3, count: 1, last: true },
    ]);
  });
});

describe("paginateDnsRecords and dnsRecordPages", () => {
  let domainId: string;
  beforeEach(async () => {
    domainId = await s.registerDomainFor("u01", "adalovelace.com");
    const records = Array.from({ length: 7 }, (_, i) => ({ type: "A" as const, name: `h${i}`, content: "203.0.113.10" }));
    await recordingClient().api.POST("/api/v1/domains/{domain_id}/dns/bulk", {
      params: { path: { domain_id: domainId } },
      body: { records },
    });
  });

  it("walks every page of a domain's records by following next_cursor", async () => {
    const { api, queries } = recordingClient();
    const names: string[] = [];
    for await (const record of api.paginateDnsRecords(domainId, { pageSize: 3 })) names.push(record.name);
    expect(names).toEqual(["h0", "h1", "h2", "h3", "h4", "h5", "h6"]);
    expect(queries).toHaveLength(3);
    expect(queries[0]).toBe("?limit=3");
    expect(queries.slice(1).every((query) => /^\?limit=3&cursor=[A-Za-z0-9_-]+$/.test(query))).toBe(true);
  });

  it("asks for pages of 100 by default and yields each page with total", async () => {
    const { api, queries } = recordingClient();
    const pages = [];
    for await (const page of api.dnsRecordPages(domainId))
      pages.push({ count: page.records.length, total: page.total, next: page.next_cursor });
    expect(pages).toEqual([{ count: 7, total: 7, next: null }]);
    expect(queries).toEqual(["?limit=100"]);
  });

  it("throws PartnerApiError when a page is refused", async () => {
    const { api } = recordingClient(PARTNER_B_KEY);
    const walk = async () => {
      for await (const _record of api.paginateDnsRecords(domainId)) expect.unreachable();
    };
    await expect(walk()).rejects.toMatchObject({ name: "PartnerApiError", status: 403 });
  });
});

describe("paginateDomains and domainPages", () => {
  beforeEach(async () => {
    for (const name of ["a.com", "b.com", "c.com", "d.com", "e.com"]) {
      s.clock.advance(60_000);
      await s.registerDomainFor("u01", name);
    }
  });

  it("walks every page of a user's domains, newest purchase first, by following next_cursor", async () => {
    const { api, queries } = recordingClient();
    const names: string[] = [];
    for await (const domain of api.paginateDomains("u01", { pageSize: 2 })) names.push(domain.name);
    expect(names).toEqual(["e.com", "d.com", "c.com", "b.com", "a.com"]);
    expect(queries).toHaveLength(3);
    expect(queries[0]).toBe("?limit=2");
  });

  it("passes the status filter on every page", async () => {
    const { api, queries } = recordingClient();
    const pages = [];
    for await (const page of api.domainPages("u01", { pageSize: 100, status: "active" })) pages.push(page.total);
    expect(pages).toEqual([5]);
    expect(queries).toEqual(["?limit=100&status=active"]);
  });
});

describe("paginateEvents and eventPages", () => {
  it("walks every event of the partner, newest first, filtered by type, following next_cursor", async () => {
    const { api, queries } = recordingClient();
    for (const user of ["e1", "e2", "e3"]) {
      s.clock.advance(1000);
      await api.POST("/api/v1/users", { body: { user_identifier: user } });
      await api.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: user } } });
    }
    queries.length = 0;
    const deleted: string[] = [];
    for await (const event of api.paginateEvents({ pageSize: 2, types: ["user.deleted"] }))
      if (event.type === "user.deleted") deleted.push(event.data.user_identifier);
    expect(deleted).toEqual(["e3", "e2", "e1"]);
    expect(queries[0]).toBe("?limit=2&type=user.deleted");
    expect(queries).toHaveLength(2);
  });
});

describe("isPreconditionFailed", () => {
  it("tells a 412 of a stale If-Match, with the current entity tag", async () => {
    const { api } = recordingClient();
    await api.POST("/api/v1/users", { body: { user_identifier: "u77" } });
    const { response: read } = await api.GET("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: "u77" } } });
    const current = read.headers.get("ETag")!;
    const { error, response } = await api.PUT("/api/v1/users/{user_identifier}", {
      params: { path: { user_identifier: "u77" }, header: { "If-Match": '"stale"' } },
      body: { email: "u77@example.com" },
    });
    expect(response.status).toBe(412);
    expect(isPreconditionFailed(error) && error.details.etag).toBe(current);
    expect(isPreconditionFailed({ error: "conflict", message: "no" })).toBe(false);
  });
});

describe("failures", () => {
  it("a refused page throws PartnerApiError with the documented body", async () => {
    const { api } = recordingClient();
    const walk = async () => {
      for await (const _user of api.paginateUsers({ pageSize: 101 })) expect.unreachable();
    };
    const error = await walk().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PartnerApiError);
    expect(error).toMatchObject({ status: 400, body: { error: "validation_error", details: { field: "limit" } } });
    expect((error as PartnerApiError).requestId).toMatch(/.+/);
  });

  it("without retries, a rate-limited page throws; with them, the walk waits and goes on", async () => {
    const { api } = recordingClient();
    const seen: string[] = [];
    const walk = async () => {
      for await (const user of api.paginateUsers({ pageSize: 2 })) seen.push(user.user_identifier);
    };
    // user_retrieval allows 3 a minute: the fourth page is refused.
    await expect(walk()).rejects.toMatchObject({ name: "PartnerApiError", status: 429, body: { error: "rate_limit_exceeded" } });
    expect(seen).toEqual(IDS.slice(0, 6));

    s.clock.advance(60_000);
    const sleeps: number[] = [];
    const clock: RetryClock = {
      now: () => s.clock.now().getTime(),
      sleep: async (ms) => {
        sleeps.push(ms);
        s.clock.advance(ms);
      },
    };
    const retrying = recordingClient(PARTNER_A_KEY, { clock });
    const all: string[] = [];
    for await (const user of retrying.api.paginateUsers({ pageSize: 2 })) all.push(user.user_identifier);
    expect(all).toEqual(IDS);
    expect(sleeps).toHaveLength(1);
  });
});

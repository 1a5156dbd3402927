/**
 * The hot lookups reach their rows through an index, not by reading a table: each store call runs
 * against enough rows (analyzed) for the planner to choose as it would in production, and the plan
 * of every statement it sends is read with EXPLAIN. On PGlite, in npm test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "../../../scripts/lib/deadlines.js";
import { migrate, openSql } from "../../../server/store/postgres/index.js";
import { PgApiKeyStore } from "../../../server/store/postgres/pg-shared-stores.js";
import { PgRequestHistoryStore } from "../../../server/store/postgres/pg-dashboard-stores.js";
import type { RequestFilter, RequestLogPosition } from "../../../server/partners/request-history/request-history-store.js";
import { PgEventStore } from "../../../server/store/postgres/pg-event-store.js";
import { PgStore } from "../../../server/store/postgres/pg-store.js";
import { PgWebhookStore } from "../../../server/store/postgres/pg-webhook-store.js";
import type { Row, Sql } from "../../../server/store/postgres/sql-client.js";
import type { UserListPosition, UserSort } from "../../../server/domain/users/user-store.js";

const PARTNERS = 20;
const USERS_PER_PARTNER = 1_000;
const DOMAINS = 2_000;
const RECORDS = 20_000;
const ENDPOINTS = 2_000;
const DELIVERIES = 20_000;
const TRANSFERS = 5_000;

/** Tables big enough that reading one whole would show: none may be scanned. */
const BIG_TABLES = [
  "request_log",
  "events",
  "users",
  "domains",
  "dns_records",
  "webhook_deliveries",
  "webhook_endpoints",
  "api_keys",
  "transfers",
  "login_sessions",
];

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function scannedTables(node: PlanNode): string[] {
  const own = node["Node Type"] === "Seq Scan" && node["Relation Name"] ? [node["Relation Name"]] : [];
  return [...own, ...(node.Plans ?? []).flatMap(scannedTables)];
}

function nodeTypes(node: PlanNode): string[] {
  return [node["Node Type"], ...(node.Plans ?? []).flatMap(nodeTypes)];
}

/** Runs every statement and records the tables its plan reads whole, and the kinds of its plan's nodes. */
function explaining(sql: Sql): Sql & { scanned: string[][]; nodes: string[][] } {
  const scanned: string[][] = [];
  const nodes: string[][] = [];
  const explained: Sql & { scanned: string[][]; nodes: string[][] } = {
    scanned,
    nodes,
    connections: 1,
    async query<R extends Row>(text: string, params: readonly unknown[] = []) {
      const [plan] = await sql.query<{ "QUERY PLAN": Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${text}`, params);
      scanned.push(scannedTables(plan!["QUERY PLAN"][0]!.Plan));
      nodes.push(nodeTypes(plan!["QUERY PLAN"][0]!.Plan));
      return sql.query<R>(text, params);
    },
    exec: (script) => sql.exec(script),
    transaction: (work) => work(explained),
    close: async () => {},
  };
  return explained;
}

describe("the plans of the hot lookups, with 20k records, 20k users and 20k deliveries analyzed", () => {
  let sql: Sql;
  beforeAll(async () => {
    sql = await openSql({ inMemory: true });
    await migrate(sql, "sandbox");
    await sql.exec(`
      INSERT INTO users (partner_id, user_identifier, created_at, last_login, updated_at, total_spent)
        SELECT 'ptn_' || (i % ${PARTNERS}), 'usr_' || i, now() - i * interval '1 minute', now() - (i % 97) * interval '1 hour', now(), 0
        FROM generate_series(1, ${PARTNERS * USERS_PER_PARTNER}) i;
      INSERT INTO domains (id, partner_id, user_identifier, name, status, purchased_at, expires_at, auto_renew, whois_privacy,
                           nameservers, registration_price, renewal_price, currency, updated_at)
        SELECT 'dom_' || i, 'ptn_' || (i % ${PARTNERS}), 'usr_' || i, 'name-' || i || '.com', 'active', now(), now() + interval '1 year',
               true, false, ARRAY['ns1.example.net'], 1299, 1499, 'USD', now()
        FROM generate_series(1, ${DOMAINS}) i;
      INSERT INTO dns_records (id, domain_id, type, name, content, ttl, priority, created_at, updated_at)
        SELECT 'rec_' || i, 'dom_' || (i % 20 + 1), 'A', 'host-' || (i % 500), '192.0.2.1', 3600, NULL, now(), now()
        FROM generate_series(1, ${RECORDS}) i;
      INSERT INTO webhook_endpoints (id, partner_id, url, enabled, failing, secret, created_at, updated_at)
        SELECT 'whe_' || i, 'ptn_' || i, 'https://receiver.example/' || i, true, false, 's', now(), now() FROM generate_series(1, ${ENDPOINTS}) i;
      INSERT INTO webhook_deliveries (id, endpoint_id, partner_id, event, status, attempts, next_attempt_at, created_at)
        SELECT 'whd_' || i, 'whe_' || (i % ${ENDPOINTS} + 1), 'ptn_' || (i % ${ENDPOINTS} + 1),
          jsonb_build_object('id', 'evt_' || i, 'partnerId', 'ptn_' || (i % ${ENDPOINTS} + 1), 'type', 'dns_record.created', 'createdAt', '2026-01-01T00:00:00.000Z', 'payload', '{}'::jsonb), CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'succeeded' END,
               '[]', now(), now() - i * interval '1 second'
        FROM generate_series(1, ${DELIVERIES}) i;
      INSERT INTO api_keys (hash, id, partner_id, partner_name, environment, name, hint, last_four, created_at)
        SELECT md5(i::text), 'key_' || i, 'ptn_' || (i % 500), 'Partner', 'sandbox', 'Key ' || i, 'sk_sandbox_abcd', 'wxyz', now() FROM generate_series(1, 5000) i;
      INSERT INTO request_log (partner_id, environment, at, method, route, status, request_id, duration_ms, key_name)
        SELECT 'ptn_' || (i % ${PARTNERS}), 'sandbox', now() - i * interval '1 second', 'GET', '/api/v1/users', CASE WHEN i % 7 = 0 THEN 404 ELSE 200 END,
               'req_' || i, 1.5, 'Key'
        FROM generate_series(1, ${RECORDS}) i;
      INSERT INTO events (id, partner_id, type, created_at, payload)
        SELECT 'evt_' || i, 'ptn_' || (i % ${PARTNERS}), 'dns_record.created', now() - i * interval '1 second', '{}'
        FROM generate_series(1, ${RECORDS}) i;
      INSERT INTO transfers (id, partner_id, user_identifier, domain_name, status, auth_code, extend_registration, cost, currency,
                             started_at, estimated_completion, history)
        SELECT 'trf_' || i, 'ptn_' || (i % ${PARTNERS}), 'usr_' || i, 'moving-' || i || '.com', CASE WHEN i % 10 = 0 THEN 'pending' ELSE 'completed' END,
               'code', true, 999, 'USD', now(), now(), '[]'
        FROM generate_series(1, ${TRANSFERS}) i;
      ANALYZE;
    `);
  }, scaled(120_000));
  afterAll(() => sql.close());

  /**
   * A page after a place midway through the list, each way (the users' creation spans 20000 minutes, their logins 97
   * hours, and most share the domain count 0): the seek finds it where an offset walked to it. Near the end the planner
   * may sort the few users it expects to remain, which costs what they are.
   */
  const MIDWAY: Record<UserSort, number> = {
    created_at: Date.now() - 10_000 * 60_000,
    last_login: Date.now() - 48 * 3_600_000,
    domain_count: 0,
  };
  const usersPage = (store: PgStore, sort: UserSort, order: "asc" | "desc", after: UserListPosition | null) =>
    store.listUsers("ptn_4", { sort, order, offset: 0, limit: 51, after });
  const USER_PAGES_AFTER_A_POSITION = (["created_at", "last_login", "domain_count"] as const).flatMap((sort) =>
    (["asc", "desc"] as const).map((order): [string, (store: PgStore) => Promise<unknown>] => [
      `a users page by ${sort} ${order} after a position`,
      (store) => usersPage(store, sort, order, { sortValue: MIDWAY[sort], userIdentifier: "usr_504" }),
    ]),
  );

  type Lookup = (
    store: PgStore,
    webhooks: PgWebhookStore,
    keys: PgApiKeyStore,
    requests: PgRequestHistoryStore,
    events: PgEventStore,
  ) => Promise<unknown>;
  const logPage = (requests: PgRequestHistoryStore, filter: RequestFilter, before: RequestLogPosition | null = null) =>
    requests.page({ partnerId: "ptn_3", environment: "sandbox", filter, before, limit: 51 });
  const calls: Array<[string, Lookup]> = [
    ["a user by id", (store) => store.findUser("ptn_3", "usr_23")],
    ["a domain by id", (store) => store.findDomain("dom_17")],
    ["a domain by name", (store) => store.findDomainByName("name-17.com")],
    ["the first records page of a domain", (store) => store.recordPage("dom_5", null, 100)],
    [
      "the records page of a domain after a position",
      (store) => store.recordPage("dom_5", { name: "host-250", type: "A", createdAt: new Date(), id: "rec_0" }, 100),
    ],
    ["the records at a name", (store) => store.recordsAtName("dom_5", "HOST-44")],
    ["the record count of a domain", (store) => store.countRecords("dom_5")],
    ["adding records within the bound", (store) => store.addRecords("dom_6", [], 1_000)],
    ["a user's domains", (store) => store.domainsOfUser("ptn_3", "usr_23")],
    ...(["created_at", "last_login", "domain_count"] as const).flatMap((sort) =>
      (["asc", "desc"] as const).map((order): [string, (store: PgStore) => Promise<unknown>] => [
        `a users page by ${sort} ${order}`,
        (store) => store.listUsers("ptn_4", { sort, order, offset: 100, limit: 50 }),
      ]),
    ),
    ...USER_PAGES_AFTER_A_POSITION,
    ["the active transfer of a name", (store) => store.activeTransferOf("moving-20.com")],
    ["a partner's active transfers (the sweep)", (store) => store.activeTransfersOfPartner("ptn_3")],
    ["a partner's active domains whose registration ended (the sweep)", (store) => store.activeDomainsEndingBy("ptn_3", new Date())],
    ["the claim of a due delivery", (_store, webhooks) => webhooks.claimDueDelivery("whe_7", new Date(), 30_000)],
    ["a page of an endpoint's deliveries", (_store, webhooks) => webhooks.deliveriesOf("whe_7", { limit: 20, offset: 0 })],
    ["an API key by its hash", (_store, _webhooks, keys) => keys.findKey("c4ca4238a0b923820dcc509a6f75849b", new Date())],
    ["a partner's keys (the dashboard)", (_store, _webhooks, keys) => keys.keysOfPartner("ptn_3", "sandbox", new Date())],
    ["the newest page of a request log", (_store, _webhooks, _keys, requests) => logPage(requests, {})],
    [
      "an older page of a request log",
      (_store, _webhooks, _keys, requests) => logPage(requests, {}, { at: new Date(Date.now() - 3_600_000), requestId: "req_3600" }),
    ],
    ["a request of a log by its id", (_store, _webhooks, _keys, requests) => logPage(requests, { requestId: "req_3" })],
    ["a request log's errors", (_store, _webhooks, _keys, requests) => logPage(requests, { statusClass: 4 })],
    ["a request log's requests of a route", (_store, _webhooks, _keys, requests) => logPage(requests, { route: "/api/v1/users" })],
    [
      "the refusals counted into an entry of their minute",
      (_store, _webhooks, _keys, requests) =>
        requests.append([
          {
            partnerId: "ptn_3",
            environment: "sandbox",
            at: new Date(),
            method: "GET",
            route: null,
            status: 429,
            requestId: "req_x",
            durationMs: 1,
            keyName: "Key",
          },
        ]),
    ],
    [
      "the request log's retention",
      (_store, _webhooks, _keys, requests) => requests.prune(new Date(), { maxAgeMs: 3 * 3_600_000, keepLatest: 500 }),
    ],
    [
      "the event history's retention",
      (_store, _webhooks, _keys, _requests, events) => events.prune(new Date(), { maxAgeMs: 3 * 3_600_000, keepLatest: 500 }),
    ],
  ];

  it.each([...USER_PAGES_AFTER_A_POSITION, ["a users page by offset", (store: PgStore) => usersPage(store, "created_at", "desc", null)]])(
    "reads %s in list order from an index, sorting nothing, in one statement",
    async (_name, call) => {
      const queries = explaining(sql);
      await call(new PgStore(queries));
      expect(queries.nodes).toHaveLength(1);
      expect(queries.nodes[0], queries.nodes[0]!.join(", ")).not.toContain("Sort");
      expect(queries.nodes[0]).not.toContain("Incremental Sort");
    },
  );

  it.each(calls)("reads %s through an index", async (_name, call) => {
    const queries = explaining(sql);
    await call(
      new PgStore(queries),
      new PgWebhookStore(queries),
      new PgApiKeyStore(queries),
      new PgRequestHistoryStore(queries),
      new PgEventStore(queries),
    );
    expect(queries.scanned.length).toBeGreaterThan(0);
    expect(queries.scanned.flat().filter((table) => BIG_TABLES.includes(table))).toEqual([]);
  });
});

/**
 * Forged cursors on every paged list (users' domains, a domain's records, events, users), on each store:
 * whatever a cursor holds, a list either continues from it or refuses it with 400 invalid_cursor,
 * never a 500 (PostgreSQL refused a time outside its range, or an invalid date, as an error).
 */
import { Buffer } from "node:buffer";
import { beforeEach, describe, expect, it } from "vitest";
import { PARTNER_A_KEY, PARTNER_B_KEY, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();

const encode = (content: unknown) => Buffer.from(JSON.stringify(content)).toString("base64url");
const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];

interface PagedList {
  name: string;
  /** Where the cursor holds its time. */
  timeAt: number;
  /** A page of one item, as partner A (or the partner `apiKey` names) reads it. */
  page(query: Record<string, string | number>, apiKey?: string): Promise<Response>;
}

let domainId: string;
let otherPartnerDomainId: string;

async function get(path: string, query: Record<string, string | number>, apiKey?: string) {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const headers = { Authorization: `Bearer ${apiKey ?? PARTNER_A_KEY}` };
  return fetch(`${s.baseUrl}${path}?${search}`, { headers });
}

const lists: PagedList[] = [
  { name: "a user's domains", timeAt: 3, page: (query, key) => get("/api/v1/users/u1/domains", query, key) },
  {
    name: "a domain's records",
    timeAt: 4,
    page: (query, key) => get(`/api/v1/domains/${key === PARTNER_B_KEY ? otherPartnerDomainId : domainId}/dns`, query, key),
  },
  { name: "events", timeAt: 1, page: (query, key) => get("/api/v1/events", query, key) },
  { name: "users", timeAt: 3, page: (query, key) => get("/api/v1/users", query, key) },
];

beforeEach(async () => {
  for (const apiKey of [undefined, PARTNER_B_KEY]) {
    const client = apiKey ? s.otherPartner : s.api;
    await client.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    // A second user, so the users list has a page after the first.
    await client.POST("/api/v1/users", { body: { user_identifier: "u2" } });
    // Deleting users emits events for the event list.
    for (const gone of ["gone-1", "gone-2"]) {
      await client.POST("/api/v1/users", { body: { user_identifier: gone } });
      await client.DELETE("/api/v1/users/{user_identifier}", { params: { path: { user_identifier: gone } } });
    }
  }
  domainId = await s.registerDomainFor("u1", "adalovelace.com");
  s.clock.advance(60_000);
  await s.registerDomainFor("u1", "adalovelace.io");
  otherPartnerDomainId = await s.registerDomainFor("u1", "gracehopper.com", "partner_b");
  s.clock.advance(60_000);
  await s.registerDomainFor("u1", "gracehopper.io", "partner_b");
  await s.seedRecords(domainId, 3);
  await s.seedRecords(otherPartnerDomainId, 3);
});

/** A genuine cursor of the list, partner A's unless `apiKey` says otherwise. */
async function genuineCursor(list: PagedList, apiKey?: string): Promise<string> {
  const answer = await list.page({ limit: 1 }, apiKey);
  expect(answer.status).toBe(200);
  const cursor = ((await answer.json()) as { next_cursor: string | null }).next_cursor;
  expect(cursor).toEqual(expect.any(String));
  return cursor!;
}

async function expectInvalidCursor(answer: Response) {
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ error: "validation_error", details: { field: "cursor", code: "invalid_cursor" } });
}

/** Times no list gives out: outside the dates JavaScript and PostgreSQL hold, or not an integer of milliseconds at all. */
const forgedTimes: [string, unknown][] = [
  ["one past the last JavaScript date", 8.64e15 + 1],
  ["the last JavaScript date (year 275760)", 8.64e15],
  ["the first JavaScript date (year -271821)", -8.64e15],
  ["a year before PostgreSQL's first (4714 BC)", Date.UTC(-4714, 0, 1)],
  ["a year after 9999", Date.UTC(10_000, 0, 1)],
  ["the largest safe integer", Number.MAX_SAFE_INTEGER],
  ["the smallest safe integer", Number.MIN_SAFE_INTEGER],
  ["a huge number", 1e300],
  ["a negative time", -1],
  ["a fraction", 1.5],
  ["a string of a date", "2026-11-22T10:00:00Z"],
  ["the string NaN", "NaN"],
  ["null (what JSON makes of NaN)", null],
  ["a boolean", true],
  ["an array", [0]],
  ["an object", { time: 0 }],
];

/** Cursors that are no cursor of any list. */
const forgedCursors: [string, string][] = [
  ["not base64url", "not.a.cursor!"],
  ["base64 with padding", `${encode(["e1"])}==`],
  ["base64url of no JSON", Buffer.from("{not json").toString("base64url")],
  ["base64url of invalid UTF-8", Buffer.from([0xff, 0xfe, 0xfd]).toString("base64url")],
  ["JSON of a number", encode(12)],
  ["JSON of null", encode(null)],
  ["JSON of an object", encode({ after: "x" })],
  ["an empty array", encode([])],
  ["an array of another version", encode(["x9", "a", "b", 0, "c"])],
  ["a huge array", encode(Array.from({ length: 200 }, () => 0))],
];

describe.each(lists)("the list of $name", (list) => {
  it("continues from its own cursor", async () => {
    expect((await list.page({ limit: 1, cursor: await genuineCursor(list) })).status).toBe(200);
  });

  it.each(forgedTimes)("refuses a cursor whose time is %s with 400 invalid_cursor", async (_what, time) => {
    const content = decode(await genuineCursor(list));
    content[list.timeAt] = time;
    await expectInvalidCursor(await list.page({ limit: 1, cursor: encode(content) }));
  });

  it.each(forgedCursors)("refuses a cursor that is %s with 400 invalid_cursor", async (_what, cursor) => {
    await expectInvalidCursor(await list.page({ limit: 1, cursor }));
  });

  it("refuses a cursor whose every other item is of the wrong type with 400 invalid_cursor", async () => {
    const content = decode(await genuineCursor(list));
    for (let at = 1; at < content.length; at++) {
      if (at === list.timeAt) continue;
      for (const wrong of [12, true, [], {}, "\u0000"]) {
        const forged = content.with(at, wrong);
        if (JSON.stringify(forged[at]) === JSON.stringify(content[at])) continue;
        await expectInvalidCursor(await list.page({ limit: 1, cursor: encode(forged) }));
      }
    }
  });

  it.each(lists.filter((other) => other !== list))("refuses a cursor of $name with 400 invalid_cursor", async (other) => {
    await expectInvalidCursor(await list.page({ limit: 1, cursor: await genuineCursor(other) }));
  });
});

describe("a cursor of another partner", () => {
  it("of a record list is refused with 400 invalid_cursor: it continues a domain the caller cannot see", async () => {
    const [, records] = lists;
    const theirs = await genuineCursor(records!, PARTNER_B_KEY);
    await expectInvalidCursor(await records!.page({ limit: 1, cursor: theirs }));
  });

  it.each([lists[0]!, lists[2]!])("of $name lists only the caller's own items after its position", async (list) => {
    const theirs = await genuineCursor(list, PARTNER_B_KEY);
    const answer = await list.page({ limit: 100, cursor: theirs });
    // A position alone, as any time and name make one: it shows nothing of the other partner.
    expect(answer.status).toBe(200);
    const body = JSON.stringify(await answer.json());
    expect(body).not.toContain("gracehopper");
  });
});

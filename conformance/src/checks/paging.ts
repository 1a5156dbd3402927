/**
 * Pagination of every list of the API: paged to the end, the pages are the whole list in its
 * documented order, each item once; totals count every page; limits are bounded; a cursor or an
 * offset means what its operation documents.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { expectAnswer, expectCoded, expectStatus } from "./expectations.js";
import { expectLimitBounds, expectNoDuplicates, expectSameList, walkByCursor, walkByOffset } from "./paging-support.js";

const byId = (item: any) => item.id as string;

async function userWithDomains(context: CheckContext, count: number): Promise<{ user: string; domains: any[] }> {
  const user = context.unique("pages_user").replaceAll("-", "_");
  expectStatus(await context.api.call("createUserSession", { body: { user_identifier: user } }), 201);
  const domains = [];
  for (let i = 0; i < count; i++) {
    const created = await context.api.call("createSandboxDomain", {
      body: { user_identifier: user, domain_name: `${context.unique("pages")}.com`, years: 1 },
    });
    expectStatus(created, 201, "registering a sandbox domain");
    domains.push(created.body);
  }
  return { user, domains };
}

/** DNS names compare without regard to case, character by character in code-point order. */
const compareNames = (a: string, b: string) => {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * Follows the users list's `next_cursor` from its first page, for at most `maxItems` users: a partner may hold more than
 * a check should read. `ended` says whether it reached the page whose `next_cursor` is null.
 */
async function walkUsersByCursor(context: CheckContext, query: Record<string, string>, limit: number, maxItems: number) {
  const walk = { items: [] as any[], pages: [] as any[], ended: false };
  let cursor: string | undefined;
  while (walk.items.length < maxItems) {
    const result = await context.api.call("listUsers", { query: { ...query, limit, ...(cursor === undefined ? {} : { cursor }) } });
    expectAnswer(result, 200, undefined, `page ${walk.pages.length + 1} by cursor with limit ${limit}`);
    walk.pages.push(result);
    walk.items.push(...result.body.users);
    if (result.body.next_cursor === null) {
      walk.ended = true;
      break;
    }
    if (typeof result.body.next_cursor !== "string")
      throw new Error(`${result.label} answered no next_cursor: the users list answers one on every page (null on the last)`);
    if (result.body.users.length < limit)
      throw new Error(`${result.label} answered a page of ${result.body.users.length} (limit ${limit}) and yet a next_cursor`);
    cursor = result.body.next_cursor;
  }
  walk.items = walk.items.slice(0, maxItems);
  return walk;
}

export default defineChecks([
  {
    id: "paging.user-domains-by-cursor",
    title:
      "a user's domains paged by cursor are the whole list (newest purchase first) with each domain once, total and status filter right",
    needs: ["state", "sandbox"],
    operations: ["listUserDomains", "createSandboxDomain", "setSandboxDomainStatus"],
    async run(context) {
      const { user, domains } = await userWithDomains(context, 5);
      const path = { user_identifier: user };
      const whole = await context.api.call("listUserDomains", { path });
      expectAnswer(whole, 200);
      expect(whole.body.next_cursor ?? null).toBeNull();
      expect(whole.body.domains.map(byId).sort()).toEqual(domains.map(byId).sort());
      if (whole.body.total !== undefined) expect(whole.body.total).toBe(domains.length);
      for (let i = 1; i < whole.body.domains.length; i++) {
        const [a, b] = [whole.body.domains[i - 1], whole.body.domains[i]];
        if (a.purchased_at !== undefined && Date.parse(a.purchased_at) < Date.parse(b.purchased_at))
          throw new Error(`${a.name} is listed before ${b.name}, bought later: the list is not newest purchase first`);
      }
      for (const limit of [1, 2, 5]) {
        const walk = await walkByCursor(context, "listUserDomains", { path }, "domains", limit);
        expectSameList(walk.items, whole.body.domains, byId, `limit ${limit}`);
        expect(walk.pages).toHaveLength(Math.ceil(domains.length / limit));
        for (const page of walk.pages) if (page.body.total !== undefined) expect(page.body.total).toBe(domains.length);
      }
      await expectLimitBounds(context, "listUserDomains", { path }, 100);
      expectAnswer(
        await context.api.call("listUserDomains", { path, query: { cursor: "not-a-cursor-of-this-list" } }),
        400,
        undefined,
        "a cursor the list did not give out",
      );

      expectStatus(
        await context.api.call("setSandboxDomainStatus", { path: { domain_id: domains[2].id }, body: { status: "suspended" } }),
        200,
      );
      const suspended = await walkByCursor(context, "listUserDomains", { path, query: { status: "suspended" } }, "domains", 1);
      expect(suspended.items.map(byId)).toEqual([domains[2].id]);
      const active = await walkByCursor(context, "listUserDomains", { path, query: { status: "active" } }, "domains", 2);
      expect(active.items.map(byId).sort()).toEqual(
        domains
          .filter((_, i) => i !== 2)
          .map(byId)
          .sort(),
      );
      for (const page of active.pages) if (page.body.total !== undefined) expect(page.body.total).toBe(domains.length - 1);

      // A cursor continues its own list: not another user's, nor the same user's with another status.
      const invalidCursor = { error: "validation_error", details: { field: "cursor", code: "invalid_cursor" } };
      const { user: otherUser } = await userWithDomains(context, 1);
      const firstPage = await context.api.call("listUserDomains", { path, query: { limit: 1 } });
      expectAnswer(firstPage, 200);
      const cursor = firstPage.body.next_cursor;
      expectAnswer(
        await context.api.call("listUserDomains", { path: { user_identifier: otherUser }, query: { limit: 1, cursor } }),
        400,
        invalidCursor,
        "a cursor of another user's list",
      );
      expectAnswer(
        await context.api.call("listUserDomains", { path, query: { limit: 1, cursor: active.pages[0]!.body.next_cursor } }),
        400,
        invalidCursor,
        "a cursor of the active domains' list sent without the status",
      );
      expectAnswer(
        await context.api.call("listUserDomains", { path, query: { limit: 1, cursor, status: "active" } }),
        400,
        invalidCursor,
        "a cursor of the whole list sent with a status",
      );
    },
  },
  {
    id: "paging.user-domains-cursor-without-limit",
    title: "a user's domain list continued by a cursor without limit comes in pages of 100, not the whole rest",
    needs: ["state", "sandbox"],
    // Registering in the sandbox is exempt from the rate limits: the 102 domains cost no budget.
    operations: ["listUserDomains", "createSandboxDomain"],
    async run(context) {
      const { user, domains } = await userWithDomains(context, 102);
      const path = { user_identifier: user };
      const first = await context.api.call("listUserDomains", { path, query: { limit: 1 } });
      expectAnswer(first, 200);
      const rest = await context.api.call("listUserDomains", { path, query: { cursor: first.body.next_cursor } });
      expectAnswer(rest, 200, undefined, "the list continued by a cursor alone");
      expect(rest.body.domains).toHaveLength(100);
      expect(rest.body.next_cursor).toEqual(expect.any(String));
      const last = await context.api.call("listUserDomains", { path, query: { cursor: rest.body.next_cursor } });
      expectAnswer(last, 200);
      const whole = await context.api.call("listUserDomains", { path });
      expectAnswer(whole, 200);
      expect(whole.body.domains).toHaveLength(domains.length);
      expectSameList([...first.body.domains, ...rest.body.domains, ...last.body.domains], whole.body.domains, byId, "the three pages");
      expect(last.body.next_cursor ?? null).toBeNull();
    },
  },
  {
    id: "paging.dns-records-by-cursor",
    title:
      "a domain's records paged by cursor are the whole list in name, type order, each once, total right, the cursor surviving its record's deletion",
    needs: ["state", "sandbox"],
    operations: ["listDomainDnsRecords", "createDomainDnsRecord", "deleteDomainDnsRecord", "createSandboxDomain", "getDomain"],
    async run(context) {
      const { domains } = await userWithDomains(context, 2);
      const path = { domain_id: domains[0].id };
      const names = ["www", "Mail", "api", "_dmarc", "@", "blog", "Cdn", "zeta"];
      const created: any[] = [];
      for (const [i, name] of names.entries()) {
        const record = await context.api.call("createDomainDnsRecord", { path, body: { type: "TXT", name, content: `page ${i}` } });
        expectStatus(record, 201, "creating a record");
        created.push(record.body);
      }
      const whole = await context.api.call("listDomainDnsRecords", { path });
      expectAnswer(whole, 200);
      const ours = whole.body.records.filter((record: any) => created.some((c) => c.id === record.id));
      expect(ours).toHaveLength(created.length);
      const total: number = whole.body.total;
      expect(total).toBe(whole.body.records.length);
      for (let i = 1; i < whole.body.records.length; i++) {
        const [a, b] = [whole.body.records[i - 1], whole.body.records[i]];
        if (compareNames(a.name, b.name) > 0 || (compareNames(a.name, b.name) === 0 && a.type > b.type))
          throw new Error(`record ${a.name} ${a.type} is listed before ${b.name} ${b.type}: not ordered by name, then type`);
      }
      for (const limit of [1, 3]) {
        const walk = await walkByCursor(context, "listDomainDnsRecords", { path }, "records", limit);
        expectSameList(walk.items, whole.body.records, byId, `limit ${limit}`);
        for (const page of walk.pages) expect(page.body.total).toBe(total);
      }
      const detail = await context.api.call("getDomain", { path });
      expectAnswer(detail, 200);
      // Complete, as in 1.0.0: the detail embeds every record, in the list's order.
      expect(detail.body.dns_records.map(byId)).toEqual(whole.body.records.map(byId));

      // A cursor stays valid when its record is deleted; what existed all along appears once.
      const first = await context.api.call("listDomainDnsRecords", { path, query: { limit: 3 } });
      expectAnswer(first, 200);
      const last = first.body.records.at(-1);
      expectStatus(await context.api.call("deleteDomainDnsRecord", { path: { ...path, record_id: last.id } }), 204);
      const rest = await walkByCursor(context, "listDomainDnsRecords", { path, query: { cursor: first.body.next_cursor } }, "records", 3);
      expectSameList(
        [...first.body.records, ...rest.items].filter((record) => record.id !== last.id),
        whole.body.records.filter((record: any) => record.id !== last.id),
        byId,
        "paging across a deletion",
      );
      await expectLimitBounds(context, "listDomainDnsRecords", { path }, 1000);
      const foreign = await context.api.call("listDomainDnsRecords", {
        path: { domain_id: domains[1].id },
        query: { cursor: first.body.next_cursor },
      });
      expectAnswer(
        foreign,
        400,
        { error: "validation_error", details: { field: "cursor", code: "invalid_cursor" } },
        "another domain's cursor",
      );
    },
  },
  {
    id: "paging.dns-records-whole-without-limit",
    title:
      "without limit, a domain's record list answers every record (next_cursor null) and the domain detail embeds every record, as 1.0.0 did",
    needs: ["state", "sandbox"],
    operations: ["listDomainDnsRecords", "bulkCreateDomainDnsRecords", "createSandboxDomain", "getDomain"],
    async run(context) {
      const { domains } = await userWithDomains(context, 1);
      const path = { domain_id: domains[0].id };
      // More than the 100 records a page once held, in bulk requests of at most 100.
      const count = 150;
      for (let start = 0; start < count; start += 100) {
        const records = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
          type: "TXT",
          name: `whole${String(start + i).padStart(3, "0")}`,
          content: "whole zone",
        }));
        expectStatus(await context.api.call("bulkCreateDomainDnsRecords", { path, body: { records } }), 200, "creating records in bulk");
      }
      const whole = await context.api.call("listDomainDnsRecords", { path });
      expectAnswer(whole, 200);
      expect({ records: whole.body.records.length, total: whole.body.total, next_cursor: whole.body.next_cursor }).toEqual({
        records: count,
        total: count,
        next_cursor: null,
      });
      const detail = await context.api.call("getDomain", { path });
      expectAnswer(detail, 200);
      expect(detail.body.dns_records.map(byId)).toEqual(whole.body.records.map(byId));
      const walk = await walkByCursor(context, "listDomainDnsRecords", { path }, "records", 1000);
      expect(walk.pages).toHaveLength(1);
    },
  },
  {
    id: "paging.users-by-offset",
    title:
      "the users list paged by offset: each user once, total right, limit and offset echoed and bounded, sorted as asked (ties by identifier)",
    needs: ["state"],
    operations: ["listUsers"],
    async run(context) {
      for (let i = 0; i < 3; i++)
        expectStatus(
          await context.api.call("createUserSession", { body: { user_identifier: context.unique("pages_list").replaceAll("-", "_") } }),
          201,
        );
      const defaults = await context.api.call("listUsers");
      expectAnswer(defaults, 200);
      expect({ limit: defaults.body.limit, offset: defaults.body.offset }).toEqual({ limit: 50, offset: 0 });
      const maxItems = 300;
      // At least three pages, however few users the partner has.
      const pageSize = Math.max(1, Math.min(7, Math.floor(defaults.body.total / 3)));
      const key = (user: any) => user.user_identifier as string;
      for (const order of ["asc", "desc"] as const) {
        const whole = await walkByOffset(context, "listUsers", { query: { sort: "created_at", order } }, "users", 100, maxItems);
        const paged = await walkByOffset(
          context,
          "listUsers",
          { query: { sort: "created_at", order } },
          "users",
          pageSize,
          Math.min(maxItems, 10 * pageSize),
        );
        expectNoDuplicates(whole.items, key, `order ${order}, limit 100`);
        expectSameList(paged.items, whole.items.slice(0, paged.items.length), key, `order ${order}, limit ${pageSize}`);
        if (whole.pages[0]!.body.total <= maxItems) expect(whole.items).toHaveLength(whole.pages[0]!.body.total);
        for (let i = 1; i < whole.items.length; i++) {
          const [a, b] = [whole.items[i - 1], whole.items[i]];
          const time = Date.parse(a.created_at) - Date.parse(b.created_at);
          const wrong = order === "asc" ? time > 0 : time < 0;
          if (wrong)
            throw new Error(
              `${a.user_identifier} (${a.created_at}) is listed before ${b.user_identifier} (${b.created_at}) in ${order} order`,
            );
        }
      }
      const byCount = await walkByOffset(context, "listUsers", { query: { sort: "domain_count", order: "desc" } }, "users", 100, maxItems);
      // Timestamps are shown to the second, counts exactly: ties are checked where they are visible.
      for (let i = 1; i < byCount.items.length; i++) {
        const [a, b] = [byCount.items[i - 1], byCount.items[i]];
        if (a.domain_count < b.domain_count || (a.domain_count === b.domain_count && a.user_identifier > b.user_identifier))
          throw new Error(
            `${a.user_identifier} (${a.domain_count} domains) is listed before ${b.user_identifier} (${b.domain_count}) sorted by domain_count desc, ties by identifier`,
          );
      }
      const total = defaults.body.total;
      const past = await context.api.call("listUsers", { query: { offset: total + 5, limit: 10 } });
      expectAnswer(past, 200, { users: [], total, offset: total + 5, limit: 10 }, "an offset past the end");
      // Offsets go to the largest int32, as in 1.0.0 (which had no bound): a partner of many users pages to the end.
      const deepest = 2_147_483_647;
      expectAnswer(
        await context.api.call("listUsers", { query: { offset: deepest, limit: 10 } }),
        200,
        { users: [], total, offset: deepest },
        "the largest offset",
      );
      await expectLimitBounds(context, "listUsers", {}, 100);
      expectAnswer(await context.api.call("listUsers", { query: { offset: -1 } }), 400, { error: "validation_error" }, "a negative offset");
      expectAnswer(
        await context.api.call("listUsers", { query: { offset: deepest + 1 } }),
        400,
        { error: "validation_error" },
        "an offset past int32",
      );
    },
  },
  {
    id: "paging.users-by-cursor",
    title:
      "the users list followed by next_cursor is the list paged by offset, in the same order, each user once, with next_cursor null on its last page",
    needs: ["state"],
    operations: ["listUsers"],
    async run(context) {
      // Users of the check's own, created at once: several pages however few users the partner has, and ties in every
      // sort (their domain counts are all 0, and most of the partner's users share that count).
      for (let i = 0; i < 5; i++)
        expectStatus(
          await context.api.call("createUserSession", { body: { user_identifier: context.unique("pages_cursor").replaceAll("-", "_") } }),
          201,
        );
      const key = (user: any) => user.user_identifier as string;
      // A partner may hold more users than a check should read: both walks stop at this many.
      const maxItems = 150;
      const pageSize = 4;
      const sorts = [
        ["created_at", "desc"],
        ["created_at", "asc"],
        ["last_login", "desc"],
        ["domain_count", "asc"],
        ["domain_count", "desc"],
      ] as const;
      for (const [sort, order] of sorts) {
        const what = `sort ${sort}, order ${order}`;
        const byOffset = await walkByOffset(context, "listUsers", { query: { sort, order } }, "users", 100, maxItems);
        const total: number = byOffset.pages[0]!.body.total;
        const byCursor = await walkUsersByCursor(context, { sort, order }, pageSize, byOffset.items.length);
        expectSameList(byCursor.items, byOffset.items.slice(0, byCursor.items.length), key, `${what}, pages of ${pageSize} by cursor`);
        expect({ [what]: byCursor.items.length }).toEqual({ [what]: byOffset.items.length });
        for (const page of byCursor.pages) expect({ [what]: page.body.total }).toEqual({ [what]: total });
        if (total <= maxItems) expect({ [what]: byCursor.ended }).toEqual({ [what]: true });

        // The end of the list, however long: a page by offset near it gives a cursor, which leads to its last page.
        if (total < 2) continue;
        const nearEnd = await context.api.call("listUsers", { query: { sort, order, limit: 1, offset: total - 2 } });
        expectAnswer(nearEnd, 200, undefined, `${what}, the user before the last`);
        expect({ [what]: typeof nearEnd.body.next_cursor }).toEqual({ [what]: "string" });
        const last = await context.api.call("listUsers", { query: { sort, order, limit: 1, offset: total - 1 } });
        expectAnswer(last, 200, undefined, `${what}, the last user`);
        expect(last.body.next_cursor ?? null).toBeNull();
        const end = await context.api.call("listUsers", { query: { sort, order, limit: 3, cursor: nearEnd.body.next_cursor } });
        expectAnswer(end, 200, { next_cursor: null, total }, `${what}, the page after the user before the last`);
        expect(end.body.users.map(key)).toEqual(last.body.users.map(key));
      }
    },
  },
  {
    id: "paging.users-cursor-refused",
    title:
      "a users-list cursor sent with another sort or order, or one the list did not give out, is 400 invalid_cursor; with an offset other than 0, 400 invalid_value",
    needs: ["state"],
    operations: ["listUsers"],
    async run(context) {
      for (let i = 0; i < 2; i++)
        expectStatus(
          await context.api.call("createUserSession", { body: { user_identifier: context.unique("pages_refused").replaceAll("-", "_") } }),
          201,
        );
      const first = await context.api.call("listUsers", { query: { sort: "last_login", order: "asc", limit: 1 } });
      expectAnswer(first, 200);
      const cursor = first.body.next_cursor;
      expect(typeof cursor).toBe("string");
      const continued = await context.api.call("listUsers", { query: { sort: "last_login", order: "asc", limit: 1, cursor, offset: 0 } });
      expectAnswer(continued, 200, undefined, "the cursor with its own sort and order (and offset 0)");
      for (const [sort, order] of [
        ["last_login", "desc"],
        ["created_at", "asc"],
        ["domain_count", "asc"],
      ] as const)
        expectCoded(
          await context.api.call("listUsers", { query: { sort, order, limit: 1, cursor } }),
          400,
          "validation_error",
          "cursor",
          "invalid_cursor",
          `a cursor of the list by last_login asc sent with sort ${sort}, order ${order}`,
        );
      expectCoded(
        await context.api.call("listUsers", { query: { limit: 1, cursor } }),
        400,
        "validation_error",
        "cursor",
        "invalid_cursor",
        "a cursor of the list by last_login asc sent without sort and order (created_at desc)",
      );
      expectCoded(
        await context.api.call("listUsers", { query: { limit: 1, cursor: "not-a-cursor-of-this-list" } }),
        400,
        "validation_error",
        "cursor",
        "invalid_cursor",
        "a cursor the list did not give out",
      );
      expectCoded(
        await context.api.call("listUsers", { query: { sort: "last_login", order: "asc", limit: 1, cursor, offset: 1 } }),
        400,
        "validation_error",
        "offset",
        "invalid_value",
        "a cursor with an offset",
      );
    },
  },
  {
    id: "paging.deliveries-by-offset",
    title: "an endpoint's delivery log paged by offset: newest first, each delivery once, total right",
    needs: ["state"],
    operations: ["createWebhookEndpoint", "sendTestWebhook", "listWebhookDeliveries", "deleteWebhookEndpoint"],
    async run(context) {
      const endpoint = await context.api.call("createWebhookEndpoint", {
        body: { url: `https://hooks.conformance.invalid/${context.unique("pages")}`, description: "conformance: delivery pages" },
      });
      expectAnswer(endpoint, 201);
      const path = { endpoint_id: endpoint.body.id };
      try {
        const sent: string[] = [];
        for (let i = 0; i < 5; i++) {
          const delivery = await context.api.call("sendTestWebhook", { path });
          expectStatus(delivery, 201, "sending a test event");
          sent.push(delivery.body.id);
        }
        const walk = await walkByOffset(context, "listWebhookDeliveries", { path }, "deliveries", 2);
        for (const page of walk.pages) expect(page.body.total).toBe(sent.length);
        expect(walk.items.map(byId)).toEqual([...sent].reverse());
        await expectLimitBounds(context, "listWebhookDeliveries", { path }, 100);
      } finally {
        await context.api.call("deleteWebhookEndpoint", { path });
      }
    },
  },
]);

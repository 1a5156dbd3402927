/**
 * The events API: every write emits its documented event, with the resource as the API answered
 * it; the list is the partner's own, newest first, each readable by id, paged to the end once each.
 */
import { expect } from "expect";
import { defineChecks } from "../check.js";
import { pointer, SchemaValidator } from "../documents.js";
import { causeEveryEvent, EVENT_CAUSING_OPERATIONS, eventsOfType } from "./events-support.js";
import { expectAnswer, expectStatus } from "./expectations.js";

export default defineChecks([
  {
    id: "events.writes-emit-documented-events",
    title: "each write emits its documented event type once, with data matching the resource, valid against x-webhooks",
    needs: ["state", "sandbox"],
    operations: [...EVENT_CAUSING_OPERATIONS, "listEvents", "getEvent"],
    async run(context) {
      const expected = await causeEveryEvent(context);
      const validator = new SchemaValidator(context.target.document);
      for (const event of expected) {
        const found = (await eventsOfType(context, event.type, 100, 3)).filter((listed) => event.isFrom(listed));
        if (found.length !== 1) throw new Error(`${event.cause} should emit one ${event.type} event, the events API lists ${found.length}`);
        const listed = found[0]!;
        const errors = validator.errorsAt(
          pointer("x-webhooks", event.type, "post", "requestBody", "content", "application/json", "schema"),
          listed,
        );
        if (errors) throw new Error(`the ${event.type} event ${listed.id} breaks its schema in x-webhooks: ${errors}`);
        expect(listed.api_version).toBe("v1");
        event.expectData(listed);
        const read = await context.api.call("getEvent", { path: { event_id: listed.id } });
        expectAnswer(read, 200, undefined, `reading the ${event.type} event by id`);
        expect({ ...read.body, sent_at: null }).toEqual({ ...listed, sent_at: null });
      }
      // Events are in the order they happened: created_at never goes back along the writes.
      const times: number[] = [];
      for (const event of expected) {
        const [listed] = (await eventsOfType(context, event.type, 100, 3)).filter((e) => event.isFrom(e));
        times.push(Date.parse(listed.created_at));
      }
      expect(times).toEqual([...times].sort((a, b) => a - b));
    },
  },
  {
    id: "events.listed-newest-first-and-paged",
    title: "the events list is newest first, each readable by id, and pages to the end with each event once",
    needs: ["state"],
    operations: ["listEvents", "getEvent", "deleteUser"],
    async run(context) {
      const users = [1, 2, 3].map(() => context.unique("event_user").replaceAll("-", "_"));
      for (const user of users) {
        expectStatus(await context.api.call("createUserSession", { body: { user_identifier: user } }), 201);
        expectStatus(await context.api.call("deleteUser", { path: { user_identifier: user } }), 204, "deleting a user");
      }
      const listed = await context.api.call("listEvents", { query: { type: "user.deleted", limit: 100 } });
      expectAnswer(listed, 200);
      const ours = listed.body.events.filter((event: any) => users.includes(event.data?.user_identifier));
      expect(ours.map((event: any) => event.data.user_identifier)).toEqual([...users].reverse());
      expect(listed.body.events.every((event: any) => event.type === "user.deleted")).toBe(true);
      const read = await context.api.call("getEvent", { path: { event_id: ours[0].id } });
      expectAnswer(read, 200);
      expect({ ...read.body, sent_at: null }).toEqual({ ...ours[0], sent_at: null });

      const seen: any[] = [];
      let cursor: string | null = null;
      for (let page = 0; page < 200; page++) {
        const result = await context.api.call("listEvents", {
          query: cursor ? { type: "user.deleted", limit: 2, cursor } : { type: "user.deleted", limit: 2 },
        });
        expectAnswer(result, 200);
        expect(result.body.events.length).toBeLessThanOrEqual(2);
        seen.push(...result.body.events);
        cursor = result.body.next_cursor;
        if (cursor === null) break;
        expect(result.body.events).toHaveLength(2);
      }
      const ids = seen.map((event) => event.id);
      expect(ids.length - new Set(ids).size).toBe(0);
      for (const event of ours) expect(ids).toContain(event.id);
      // Newest first, ties by id: no event is newer than the one before it.
      for (let i = 1; i < seen.length; i++)
        if (Date.parse(seen[i].created_at) > Date.parse(seen[i - 1].created_at))
          throw new Error(
            `events ${seen[i - 1].id} (${seen[i - 1].created_at}) and ${seen[i].id} (${seen[i].created_at}) are not newest first`,
          );
      // created_after is inclusive, created_before exclusive, both on the events' created_at.
      const newest = ours[0].created_at as string;
      const after = await context.api.call("listEvents", { query: { type: "user.deleted", created_after: newest, limit: 100 } });
      expectAnswer(after, 200);
      expect(after.body.events.map((event: any) => event.id)).toContain(ours[0].id);
      for (const event of after.body.events) expect(Date.parse(event.created_at)).toBeGreaterThanOrEqual(Date.parse(newest));
      // The same filter with its `:` unencoded, as clients that leave RFC 3986's query characters alone send it.
      const unencoded = await context.api.call("listEvents", { rawQuery: `type=user.deleted&created_after=${newest}&limit=100` });
      expectAnswer(unencoded, 200, undefined, "created_after with its `:` unencoded");
      expect(unencoded.body.events.map((event: any) => event.id)).toEqual(after.body.events.map((event: any) => event.id));
      const before = await context.api.call("listEvents", { query: { type: "user.deleted", created_before: newest, limit: 100 } });
      expectAnswer(before, 200);
      expect(before.body.events.map((event: any) => event.id)).not.toContain(ours[0].id);
      for (const event of before.body.events) expect(Date.parse(event.created_at)).toBeLessThan(Date.parse(newest));
      for (const limit of [0, 101]) {
        const refused = await context.api.call("listEvents", { query: { limit } });
        expectAnswer(refused, 400, { error: "validation_error" }, `limit ${limit} is outside 1 to 100`);
      }
      expectAnswer(await context.api.call("getEvent", { path: { event_id: "evt_doesnotexist00000000000" } }), 404, { error: "not_found" });
    },
  },
  {
    id: "events.other-partners-events-hidden",
    title: "another partner neither lists nor reads the partner's events (404)",
    needs: ["state", "second-key"],
    operations: ["listEvents", "getEvent", "deleteUser"],
    async run(context) {
      const user = context.unique("event_tenant").replaceAll("-", "_");
      expectStatus(await context.api.call("createUserSession", { body: { user_identifier: user } }), 201);
      expectStatus(await context.api.call("deleteUser", { path: { user_identifier: user } }), 204);
      const [ours] = (await eventsOfType(context, "user.deleted", 100, 1)).filter((event) => event.data?.user_identifier === user);
      expect(ours).toBeDefined();
      const other = context.target.secondKey!;
      const theirs = await context.api.call("listEvents", { query: { type: "user.deleted", limit: 100 }, key: other });
      expectAnswer(theirs, 200);
      expect(theirs.body.events.map((event: any) => event.id)).not.toContain(ours.id);
      expectAnswer(
        await context.api.call("getEvent", { path: { event_id: ours.id }, key: other }),
        404,
        { error: "not_found" },
        "another partner's event",
      );
    },
  },
]);

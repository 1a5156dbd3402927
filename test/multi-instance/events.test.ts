/**
 * The event history across two instances on one PostgreSQL database: an event one instance emits
 * is listed, read and replayed by the other.
 * Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one (CI runs it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, startInstance, type Instance } from "../support/server-instances.js";

const databaseUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)("the event history on two instances of one database", () => {
  let instances: Instance[] = [];
  const run = `e${Date.now().toString(36)}`;

  beforeAll(async () => {
    const database = await freshDatabase(databaseUrl!);
    instances = await Promise.all([startInstance(database), startInstance(database)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  });

  it("lists and reads on one instance the events the other emitted, newest first", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    for (const [i, instance] of instances.entries()) {
      const user = `${run}-gone-${i}`;
      expect((await instance.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
      expect((await instance.call("DELETE", `/api/v1/users/${user}`)).status).toBe(204);
    }
    for (const instance of instances) {
      const listed = await instance.call(
        "GET",
        `/api/v1/events?type=user.deleted&created_after=${encodeURIComponent(since.replace(/\.\d+Z$/, "Z"))}`,
      );
      expect(listed.status).toBe(200);
      expect(listed.body.events.map((event: { data: { user_identifier: string } }) => event.data.user_identifier)).toEqual([
        `${run}-gone-1`,
        `${run}-gone-0`,
      ]);
      const read = await instance.call("GET", `/api/v1/events/${listed.body.events[1].id}`);
      expect(read.body.data.user_identifier).toBe(`${run}-gone-0`);
    }
  });
});

/** The contract of the events API: what the suite's writes emitted is listed, readable and paged to the end. */
import { describe, expect, it } from "vitest";
import { ContractClient, type CallResult } from "./support/contract-client.js";
import { newRunId } from "./support/fixtures.js";
import { RateLimitPacer } from "./support/rate-limit-pacer.js";
import { loadTarget } from "./support/target.js";

const target = loadTarget();
const client = new ContractClient(target, new RateLimitPacer());
const run = newRunId();

function expectConforming(result: CallResult): void {
  expect(result.violations, result.violations.join("\n")).toEqual([]);
}

describe.skipIf(target.stateless)("the events API", () => {
  it("lists the events of the suite's own writes newest first, each readable by id, paged to the end once each", async (context) => {
    if (!client.has("listEvents") || !client.has("deleteUser"))
      return context.skip("the deployment serves no events list or no user deletion");
    for (const i of [1, 2, 3]) {
      const user = `contract_${run}_event_${i}`;
      await client.call("createUserSession", { body: { user_identifier: user } });
      expect((await client.call("deleteUser", { path: { user_identifier: user } })).status).toBe(204);
    }
    const listed = await client.call("listEvents", { query: { type: "user.deleted", limit: 100 } });
    expectConforming(listed);
    const ours = listed.body.events.filter((event: { data: { user_identifier: string } }) =>
      event.data.user_identifier.startsWith(`contract_${run}_event_`),
    );
    expect(ours.map((event: { data: { user_identifier: string } }) => event.data.user_identifier)).toEqual(
      [3, 2, 1].map((i) => `contract_${run}_event_${i}`),
    );
    const read = await client.call("getEvent", { path: { event_id: ours[0].id } });
    expectConforming(read);
    expect({ ...read.body, sent_at: null }).toEqual({ ...ours[0], sent_at: null });

    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 200; page++) {
      const result: CallResult = await client.call("listEvents", {
        query: cursor ? { type: "user.deleted", limit: 2, cursor } : { type: "user.deleted", limit: 2 },
      });
      expectConforming(result);
      seen.push(...result.body.events.map((event: { id: string }) => event.id));
      cursor = result.body.next_cursor;
      if (cursor === null) break;
    }
    expect(new Set(seen).size).toBe(seen.length);
    for (const event of ours) expect(seen).toContain(event.id);
  });
});

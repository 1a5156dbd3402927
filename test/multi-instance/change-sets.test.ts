/**
 * DNS change sets across two instances on one PostgreSQL database: change sets of one zone sent to
 * both at once never interleave, and a failing one changes nothing whatever runs beside it.
 * Needs a PostgreSQL server: `npm run test:postgres` starts a throwaway one (CI runs it).
 */
import { describe, expect, it } from "vitest";
import { useTwoInstances } from "../support/server-instances.js";

const databaseUrl = process.env.PARTNER_API_TEST_DATABASE_URL;

describe.skipIf(!databaseUrl)("DNS change sets on two instances of one database", () => {
  const instances = useTwoInstances(databaseUrl!);
  const run = `c${Date.now().toString(36)}`;
  let counter = 0;
  const fresh = (what: string) => `${what}-${run}-${++counter}`;

  async function aDomain(): Promise<string> {
    const user = fresh("user");
    expect((await instances[0]!.call("POST", "/api/v1/users", { user_identifier: user })).status).toBe(201);
    const domain = await instances[1]!.call("POST", "/api/v1/sandbox/domains", { user_identifier: user, domain_name: `${fresh("d")}.com` });
    expect(domain.status).toBe(201);
    return domain.body.id;
  }
  const contents = async (domainId: string) =>
    ((await instances[0]!.call("GET", `/api/v1/domains/${domainId}/dns`)).body.records as Array<{ content: string }>)
      .map((record) => record.content)
      .sort();

  it("never interleaves change sets replacing one record set: the end state is exactly one of them", async () => {
    const domainId = await aDomain();
    const sets = Array.from({ length: 8 }, (_, writer) =>
      Array.from({ length: 4 }, (_, i) => ({ type: "A", name: "www", content: `10.${writer}.0.${i + 1}` })),
    );
    const answers = await Promise.all(
      sets.map((creates, i) =>
        instances[i % 2]!.call("POST", `/api/v1/domains/${domainId}/dns/changes`, { deletes: [{ name: "www", type: "A" }], creates }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(sets.map((creates) => creates.map((record) => record.content).sort())).toContainEqual(await contents(domainId));
  });

  it("leaves nothing of a failing change set while another instance writes the zone", async () => {
    const domainId = await aDomain();
    const failing = {
      creates: [
        ...Array.from({ length: 20 }, (_, i) => ({ type: "TXT", name: `f${i}`, content: "from the failing set" })),
        { type: "A", name: "bad", content: "not an address" },
      ],
    };
    const answers = await Promise.all([
      instances[0]!.call("POST", `/api/v1/domains/${domainId}/dns/changes`, failing),
      instances[1]!.call("POST", `/api/v1/domains/${domainId}/dns/changes`, { creates: [{ type: "A", name: "ok", content: "192.0.2.1" }] }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([422, 200]);
    expect(await contents(domainId)).toEqual(["192.0.2.1"]);
  });
});

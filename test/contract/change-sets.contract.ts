/** The contract of atomic DNS change sets: all or none, dry runs write nothing, every failure named. */
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

describe.skipIf(target.stateless)("DNS change sets", () => {
  /** A domain of its own, so the checks compare whole zones. */
  async function aDomain(suffix: string): Promise<string | null> {
    if (!client.has("applyDnsChangeSet") || !client.has("createSandboxDomain")) return null;
    const user = `contract_${run}_changes`;
    await client.call("createUserSession", { body: { user_identifier: user } });
    const created = await client.call("createSandboxDomain", {
      body: { user_identifier: user, domain_name: `changes-${run}-${suffix}.com` },
    });
    expect(created.status).toBe(201);
    return created.body.id;
  }
  const zone = async (domainId: string) =>
    (await client.call("listDomainDnsRecords", { path: { domain_id: domainId } })).body.records
      .map((record: { type: string; name: string; content: string }) => `${record.type} ${record.name} ${record.content}`)
      .sort();

  it("changes nothing when one operation fails, and names it by list and index", async (context) => {
    const domainId = await aDomain("atomic");
    if (!domainId) return context.skip("the deployment serves no change sets or cannot create a domain");
    expect(
      (
        await client.call("applyDnsChangeSet", {
          path: { domain_id: domainId },
          body: { creates: [{ type: "A", name: "www", content: "192.0.2.1" }] },
        })
      ).status,
    ).toBe(200);
    const before = await zone(domainId);
    const failing = await client.call("applyDnsChangeSet", {
      path: { domain_id: domainId },
      body: {
        deletes: [{ name: "www", type: "A" }],
        creates: [
          { type: "TXT", name: "www", content: "would be created" },
          { type: "CNAME", name: "www", content: "example.net" },
        ],
      },
    });
    expectConforming(failing);
    expect(failing.status).toBe(422);
    expect(failing.body.details.errors).toMatchObject([{ operation: "creates", index: 1, code: "cname_conflict" }]);
    expect(await zone(domainId)).toEqual(before);
  });

  it("writes nothing on a dry run, and applies the same set for real", async (context) => {
    const domainId = await aDomain("dry");
    if (!domainId) return context.skip("the deployment serves no change sets or cannot create a domain");
    const body = { deletes: [{ name: "api", type: "A" }], creates: [{ type: "A", name: "api", content: "192.0.2.7" }] };
    const dry = await client.call("applyDnsChangeSet", { path: { domain_id: domainId }, body: { ...body, dry_run: true } });
    expectConforming(dry);
    expect([dry.status, dry.body.id, dry.body.created.length]).toEqual([200, null, 1]);
    expect(await zone(domainId)).toEqual([]);
    const applied = await client.call("applyDnsChangeSet", { path: { domain_id: domainId }, body });
    expectConforming(applied);
    expect(applied.body.id).toMatch(/^chg_/);
    expect(await zone(domainId)).toEqual(["A api 192.0.2.7"]);
  });
});

/**
 * "Is it pointing at us?" (an addition): the partner's connection requirements, a domain's check
 * from its zone with the fix that configures it, the event when the answer turns, and the
 * sandbox's magic nameservers. Each check puts the partner's requirements back as it found them.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallResult } from "../contract-client.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import { ownDomain, seedD, zoneOf } from "./dns-records-support.js";
import { eventsOfType } from "./events-support.js";

const needs = ["state" as const, "sandbox" as const];
const REQUIREMENTS_OPERATIONS = ["getConnectionRequirements", "replaceConnectionRequirements"];
const CHECK_OPERATIONS = [...REQUIREMENTS_OPERATIONS, "getDomainConnection", "applyDnsChangeSet", "listDomainDnsRecords"];
/** The sandbox's registry delay of a nameserver change is 10 minutes; the propagating zone's, an hour after. */
const REGISTRY_DELAY_S = 11 * 60;
const PROPAGATION_S = 3600;

const put = (context: CheckContext, requirements: unknown[]) =>
  context.api.call("replaceConnectionRequirements", { body: { requirements } });
const connectionOf = async (context: CheckContext, domainId: string, why: string) => {
  const result: CallResult = await context.api.call("getDomainConnection", { path: { domain_id: domainId } });
  expectStatus(result, 200, why);
  expectConforming(result);
  return result.body;
};

/** Runs `work` with the partner's requirements as it finds them put back after, whatever happens. */
async function keepingRequirements<T>(context: CheckContext, work: () => Promise<T>): Promise<T> {
  const before: CallResult = await context.api.call("getConnectionRequirements", {});
  expectStatus(before, 200, "reading the partner's requirements");
  try {
    return await work();
  } finally {
    await put(context, before.body.requirements);
  }
}

/** One requirement's answer, as much of it as the checks read. */
interface RequirementAnswer {
  satisfied: boolean | null;
  fixes: Array<{ action: string; record: { type: string; name: string; content: string } | null }>;
}

const TARGET = "sites.kit-partner.example";
const ADDRESS = "203.0.113.77";

export default defineChecks([
  {
    id: "connection-check.requirements-round-trip",
    title:
      "PUT connection_requirements answers and stores them in one spelling; a requirement breaking a rule is refused with 422 naming the field, and nothing changes",
    needs: ["state"],
    operations: REQUIREMENTS_OPERATIONS,
    async run(context) {
      await keepingRequirements(context, async () => {
        const given = [
          { kind: "apex", addresses: [ADDRESS, "2001:DB8::77"] },
          { kind: "www", target: "Sites.Kit-Partner.Example." },
          { kind: "txt", name: "_kit-verify", value: "token-kit" },
        ];
        const stored = await put(context, given);
        expectStatus(stored, 200, "a valid list");
        expectConforming(stored);
        const expected = [
          { kind: "apex", addresses: [ADDRESS, "2001:db8::77"] },
          { kind: "www", target: TARGET },
          { kind: "txt", name: "_kit-verify", value: "token-kit" },
        ];
        expect(stored.body.requirements).toEqual(expected);
        const read: CallResult = await context.api.call("getConnectionRequirements", {});
        expect(read.body.requirements).toEqual(expected);
        const refused: Array<[unknown[], string, string]> = [
          [[{ kind: "apex", addresses: ["203.0.113.300"] }], "requirements[0].addresses[0]", "a bad address"],
          [[{ kind: "www", target: "localhost" }], "requirements[0].target", "a host name of one label"],
          [[{ kind: "txt", name: "_v", value: "x", target: TARGET }], "requirements[0].target", "a field of another kind"],
          [
            [
              { kind: "www", target: TARGET },
              { kind: "www", target: "b.example" },
            ],
            "requirements[1].kind",
            "a second www",
          ],
          [
            [
              { kind: "txt", name: "_v", value: "a" },
              { kind: "txt", name: "_V", value: "b" },
            ],
            "requirements[1].name",
            "a txt name twice",
          ],
        ];
        for (const [requirements, field, why] of refused)
          expectCoded(await put(context, requirements), 422, "validation_error", field, undefined, why);
        const after: CallResult = await context.api.call("getConnectionRequirements", {});
        expect({ why: "refused lists change nothing", requirements: after.body.requirements }).toEqual({
          why: "refused lists change nothing",
          requirements: expected,
        });
      });
    },
  },
  {
    id: "connection-check.zone-fix-configures",
    title:
      "A domain on the service's nameservers is checked from its zone; applying the answer's change_set configures it, with exactly the fixes' records in the zone",
    needs,
    operations: CHECK_OPERATIONS,
    async run(context) {
      await keepingRequirements(context, async () => {
        const domain = await ownDomain(context, "conn");
        await seedD(context, domain.id, { type: "A", name: "@", content: "192.0.2.10" });
        await seedD(context, domain.id, { type: "A", name: "@", content: "192.0.2.11" });
        await seedD(context, domain.id, { type: "A", name: "www", content: "192.0.2.10" });
        expectStatus(
          await put(context, [
            { kind: "apex", addresses: [ADDRESS] },
            { kind: "www", target: TARGET },
            { kind: "txt", name: "_kit-verify", value: "token-kit" },
          ]),
          200,
          "setting requirements",
        );
        const before = await connectionOf(context, domain.id, "checking the domain");
        expect(before).toMatchObject({ status: "not_configured", configured: false, source: "zone" });
        expect(before.requirements.map((result: RequirementAnswer) => result.satisfied)).toEqual([false, false, false]);
        if (!before.change_set) throw new Error("a not_configured domain on the service's nameservers answers no change_set");
        const wanted = before.requirements
          .flatMap((result: RequirementAnswer) => result.fixes)
          .filter((fix: RequirementAnswer["fixes"][number]) => fix.action !== "delete")
          .map((fix: RequirementAnswer["fixes"][number]) => `${fix.record!.type} ${fix.record!.name} ${fix.record!.content}`);
        const applied: CallResult = await context.api.call("applyDnsChangeSet", {
          path: { domain_id: domain.id },
          body: before.change_set,
        });
        expectStatus(applied, 200, "applying the answer's change_set");
        const after = await connectionOf(context, domain.id, "checking the fixed domain");
        expect(after).toMatchObject({ status: "configured", configured: true, source: "zone" });
        expect(after.requirements.every((result: RequirementAnswer) => result.satisfied === true && result.fixes.length === 0)).toBe(true);
        const zone = (await zoneOf(context, domain.id)).map((record) => `${record.type} ${record.name} ${record.content}`);
        for (const line of wanted) expect({ fix: line, inZone: zone.includes(line) }).toEqual({ fix: line, inZone: true });
        const apex = zone.filter((line) => line.startsWith("A @ ")).sort();
        expect({ why: "the apex holds exactly the required address", apex }).toEqual({
          why: "the apex holds exactly the required address",
          apex: [`A @ ${ADDRESS}`],
        });
      });
    },
  },
  {
    id: "connection-check.event-on-change",
    title:
      "domain.connection_changed is sent once when the answer turns (true after the fix, false after a requirement no longer met), never for a write that leaves it as it was",
    needs,
    operations: [...CHECK_OPERATIONS, "listEvents"],
    async run(context) {
      await keepingRequirements(context, async () => {
        const domain = await ownDomain(context, "connev");
        const token = context.unique("token");
        expectStatus(await put(context, [{ kind: "txt", name: "_kit-event", value: token }]), 200, "setting a txt requirement");
        await seedD(context, domain.id, { type: "TXT", name: "_kit-event", content: token });
        await seedD(context, domain.id, { type: "TXT", name: "_kit-event", content: "unrelated" });
        expectStatus(
          await put(context, [{ kind: "txt", name: "_kit-event", value: `${token}-new` }]),
          200,
          "a requirement the domain does not meet",
        );
        const events = (await eventsOfType(context, "domain.connection_changed"))
          .filter((event) => event.data?.domain_id === domain.id)
          .reverse()
          .map((event) => event.data.configured);
        expect({ why: `domain.connection_changed of ${domain.name}, oldest first`, configured: events }).toEqual({
          why: `domain.connection_changed of ${domain.name}, oldest first`,
          configured: [true, false],
        });
      });
    },
  },
  {
    id: "connection-check.magic-nameservers",
    title:
      "The sandbox's magic nameservers: correct configured, misconfigured not, unreachable unknown, propagating configured only an hour after the change took effect",
    needs,
    operations: [...CHECK_OPERATIONS, "setDomainNameservers", "advanceSandboxClock"],
    async run(context) {
      await keepingRequirements(context, async () => {
        expectStatus(
          await put(context, [
            { kind: "apex", addresses: [ADDRESS] },
            { kind: "www", target: TARGET },
          ]),
          200,
          "setting requirements",
        );
        const delegated: Record<string, string> = {};
        for (const zone of ["correct", "misconfigured", "unreachable", "propagating"]) {
          const domain = await ownDomain(context, `ns-${zone}`);
          const nameservers = [`ns1.${zone}.sandbox-dns.test`, `ns2.${zone}.sandbox-dns.test`];
          expectStatus(
            await context.api.call("setDomainNameservers", { path: { domain_id: domain.id }, body: { nameservers } }),
            [200, 202],
            `delegating to the ${zone} zone`,
          );
          delegated[zone] = domain.id;
        }
        expectStatus(await context.api.call("advanceSandboxClock", { body: { seconds: REGISTRY_DELAY_S } }), 200, "the registry's delay");
        const answer = async (zone: string) => connectionOf(context, delegated[zone]!, `checking the ${zone} domain`);
        expect(await answer("correct")).toMatchObject({ status: "configured", configured: true, source: "sandbox_resolution" });
        const misconfigured = await answer("misconfigured");
        expect(misconfigured).toMatchObject({ status: "not_configured", configured: false, source: "sandbox_resolution" });
        expect(misconfigured.requirements[0].found.length).toBeGreaterThan(0);
        const unreachable = await answer("unreachable");
        expect(unreachable).toMatchObject({ status: "unknown", configured: null });
        expect(typeof unreachable.reason).toBe("string");
        expect(await answer("propagating")).toMatchObject({ status: "not_configured", configured: false });
        for (const zone of Object.keys(delegated))
          expect({ zone, change_set: (await answer(zone)).change_set }).toEqual({ zone, change_set: undefined });
        expectStatus(await context.api.call("advanceSandboxClock", { body: { seconds: PROPAGATION_S } }), 200, "an hour of propagation");
        expect(await answer("propagating")).toMatchObject({ status: "configured", configured: true, source: "sandbox_resolution" });
      });
    },
  },
]);

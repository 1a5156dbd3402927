/** Custom nameservers (additions): the registry's delay on the sandbox clock, the limits, glue for hosts under the domain, DNSSEC DS records. */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { advanceTo, getDomain, needsDomainDetails, newDomain, newUser, SANDBOX_CLOCK, SANDBOX_DOMAINS } from "./domains-support.js";
import { eventsOfType } from "./events-support.js";
import { expectAnswer, expectCoded, expectStatus } from "./expectations.js";

/** The sandbox's simulated registry delay (the Sandbox tag). */
const REGISTRY_DELAY_MS = 10 * 60_000;
const NAMESERVERS = ["setDomainNameservers", "resetDomainNameservers", "getDomain"];
const CUSTOM = ["ns1.kit-dns.net", "ns2.kit-dns.net"];

const setNameservers = (context: CheckContext, domainId: string, nameservers: unknown) =>
  context.api.call("setDomainNameservers", { path: { domain_id: domainId }, body: { nameservers } });
const later = (at: string, ms: number) => new Date(new Date(at).getTime() + ms);

/** Sets `nameservers` and moves the clock past the change; answers the domain as read then. */
async function delegateAndWait(context: CheckContext, domainId: string, nameservers: string[]): Promise<{ dns_active: boolean }> {
  const result = await setNameservers(context, domainId, nameservers);
  expectAnswer(result, 200, undefined, "setting custom nameservers");
  await advanceTo(context, later(result.body.nameserver_change.completes_at, 1000));
  return getDomain(context, domainId);
}

export default defineChecks([
  {
    id: "nameservers.change-pending-then-carried-out",
    title: "a nameserver change is pending for the registry's delay, then in effect with dns_active false and domain.nameservers_changed",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, ...NAMESERVERS, "listEvents"],
    async run(context) {
      needsDomainDetails(context);
      const domain = await newDomain(context, await newUser(context, "ns_change"));
      const before = await getDomain(context, domain.id);
      expect({ dns_active: before.dns_active, nameserver_change: before.nameserver_change }).toEqual({
        dns_active: true,
        nameserver_change: null,
      });
      const result = await setNameservers(context, domain.id, ["NS1.Kit-DNS.net", "ns2.kit-dns.net"]);
      expectAnswer(result, 200, { id: domain.id, nameservers: before.nameservers, dns_active: true });
      const change = result.body.nameserver_change;
      expect({
        nameservers: change?.nameservers,
        delay_ms: new Date(change?.completes_at).getTime() - new Date(change?.requested_at).getTime(),
      }).toEqual({
        nameservers: CUSTOM,
        delay_ms: REGISTRY_DELAY_MS,
      });
      await advanceTo(context, later(change.completes_at, -60_000));
      const waiting = await getDomain(context, domain.id);
      expect({ a_minute_before: { nameservers: waiting.nameservers, pending: waiting.nameserver_change !== null } }).toEqual({
        a_minute_before: { nameservers: before.nameservers, pending: true },
      });
      await advanceTo(context, later(change.completes_at, 1000));
      const after = await getDomain(context, domain.id);
      expect({
        after: { nameservers: after.nameservers, dns_active: after.dns_active, nameserver_change: after.nameserver_change },
      }).toEqual({
        after: { nameservers: CUSTOM, dns_active: false, nameserver_change: null },
      });
      const events = (await eventsOfType(context, "domain.nameservers_changed", 100, 2)).filter((event) => event.data?.id === domain.id);
      expect({ events: events.length, nameservers: events[0]?.data?.nameservers }).toEqual({ events: 1, nameservers: CUSTOM });
    },
  },
  {
    id: "nameservers.reset-to-the-service",
    title: "DELETE returns a domain on custom nameservers to the service's own after the same delay, with dns_active true",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...SANDBOX_CLOCK, ...NAMESERVERS],
    async run(context) {
      needsDomainDetails(context);
      const domain = await newDomain(context, await newUser(context, "ns_reset"));
      const own = (await getDomain(context, domain.id)).nameservers;
      expect({ custom: (await delegateAndWait(context, domain.id, CUSTOM)).dns_active }).toEqual({ custom: false });
      const reset = await context.api.call("resetDomainNameservers", { path: { domain_id: domain.id } });
      expectAnswer(reset, 200, { dns_active: false, nameservers: CUSTOM });
      expect({ pending: reset.body.nameserver_change?.nameservers }).toEqual({ pending: own });
      await advanceTo(context, later(reset.body.nameserver_change.completes_at, 1000));
      const after = await getDomain(context, domain.id);
      expect({ nameservers: after.nameservers, dns_active: after.dns_active }).toEqual({ nameservers: own, dns_active: true });
    },
  },
  {
    id: "nameservers.limits-and-duplicates-refused",
    title: "1 or 14 nameservers, a non-host and the same host twice in another case are refused, and nothing is pending",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...NAMESERVERS],
    async run(context) {
      needsDomainDetails(context);
      const domain = await newDomain(context, await newUser(context, "ns_limits"));
      const fourteen = Array.from({ length: 14 }, (_, index) => `ns${index}.kit-dns.net`);
      for (const [nameservers, why] of [
        [["ns1.kit-dns.net"], "one nameserver"],
        [fourteen, "14 nameservers"],
        [["ns1.kit-dns.net", "not a host"], "a host name with a space"],
      ] as const) {
        const result = await setNameservers(context, domain.id, nameservers);
        expectStatus(result, [400, 422], why);
        expect({ why, error: result.body?.error }).toEqual({ why, error: "validation_error" });
      }
      expectCoded(
        await setNameservers(context, domain.id, ["ns1.kit-dns.net", "NS1.KIT-DNS.NET"]),
        422,
        "validation_error",
        undefined,
        "duplicate_nameserver",
      );
      expectAnswer(await setNameservers(context, domain.id, fourteen.slice(0, 13)), 200, undefined, "13 nameservers");
      expectAnswer(await setNameservers(context, domain.id, fourteen.slice(0, 2)), 200, undefined, "2 nameservers");
      const read = await getDomain(context, domain.id);
      expect({ pending: read.nameserver_change?.nameservers }).toEqual({ pending: fourteen.slice(0, 2) });
    },
  },
  {
    id: "nameservers.glue-required-in-bailiwick",
    title: "a nameserver under the domain needs glue (422 glue_required); with its glue set the change is accepted",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, ...NAMESERVERS, "setGlueRecord", "listGlueRecords"],
    async run(context) {
      needsDomainDetails(context);
      const domain = await newDomain(context, await newUser(context, "ns_glue"));
      const host = `ns1.${domain.name}`;
      expectCoded(
        await setNameservers(context, domain.id, [host, "ns2.kit-dns.net"]),
        422,
        "unprocessable_entity",
        "nameservers.0",
        "glue_required",
      );
      const glue = await context.api.call("setGlueRecord", {
        path: { domain_id: domain.id, host },
        body: { ipv4: ["192.0.2.53"], ipv6: ["2001:DB8::53"] },
      });
      expectAnswer(glue, 200, { host, ipv4: ["192.0.2.53"], ipv6: ["2001:db8::53"] });
      const listed = await context.api.call("listGlueRecords", { path: { domain_id: domain.id } });
      expectAnswer(listed, 200);
      expect({ hosts: listed.body.glue_records.map((entry: { host: string }) => entry.host) }).toEqual({ hosts: [host] });
      expectAnswer(await setNameservers(context, domain.id, [host, "ns2.kit-dns.net"]), 200, undefined, "with glue");
    },
  },
  {
    id: "nameservers.ds-digest-checked-and-listed",
    title: "a DS digest of the wrong length or not hex is refused; an accepted one is lower case, listed, refused twice, removable",
    needs: ["state", "sandbox"],
    operations: [...SANDBOX_DOMAINS, "createDsRecord", "listDsRecords", "deleteDsRecord"],
    async run(context) {
      const domain = await newDomain(context, await newUser(context, "ns_ds"));
      const path = { domain_id: domain.id };
      const add = (body: Record<string, unknown>) => context.api.call("createDsRecord", { path, body });
      const base = { key_tag: 2371, algorithm: 13, digest_type: 2 };
      for (const [body, why] of [
        [{ ...base, digest: "ab".repeat(31) }, "62 hex digits for type 2"],
        [{ ...base, digest_type: 1, digest: "ab".repeat(32) }, "64 hex digits for type 1"],
        [{ ...base, digest_type: 4, digest: "ab".repeat(32) }, "64 hex digits for type 4"],
        [{ ...base, digest: "zz".repeat(32) }, "not hex"],
      ] as const)
        expectCoded(await add(body), 422, "validation_error", "digest", undefined, why);
      const created = await add({ ...base, digest: "AB".repeat(32) });
      expectAnswer(created, 201, { ...base, digest: "ab".repeat(32) });
      expectCoded(await add({ ...base, digest: "ab".repeat(32) }), 409, "conflict", undefined, "duplicate_ds_record");
      for (const [digest_type, digest] of [
        [1, "cd".repeat(20)],
        [4, "ef".repeat(48)],
      ] as const)
        expectAnswer(await add({ ...base, digest_type, digest }), 201, { digest_type, digest }, `digest type ${digest_type}`);
      const list = async () => {
        const result = await context.api.call("listDsRecords", { path });
        expectAnswer(result, 200);
        return result.body.ds_records.map((ds: { id: string }) => ds.id);
      };
      expect({ listed: (await list()).includes(created.body.id) }).toEqual({ listed: true });
      expectStatus(await context.api.call("deleteDsRecord", { path: { ...path, ds_id: created.body.id } }), 204, "removing it");
      expect({ listed_after_removal: (await list()).includes(created.body.id) }).toEqual({ listed_after_removal: false });
    },
  },
]);

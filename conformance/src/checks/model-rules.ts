/**
 * Rules the reference server's model keeps that no family's check proved yet: each check here was
 * written for a mutant of server/partners/keys, server/domain/domains or server/domain/dns that the kit let through
 * (docs/mutation-testing.md), and proves the rule the mutant broke, black-box over HTTP.
 */
import { expect } from "expect";
import { defineChecks } from "../check.js";
import { setUp } from "../fixtures.js";
import { ownDomain, seedD, zoneOf } from "./dns-records-support.js";
import { expectEmbedStatus, openEmbedPage, openLoginUrl } from "./embed-support.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import { uniqueUser } from "./users-support.js";

/** The language the embedded page declares on its root element (WCAG 3.1.1 asks every page for one). */
const pageLanguage = (html: string) => /<html[^>]*\blang="([^"]*)"/i.exec(html)?.[1] ?? null;

export default defineChecks([
  {
    id: "model.embed-session-keeps-its-locale",
    title:
      "a session created with locale de shows its embedded pages in German (lang de), one with locale fr-CA in French (lang fr); one created without a locale in neither",
    needs: ["state"],
    async run(context) {
      const pageOf = async (locale: string | undefined) => {
        const user = uniqueUser(context, "model_locale");
        const body = locale === undefined ? { user_identifier: user } : { user_identifier: user, locale };
        const session = await setUp(context.api, "createUserSession", { body });
        const opened = await openLoginUrl(session.login_url, `opening the login_url of a session with locale ${locale ?? "(none)"}`);
        const shown = await openEmbedPage(opened.page, opened.cookie);
        expectEmbedStatus(shown, [200], `the page of a session with locale ${locale ?? "(none)"}`);
        return pageLanguage(shown.body);
      };
      const german = await pageOf("de");
      const french = await pageOf("fr-CA");
      const unset = await pageOf(undefined);
      for (const [locale, shown] of [
        ["de", german],
        ["fr-CA", french],
      ] as const)
        if (!shown?.toLowerCase().startsWith(locale.slice(0, 2)))
          throw new Error(
            `a session created with locale ${locale} showed its page with lang=${JSON.stringify(shown)} (without a locale: ${JSON.stringify(unset)}); the session's locale must pick the interface's language`,
          );
      if (unset?.toLowerCase().startsWith("de") || unset?.toLowerCase().startsWith("fr"))
        throw new Error(
          `a session created without a locale showed its page with lang=${JSON.stringify(unset)} for a browser that asks for no language; English is the default`,
        );
    },
  },
  {
    id: "model.spf-mechanisms-as-documented",
    title:
      "spf-dmarc's spf_include takes every documented mechanism within its bounds (ip6 with /0-128, a and mx with /cidr4 and //cidr6, ten lookups) and refuses the same forms out of bounds (leading zeros, a missing or misplaced part, an eleventh lookup) with 422 invalid_format",
    needs: ["state", "sandbox"],
    operations: ["applyDnsTemplate", "listDomainDnsRecords"],
    async run(context) {
      const apply = (domainId: string, spfInclude: string) =>
        context.api.call("applyDnsTemplate", {
          path: { domain_id: domainId },
          body: { template_id: "spf-dmarc", variables: { report_email: "dmarc@example.net", spf_include: spfInclude } },
        });
      const refusedOn = await ownDomain(context, "spfr");
      for (const spfInclude of [
        "ip6:2001:db8::/129",
        "ip6:192.0.2.1",
        "ip6:2001:db8::/32//64",
        "ip4:192.0.2.0/33",
        "ip4:2001:db8::1",
        "a/33",
        "mx//129",
        "include:_spf.example.net/24",
        "mx  a",
        "ip4:192.0.2.0/024",
        "ip4:192.0.2.0//64",
        "a:not..a.host",
        "exists",
        "exists:example.net/24",
        Array.from({ length: 11 }, (_, i) => `a:h${i}.example.net`).join(" "),
      ])
        expectCoded(await apply(refusedOn.id, spfInclude), 422, "validation_error", "variables.spf_include", "invalid_format", spfInclude);
      expect(await zoneOf(context, refusedOn.id)).toEqual([]);
      for (const spfInclude of [
        "ip6:2001:db8::/32 ip6:2001:db8::1",
        "-ip4:192.0.2.0/24 ?a:mail.example.net/24//64 ~mx//128",
        "ip6:::1/0 ip4:0.0.0.0/0",
        // Ten DNS lookups (a, mx, include, exists) are the most; ip4 and ip6 look nothing up.
        `${Array.from({ length: 9 }, (_, i) => `include:s${i}.x.net`).join(" ")} exists:e.x.net ip4:192.0.2.1 ip6:2001:db8::1`,
      ]) {
        const domain = await ownDomain(context, "spfa");
        const result = await apply(domain.id, spfInclude);
        expectConforming(result);
        expectStatus(result, 201, `spf_include ${JSON.stringify(spfInclude)}`);
        const spf = (await zoneOf(context, domain.id))
          .filter((record) => record.type === "TXT" && record.name === "@")
          .map((record) => record.content);
        expect({ spfInclude, spf }).toEqual({ spfInclude, spf: [`v=spf1 ${spfInclude} ~all`] });
      }
    },
  },
  {
    id: "model.dns-filtered-list-pages",
    title:
      "a DNS list filtered by type or name pages by cursor through exactly the records it selects, total counting them; its cursor in a list of another filter, or of none, gives 400 invalid_cursor",
    needs: ["state", "sandbox"],
    operations: ["listDomainDnsRecords", "createDomainDnsRecord"],
    async run(context) {
      const domain = await ownDomain(context, "fpage");
      const path = { domain_id: domain.id };
      for (const name of ["a1", "a2", "a3", "a4", "a5"]) await seedD(context, domain.id, { type: "TXT", name, content: `text ${name}` });
      for (const name of ["a1", "a2", "www"]) await seedD(context, domain.id, { type: "A", name, content: "192.0.2.10" });
      await seedD(context, domain.id, { type: "TXT", name: "www", content: "text www" });
      const expectWalk = async (filter: Record<string, string>, expected: string[]) => {
        const seen: string[] = [];
        let cursor: string | null = null;
        let firstCursor: string | null = null;
        for (let page = 0; page < 10; page++) {
          const result = await context.api.call("listDomainDnsRecords", {
            path,
            query: { ...filter, limit: 2, ...(cursor ? { cursor } : {}) },
          });
          expectConforming(result);
          expectStatus(result, 200, `the list filtered by ${JSON.stringify(filter)}`);
          expect({ filter, total: result.body.total }).toEqual({ filter, total: expected.length });
          seen.push(...result.body.records.map((record: { type: string; name: string }) => `${record.type} ${record.name}`));
          cursor = result.body.next_cursor;
          firstCursor ??= cursor;
          if (!cursor) break;
        }
        expect({ filter, seen }).toEqual({ filter, seen: expected });
        return firstCursor!;
      };
      const byType = await expectWalk({ type: "TXT" }, ["TXT a1", "TXT a2", "TXT a3", "TXT a4", "TXT a5", "TXT www"]);
      const byName = await expectWalk({ name: "WWW" }, ["A www", "TXT www"]);
      const invalidCursor = { error: "validation_error", details: { field: "cursor", code: "invalid_cursor" } };
      for (const [query, why] of [
        [{ type: "A", cursor: byType }, "a type=TXT cursor with type=A"],
        [{ cursor: byType }, "a type=TXT cursor without a filter"],
        [{ type: "TXT", name: "a1", cursor: byType }, "a type=TXT cursor with a name added"],
        [{ name: "a1", cursor: byName }, "a name=www cursor with name=a1"],
      ] as const) {
        const result = await context.api.call("listDomainDnsRecords", { path, query });
        expectConforming(result);
        expectStatus(result, 400, why);
        expect({ why, body: result.body }).toMatchObject({ why, body: invalidCursor });
      }
    },
  },
  {
    id: "model.change-set-update-keeps-or-derives-priority",
    title:
      "a change set's update keeps what it omits (an MX's priority when its ttl or content changes) and an SRV's new content brings its priority; a delete by name alone, type alone, or an id with a name or a type is invalid_value",
    needs: ["state", "sandbox"],
    operations: ["applyDnsChangeSet", "listDomainDnsRecords"],
    async run(context) {
      const domain = await ownDomain(context, "csprio");
      const change = (body: Record<string, unknown>) => context.api.call("applyDnsChangeSet", { path: { domain_id: domain.id }, body });
      const mx = await seedD(context, domain.id, { type: "MX", name: "@", content: "mail.example.com", priority: 10 });
      const backup = await seedD(context, domain.id, { type: "MX", name: "@", content: "backup.example.com", priority: 20 });
      const srv = await seedD(context, domain.id, { type: "SRV", name: "_sip._tcp", content: "5 1 5060 sip.example.com" });
      const applied = await change({
        updates: [
          { id: mx.id, ttl: 600 },
          { id: backup.id, content: "mx2.example.com" },
          { id: srv.id, content: "20 1 5060 sip.example.com" },
        ],
      });
      expectConforming(applied);
      expectStatus(applied, 200, "updating an MX's ttl, another MX's content and an SRV's content, without priority");
      const zone = await zoneOf(context, domain.id);
      const shown = (id: string) => {
        const record = zone.find((r) => r.id === id);
        return record && { content: record.content, ttl: record.ttl, priority: record.priority };
      };
      expect({ mx: shown(mx.id), backup: shown(backup.id), srv: shown(srv.id) }).toEqual({
        mx: { content: "mail.example.com", ttl: 600, priority: 10 },
        backup: { content: "mx2.example.com", ttl: backup.ttl, priority: 20 },
        srv: { content: "20 1 5060 sip.example.com", ttl: srv.ttl, priority: 20 },
      });
      for (const remove of [{ name: "@" }, { type: "MX" }, { id: mx.id, name: "@" }, { id: mx.id, type: "MX" }]) {
        const refused = await change({ deletes: [remove] });
        expectCoded(refused, 422, "unprocessable_entity", undefined, "change_set_rejected", `a delete of ${JSON.stringify(remove)}`);
        expect({
          remove,
          errors: refused.body.details.errors.map((e: { operation: string; index: number; code: string }) => [
            e.operation,
            e.index,
            e.code,
          ]),
        }).toEqual({
          remove,
          errors: [["deletes", 0, "invalid_value"]],
        });
      }
      expect((await zoneOf(context, domain.id)).length).toBe(zone.length);
    },
  },
  {
    id: "model.change-set-record-limit",
    title:
      "a change set may fill a domain to exactly 1000 records; one create more is refused as record_limit_exceeded at its index, and a delete in the same set makes room (counted after the deletes)",
    needs: ["state", "sandbox"],
    operations: ["applyDnsChangeSet", "listDomainDnsRecords"],
    async run(context) {
      const domain = await ownDomain(context, "cslimit");
      const change = (body: Record<string, unknown>) => context.api.call("applyDnsChangeSet", { path: { domain_id: domain.id }, body });
      const creates = (stem: string, count: number) =>
        Array.from({ length: count }, (_, i) => ({ type: "A", name: `${stem}${i}`, content: "192.0.2.1" }));
      const total = async () =>
        (await context.api.call("listDomainDnsRecords", { path: { domain_id: domain.id }, query: { limit: 1 } })).body.total;
      expectStatus(await change({ creates: creates("h", 999) }), 200, "999 creates into an empty domain");
      expectStatus(await change({ creates: creates("last", 1) }), 200, "the 1000th record");
      expect(await total()).toBe(1000);
      const over = await change({ creates: creates("over", 1) });
      expectCoded(over, 422, "unprocessable_entity", undefined, "change_set_rejected", "the 1001st record by change set");
      expect(
        over.body.details.errors.map((e: { operation: string; index: number; code: string }) => [e.operation, e.index, e.code]),
      ).toEqual([["creates", 0, "record_limit_exceeded"]]);
      expect(await total()).toBe(1000);
      expectStatus(
        await change({ deletes: [{ name: "h0", type: "A" }], creates: creates("swap", 1) }),
        200,
        "a delete and a create at the limit",
      );
      expect(await total()).toBe(1000);
    },
  },
  {
    id: "model.sandbox-domain-defaults",
    title: "a sandbox domain registered without auto_renew, whois_privacy or years gets the documented defaults: true, true, one year",
    needs: ["state", "sandbox"],
    operations: ["createSandboxDomain", "getDomain"],
    async run(context) {
      const user = uniqueUser(context, "model_defaults");
      await setUp(context.api, "createUserSession", { body: { user_identifier: user } });
      const created = await context.api.call("createSandboxDomain", {
        body: { user_identifier: user, domain_name: `${context.unique("defaults")}.com` },
      });
      expectConforming(created);
      expectStatus(created, 201, "registering a sandbox domain with every optional field left out");
      const read = await context.api.call("getDomain", { path: { domain_id: created.body.id } });
      expectConforming(read);
      expectStatus(read, 200, "reading it back");
      const years = (body: { purchased_at: string; expires_at: string }) =>
        new Date(body.expires_at).getUTCFullYear() - new Date(body.purchased_at).getUTCFullYear();
      for (const [why, body] of [
        ["the answer", created.body],
        ["the read", read.body],
      ] as const)
        expect({ why, auto_renew: body.auto_renew, whois_privacy: body.whois_privacy, years: years(body) }).toEqual({
          why,
          auto_renew: true,
          whois_privacy: true,
          years: 1,
        });
    },
  },
]);

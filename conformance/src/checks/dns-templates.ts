/**
 * DNS templates (Variant D): each template of the documented catalogue creates exactly its
 * records with the variables substituted, all or nothing; variables are checked by their type.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import { expectCoded, expectConforming, expectStatus } from "./expectations.js";
import { brief, expectZoneUnchanged, ownDomain, seedD, zoneOf, type OwnDomain, type RecordD } from "./dns-records-support.js";

const needs = ["state" as const, "sandbox" as const];
const operations = ["applyDnsTemplate", "listDomainDnsRecords"];

type Brief = ReturnType<typeof brief>;
const record = (type: string, name: string, content: string, priority: number | null = null): Brief => ({ type, name, content, priority });

interface Application {
  templateId: string;
  variables?: Record<string, string>;
  /** The records the spec's table documents, for a domain of this name. */
  records(domain: string): Brief[];
}

/** The catalogue as the spec's "Templates" table documents it, written here independently of any implementation. */
const DOCUMENTED: Application[] = [
  {
    templateId: "google-workspace",
    records: () => [record("MX", "@", "smtp.google.com", 1), record("TXT", "@", "v=spf1 include:_spf.google.com ~all")],
  },
  {
    templateId: "microsoft-365",
    variables: { mx_host: "contoso-com.mail.protection.outlook.com" },
    records: () => [
      record("MX", "@", "contoso-com.mail.protection.outlook.com", 0),
      record("CNAME", "autodiscover", "autodiscover.outlook.com"),
      record("TXT", "@", "v=spf1 include:spf.protection.outlook.com -all"),
    ],
  },
  {
    templateId: "fastmail",
    records: (domain) => [
      record("MX", "@", "in1-smtp.messagingengine.com", 10),
      record("MX", "@", "in2-smtp.messagingengine.com", 20),
      record("TXT", "@", "v=spf1 include:spf.messagingengine.com ?all"),
      record("CNAME", "fm1._domainkey", `fm1.${domain}.dkim.fmhosted.com`),
      record("CNAME", "fm2._domainkey", `fm2.${domain}.dkim.fmhosted.com`),
      record("CNAME", "fm3._domainkey", `fm3.${domain}.dkim.fmhosted.com`),
    ],
  },
  {
    templateId: "github-pages",
    variables: { github_user: "octo-cat" },
    records: () => [
      ...["185.199.108.153", "185.199.109.153", "185.199.110.153", "185.199.111.153"].map((ip) => record("A", "@", ip)),
      ...["2606:50c0:8000::153", "2606:50c0:8001::153", "2606:50c0:8002::153", "2606:50c0:8003::153"].map((ip) => record("AAAA", "@", ip)),
      record("CNAME", "www", "octo-cat.github.io"),
    ],
  },
  {
    templateId: "web-host",
    variables: { ip: "192.0.2.10" },
    records: (domain) => [record("A", "@", "192.0.2.10"), record("CNAME", "www", domain)],
  },
  {
    templateId: "spf-dmarc",
    variables: { report_email: "dmarc@example.net" },
    records: () => [record("TXT", "@", "v=spf1 mx ~all"), record("TXT", "_dmarc", "v=DMARC1; p=none; rua=mailto:dmarc@example.net")],
  },
  {
    templateId: "spf-dmarc",
    variables: { report_email: "d+r@example.net", policy: "reject", spf_include: "include:_spf.example.net ip4:192.0.2.0/24" },
    records: () => [
      record("TXT", "@", "v=spf1 include:_spf.example.net ip4:192.0.2.0/24 ~all"),
      record("TXT", "_dmarc", "v=DMARC1; p=reject; rua=mailto:d+r@example.net"),
    ],
  },
];

const apply = (context: CheckContext, domainId: string, body: Record<string, unknown>) =>
  context.api.call("applyDnsTemplate", { path: { domain_id: domainId }, body });

const sortedBriefs = (records: readonly Brief[]) => [...records].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

/** Applies a template to a fresh domain: 201, exactly the documented records (ttl 300), and the zone holds them as answered. */
async function expectDocumentedRecords(context: CheckContext, application: Application, domain: OwnDomain): Promise<RecordD[]> {
  const why = `${application.templateId} ${JSON.stringify(application.variables ?? {})}`;
  const result = await apply(context, domain.id, {
    template_id: application.templateId,
    ...(application.variables ? { variables: application.variables } : {}),
  });
  expectConforming(result);
  expectStatus(result, 201, why);
  expect(result.body.template_id).toBe(application.templateId);
  const created: RecordD[] = result.body.records_created;
  expect({ why, records: sortedBriefs(created.map(brief)) }).toEqual({ why, records: sortedBriefs(application.records(domain.name)) });
  expect({ why, ttls: created.map((r) => r.ttl) }).toEqual({ why, ttls: created.map(() => 300) });
  const zone = await zoneOf(context, domain.id);
  expect({ why, zone: [...zone].sort((a, b) => a.id.localeCompare(b.id)) }).toEqual({
    why,
    zone: [...created].sort((a, b) => a.id.localeCompare(b.id)),
  });
  return created;
}

export default defineChecks([
  {
    id: "templates.each-creates-its-documented-records",
    title:
      "Each template of the catalogue answers 201 and creates exactly its documented records (variables and %domain% substituted, defaults applied, ttl 300), which the zone then holds",
    needs,
    operations,
    async run(context) {
      for (const [index, application] of DOCUMENTED.entries())
        await expectDocumentedRecords(context, application, await ownDomain(context, `tp${index}`));
    },
  },
  {
    id: "templates.missing-variable-creates-nothing",
    title:
      "A template applied without a required variable answers 422 validation_error (variables.<name>, missing_required_field) and creates nothing",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "tmv");
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ template_id: "web-host" }, "variables.ip"],
        [{ template_id: "web-host", variables: {} }, "variables.ip"],
        [{ template_id: "microsoft-365" }, "variables.mx_host"],
        [{ template_id: "github-pages" }, "variables.github_user"],
        [{ template_id: "spf-dmarc", variables: { policy: "reject" } }, "variables.report_email"],
      ];
      for (const [body, field] of cases)
        expectCoded(await apply(context, domain.id, body), 422, "validation_error", field, "missing_required_field", JSON.stringify(body));
      expect(await zoneOf(context, domain.id)).toEqual([]);
    },
  },
  {
    id: "templates.variables-checked-by-type",
    title:
      "A variable not of its type (hostname, ipv4, email, spf_mechanisms, text with enum, pattern and max_length; an empty value too_short) or unknown to the template answers 422 validation_error naming variables.<name>, creating nothing",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "tvt");
      const email = { report_email: "dmarc@example.net" };
      const cases: Array<[string, Record<string, string>, string, string]> = [
        ["web-host", { ip: "not-an-ip" }, "variables.ip", "invalid_format"],
        ["web-host", { ip: "192.0.2.1 ~all" }, "variables.ip", "invalid_format"],
        ["web-host", { ip: "" }, "variables.ip", "too_short"],
        ["web-host", { ip: "192.0.2.10", colour: "blue" }, "variables.colour", "invalid_value"],
        ["microsoft-365", { mx_host: "localhost" }, "variables.mx_host", "invalid_format"],
        ["microsoft-365", { mx_host: "mail example.com" }, "variables.mx_host", "invalid_format"],
        ["github-pages", { github_user: "a".repeat(40) }, "variables.github_user", "too_long"],
        ["github-pages", { github_user: "octo--cat" }, "variables.github_user", "invalid_format"],
        ["github-pages", { github_user: "-octo" }, "variables.github_user", "invalid_format"],
        ["spf-dmarc", { ...email, policy: "block" }, "variables.policy", "invalid_value"],
        ["spf-dmarc", { report_email: "a,b@example.net" }, "variables.report_email", "invalid_format"],
        ["spf-dmarc", { report_email: "d@example.net; p=none" }, "variables.report_email", "invalid_format"],
        ["spf-dmarc", { report_email: "not-an-email" }, "variables.report_email", "invalid_format"],
        ["spf-dmarc", { report_email: "@example.net" }, "variables.report_email", "invalid_format"],
        ["spf-dmarc", { report_email: `${"l".repeat(65)}@example.net` }, "variables.report_email", "invalid_format"],
        [
          "spf-dmarc",
          { report_email: `${"l".repeat(60)}@${"h".repeat(63)}.${"h".repeat(63)}.${"h".repeat(62)}.net` },
          "variables.report_email",
          "invalid_format",
        ],
        ["spf-dmarc", { ...email, spf_include: "all" }, "variables.spf_include", "invalid_format"],
        ["spf-dmarc", { ...email, spf_include: "ptr" }, "variables.spf_include", "invalid_format"],
        ["spf-dmarc", { ...email, spf_include: "redirect=_spf.example.net" }, "variables.spf_include", "invalid_format"],
        [
          "spf-dmarc",
          { ...email, spf_include: Array.from({ length: 11 }, (_, i) => `include:s${i}.example.net`).join(" ") },
          "variables.spf_include",
          "invalid_format",
        ],
        ["google-workspace", { anything: "x" }, "variables.anything", "invalid_value"],
      ];
      for (const [templateId, variables, field, code] of cases)
        expectCoded(
          await apply(context, domain.id, { template_id: templateId, variables }),
          422,
          "validation_error",
          field,
          code,
          `${templateId} ${JSON.stringify(variables)}`,
        );
      expect(await zoneOf(context, domain.id)).toEqual([]);
      // At the bounds of its type a value is accepted.
      const longLocal = await ownDomain(context, "tvl");
      expectStatus(
        await apply(context, longLocal.id, { template_id: "spf-dmarc", variables: { report_email: `${"l".repeat(64)}@example.net` } }),
        201,
        "an e-mail address whose local part has 64 characters",
      );
      await expectDocumentedRecords(
        context,
        {
          templateId: "github-pages",
          variables: { github_user: `a${"b".repeat(37)}c` },
          records: () => [
            ...DOCUMENTED.find((a) => a.templateId === "github-pages")!
              .records("")
              .filter((r) => r.type !== "CNAME"),
            record("CNAME", "www", `a${"b".repeat(37)}c.github.io`),
          ],
        },
        domain,
      );
    },
  },
  {
    id: "templates.unknown-template",
    title:
      "An unknown template_id answers 422 validation_error (template_id, invalid_value) and creates nothing; an unknown field beside it 400 unknown_field",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "tun");
      expectCoded(
        await apply(context, domain.id, { template_id: "cpanel" }),
        422,
        "validation_error",
        "template_id",
        "invalid_value",
        "template cpanel",
      );
      expectCoded(
        await apply(context, domain.id, { template_id: "web-host", variables: { ip: "192.0.2.1" }, ttl: 60 }),
        400,
        "validation_error",
        "ttl",
        "unknown_field",
        "ttl beside template_id",
      );
      expect(await zoneOf(context, domain.id)).toEqual([]);
    },
  },
  {
    id: "templates.applying-twice-conflicts",
    title: "Applying the same template twice answers 409 conflict (duplicate_record) the second time and creates nothing new",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "ttw");
      const first = await apply(context, domain.id, { template_id: "web-host", variables: { ip: "192.0.2.10" } });
      expectStatus(first, 201);
      const before = await zoneOf(context, domain.id);
      expectCoded(
        await apply(context, domain.id, { template_id: "web-host", variables: { ip: "192.0.2.10" } }),
        409,
        "conflict",
        undefined,
        "duplicate_record",
        "web-host again",
      );
      await expectZoneUnchanged(context, domain.id, before, "a refused template creates nothing");
    },
  },
  {
    id: "templates.conflict-creates-nothing",
    title:
      "A template one of whose records conflicts with the zone (a CNAME beside a record, a second SPF or DMARC) answers 409 with the rule's code and creates none of its records",
    needs,
    operations,
    async run(context) {
      const domain = await ownDomain(context, "tcf");
      await seedD(context, domain.id, { type: "A", name: "www", content: "198.51.100.1" });
      await seedD(context, domain.id, { type: "TXT", name: "@", content: "v=spf1 a -all" });
      await seedD(context, domain.id, { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=quarantine" });
      const before = await zoneOf(context, domain.id);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ template_id: "web-host", variables: { ip: "192.0.2.10" } }, "cname_conflict"],
        [{ template_id: "google-workspace" }, "spf_conflict"],
        [{ template_id: "fastmail" }, "spf_conflict"],
        [{ template_id: "spf-dmarc", variables: { report_email: "dmarc@example.net" } }, "spf_conflict"],
      ];
      for (const [body, code] of cases)
        expectCoded(await apply(context, domain.id, body), 409, "conflict", undefined, code, JSON.stringify(body));
      await expectZoneUnchanged(context, domain.id, before, "a template with a conflicting record creates none of its records");
      const other = await ownDomain(context, "tcd");
      await seedD(context, other.id, { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=none" });
      expectCoded(
        await apply(context, other.id, { template_id: "spf-dmarc", variables: { report_email: "dmarc@example.net" } }),
        409,
        "conflict",
        undefined,
        "dmarc_conflict",
        "spf-dmarc beside a DMARC record",
      );
      expect((await zoneOf(context, other.id)).length).toBe(1);
    },
  },
]);

/** Template variables are typed (x-dns-templates): a value that is not of its type is refused before anything is written. */
import { describe, expect, it } from "vitest";
import type { components } from "../../../../generated/types/full.js";
import { useDnsRecordFixture } from "./support/dns-record-fixture.js";

type Apply = components["schemas"]["DnsTemplateApply"];

const { s, domainPath } = useDnsRecordFixture();

const apply = (body: Apply) => s.api.POST("/api/v1/domains/{domain_id}/dns/template", { ...domainPath(), body });
const records = async () => (await s.api.GET("/api/v1/domains/{domain_id}/dns", domainPath())).data!.records;

describe("POST /api/v1/domains/{domain_id}/dns/template", () => {
  it.each([
    ["an e-mail that is not one", "spf-dmarc", { report_email: "not-an-email" }, "report_email", "invalid_format"],
    ["an e-mail carrying another DMARC tag", "spf-dmarc", { report_email: "a@b.co; p=none" }, "report_email", "invalid_format"],
    [
      "an e-mail carrying a second report address",
      "spf-dmarc",
      { report_email: "a@b.co,mailto:x@evil.example" },
      "report_email",
      "invalid_format",
    ],
    ["an e-mail with a DMARC size limit", "spf-dmarc", { report_email: "a@b.co!10m" }, "report_email", "invalid_format"],
    [
      "SPF mechanisms ending the policy early",
      "spf-dmarc",
      { report_email: "d@adalovelace.com", spf_include: "+all" },
      "spf_include",
      "invalid_format",
    ],
    [
      "SPF text carrying a DMARC record's tags",
      "spf-dmarc",
      { report_email: "d@adalovelace.com", spf_include: "mx; p=none" },
      "spf_include",
      "invalid_format",
    ],
    [
      "SPF mechanisms with a redirect",
      "spf-dmarc",
      { report_email: "d@adalovelace.com", spf_include: "redirect=_spf.example.net" },
      "spf_include",
      "invalid_format",
    ],
    [
      "a policy outside its list",
      "spf-dmarc",
      { report_email: "d@adalovelace.com", policy: "none; rua=mailto:x@evil.example" },
      "policy",
      "invalid_value",
    ],
    ["an MX host that is not a host name", "microsoft-365", { mx_host: "mail host" }, "mx_host", "invalid_format"],
    ["an ip that is an IPv6 address", "web-host", { ip: "2001:db8::1" }, "ip", "invalid_format"],
    ["an ip that is not an address", "web-host", { ip: "not-an-ip" }, "ip", "invalid_format"],
    ["a GitHub user that is a host name", "github-pages", { github_user: "evil.example.net" }, "github_user", "invalid_format"],
    ["a GitHub user longer than GitHub allows", "github-pages", { github_user: "a".repeat(40) }, "github_user", "too_long"],
  ] as const)("refuses %s with 422 naming the variable, and writes nothing", async (_label, template_id, variables, variable, code) => {
    const { error, response } = await apply({ template_id, variables });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({ error: "validation_error", details: { field: `variables.${variable}`, code } });
    expect((error as { message: string }).message).toMatch(new RegExp(`^Template ${template_id}: ${variable} must be`));
    expect(await records()).toEqual([]);
    expect(s.outbox.events).toEqual([]);
  });

  it.each([
    [
      "spf-dmarc",
      {
        report_email: "dmarc-reports+adalovelace@reports.example.net",
        spf_include: "include:_spf.google.com ip4:192.0.2.0/24 ip6:2001:db8::/32 -a:mail.adalovelace.com ~mx",
      },
    ],
    ["microsoft-365", { mx_host: "adalovelace-com.mail.protection.outlook.com" }],
    ["github-pages", { github_user: "ada-lovelace" }],
    ["web-host", { ip: "203.0.113.10" }],
  ] as const)("applies %s with values of the variables' types", async (template_id, variables) => {
    const { response } = await apply({ template_id, variables });
    expect(response.status).toBe(201);
  });
});

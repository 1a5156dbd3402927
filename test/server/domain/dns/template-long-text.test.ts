/**
 * A template's TXT record longer than one TXT string (a DMARC record of a 254-character report
 * address): the template writes it as several strings, as the TXT rule asks of a partner, instead of
 * refusing a value its variable's type allows.
 */
import { describe, expect, it } from "vitest";
import { parseRecord } from "../../../../server/domain/dns/record-rules.js";
import { expandTemplate } from "../../../../server/domain/dns/templates.js";
import { useDnsRecordFixture } from "./support/dns-record-fixture.js";

/** The longest address the `email` type takes: a 64-character local part and a 189-character host name (254 in all). */
const LONGEST_EMAIL = `${"r".repeat(64)}@${["a".repeat(63), "b".repeat(63), "c".repeat(57)].join(".")}.com`;

describe("expanding a template whose TXT text is longer than 255 characters", () => {
  it("splits it into strings of at most 255 characters that join to the text", () => {
    expect(LONGEST_EMAIL).toHaveLength(254);
    const drafts = expandTemplate("spf-dmarc", "adalovelace.com", { report_email: LONGEST_EMAIL, policy: "quarantine" });
    const dmarc = drafts.find((draft) => draft.name === "_dmarc")!;
    const parsed = parseRecord(dmarc, "adalovelace.com");
    expect(parsed.violations).toBeUndefined();
    const strings = parsed.record!.type === "TXT" ? parsed.record!.strings : [];
    expect(strings.join("")).toBe(`v=DMARC1; p=quarantine; rua=mailto:${LONGEST_EMAIL}`);
    expect(strings.every((text) => text.length <= 255)).toBe(true);
    expect(parsed.record!.mailPolicy).toBe("dmarc");
  });

  it("leaves a text of one string as it is", () => {
    const drafts = expandTemplate("spf-dmarc", "adalovelace.com", { report_email: "d@adalovelace.com" });
    expect(drafts.find((draft) => draft.name === "_dmarc")!.content).toBe("v=DMARC1; p=none; rua=mailto:d@adalovelace.com");
  });
});

const { s, domainPath } = useDnsRecordFixture();

describe("POST /api/v1/domains/{domain_id}/dns/template with the longest report address", () => {
  it("creates the DMARC record (201); applying it again is still a conflict", async () => {
    const apply = () =>
      s.api.POST("/api/v1/domains/{domain_id}/dns/template", {
        ...domainPath(),
        body: { template_id: "spf-dmarc", variables: { report_email: LONGEST_EMAIL } },
      });
    const { data, response } = await apply();
    expect(response.status).toBe(201);
    const dmarc = data!.records_created.find((record) => record.name === "_dmarc")!;
    expect(dmarc.content).toMatch(/^"v=DMARC1; p=none; rua=mailto:[^"]{226}" "[^"]+"$/);
    const again = await apply();
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ error: "conflict", details: { field: "template_id" } });
  });
});

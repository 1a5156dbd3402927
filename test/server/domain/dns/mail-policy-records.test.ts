import { describe, expect, it } from "vitest";
import { mailPolicyOf } from "../../../../server/domain/dns/mail-policy-records.js";
import { recordConflict, txtText, type RecordDraft } from "../../../../server/domain/dns/record-rules.js";

const txt = (name: string, content: string): RecordDraft => ({ type: "TXT", name, content, ttl: 300, priority: null });

describe("which records are mail policies (RFC 7208 4.5, RFC 7489 6.6.3)", () => {
  it.each([
    ["@", "v=spf1 mx ~all", "spf"],
    ["@", "v=spf1", "spf"],
    ["www", "V=SPF1 -all", "spf"],
    ["@", '"v=spf1 include:_spf.example.net" " ~all"', "spf"],
    ["@", '"v=spf1" " -all"', "spf"],
    ["_dmarc", "v=DMARC1; p=none", "dmarc"],
    ["_dmarc.shop", "v=DMARC1;p=reject", "dmarc"],
    ["_DMARC", "v = DMARC1; p=none", "dmarc"],
    ["_dmarc", "v=DMARC1", "dmarc"],
    ["@", "v=spf10 -all", null],
    ["@", "v=spf1-all", null],
    ["@", " v=spf1 -all", null],
    ["@", "spf1 -all", null],
    ["@", "google-site-verification=abc", null],
    ["www", "v=DMARC1; p=none", null],
    ["_dmarc", "v=dmarc1; p=none", null],
    ["_dmarc", "v=DMARC10; p=none", null],
    ["_dmarc", "hello", null],
    ["shop._dmarc", "v=DMARC1; p=none", null],
  ])("a TXT at %j with %j is %s", (name, content, expected) => {
    expect(mailPolicyOf({ type: "TXT", name }, txtText(content))).toBe(expected);
  });

  it("counts only TXT records", () => {
    expect(mailPolicyOf({ type: "CNAME", name: "_dmarc" }, "v=DMARC1; p=none")).toBeNull();
  });
});

describe("one mail policy per name", () => {
  const spf = txt("@", "v=spf1 mx ~all");
  const dmarc = txt("_dmarc", "v=DMARC1; p=none");

  it.each([
    ["a second SPF record at the root", txt("@", "v=spf1 include:_spf.google.com ~all"), [spf], "spf_conflict"],
    ["a second SPF record written in other case and strings", txt("@", '"V=SPF1 a" " -all"'), [spf], "spf_conflict"],
    ["a second SPF record at a name written in another case", txt("WWW", "v=spf1 -all"), [txt("www", "v=spf1 a -all")], "spf_conflict"],
    ["a second DMARC record", txt("_dmarc", "v=DMARC1; p=reject"), [dmarc], "dmarc_conflict"],
    ["an identical SPF record (a duplicate first)", spf, [spf], "duplicate_record"],
  ])("refuses %s", (_label, candidate, others, code) => {
    expect(recordConflict(candidate, others)?.code).toBe(code);
  });

  it.each([
    ["an SPF record beside other TXT records", spf, [txt("@", "google-site-verification=abc"), txt("@", "v=DMARC1; p=none")]],
    ["an SPF record at another name", txt("mail", "v=spf1 -all"), [spf]],
    ["a DMARC record of a subdomain", txt("_dmarc.shop", "v=DMARC1; p=none"), [dmarc]],
    ["another TXT beside a DMARC record", txt("_dmarc", "reporting contact: postmaster"), [dmarc]],
  ])("accepts %s", (_label, candidate, others) => {
    expect(recordConflict(candidate, others)).toBeNull();
  });
});

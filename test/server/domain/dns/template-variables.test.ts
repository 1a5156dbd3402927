import { describe, expect, it } from "vitest";
import { dnsTemplates, type DnsTemplateId } from "../../../../generated/operations.js";
import { isSpfMechanisms } from "../../../../server/domain/dns/spf-mechanisms.js";
import { assertVariableValue, variablesOf, type TemplateVariableSpec } from "../../../../server/domain/dns/template-variables.js";

const accepts = (spec: TemplateVariableSpec, value: string) => {
  try {
    assertVariableValue("spf-dmarc", "v", spec, value);
    return true;
  } catch {
    return false;
  }
};

describe("variable types", () => {
  it.each([
    ["dmarc@example.com", true],
    ["dmarc-reports+shop@reports.example.co.uk", true],
    ["first.last_name@example.com", true],
    ["not-an-email", false],
    ["a@b.co; p=none", false],
    ["a@b.co,mailto:x@evil.example", false],
    ["a@b.co!10m", false],
    ["a!b@example.com", false],
    ["a%20b@example.com", false],
    ["a b@example.com", false],
    ['"a"@example.com', false],
    [".a@example.com", false],
    ["a.@example.com", false],
    ["a..b@example.com", false],
    ["@example.com", false],
    ["a@localhost", false],
    ["a@exa_mple.com", false],
    [`${"a".repeat(65)}@example.com`, false],
    [`a@${"b".repeat(63)}.${"c".repeat(63)}.${"d".repeat(63)}.${"e".repeat(60)}.com`, false],
  ])("email %j is accepted: %s", (value, expected) => {
    expect(accepts({ type: "email", required: true }, value)).toBe(expected);
  });

  it.each([
    ["mail.example.com", true],
    ["contoso-com.mail.protection.outlook.com.", true],
    ["example", false],
    ["mail host.example.com", false],
    ["-mail.example.com", false],
    ["_spf.example.com", false],
    ["mail.example.com; p=none", false],
  ])("hostname %j is accepted: %s", (value, expected) => {
    expect(accepts({ type: "hostname", required: true }, value)).toBe(expected);
  });

  it.each([
    ["203.0.113.10", true],
    ["2001:db8::1", false],
    ["203.0.113", false],
    ["203.0.113.256", false],
    ["203.0.113.010", false],
    ["example.com", false],
  ])("ipv4 %j is accepted: %s", (value, expected) => {
    expect(accepts({ type: "ipv4", required: true }, value)).toBe(expected);
  });

  it.each([
    ["none", true],
    ["reject", true],
    ["block", false],
    ["none; rua=mailto:x@evil.example", false],
    ["None", false],
  ])("text with an enum, %j is accepted: %s", (value, expected) => {
    expect(accepts({ type: "text", required: false, enum: ["none", "quarantine", "reject"] }, value)).toBe(expected);
  });

  it.each([
    ["ada-lovelace", true],
    ["a", true],
    ["a".repeat(39), true],
    ["a".repeat(40), false],
    ["-ada", false],
    ["ada-", false],
    ["ada--lovelace", false],
    ["ada.lovelace", false],
    ["ada_lovelace", false],
  ])("text with a pattern and a maximum length, %j is accepted: %s", (value, expected) => {
    expect(accepts({ type: "text", required: true, pattern: "^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$", max_length: 39 }, value)).toBe(expected);
  });
});

describe("SPF mechanisms (RFC 7208 section 5)", () => {
  it.each([
    ["mx", true],
    ["a mx", true],
    ["include:_spf.google.com", true],
    ["-include:spf.protection.outlook.com ~mx ?a +ip4:192.0.2.1", true],
    ["ip4:192.0.2.0/24 ip6:2001:db8::/32", true],
    ["a:mail.example.com/24//64", true],
    ["mx//64", true],
    ["exists:check.example.com", true],
    [Array.from({ length: 10 }, (_, i) => `include:s${i}.example.com`).join(" "), true],
    [Array.from({ length: 11 }, (_, i) => `include:s${i}.example.com`).join(" "), false],
    ["all", false],
    ["+all", false],
    ["mx -all", false],
    ["ptr", false],
    ["ptr:example.com", false],
    ["redirect=_spf.example.com", false],
    ["exp=explain.example.com", false],
    ["include:%{d}.example.com", false],
    ["include:", false],
    ["include:example", false],
    ["include:example.com/24", false],
    ["ip4:192.0.2.0/33", false],
    ["ip4:192.0.2.0/024", false],
    ["ip4:2001:db8::1", false],
    ["ip6:192.0.2.1", false],
    ["ip6:2001:db8::/129", false],
    ["a/33", false],
    ["mx  a", false],
    [" mx", false],
    ["mx ", false],
    ["", false],
    ["mx; p=none", false],
    ["v=spf1 mx", false],
    ["*mx", false],
  ])("%j is accepted: %s", (value, expected) => {
    expect(isSpfMechanisms(value)).toBe(expected);
  });
});

describe("the catalogue", () => {
  it.each(Object.keys(dnsTemplates) as DnsTemplateId[])("bounds every text variable of %s by an enum or a pattern", (templateId) => {
    for (const spec of Object.values(variablesOf(templateId))) {
      if (spec.type === "text") expect(spec.enum !== undefined || spec.pattern !== undefined).toBe(true);
    }
  });

  it.each(Object.keys(dnsTemplates) as DnsTemplateId[])("gives every variable of %s a default of its own type, if any", (templateId) => {
    for (const [name, spec] of Object.entries(variablesOf(templateId))) {
      if (spec.default !== undefined) expect(() => assertVariableValue(templateId, name, spec, spec.default!)).not.toThrow();
    }
  });
});

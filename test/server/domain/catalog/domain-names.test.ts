/** The names callers give for availability, purchases and transfers: UTS #46 processing, then IDNA2008 validity. */
import { describe, expect, it } from "vitest";
import { parseDomainName } from "../../../../server/domain/catalog/domain-names.js";
import { ApiError } from "../../../../server/platform/errors.js";

const parsed = (input: string) => parseDomainName(input, "domain_name").name;
const refusal = (input: string) => {
  try {
    parseDomainName(input, "domain_name");
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message, details: error.details };
    throw error;
  }
  return null;
};
const notADomainName = {
  status: 422,
  message: "domain_name must be a domain name such as example.com",
  details: { field: "domain_name", code: "invalid_format" },
};
const disallowed = (shown: string, codePoint: string) => ({
  status: 422,
  message: `domain_name must not contain "${shown}" (U+${codePoint}): IDNA2008 (RFC 5892) allows letters, marks and digits in domain names, not symbols or punctuation`,
  details: { field: "domain_name", code: "invalid_format" },
});
const outOfContext = (shown: string, codePoint: string) => ({
  status: 422,
  message: `domain_name has "${shown}" (U+${codePoint}) where IDNA2008 (RFC 5892 appendix A) does not allow it`,
  details: { field: "domain_name", code: "invalid_format" },
});

describe("the one form a name is stored and answered in: lower-case ASCII, Unicode labels as A-labels", () => {
  it.each([
    ["example.com", "example.com"],
    [" Example.COM. ", "example.com"],
    ["münchen.de", "xn--mnchen-3ya.de"],
    ["MÜNCHEN.DE", "xn--mnchen-3ya.de"],
    ["xn--mnchen-3ya.de", "xn--mnchen-3ya.de"],
    ["XN--MNCHEN-3YA.DE", "xn--mnchen-3ya.de"],
    ["faß.de", "xn--fa-hia.de"],
    ["bücher.com", "xn--bcher-kva.com"],
    ["例え.com", "xn--r8jz45g.com"],
    ["παράδειγμα.com", "xn--hxajbheg2az3al.com"],
    ["ﾃｽﾄ.com", "xn--zckzah.com"],
    ["col·legi.com", "xn--collegi-xma.com"],
    ["ア・イ.com", "xn--ccke4x.com"],
    ["α͵β.com", "xn--wva3je.com"],
  ])("%j is stored as %j", (input, canonical) => {
    expect(parsed(input)).toBe(canonical);
  });
});

describe("names IDNA2008 refuses, in Unicode or as A-labels", () => {
  it.each([
    ["😀.com", disallowed("😀", "1F600")],
    ["xn--e28h.com", disallowed("😀", "1F600")],
    ["☃.com", disallowed("☃", "2603")],
    ["xn--n3h.com", disallowed("☃", "2603")],
    ["i❤.com", disallowed("❤", "2764")],
    ["ᄀ.com", disallowed("ᄀ", "1100")],
    ["a\u20D0b.com", disallowed("\u20D0", "20D0")],
    ["a·b.com", outOfContext("·", "00B7")],
    ["a・b.com", outOfContext("・", "30FB")],
    ["α͵b.com", outOfContext("͵", "0375")],
  ])("refuses %j with 422 naming the code point", (input, expected) => {
    expect(refusal(input)).toEqual(expected);
  });

  it.each([
    ["-example.com"],
    ["example-.com"],
    ["ab--cd.com"],
    ["xn--abc-.com"],
    ["xn--zz.com"],
    ["ex_ample.com"],
    ["ex ample.com"],
    ["a\u200Db.com"],
    [`${"a".repeat(64)}.com`],
    ["www.example.com"],
    ["com"],
    [".com"],
    [""],
  ])("refuses %j with 422 as not a domain name", (input) => {
    expect(refusal(input)).toEqual(notADomainName);
  });
});

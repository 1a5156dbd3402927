/** The TLD list and availability: prices that agree, free and taken names, premium and reserved names, names refused. */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import {
  amount,
  cents,
  freeName,
  needsDomainDetails,
  newDomain,
  newUser,
  SANDBOX_DOMAINS,
  tldCatalogue,
  totalSpent,
} from "./domains-support.js";
import { expectAnswer, expectCoded } from "./expectations.js";

/** The Sandbox tag: premium names cost this many times the TLD's registration price. */
const PREMIUM_MULTIPLIER = 25;
/** Labels the registry reserves everywhere (the Sandbox tag's table). */
const RESERVED_LABELS = ["nic", "whois", "www", "example", "localhost", "invalid", "test"];

async function availability(context: CheckContext, name: string): Promise<any> {
  const result = await context.api.call("checkAvailability", { path: { domain_name: name } });
  expectAnswer(result, 200, undefined, `the availability of ${name}`);
  return result.body;
}

function expectUnavailable(answer: any, name: string, why: string): void {
  expect({ name, why, available: answer.available, price: answer.price, currency: answer.currency }).toEqual({
    name,
    why,
    available: false,
    price: null,
    currency: null,
  });
}

/** A short label (1 to 3 characters) of this run, so it is very likely free. */
function shortLabel(context: CheckContext): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  const seed = context.unique("s").replace(/[^0-9a-f]/g, "");
  let value = Number.parseInt(seed.slice(-8) || "0", 16);
  let label = "";
  for (let n = 0; n < 3; n++) {
    label += letters[value % 26];
    value = Math.floor(value / 26);
  }
  return label;
}

export default defineChecks([
  {
    id: "catalogue.tlds-listed-with-prices",
    title: "the TLD list names each TLD once, in order, without a dot, each with registration, renewal and transfer prices and a currency",
    async run(context) {
      const result = await context.api.call("listTlds");
      expectAnswer(result, 200);
      const tlds: any[] = result.body.tlds;
      expect(tlds.length).toBeGreaterThan(0);
      const names = tlds.map((entry) => entry.tld);
      expect(names).toEqual([...new Set(names)].sort());
      for (const entry of tlds) {
        expect({ tld: entry.tld, lowerCaseWithoutDot: /^[a-z0-9-]+$/.test(entry.tld) }).toEqual({
          tld: entry.tld,
          lowerCaseWithoutDot: true,
        });
        for (const price of ["registration_price", "renewal_price", "transfer_price"]) cents(entry[price]);
      }
      expect(tlds.some((entry) => entry.available)).toBe(true);
    },
  },
  {
    id: "catalogue.free-name-available-at-the-tld-price",
    title: "a free name is available at its TLD's registration price and currency from the TLD list, not premium, named in lower case",
    needs: ["state"],
    async run(context) {
      const catalogue = await tldCatalogue(context);
      const open = [...catalogue.values()].filter((entry) => entry.available);
      for (const entry of [open.find((e) => e.tld === "com") ?? open[0]!, ...open.filter((e) => e.tld !== "com").slice(0, 2)]) {
        const name = freeName(context, entry.tld);
        const answer = await availability(context, name.toUpperCase());
        expect(answer).toMatchObject({
          domain_name: name,
          available: true,
          price: entry.registration_price,
          currency: entry.currency,
          premium: false,
        });
      }
    },
  },
  {
    id: "catalogue.registered-name-unavailable",
    title: "a name registered through the service is not available (any spelling), price and currency null",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      const user = await newUser(context);
      const name = freeName(context);
      expect((await availability(context, name)).available).toBe(true);
      const domain = await newDomain(context, user, { name });
      for (const spelled of [domain.name, domain.name.toUpperCase()])
        expectUnavailable(await availability(context, spelled), spelled, "registered through the service");
      expectCoded(
        await context.api.call("createSandboxDomain", { body: { user_identifier: user, domain_name: name } }),
        409,
        "conflict",
        undefined,
        undefined,
        "registering a name already registered",
      );
    },
  },
  {
    id: "catalogue.reserved-and-taken-names-unavailable",
    title:
      "registry-reserved labels are unavailable everywhere; in the sandbox taken- and reserved- labels too, and registering them gives 409 conflict",
    needs: ["state"],
    async run(context) {
      const catalogue = await tldCatalogue(context);
      const tld = catalogue.has("com") ? "com" : [...catalogue.values()].find((entry) => entry.available)!.tld;
      for (const label of RESERVED_LABELS)
        expectUnavailable(await availability(context, `${label}.${tld}`), `${label}.${tld}`, "reserved label");
      if (context.target.environment !== "sandbox" || context.target.stateless) return;
      const user = await newUser(context);
      for (const prefix of ["taken-", "reserved-"]) {
        const name = `${prefix}${context.unique("h2name")}.${tld}`;
        expectUnavailable(await availability(context, name), name, `a ${prefix} label in the sandbox`);
        if (context.api.has("createSandboxDomain"))
          expectCoded(
            await context.api.call("createSandboxDomain", { body: { user_identifier: user, domain_name: name } }),
            409,
            "conflict",
            undefined,
            undefined,
            `registering ${name}`,
          );
      }
    },
  },
  {
    id: "catalogue.premium-names-priced-and-charged",
    title:
      "labels of 1 to 3 characters (and premium- in the sandbox) are premium at 25 times the registration price, and registering one charges that",
    needs: ["state"],
    async run(context) {
      const catalogue = await tldCatalogue(context);
      const entry = catalogue.get("com") ?? [...catalogue.values()].find((e) => e.available)!;
      const names = [`${shortLabel(context)}.${entry.tld}`];
      if (context.target.environment === "sandbox") names.push(`premium-${context.unique("h2name")}.${entry.tld}`);
      for (const name of names) {
        const answer = await availability(context, name);
        expect({ name, premium: answer.premium }).toEqual({ name, premium: true });
        if (answer.available)
          expect({ name, price: answer.price }).toEqual({ name, price: amount(PREMIUM_MULTIPLIER * cents(entry.registration_price)) });
      }
      const ordinary = await availability(context, freeName(context, entry.tld));
      expect(ordinary.premium).toBe(false);
      if (context.target.environment !== "sandbox" || context.target.stateless || !context.api.has("createSandboxDomain")) return;
      needsDomainDetails(context);
      const user = await newUser(context);
      const name = names.at(-1)!;
      const quoted = await availability(context, name);
      const spent = await totalSpent(context, user);
      await newDomain(context, user, { name, years: 2 });
      expect({ name, charged: (await totalSpent(context, user)) - spent }).toEqual({ name, charged: 2 * cents(quoted.price) });
    },
  },
  {
    id: "catalogue.names-read-in-one-spelling",
    title: "a name is answered in lower-case ASCII: upper case folded, Unicode given as its xn-- A-label",
    needs: ["state"],
    async run(context) {
      const label = context.unique("h2name");
      expect((await availability(context, `${label.toUpperCase()}.COM`)).domain_name).toBe(`${label}.com`);
      const unicode = await availability(context, `münchen-${label}.de`);
      const alabel = await availability(context, unicode.domain_name);
      expect(unicode.domain_name.startsWith("xn--")).toBe(true);
      expect(alabel.domain_name).toBe(unicode.domain_name);
      expect(alabel.available).toBe(unicode.available);
    },
  },
  {
    id: "catalogue.suggestions-are-available-alternatives",
    title: "suggestions are at most five other names, each available when checked",
    needs: ["state", "sandbox"],
    operations: SANDBOX_DOMAINS,
    async run(context) {
      const user = await newUser(context);
      const domain = await newDomain(context, user);
      const label = domain.name.split(".")[0];
      // The same label on another TLD is a likely suggestion: take it, so a suggestion list that ignores registrations shows.
      const catalogue = await tldCatalogue(context);
      for (const entry of [...catalogue.values()].filter((e) => e.available && e.tld !== "com").slice(0, 3))
        await newDomain(context, user, { name: `${label}.${entry.tld}` });
      const answer = await availability(context, domain.name);
      expect(answer.suggestions.length).toBeLessThanOrEqual(5);
      expect(answer.suggestions).not.toContain(domain.name);
      for (const suggestion of answer.suggestions)
        expect({ suggestion, available: (await availability(context, suggestion)).available }).toEqual({ suggestion, available: true });
    },
  },
  {
    id: "catalogue.invalid-names-refused",
    title: "an invalid name gives 422 validation_error invalid_format and is never reported available",
    needs: ["state"],
    async run(context) {
      for (const name of ["-leading.com", "trailing-.com", "😀.com", "xn--e28h.com", `${"a".repeat(64)}.com`, "under_score.com", "nodot"])
        expectCoded(
          await context.api.call("checkAvailability", { path: { domain_name: name } }),
          422,
          "validation_error",
          "domain_name",
          "invalid_format",
          `availability of ${name}`,
        );
    },
  },
  {
    id: "catalogue.unsold-or-closed-tld",
    title: "a TLD the service does not sell gives 422; a name on a TLD closed to registrations is not available",
    needs: ["state"],
    async run(context) {
      const catalogue = await tldCatalogue(context);
      const unsold = ["zz", "qq", "invalidtld"].find((tld) => !catalogue.has(tld))!;
      expectCoded(
        await context.api.call("checkAvailability", { path: { domain_name: `${context.unique("h2name")}.${unsold}` } }),
        422,
        "validation_error",
        "domain_name",
        undefined,
        `availability on .${unsold}, not sold`,
      );
      const closed = [...catalogue.values()].find((entry) => !entry.available);
      if (!closed) {
        context.note("the TLD list has no TLD closed to registrations: that half not checked");
        return;
      }
      const name = freeName(context, closed.tld);
      expectUnavailable(await availability(context, name), name, `.${closed.tld} is closed to registrations`);
      if (context.target.environment === "sandbox" && !context.target.stateless && context.api.has("createSandboxDomain")) {
        const user = await newUser(context);
        expectCoded(
          await context.api.call("createSandboxDomain", { body: { user_identifier: user, domain_name: name } }),
          422,
          "validation_error",
          "domain_name",
          "invalid_value",
          `registering on .${closed.tld}, closed`,
        );
      }
    },
  },
]);

/** Whether a name can be registered, at what price, and alternatives when it cannot. */
import type { components } from "../../../generated/types/full.js";
import { formatCents, type Cents } from "../../platform/money.js";
import type { Environment } from "../../../generated/deployment.js";
import { parseDomainName } from "./domain-names.js";
import { TLD_CATALOGUE, type TldPrice } from "./tlds.js";

type Availability = components["schemas"]["Availability"];

/** Names no partner may register (registry-reserved labels). */
const RESERVED_LABELS = new Set(["nic", "whois", "www", "example", "localhost", "invalid", "test"]);

/** Labels of one to three characters are premium: priced at 25 times the TLD's registration price. */
export const PREMIUM_MULTIPLIER = 25;

/** Sandbox magic labels (the Sandbox tag of the spec): registered elsewhere, reserved, premium. */
const MAGIC_PREFIXES = { taken: "taken-", reserved: "reserved-", premium: "premium-" } as const;

export function isPremium(label: string, environment: Environment): boolean {
  return label.length <= 3 || (environment === "sandbox" && label.startsWith(MAGIC_PREFIXES.premium));
}

/** What a name costs per year to register: its TLD's price, PREMIUM_MULTIPLIER times that for a premium name. */
export const yearlyPriceOf = (label: string, tld: TldPrice, environment: Environment): Cents =>
  isPremium(label, environment) ? tld.registration * PREMIUM_MULTIPLIER : tld.registration;

/** Registered at another registrar, or reserved by the registry: never available here. */
function isHeldElsewhere(label: string, environment: Environment): boolean {
  if (RESERVED_LABELS.has(label)) return true;
  return environment === "sandbox" && (label.startsWith(MAGIC_PREFIXES.taken) || label.startsWith(MAGIC_PREFIXES.reserved));
}

/**
 * What availability needs of the store: whether a name is registered, or being transferred in.
 * The domain and transfer stores answer it (as one store); the catalogue needs nothing else of them.
 */
export interface RegisteredNames {
  findDomainByName(name: string): Promise<unknown>;
  activeTransferOf(domainName: string): Promise<unknown>;
}

const SUGGESTION_TLDS = ["com", "net", "io", "app", "dev", "co", "org", "shop"];
const MAX_SUGGESTIONS = 5;

export async function isAvailable(
  store: RegisteredNames,
  environment: Environment,
  name: string,
  label: string,
  tldOpen: boolean,
): Promise<boolean> {
  if (!tldOpen || isHeldElsewhere(label, environment)) return false;
  const [domain, transfer] = await Promise.all([store.findDomainByName(name), store.activeTransferOf(name)]);
  return !domain && !transfer;
}

/** A name's lookup: the parsed name, whether it is available, and its available alternatives (each looked up once). */
async function lookUp(store: RegisteredNames, environment: Environment, input: string) {
  const { name, label, tld } = parseDomainName(input, "domain_name");
  const [available, suggestions] = await Promise.all([
    isAvailable(store, environment, name, label, tld.available),
    suggestionsFor(store, environment, name, label),
  ]);
  return { name, label, tld, available, suggestions };
}

export async function checkAvailability(store: RegisteredNames, environment: Environment, input: string): Promise<Availability> {
  const { name, label, tld, available, suggestions } = await lookUp(store, environment, input);
  const price = yearlyPriceOf(label, tld, environment);
  return {
    domain_name: name,
    available,
    price: available ? formatCents(price) : null,
    currency: available ? "USD" : null,
    premium: isPremium(label, environment),
    suggestions,
  };
}

/** Up to five available alternatives: the same label on other TLDs, then common variants on .com. */
async function suggestionsFor(store: RegisteredNames, environment: Environment, name: string, label: string): Promise<string[]> {
  const open = new Set(TLD_CATALOGUE.filter((entry) => entry.available).map((entry) => entry.tld));
  const candidates = [
    ...SUGGESTION_TLDS.filter((tld) => open.has(tld)).map((tld) => [`${label}.${tld}`, label] as const),
    ...[`get${label}`, `${label}hq`, `my${label}`, `${label}online`]
      .filter((variant) => variant.length <= 63)
      .map((variant) => [`${variant}.com`, variant] as const),
  ];
  const others = candidates.filter(([candidate]) => candidate !== name);
  const available = await Promise.all(
    others.map(([candidate, candidateLabel]) => isAvailable(store, environment, candidate, candidateLabel, true)),
  );
  return others
    .filter((_, index) => available[index])
    .map(([candidate]) => candidate)
    .slice(0, MAX_SUGGESTIONS);
}

/** A name on offer, as a registrar's search lists it. */
export interface NameQuote {
  name: string;
  available: boolean;
  premium: boolean;
  /** Per year, when it can be registered. */
  yearlyPrice: Cents | null;
  /** Whether its TLD takes new registrations. */
  open: boolean;
}

/** A name's quote once its availability is known. */
function quoteOf(label: string, tld: TldPrice, environment: Environment, available: boolean): NameQuote {
  return {
    name: `${label}.${tld.tld}`,
    available,
    premium: isPremium(label, environment),
    yearlyPrice: available ? yearlyPriceOf(label, tld, environment) : null,
    open: tld.available,
  };
}

/**
 * A word without a TLD, on every TLD of the catalogue: the label is read as a name's would be (IDNA,
 * lower case), so it is refused (422) where a name with it would be.
 */
export async function quoteEveryTld(store: RegisteredNames, environment: Environment, word: string, field: string): Promise<NameQuote[]> {
  const { label } = parseDomainName(`${word}.${TLD_CATALOGUE.find((entry) => entry.available)!.tld}`, field);
  return Promise.all(
    TLD_CATALOGUE.map(async (tld) =>
      quoteOf(label, tld, environment, await isAvailable(store, environment, `${label}.${tld.tld}`, label, tld.available)),
    ),
  );
}

/** A name and its alternatives, quoted: the alternatives are available names of the catalogue by construction. */
export async function quoteName(
  store: RegisteredNames,
  environment: Environment,
  input: string,
): Promise<{ name: NameQuote; suggestions: NameQuote[] }> {
  const { label, tld, available, suggestions } = await lookUp(store, environment, input);
  return {
    name: quoteOf(label, tld, environment, available),
    suggestions: suggestions.map((suggestion) => {
      const parsed = parseDomainName(suggestion, "domain_name");
      return quoteOf(parsed.label, parsed.tld, environment, true);
    }),
  };
}

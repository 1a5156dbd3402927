/** Whether a name can be registered, at what price, and alternatives when it cannot. */
import type { components } from "../../generated/types/full.js";
import { formatCents } from "../money.js";
import type { Environment } from "../../generated/deployment.js";
import type { Store } from "../store/types.js";
import { parseDomainName } from "./domain-names.js";
import { TLD_CATALOGUE } from "./tlds.js";

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

/** Registered at another registrar, or reserved by the registry: never available here. */
function isHeldElsewhere(label: string, environment: Environment): boolean {
  if (RESERVED_LABELS.has(label)) return true;
  return environment === "sandbox" && (label.startsWith(MAGIC_PREFIXES.taken) || label.startsWith(MAGIC_PREFIXES.reserved));
}

const SUGGESTION_TLDS = ["com", "net", "io", "app", "dev", "co", "org", "shop"];
const MAX_SUGGESTIONS = 5;

export function isAvailable(store: Store, environment: Environment, name: string, label: string, tldOpen: boolean): boolean {
  return tldOpen && !isHeldElsewhere(label, environment) && !store.findDomainByName(name) && !store.activeTransferOf(name);
}

export function checkAvailability(store: Store, environment: Environment, input: string): Availability {
  const { name, label, tld } = parseDomainName(input, "domain_name");
  const available = isAvailable(store, environment, name, label, tld.available);
  const premium = isPremium(label, environment);
  const price = premium ? tld.registration * PREMIUM_MULTIPLIER : tld.registration;
  return {
    domain_name: name,
    available,
    price: available ? formatCents(price) : null,
    currency: available ? "USD" : null,
    premium,
    suggestions: suggestionsFor(store, environment, name, label),
  };
}

/** Up to five available alternatives: the same label on other TLDs, then common variants on .com. */
function suggestionsFor(store: Store, environment: Environment, name: string, label: string): string[] {
  const open = new Set(TLD_CATALOGUE.filter((entry) => entry.available).map((entry) => entry.tld));
  const candidates = [
    ...SUGGESTION_TLDS.filter((tld) => open.has(tld)).map((tld) => [`${label}.${tld}`, label] as const),
    ...[`get${label}`, `${label}hq`, `my${label}`, `${label}online`]
      .filter((variant) => variant.length <= 63)
      .map((variant) => [`${variant}.com`, variant] as const),
  ];
  return candidates
    .filter(([candidate, candidateLabel]) => candidate !== name && isAvailable(store, environment, candidate, candidateLabel, true))
    .map(([candidate]) => candidate)
    .slice(0, MAX_SUGGESTIONS);
}

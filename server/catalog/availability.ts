/** Whether a name can be registered, at what price, and alternatives when it cannot. */
import type { components } from "../../generated/types/full.js";
import { formatCents } from "../money.js";
import type { Store } from "../store/types.js";
import { parseDomainName } from "./domain-names.js";
import { TLD_CATALOGUE } from "./tlds.js";

type Availability = components["schemas"]["Availability"];

/** Names no partner may register (registry-reserved labels). */
const RESERVED_LABELS = new Set(["nic", "whois", "www", "example", "localhost", "invalid", "test"]);

/** Labels of one to three characters are premium: priced at 25 times the TLD's registration price. */
const PREMIUM_MULTIPLIER = 25;
const isPremium = (label: string) => label.length <= 3;

const SUGGESTION_TLDS = ["com", "net", "io", "app", "dev", "co", "org", "shop"];
const MAX_SUGGESTIONS = 5;

function isAvailable(store: Store, name: string, label: string, tldOpen: boolean): boolean {
  return tldOpen && !RESERVED_LABELS.has(label) && !store.findDomainByName(name) && !store.activeTransferOf(name);
}

export function checkAvailability(store: Store, input: string): Availability {
  const { name, label, tld } = parseDomainName(input, "domain_name");
  const available = isAvailable(store, name, label, tld.available);
  const premium = isPremium(label);
  const price = premium ? tld.registration * PREMIUM_MULTIPLIER : tld.registration;
  return {
    domain_name: name,
    available,
    price: available ? formatCents(price) : null,
    currency: available ? "USD" : null,
    premium,
    suggestions: suggestionsFor(store, name, label),
  };
}

/** Up to five available alternatives: the same label on other TLDs, then common variants on .com. */
function suggestionsFor(store: Store, name: string, label: string): string[] {
  const open = new Set(TLD_CATALOGUE.filter((entry) => entry.available).map((entry) => entry.tld));
  const candidates = [
    ...SUGGESTION_TLDS.filter((tld) => open.has(tld)).map((tld) => [`${label}.${tld}`, label] as const),
    ...[`get${label}`, `${label}hq`, `my${label}`, `${label}online`].filter((variant) => variant.length <= 63).map((variant) => [`${variant}.com`, variant] as const),
  ];
  return candidates
    .filter(([candidate, candidateLabel]) => candidate !== name && isAvailable(store, candidate, candidateLabel, true))
    .map(([candidate]) => candidate)
    .slice(0, MAX_SUGGESTIONS);
}

/** The TLDs the service sells, with yearly prices in USD cents (a realistic retail catalogue). */
export interface TldPrice {
  tld: string;
  registration: number;
  renewal: number;
  transfer: number;
  /** Whether new registrations are open. */
  available: boolean;
}

const tld = (name: string, registration: number, renewal: number, transfer: number, available = true): TldPrice => ({
  tld: name,
  registration,
  renewal,
  transfer,
  available,
});

export const TLD_CATALOGUE: readonly TldPrice[] = [
  tld("app", 1499, 1999, 1999),
  tld("blog", 2199, 2999, 2999),
  tld("ca", 1399, 1599, 1599),
  tld("co", 2599, 3299, 3299),
  tld("com", 1299, 1499, 1299),
  tld("de", 899, 999, 899),
  tld("dev", 1399, 1699, 1699),
  tld("eu", 799, 999, 999),
  tld("fr", 999, 1299, 1299),
  tld("io", 3900, 4900, 4900),
  tld("info", 399, 2499, 2499),
  tld("me", 999, 1999, 1999),
  tld("net", 1399, 1599, 1399),
  tld("nl", 799, 999, 999),
  tld("online", 299, 3499, 3499),
  tld("org", 1099, 1299, 1099),
  tld("shop", 299, 3499, 3499),
  tld("site", 299, 2999, 2999),
  tld("store", 499, 4999, 4999),
  tld("tech", 699, 4999, 4999),
  tld("uk", 699, 899, 0),
  tld("us", 799, 1099, 1099),
  tld("xyz", 199, 1399, 1399),
  tld("ai", 8900, 8900, 8900, false),
].sort((a, b) => (a.tld < b.tld ? -1 : 1));

const BY_NAME = new Map(TLD_CATALOGUE.map((entry) => [entry.tld, entry]));

export const findTld = (name: string) => BY_NAME.get(name);

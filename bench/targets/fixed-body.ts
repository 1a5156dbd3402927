/** The answer the baseline targets send: a fixed JSON body of the size of the domain detail the read gets. */
export const FIXED_DOMAIN_ID = "dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab";

export const FIXED_BODY = JSON.stringify({
  id: FIXED_DOMAIN_ID,
  name: "benchmark.com",
  status: "active",
  purchased_at: "2026-11-22T10:00:00Z",
  expires_at: "2027-11-22T10:00:00Z",
  auto_renew: true,
  registrar: "Partner Domains Registrar",
  user_identifier: "user_0000",
  nameservers: ["ns1.partner-dns.invalid", "ns2.partner-dns.invalid"],
  whois_privacy: true,
  dns_records: Array.from({ length: 5 }, (_, i) => ({
    id: `rec_${i}`,
    type: "A",
    name: "@",
    content: "192.0.2.1",
    ttl: 3600,
    priority: null,
    created_at: "2026-11-22T10:00:00Z",
  })),
  pricing: { registration_price: "12.99", renewal_price: "14.99", currency: "USD" },
});

/** The line a target prints when it serves (bench/lib/processes.ts reads it). */
export const servingLine = (port: number) => JSON.stringify({ port, domainId: FIXED_DOMAIN_ID });

/** The practical limit: node:http answering a fixed JSON body of the same size as the domain detail. */
import { createServer } from "node:http";

const body = JSON.stringify({
  id: "dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab",
  name: "benchmark.com",
  status: "active",
  purchased_at: "2026-11-22T10:00:00Z",
  expires_at: "2027-11-22T10:00:00Z",
  auto_renew: true,
  registrar: "Partner Domains Registrar",
  user_identifier: "user_0000",
  nameservers: ["ns1.partner-dns.invalid", "ns2.partner-dns.invalid"],
  whois_privacy: true,
  dns_records: Array.from({ length: 5 }, (_, i) => ({ id: `rec_${i}`, type: "A", name: "@", content: "192.0.2.1", ttl: 3600, priority: null, created_at: "2026-11-22T10:00:00Z" })),
  pricing: { registration_price: "12.99", renewal_price: "14.99", currency: "USD" },
});
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(req.method === "POST" ? 201 : 200, { "Content-Type": "application/json" }).end(body));
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port, domainId: "dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab" }));
});

/**
 * `npm run bench:layers`: where the time of a request goes, layer by layer, on GET /health (the
 * cheapest operation, so the stack dominates). The load generator runs in the same process as the
 * server, so the figures are half of a separate process's; only the ratios between rows matter.
 */
import autocannon from "autocannon";
import express, { type Express } from "express";
import { createApp } from "../server/assembly/app.js";
import { assignRequestId } from "../server/api/http/request-id.js";
import { securityHeaders } from "../server/api/http/security-headers.js";

async function measure(name: string, app: Express): Promise<number> {
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const { port } = server.address() as { port: number };
  const result = await autocannon({ url: `http://127.0.0.1:${port}/health`, connections: 50, duration: 4 });
  server.close();
  console.log(`${name}: ${Math.round(result.requests.average)} req/s, p99 ${result.latency.p99} ms`);
  return result.requests.average;
}

const health = (app: Express) => app.get("/health", (_req, res) => void res.json({ status: "ok", time: new Date().toISOString() }));
const plain = express();
health(plain);
const base = await measure("Express 5 alone", plain);
const hardened = express();
hardened.use(securityHeaders, assignRequestId);
health(hardened);
await measure("Express + helmet + request id", hardened);
const partners = [{ partner: { id: "p", name: "P" }, keys: [] }];
const unvalidated = await measure(
  "reference server, no validation",
  createApp({ environment: "sandbox", embedBaseUrl: "http://x", partners, validateRequests: false, validateResponses: false }).app,
);
const requestsOnly = await measure(
  "reference server, requests validated",
  createApp({ environment: "sandbox", embedBaseUrl: "http://x", partners, validateResponses: false }).app,
);
const full = await measure(
  "reference server, requests and responses validated",
  createApp({ environment: "sandbox", embedBaseUrl: "http://x", partners }).app,
);
console.log(
  `\nshares of Express alone: no validation ${(unvalidated / base).toFixed(2)}, requests ${(requestsOnly / base).toFixed(2)}, both ${(full / base).toFixed(2)}`,
);
process.exit(0);

/**
 * Clients reading a whole zone, over and over, as a separate process so their own work does not
 * delay the process that times /health. Each connection reads the domain detail (every record),
 * then the record list in pages of PAGE_SIZE records (as a client paging a large zone reads it) following the cursors to the end, then starts again.
 * `node --import tsx bench/lib/zone-readers.ts PORT DOMAIN_ID CONNECTIONS SECONDS PAGE_SIZE` prints one JSON line.
 */
import autocannon from "autocannon";
import { BENCH_KEY } from "../targets/seed.js";

const [port, domainId, connections, seconds, pageSize] = process.argv.slice(2);
const listPath = `/api/v1/domains/${domainId}/dns`;
// Cursors hold only base64url characters, but encoding keeps the path right whatever they hold.
const pageAfter = (cursor: string) => `${listPath}?limit=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;

/** The cursor to read after, "" for the first page, null once the zone was read to its end. */
type Context = { cursor?: string | null };
const detail: autocannon.Request = {
  method: "GET",
  path: `/api/v1/domains/${domainId}`,
  onResponse: (_status, _body, context: Context) => {
    context.cursor = "";
  },
};
const nextPage: autocannon.Request = {
  method: "GET",
  // Returning nothing sends the connection back to the first request: the zone was read to its end.
  setupRequest: (request, context: Context) =>
    typeof context.cursor === "string" ? { ...request, path: pageAfter(context.cursor) } : (undefined as never),
  onResponse: (_status, body, context: Context) => {
    context.cursor = (JSON.parse(body) as { next_cursor: string | null }).next_cursor;
  },
};

// Enough page requests for the largest zone; a smaller one restarts earlier.
const PAGES_AFTER_DETAIL = 10;
const result = await autocannon({
  url: `http://127.0.0.1:${port}`,
  connections: Number(connections),
  duration: Number(seconds),
  headers: { Authorization: `Bearer ${BENCH_KEY}` },
  requests: [detail, ...Array.from({ length: PAGES_AFTER_DETAIL }, () => nextPage)],
});
console.log(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    bytesPerRequest: Math.round(result.throughput.total / Math.max(1, result.requests.total)),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx + result.errors,
    zonesRead: result.resets,
  }),
);

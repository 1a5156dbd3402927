/**
 * Paths are matched exactly (the spec's "Paths and methods"): no spelling of a path reaches an
 * operation its canonical spelling would not, skips authentication, or escapes a rate limit.
 */
import { describe, expect, it } from "vitest";
import { operationTable, type OperationId } from "../../../../generated/operations.js";
import { servedOperations } from "../../../../server/api/http/routes.js";
import type { RateLimitTable } from "../../../../server/platform/rate-limits/policy.js";
import { DEFAULT_RATE_LIMITS } from "../../../../server/platform/rate-limits/policy.js";
import { rawRequest } from "../../../support/raw-http.js";
import { PARTNER_A_KEY, useTestServer } from "../../../support/test-server.js";

const AUTH = { Authorization: `Bearer ${PARTNER_A_KEY}` };

/** The operation's path with a plausible value for each parameter. */
const canonicalPath = (id: OperationId) => operationTable[id].path.replace(/\{[^}]+\}/g, "x1");

/** Other spellings of a canonical path, each of which a lenient router or a normalizing proxy might take for it. */
function spellingsOf(path: string): Record<string, string> {
  const segments = path.slice(1).split("/");
  return {
    "all in capitals": path.toUpperCase(),
    "first segment in capitals": `/${segments[0]!.toUpperCase()}/${segments.slice(1).join("/")}`.replace(/\/$/, ""),
    "one letter in capitals": `/${segments[0]!.charAt(0).toUpperCase()}${path.slice(2)}`,
    "a trailing slash": `${path}/`,
    "a leading doubled slash": `/${path}`,
    "a doubled slash inside": path.includes("/", 1) ? path.replace(/\/(?=[^/]*$)/, "//") : `${path}//`,
    "a dot segment": `/./${path.slice(1)}`,
    "a dot-dot segment": `/x/../${path.slice(1)}`,
    "a percent-encoded dot-dot segment": `/x/%2e%2e/${path.slice(1)}`,
    "a percent-encoded capital": `/%${segments[0]!.toUpperCase().charCodeAt(0).toString(16)}${path.slice(2)}`,
    "a semicolon parameter": path.replace(/^\/([a-z]+)/, "/$1;v=1"),
    "a backslash": path.replace(/\/(?=[^/]*$)/, "\\"),
  };
}

/** Spellings RFC 3986 makes equal to the canonical path: percent-encoded unreserved characters. */
function equivalentSpellingsOf(path: string): Record<string, string> {
  // The base address (GET /) has no letter to encode.
  if (path === "/") return {};
  const segments = path.slice(1).split("/");
  const encodeFirst = (segment: string) => `%${segment.charCodeAt(0).toString(16)}${segment.slice(1)}`;
  return {
    "its first letter percent-encoded": `/${encodeFirst(segments[0]!)}${path.slice(1 + segments[0]!.length)}`,
    "its last fixed segment's first letter percent-encoded in capitals": path.replace(
      /\/([a-z_]+)(?=(\/x1)*$)/,
      (_match, segment: string) => `/${encodeFirst(segment).toUpperCase().slice(0, 3)}${segment.slice(1)}`,
    ),
  };
}

const spellingCases = servedOperations({ variants: ["R", "D"], environment: "sandbox" }).flatMap((id) =>
  Object.entries(spellingsOf(canonicalPath(id)))
    .filter(([, spelled]) => spelled !== canonicalPath(id) && spelled.startsWith("/"))
    .map(([how, spelled]) => ({ id, method: operationTable[id].method.toUpperCase(), how, spelled })),
);

const equivalentCases = servedOperations({ variants: ["R", "D"], environment: "sandbox" })
  .filter((id) => operationTable[id].method === "get")
  .flatMap((id) => Object.entries(equivalentSpellingsOf(canonicalPath(id))).map(([how, spelled]) => ({ id, how, spelled })));

describe("path spellings", () => {
  const s = useTestServer();

  it("GET /API/V1/HEALTH and /API/V1/DOMAINS/AVAILABILITY/{name} need a key, and with one address no operation", async () => {
    for (const path of ["/API/V1/HEALTH", "/API/V1/DOMAINS/AVAILABILITY/example.com", "/HEALTH"]) {
      const anonymous = await rawRequest(s.baseUrl, "GET", path);
      expect(anonymous.status, path).toBe(401);
      expect(JSON.parse(anonymous.body)).toMatchObject({ error: "unauthorized" });
      const keyed = await rawRequest(s.baseUrl, "GET", path, AUTH);
      expect(keyed.status, path).toBe(404);
      expect(JSON.parse(keyed.body)).toEqual({ error: "not_found", message: "No such operation; see the API reference" });
    }
  });

  it.each(spellingCases)("$method $id spelled with $how ($spelled) is refused without a key", async ({ method, spelled }) => {
    const response = await rawRequest(
      s.baseUrl,
      method,
      spelled,
      { "Content-Type": "application/json" },
      method === "GET" || method === "DELETE" ? undefined : "{}",
    );
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ error: "unauthorized" });
  });

  it.each(spellingCases)(
    "$method $id spelled with $how ($spelled) reaches no operation with a key, and is counted",
    async ({ method, spelled }) => {
      const response = await rawRequest(
        s.baseUrl,
        method,
        spelled,
        { ...AUTH, "Content-Type": "application/json" },
        method === "GET" || method === "DELETE" ? undefined : "{}",
      );
      expect([404, 405]).toContain(response.status);
      expect(JSON.parse(response.body).error).toBe(response.status === 404 ? "not_found" : "method_not_allowed");
      if (response.status === 404) expect(JSON.parse(response.body).message).toBe("No such operation; see the API reference");
      expect(response.headers["x-ratelimit-limit"]).toBe("100");
    },
  );

  it.each(equivalentCases)(
    "GET $id spelled with $how ($spelled) is the same request as its canonical spelling",
    async ({ id, spelled }) => {
      const canonical = await rawRequest(s.baseUrl, "GET", canonicalPath(id), AUTH);
      const equivalent = await rawRequest(s.baseUrl, "GET", spelled, AUTH);
      expect(equivalent.status).toBe(canonical.status);
      expect(JSON.parse(equivalent.body)).toEqual(JSON.parse(canonical.body));
      expect((await rawRequest(s.baseUrl, "GET", spelled)).status).toBe(operationTable[id].authenticated ? 401 : canonical.status);
    },
  );

  it('reads /api/v1/domains/%74lds as the TLD catalogue, not as the domain "tlds"', async () => {
    const response = await rawRequest(s.baseUrl, "GET", "/api/v1/domains/%74lds", AUTH);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toHaveProperty("tlds");
  });

  it('keeps an encoded slash inside its parameter: /users/x%2Fdomains is the user "x/domains", not x\'s domains', async () => {
    const response = await rawRequest(s.baseUrl, "GET", "/api/v1/users/x%2Fdomains", AUTH);
    expect([400, 404]).toContain(response.status);
    expect(JSON.parse(response.body).message).not.toBe("No such operation; see the API reference");
    expect(JSON.parse(response.body)).not.toHaveProperty("domains");
  });

  it("decodes path parameters once, but a parameter that decodes to a dot segment addresses nothing", async () => {
    const user = await rawRequest(
      s.baseUrl,
      "POST",
      "/api/v1/users",
      { ...AUTH, "Content-Type": "application/json" },
      JSON.stringify({ user_identifier: "user_1" }),
    );
    expect(user.status).toBe(201);
    expect((await rawRequest(s.baseUrl, "GET", "/api/v1/users/user%5F1", AUTH)).status).toBe(200);
    for (const parameter of ["..", ".", "%2e%2e", "%2E", ".%2e"]) {
      const response = await rawRequest(s.baseUrl, "GET", `/api/v1/users/${parameter}`, AUTH);
      expect(response.status, parameter).toBe(404);
      expect(JSON.parse(response.body).message).toBe("No such operation; see the API reference");
    }
    expect((await rawRequest(s.baseUrl, "GET", "/api/v1/users/%E0%A4%A", AUTH)).status).toBe(404);
  });

  it("addresses nothing with a parameter holding a control character: nothing stored holds one, on any store", async () => {
    for (const path of ["/api/v1/users/u%001", "/api/v1/domains/dom%00", "/api/v1/dns_records/rec%7F", "/api/v1/domains/transfers/t%0A"]) {
      const response = await rawRequest(s.baseUrl, "GET", path, AUTH);
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body).message, path).toBe("No such operation; see the API reference");
    }
  });

  it("answers a method the path does not have with 405 and Allow, after authentication", async () => {
    expect((await rawRequest(s.baseUrl, "DELETE", "/api/v1/health")).status).toBe(401);
    const response = await rawRequest(s.baseUrl, "DELETE", "/api/v1/health", AUTH);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe("GET, HEAD");
    expect(JSON.parse(response.body)).toMatchObject({ error: "method_not_allowed" });
    const post = await rawRequest(s.baseUrl, "GET", "/api/v1/domains/transfer", AUTH);
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe("POST");
  });
});

describe("HEAD", () => {
  const s = useTestServer();

  it("answers HEAD on every GET operation with the GET's status and headers and no body", async () => {
    const get = await rawRequest(s.baseUrl, "GET", "/api/v1/domains/tlds", AUTH);
    const head = await rawRequest(s.baseUrl, "HEAD", "/api/v1/domains/tlds", AUTH);
    expect(head.status).toBe(200);
    expect(head.body).toBe("");
    expect(head.headers["content-type"]).toBe(get.headers["content-type"]);
    expect(head.headers["content-length"]).toBe(get.headers["content-length"]);
    expect(head.headers["x-ratelimit-limit"]).toBe(get.headers["x-ratelimit-limit"]);
    expect(Number(head.headers["x-ratelimit-remaining"])).toBe(Number(get.headers["x-ratelimit-remaining"]) - 1);
  });

  it("answers HEAD /health without a key, and HEAD of a missing resource with the GET's 404", async () => {
    expect((await rawRequest(s.baseUrl, "HEAD", "/health")).status).toBe(200);
    const missing = await rawRequest(s.baseUrl, "HEAD", "/api/v1/users/nobody", AUTH);
    expect(missing.status).toBe(404);
    expect(missing.body).toBe("");
  });
});

describe("rate limits follow the matched operation", () => {
  const tight: RateLimitTable = {
    overall: [
      { limit: 1000, window: 3600 },
      { limit: 8, window: 60 },
    ],
    classes: { ...DEFAULT_RATE_LIMITS.classes, domain_transfer: { limit: 2, window: 60 } },
  };
  const s = useTestServer({ rateLimits: tight });
  const transfer = (path: string) =>
    rawRequest(
      s.baseUrl,
      "POST",
      path,
      { ...AUTH, "Content-Type": "application/json" },
      JSON.stringify({ domain_name: "example.com", auth_code: "x", user_identifier: "user_1" }),
    );

  it("a trailing slash or a capital letter neither reaches the transfer operation nor escapes its limit", async () => {
    for (let i = 0; i < 2; i++) expect((await transfer("/api/v1/domains/transfer")).status).not.toBe(429);
    expect((await transfer("/api/v1/domains/transfer")).status).toBe(429);
    for (const spelled of [
      "/api/v1/domains/transfer/",
      "/api/v1/domains/Transfer",
      "/API/v1/domains/transfer",
      "/api/v1//domains/transfer",
    ]) {
      const response = await transfer(spelled);
      // 405 where the spelling is the path of another operation (/domains/{domain_id} has no POST).
      expect([404, 405], spelled).toContain(response.status);
      expect(response.headers["ratelimit-policy"], spelled).not.toContain("domain_transfer");
    }
  });

  it("requests that address no operation count against the overall limits", async () => {
    for (let i = 0; i < 8; i++) expect((await rawRequest(s.baseUrl, "GET", "/api/v1/Health", AUTH)).status).toBe(404);
    const canonical = await rawRequest(s.baseUrl, "GET", "/api/v1/health", AUTH);
    expect(canonical.status).toBe(429);
  });
});

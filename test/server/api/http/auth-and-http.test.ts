import { describe, expect, it } from "vitest";
import { operationTable } from "../../../../generated/operations.js";
import { PARTNER_A_KEY, useTestServer } from "../../../support/test-server.js";

const s = useTestServer();

const authenticatedOperations = Object.entries(operationTable).filter(([, op]) => op.authenticated);
const concretePath = (template: string) => template.replace(/\{[^}]+\}/g, "x1");

describe("authentication", () => {
  it.each(authenticatedOperations.map(([id, op]) => [id, op.method.toUpperCase(), concretePath(op.path)] as const))(
    "%s (%s %s) answers 401 without a key",
    async (_id, method, path) => {
      const response = await fetch(s.baseUrl + path, {
        method,
        headers: { "Content-Type": "application/json" },
        body: method === "GET" || method === "DELETE" ? undefined : "{}",
      });
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toBe('Bearer realm="partner-api"');
      expect(await response.json()).toEqual({ error: "unauthorized", message: "Invalid or missing API key" });
    },
  );

  // A key without the Bearer scheme, under Basic, or an empty bearer: the kit's auth.malformed-header-refused.
  it.each([
    ["an unknown key", "Bearer sk_sandbox_unknown0000000000000000000000"],
    ["a production key on the sandbox", "Bearer sk_live_partnerAkey000000000000000000"],
    ["a key with odd characters", "Bearer sk_sandbox_' OR 1=1"],
  ])("refuses %s with 401", async (_label, authorization) => {
    const response = await fetch(`${s.baseUrl}/api/v1/health`, { headers: { Authorization: authorization } });
    expect(response.status).toBe(401);
  });

  it("accepts a revoked key no more", async () => {
    expect((await s.api.GET("/api/v1/health")).response.status).toBe(200);
    s.keys.revoke(PARTNER_A_KEY);
    expect((await s.api.GET("/api/v1/health")).response.status).toBe(401);
  });

  it("serves GET /health without a key", async () => {
    const response = await fetch(`${s.baseUrl}/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", time: "2026-11-22T10:00:00Z" });
  });

  it("reports the environment and variants on GET /api/v1/health", async () => {
    const { data } = await s.api.GET("/api/v1/health");
    expect(data).toEqual({ status: "ok", time: "2026-11-22T10:00:00Z", api_version: "v1", environment: "sandbox", variants: ["R", "D"] });
  });
});

describe("the HTTP edges", () => {
  const headers = { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json" };

  it("gives every response, errors included, an X-Request-Id", async () => {
    const ok = await fetch(`${s.baseUrl}/health`);
    const refused = await fetch(`${s.baseUrl}/api/v1/health`);
    expect(ok.headers.get("x-request-id")).toMatch(/^req_[A-Za-z0-9]{20}$/);
    expect(refused.headers.get("x-request-id")).toMatch(/^req_/);
    expect(ok.headers.get("x-request-id")).not.toBe(refused.headers.get("x-request-id"));
  });

  it("answers an unknown path with 404 not_found", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/nothing-here`, { headers });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: "not_found", message: "No such operation; see the API reference" });
  });

  it("answers a wrong method with 405 and an Allow header", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/domains/tlds`, { method: "DELETE", headers });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("GET");
    expect(await response.json()).toEqual({ error: "method_not_allowed", message: "DELETE is not allowed on this path; see Allow" });
  });

  it("refuses malformed JSON with 400 malformed_json", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/users`, { method: "POST", headers, body: '{"user_identifier": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "validation_error",
      message: "The body is not valid JSON",
      details: { field: "body", code: "malformed_json" },
    });
  });

  it("refuses a body that is not JSON with 415", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/users`, {
      method: "POST",
      headers: { ...headers, "Content-Type": "text/plain" },
      body: "user_identifier=u1",
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: "unsupported_media_type", message: "Request bodies must be application/json" });
  });

  it("refuses a body over 1 MiB with 413 and accepts one just under", async () => {
    const big = JSON.stringify({ user_identifier: "u1", email: "a@example.com", pad: "x".repeat(1024 * 1024) });
    const response = await fetch(`${s.baseUrl}/api/v1/users`, { method: "POST", headers, body: big });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "payload_too_large", message: "Request bodies are limited to 1 MiB" });
    const justUnder = JSON.stringify({
      records: Array.from({ length: 100 }, () => ({ type: "TXT", name: "@", content: "y".repeat(255) })),
    });
    expect(justUnder.length).toBeLessThan(1024 * 1024);
  });

  it("never answers with a stack trace", async () => {
    const responses = await Promise.all([
      fetch(`${s.baseUrl}/api/v1/users`, { method: "POST", headers, body: "[" }),
      fetch(`${s.baseUrl}/api/v1/users/%E0%A4%A`, { headers }),
      fetch(`${s.baseUrl}/api/v1/domains/%00`, { headers }),
    ]);
    for (const response of responses) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await response.text()).not.toMatch(/at .*\.(ts|js):\d+/);
    }
  });

  it("ignores __proto__ and constructor keys in bodies", async () => {
    const response = await fetch(`${s.baseUrl}/api/v1/users`, {
      method: "POST",
      headers,
      body: '{"user_identifier":"u1","__proto__":{"admin":true}}',
    });
    expect([400, 201]).toContain(response.status);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });
});

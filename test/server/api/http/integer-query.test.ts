/** Integer query parameters are plain decimal digits within the bounds the spec states. */
import { describe, expect, it } from "vitest";
import { rawRequest } from "../../../support/raw-http.js";
import { PARTNER_A_KEY, useTestServer } from "../../../support/test-server.js";

const AUTH = { Authorization: `Bearer ${PARTNER_A_KEY}` };

describe("integer query parameters", () => {
  const s = useTestServer();
  const list = (query: string) => rawRequest(s.baseUrl, "GET", `/api/v1/users?${query}`, AUTH);

  it.each([
    ["limit=Infinity", "limit"],
    ["limit=-Infinity", "limit"],
    ["limit=1e400", "limit"],
    ["offset=1e309", "offset"],
    ["limit=0x10", "limit"],
    ["limit=0b11", "limit"],
    ["limit=1e2", "limit"],
    ["limit=%2B5", "limit"],
    ["limit=%205%20", "limit"],
    ["limit=5.0", "limit"],
    ["limit=-1", "limit"],
    ["limit=", "limit"],
    ["limit=NaN", "limit"],
    ["limit=%EF%BC%95", "limit"],
    ["limit=5&limit=6", "limit"],
    ["offset=99999999999999999999999", "offset"],
    ["offset=2147483648", "offset"],
    ["limit=101", "limit"],
    ["limit=0", "limit"],
  ])("refuses %s with 400 naming the parameter", async (query, field) => {
    const response = await list(query);
    expect(response.status).toBe(400);
    const body = JSON.parse(response.body);
    expect(body).toMatchObject({ error: "validation_error", details: { field } });
    expect(response.body).not.toContain("e+");
  });

  it.each([
    ["limit=5", 5, 0],
    ["limit=100&offset=1000000", 100, 1_000_000],
    ["offset=2147483647", 50, 2_147_483_647],
    ["limit=007", 7, 0],
    ["offset=0", 50, 0],
  ])("accepts %s", async (query, limit, offset) => {
    const response = await list(query);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ limit, offset });
  });

  it("applies the same rule to every operation's integer parameters (the webhook delivery log)", async () => {
    const created = await s.api.POST("/api/v1/webhook_endpoints", {
      body: { url: "https://hooks.example.com/in", events: ["domain.registered"] },
    });
    expect(created.response.status).toBe(201);
    const path = `/api/v1/webhook_endpoints/${created.data!.id}/deliveries`;
    expect((await rawRequest(s.baseUrl, "GET", `${path}?limit=Infinity`, AUTH)).status).toBe(400);
    expect((await rawRequest(s.baseUrl, "GET", `${path}?offset=1e309`, AUTH)).status).toBe(400);
    expect((await rawRequest(s.baseUrl, "GET", `${path}?offset=0x1`, AUTH)).status).toBe(400);
    expect((await rawRequest(s.baseUrl, "GET", `${path}?limit=3`, AUTH)).status).toBe(200);
  });
});

/**
 * The API's base address as a newcomer meets it: GET / (no key) says where the reference, the
 * dashboard and the health checks are, and the 404 of a path that addresses no operation names
 * where the reference is. Both answers pass the server's response validation against the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../../../server/assembly/app.js";
import { serveOnLoopback, type Listener } from "../../../support/listen.js";

const KEY = "sk_sandbox_frontDoorTestKey000000000000000";
const DASHBOARD = "http://dashboard.test:3003";

const listeners: Listener[] = [];
afterAll(() => Promise.all(listeners.map((listener) => listener.close())));

async function deployment(dashboardUrl?: string): Promise<string> {
  const { app } = createApp({
    environment: "sandbox",
    embedBaseUrl: "http://embed.test",
    dashboardUrl,
    partners: [{ partner: { id: "front", name: "Front" }, keys: [KEY] }],
  });
  const listener = await serveOnLoopback(app);
  listeners.push(listener);
  return listener.url;
}

describe("GET / (the base address)", () => {
  let withDashboard: string;
  let withoutDashboard: string;
  beforeAll(async () => {
    [withDashboard, withoutDashboard] = await Promise.all([deployment(`${DASHBOARD}/`), deployment()]);
  });

  it("answers without a key where the reference, the dashboard and the health checks are", async () => {
    const response = await fetch(`${withDashboard}/`, { headers: { Accept: "text/html,application/json;q=0.9" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      service: "Partner Domain and DNS Service API",
      environment: "sandbox",
      reference: `${DASHBOARD}/docs/`,
      dashboard: `${DASHBOARD}/`,
      health: "/health",
      api_health: "/api/v1/health",
    });
  });

  it("answers the same with a key, whatever the key", async () => {
    for (const authorization of [`Bearer ${KEY}`, "Bearer sk_sandbox_unknown0000000000000000000000"]) {
      const response = await fetch(`${withDashboard}/`, { headers: { Authorization: authorization } });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { reference: string }).reference).toBe(`${DASHBOARD}/docs/`);
    }
  });

  it("answers null for the reference and the dashboard of a deployment that serves no dashboard", async () => {
    const response = await fetch(`${withoutDashboard}/`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ reference: null, dashboard: null, health: "/health" });
  });

  it("answers 404 naming the reference for a path that addresses no operation", async () => {
    const response = await fetch(`${withDashboard}/api/v1/nothing-here`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: "not_found",
      message: `No such operation; see the API reference at ${DASHBOARD}/docs/`,
    });
  });

  it("answers that 404 as before where the deployment knows no reference", async () => {
    const response = await fetch(`${withoutDashboard}/docs/`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(await response.json()).toEqual({ error: "not_found", message: "No such operation; see the API reference" });
  });
});

/**
 * The client against the Prism mock of the published document: what a partner gets before any
 * server exists. The mock answers the spec's examples, so the typed results equal them; a request
 * the document refuses comes back as a typed error, never as a throw.
 */
import type { ChildProcess } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPartnerClient, isCodedError } from "../../client/src/index.js";
import { freePort, waitUntilServing } from "../../scripts/lib/local-ports.js";
import { spawnOwned, stopOwned } from "../../scripts/lib/owned-processes.js";
import { loadDocument } from "../support/openapi-document.js";

let prism: ChildProcess;
let baseUrl: string;
const document = loadDocument("full");
const example = (path: string, method: string, status: string) =>
  document.paths[path][method].responses[status].content["application/json"].example;

beforeAll(async () => {
  const port = await freePort();
  // Through `npm run mock`'s script (without npm's own process), on a port of the test's choosing.
  // Its own process group: stopping it stops tsx's child and Prism too, even when a test failed.
  prism = spawnOwned("node_modules/.bin/tsx", ["scripts/mock.ts", "-p", String(port), "-v", "error"], { stdio: "ignore" });
  baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilServing("Prism's mock (npm run mock)", `${baseUrl}/health`, { child: prism });
});
afterAll(async () => {
  if (prism) await stopOwned(prism);
});

describe("the client against the Prism mock", () => {
  const api = () => createPartnerClient({ apiKey: "sk_sandbox_mockmockmockmockmock", baseUrl });

  it("reads the TLD list: the document's example, typed", async () => {
    const { data, error, response } = await api().GET("/api/v1/domains/tlds");
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data).toEqual(example("/api/v1/domains/tlds", "get", "200"));
  });

  it("creates a user session with a body the document accepts", async () => {
    const { data, response } = await api().POST("/api/v1/users", { body: { user_identifier: "user_12345", email: "ada@example.com" } });
    expect(response.status).toBe(201);
    expect(data!.login_url).toMatch(/^https?:\/\//);
  });

  it("reads a domain by id with path parameters filled in", async () => {
    const { data } = await api().GET("/api/v1/domains/{domain_id}", { params: { path: { domain_id: "dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab" } } });
    expect(data).toMatchObject({ id: "dom_8fK2mQ7xLp4Rt9Vw3Yz6Ab", name: "example.com" });
  });

  it("a body the document refuses comes back as a documented error in the coded shape, not a throw", async () => {
    const { data, error, response } = await api().POST("/api/v1/users", { body: { email: "ada@example.com" } as never });
    expect(data).toBeUndefined();
    expect([400, 422]).toContain(response.status);
    expect(isCodedError(error)).toBe(true);
  });
});

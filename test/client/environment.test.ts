/** The key's environment and the base URL, checked before any request; the browser refusal. */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import { parse } from "yaml";
import {
  createPartnerClient,
  environmentOfKey,
  PartnerClientConfigError,
  SPEC_BASE_URLS,
  type ConfigErrorCode,
  type PartnerClientOptions,
} from "../../client/src/index.js";
import { looksLikeBrowser } from "../../client/src/browser-guard.js";
import { PARTNER_A_KEY, useTestServer } from "../support/test-server.js";

const SANDBOX_KEY = "sk_sandbox_0000000000000000000000";
const LIVE_KEY = "sk_live_0000000000000000000000";

/** The config error's code, and proof that nothing was sent. */
function refusal(options: PartnerClientOptions): ConfigErrorCode {
  const fetch = vi.fn<(request: Request) => Promise<Response>>();
  try {
    createPartnerClient({ ...options, fetch });
  } catch (error) {
    expect(fetch).not.toHaveBeenCalled();
    if (error instanceof PartnerClientConfigError) {
      // The message may name the prefix, never the secret part of the key.
      const secret = options.apiKey.replace(/^sk_(sandbox|live)_/, "");
      if (secret) expect(error.message).not.toContain(secret);
      return error.code;
    }
    throw error;
  }
  throw new Error("expected a PartnerClientConfigError");
}

describe("environment from the key", () => {
  it("sk_sandbox_ is the sandbox, sk_live_ production, anything else no key", () => {
    expect(environmentOfKey(SANDBOX_KEY)).toBe("sandbox");
    expect(environmentOfKey(LIVE_KEY)).toBe("production");
    expect(environmentOfKey("sk_test_000")).toBeUndefined();
    expect(environmentOfKey("Bearer sk_live_000")).toBeUndefined();
  });

  it("defaults a sandbox key to the spec's sandbox address", () => {
    const api = createPartnerClient({ apiKey: SANDBOX_KEY });
    expect([api.environment, api.baseUrl]).toEqual(["sandbox", "http://localhost:3000"]);
  });

  it("takes a production key with a real https base URL; trims a trailing slash, keeps a path", () => {
    const api = createPartnerClient({ apiKey: LIVE_KEY, baseUrl: "https://api.partner.example/partner/", environment: "production" });
    expect([api.environment, api.baseUrl]).toEqual(["production", "https://api.partner.example/partner"]);
    // Plain http stays allowed on loopback (a local proxy, a production-mode test server).
    for (const baseUrl of ["http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080"]) {
      expect(createPartnerClient({ apiKey: LIVE_KEY, baseUrl }).baseUrl).toBe(baseUrl);
    }
  });

  it("the defaults are the spec's servers", () => {
    const spec = parse(readFileSync("spec/partner-api.yml", "utf8")) as {
      servers: { description: string; variables?: Record<string, { default: string }> }[];
    };
    // The entries a partner fills in from the dashboard; the first, concrete one is the local `npm start`.
    const defaults = Object.fromEntries(
      spec.servers
        .flatMap((server) => (server.variables ? [server as Required<typeof server>] : []))
        .map((server) => [
          server.description.startsWith("Sandbox") ? "sandbox" : "production",
          Object.values(server.variables)[0]!.default,
        ]),
    );
    expect(defaults).toEqual(SPEC_BASE_URLS);
  });
});

describe("refused before any request", () => {
  it("a string that is not a key", () => {
    expect(refusal({ apiKey: "sk_test_000000000000" })).toBe("invalid_api_key");
    expect(refusal({ apiKey: "" })).toBe("invalid_api_key");
  });

  it("a key whose environment is not the one given", () => {
    expect(refusal({ apiKey: SANDBOX_KEY, environment: "production" })).toBe("environment_mismatch");
    expect(refusal({ apiKey: LIVE_KEY, environment: "sandbox", baseUrl: "https://api.partner.example" })).toBe("environment_mismatch");
  });

  it("a key against the other environment's base URL", () => {
    expect(refusal({ apiKey: LIVE_KEY, baseUrl: "http://localhost:3000" })).toBe("environment_mismatch");
    expect(refusal({ apiKey: LIVE_KEY, baseUrl: "http://localhost:3000/" })).toBe("environment_mismatch");
    expect(refusal({ apiKey: SANDBOX_KEY, baseUrl: "https://partner-api.invalid" })).toBe("environment_mismatch");
  });

  it("a production key without a real base URL: the spec's is a placeholder", () => {
    expect(refusal({ apiKey: LIVE_KEY })).toBe("base_url_required");
    expect(refusal({ apiKey: LIVE_KEY, environment: "production" })).toBe("base_url_required");
  });

  it("a production key over plain http to anything but loopback", () => {
    expect(refusal({ apiKey: LIVE_KEY, baseUrl: "http://api.partner.example" })).toBe("insecure_base_url");
    expect(refusal({ apiKey: LIVE_KEY, baseUrl: "http://10.0.0.5:3000" })).toBe("insecure_base_url");
  });

  it("a base URL that is not an absolute http(s) URL without credentials, query or fragment", () => {
    for (const baseUrl of [
      "localhost:3000",
      "/api",
      "ftp://example.com",
      "https://user:pass@api.partner.example",
      "https://api.partner.example?x=1",
      "https://api.partner.example#top",
    ]) {
      expect(refusal({ apiKey: SANDBOX_KEY, baseUrl })).toBe("invalid_base_url");
    }
  });
});

describe("one call cannot send the key elsewhere", () => {
  const s = useTestServer();

  it("refuses a per-call baseUrl outside the client's, before sending", async () => {
    const fetch = vi.fn((request: Request) => globalThis.fetch(request));
    const api = createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl, fetch });
    await expect(api.GET("/api/v1/health", { baseUrl: "https://elsewhere.example" })).rejects.toMatchObject({
      name: "PartnerClientConfigError",
      code: "foreign_origin",
    });
    expect(fetch).not.toHaveBeenCalled();
    const { data } = await api.GET("/api/v1/health");
    expect(data).toMatchObject({ environment: "sandbox" });
    expect(fetch.mock.calls[0]![0].headers.get("Authorization")).toBe(`Bearer ${PARTNER_A_KEY}`);
  });

  it("a production key that the sandbox server does not know is answered 401, typed", async () => {
    const api = createPartnerClient({ apiKey: "sk_live_unknown000000000000000000", baseUrl: s.baseUrl });
    const { error, response } = await api.GET("/api/v1/health");
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ error: "unauthorized" });
  });
});

describe("browsers", () => {
  const scope = globalThis as { window?: unknown; document?: unknown; importScripts?: unknown };
  afterEach(() => {
    delete scope.window;
    delete scope.document;
    delete scope.importScripts;
  });

  it("refuses a page, with the reason and the way out in the message", () => {
    scope.window = globalThis;
    scope.document = {};
    expect(looksLikeBrowser()).toBe(true);
    let thrown: unknown;
    try {
      createPartnerClient({ apiKey: SANDBOX_KEY });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(PartnerClientConfigError);
    expect(thrown).toMatchObject({
      code: "browser_refused",
      message: expect.stringMatching(/full access.*login_url.*dangerouslyAllowBrowser: true/s),
    });
  });

  it("refuses a web worker", () => {
    scope.importScripts = () => undefined;
    expect(() => createPartnerClient({ apiKey: SANDBOX_KEY })).toThrow(expect.objectContaining({ code: "browser_refused" }));
  });

  it("runs when explicitly allowed, and in Node by default", () => {
    expect(looksLikeBrowser()).toBe(false);
    expect(createPartnerClient({ apiKey: SANDBOX_KEY }).environment).toBe("sandbox");
    scope.window = globalThis;
    scope.document = {};
    expect(createPartnerClient({ apiKey: SANDBOX_KEY, dangerouslyAllowBrowser: true }).environment).toBe("sandbox");
  });
});

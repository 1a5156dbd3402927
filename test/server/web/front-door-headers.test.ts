/**
 * The front doors' cookies and security headers, set through Express and helmet (server/web/), are
 * the ones they wrote by hand before: each cookie's attributes as the strings the front doors sent,
 * and each policy directive for directive. Express adds an Expires beside Max-Age; nothing else differs.
 */
import express, { type RequestHandler } from "express";
import { describe, expect, it } from "vitest";
import { FORM_COOKIE, SESSION_COOKIE as DASHBOARD_SESSION } from "../../../server/dashboard/routes/cookies.js";
import { SESSION_COOKIE as EMBED_SESSION } from "../../../server/embed/cookies.js";
import { clearCookie, type CookieKind, setCookie } from "../../../server/web/cookies.js";
import { frontDoorHeaders, policyOf } from "../../../server/web/security-headers.js";

/** The Set-Cookie strings the front doors wrote by hand. */
const BEFORE = {
  dashboardSession: "__Host-dashboard_session=abc; Max-Age=3600; Path=/; Secure; HttpOnly; SameSite=Lax",
  dashboardCleared: "__Host-dashboard_session=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=Lax",
  dashboardForm: "__Host-dashboard_form=abc; Path=/; Secure; HttpOnly; SameSite=Strict",
  embedSession: "__Host-embed_session=abc; Max-Age=3600; Path=/; Secure; HttpOnly; SameSite=None; Partitioned",
  embedCleared: "__Host-embed_session=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=None; Partitioned",
};

/** Name and value first, then the attributes in any order (lower-cased names), Expires left out. */
function attributesOf(setCookie: string): { pair: string; attributes: string[] } {
  const [pair, ...attributes] = setCookie.split(/;\s*/);
  const kept = attributes.filter((attribute) => !/^expires=/i.test(attribute));
  return { pair: pair!, attributes: kept.map((attribute) => attribute.replace(/^[^=]+/, (name) => name.toLowerCase())).sort() };
}

async function headersOf(handler: RequestHandler): Promise<Headers> {
  const app = express();
  app.get("/", handler, (_req, res) => res.send("ok"));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  try {
    const { port } = server.address() as { port: number };
    return (await fetch(`http://127.0.0.1:${port}/`)).headers;
  } finally {
    server.close();
  }
}

const setting =
  (kind: CookieKind, value: string | null, maxAgeSeconds?: number): RequestHandler =>
  (_req, res, next) => {
    if (value === null) clearCookie(res, kind);
    else setCookie(res, kind, value, maxAgeSeconds);
    next();
  };

describe("front door cookies", () => {
  it.each([
    ["dashboardSession", setting(DASHBOARD_SESSION, "abc", 3600.7)],
    ["dashboardCleared", setting(DASHBOARD_SESSION, null)],
    ["dashboardForm", setting(FORM_COOKIE, "abc")],
    ["embedSession", setting(EMBED_SESSION, "abc", 3600.2)],
    ["embedCleared", setting(EMBED_SESSION, null)],
  ] as const)("%s has the attributes it had", async (name, handler) => {
    const sent = (await headersOf(handler)).get("set-cookie")!;
    expect(attributesOf(sent)).toEqual(attributesOf(BEFORE[name]));
    // An Expires only beside a Max-Age, as Express writes it.
    expect(/expires=/i.test(sent)).toBe(/max-age/i.test(BEFORE[name]));
  });

  it("never sends a negative Max-Age", async () => {
    expect((await headersOf(setting(EMBED_SESSION, "abc", -5))).get("set-cookie")).toContain("Max-Age=0;");
  });
});

/** A policy's directives, whatever the spacing between them. */
const directivesOf = (policy: string | null) => (policy ?? "").split(/\s*;\s*/).filter(Boolean);

describe("front door security headers", () => {
  const dashboardPolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
  const embedPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'";

  it("sends the dashboard what it sent by hand, never framed", async () => {
    const headers = await headersOf(
      frontDoorHeaders({
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
        },
        framed: false,
      }),
    );
    expect(directivesOf(headers.get("content-security-policy"))).toEqual(directivesOf(dashboardPolicy));
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(headers.get("cross-origin-opener-policy")).toBe("same-origin");
    expect(headers.get("cache-control")).toBe("no-store");
  });

  it("lets partners frame the embedded interface: no X-Frame-Options nor cross-origin policies", async () => {
    const headers = await headersOf(
      frontDoorHeaders({
        directives: {
          defaultSrc: ["'none'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          imgSrc: ["'self'"],
          formAction: ["'self'"],
          baseUri: ["'none'"],
          frameAncestors: ["'none'"],
        },
        framed: true,
      }),
    );
    expect(directivesOf(headers.get("content-security-policy"))).toEqual(directivesOf(`${embedPolicy}; frame-ancestors 'none'`));
    for (const name of ["x-frame-options", "cross-origin-opener-policy", "cross-origin-resource-policy", "cross-origin-embedder-policy"])
      expect(headers.get(name)).toBeNull();
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("no-referrer");
    expect(headers.get("cache-control")).toBe("no-store");
  });

  it("writes a partner's origins into frame-ancestors", () => {
    const policy = policyOf({ defaultSrc: ["'none'"], frameAncestors: ["https://app.example.com", "https://*.example.net"] });
    expect(directivesOf(policy)).toEqual(["default-src 'none'", "frame-ancestors https://app.example.com https://*.example.net"]);
  });
});

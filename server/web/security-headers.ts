/**
 * Security headers of the HTML front doors, from helmet as the API's are (server/api/http/security-headers.ts),
 * read once per policy. Their pages hold a signed-in session: never cached (`no-store`), never
 * sniffed, and no referrer sent on (the embedded interface's first address carries a token).
 *
 * Beyond what the front doors set by hand before helmet, each gets helmet's defaults that do not
 * change what a page may do: Origin-Agent-Cluster, X-DNS-Prefetch-Control: off,
 * X-Download-Options, X-Permitted-Cross-Domain-Policies: none, X-XSS-Protection: 0, and HSTS as the
 * API sends it (ignored on plain http, so local development is unchanged). What a framed page must
 * not send is the front door's choice (`framed`).
 */
import type { RequestHandler } from "express";
import helmet, { contentSecurityPolicy } from "helmet";

/**
 * The headers helmet sets for this policy, read once by running it against a recording response.
 * Nothing in the policy depends on the request (no nonces), and running helmet's dozen middlewares
 * per request, the CSP string rebuilt each time, showed in CPU profiles of a simple read (bench/results/).
 * helmet stays the source of the values; only the per-request work is gone. The API's policy
 * (server/api/http/security-headers.ts) and each HTML front door's are read through it.
 */
export function headersOf(middleware: RequestHandler): ReadonlyArray<readonly [string, string]> {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader: (name: string, value: string | number) => void headers.set(name, String(value)),
    removeHeader: (name: string) => void headers.delete(name),
  };
  let finished = false;
  middleware({} as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  // A policy that needed the request, or answered asynchronously, could not be computed once.
  if (!finished) throw new Error("the security header policy must be static");
  return [...headers];
}

/** CSP directives by helmet's camelCase names; order is kept in the header. */
export type Directives = Record<string, readonly string[]>;

/** The Content-Security-Policy header's value for these directives, as helmet writes it. */
export function policyOf(directives: Directives): string {
  const headers = headersOf(contentSecurityPolicy({ useDefaults: false, directives }));
  return headers.find(([name]) => name === "Content-Security-Policy")![1];
}

export interface FrontDoorHeaders {
  /** The policy every answer starts with; a page may set its own after (the embedded interface's framing). */
  directives: Directives;
  /**
   * Shown inside partners' iframes: no X-Frame-Options (it cannot name the partners' origins; the
   * CSP's frame-ancestors does), no Cross-Origin-Opener-Policy (a partner may open it in a window
   * it talks to) and no Cross-Origin-Resource-Policy (a partner's page isolated by COEP may frame it
   * only without it). Else: X-Frame-Options: DENY, and both same-origin.
   */
  framed: boolean;
}

export function frontDoorHeaders({ directives, framed }: FrontDoorHeaders): RequestHandler {
  const headers = headersOf(
    helmet({
      contentSecurityPolicy: { useDefaults: false, directives },
      xFrameOptions: framed ? false : { action: "deny" },
      crossOriginOpenerPolicy: framed ? false : { policy: "same-origin" },
      crossOriginResourcePolicy: framed ? false : { policy: "same-origin" },
      referrerPolicy: { policy: "no-referrer" },
      // express's x-powered-by is disabled on each app; helmet's removal would be a no-op.
      xPoweredBy: false,
    }),
  );
  return (_req, res, next) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    res.setHeader("Cache-Control", "no-store");
    next();
  };
}

/**
 * API keys are server-side secrets: a key in a browser bundle can be read by anyone who loads the
 * page and then used for everything the partner can do. So the client refuses to start there.
 */
import { PartnerClientConfigError } from "./config-error.js";

/** A browser page (a `window` with a `document`) or a web worker (`importScripts`). */
export function looksLikeBrowser(scope: object = globalThis): boolean {
  const candidate = scope as { window?: unknown; document?: unknown; importScripts?: unknown };
  return (
    (typeof candidate.window === "object" && candidate.window !== null && typeof candidate.document === "object") ||
    typeof candidate.importScripts === "function"
  );
}

export function refuseBrowser(allowed: boolean | undefined): void {
  if (allowed || !looksLikeBrowser()) return;
  throw new PartnerClientConfigError(
    "browser_refused",
    "createPartnerClient refuses to run in a browser: a Partner API key gives full access to your partner account, " +
      "and anything sent to a browser can be read by its user. Call the API from your server and give the browser only " +
      "the user's login_url. If this code really runs on a server that merely looks like a browser (jsdom tests, " +
      "Electron's main process), pass dangerouslyAllowBrowser: true.",
  );
}

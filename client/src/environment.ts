/**
 * Which environment a key belongs to, and where the client may send it. Checked once, when the
 * client is created, so a key never leaves the process towards the other environment.
 */
import type { components } from "./api-types.js";
import { PartnerClientConfigError } from "./config-error.js";

/** The environments the spec names (what a deployment reports as its `environment`). */
export type Environment = components["schemas"]["ApiHealth"]["environment"];

export const KEY_PREFIXES = { sandbox: "sk_sandbox_", production: "sk_live_" } as const satisfies Record<Environment, string>;

/**
 * The default addresses of the spec's `servers` (spec/partner-api.yml); test/client keeps them
 * equal. Production's is a placeholder on the reserved `.invalid` TLD: the real address is given
 * in the partner dashboard, so a production client must be given `baseUrl`.
 */
export const SPEC_BASE_URLS = { sandbox: "http://localhost:3000", production: "https://partner-api.invalid" } as const satisfies Record<
  Environment,
  string
>;

export interface Target {
  readonly environment: Environment;
  /** Without a trailing slash. */
  readonly baseUrl: string;
}

/** The environment a key's prefix names, or undefined for a string that is not a Partner API key. */
export function environmentOfKey(apiKey: string): Environment | undefined {
  if (apiKey.startsWith(KEY_PREFIXES.sandbox)) return "sandbox";
  if (apiKey.startsWith(KEY_PREFIXES.production)) return "production";
  return undefined;
}

const other = (environment: Environment): Environment => (environment === "sandbox" ? "production" : "sandbox");
const withoutTrailingSlash = (url: URL) => `${url.origin}${url.pathname}`.replace(/\/+$/, "");
const isLoopback = (hostname: string) => hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);

/** Resolves and checks the environment and base URL; throws PartnerClientConfigError (never naming the key). */
export function resolveTarget(options: { apiKey: string; environment?: Environment | undefined; baseUrl?: string | undefined }): Target {
  const keyEnvironment = environmentOfKey(options.apiKey);
  if (!keyEnvironment) {
    throw new PartnerClientConfigError(
      "invalid_api_key",
      `The API key must start with ${KEY_PREFIXES.sandbox} (sandbox) or ${KEY_PREFIXES.production} (production).`,
    );
  }
  if (options.environment && options.environment !== keyEnvironment) {
    throw new PartnerClientConfigError(
      "environment_mismatch",
      `A ${keyEnvironment} key (${KEY_PREFIXES[keyEnvironment]}...) cannot be used with environment "${options.environment}": each environment takes only its own keys.`,
    );
  }
  const given = options.baseUrl ?? SPEC_BASE_URLS[keyEnvironment];
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new PartnerClientConfigError("invalid_base_url", `baseUrl is not an absolute URL: ${given}`);
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password || url.search || url.hash) {
    throw new PartnerClientConfigError(
      "invalid_base_url",
      `baseUrl must be an http(s) URL without credentials, query or fragment: ${given}`,
    );
  }
  const baseUrl = withoutTrailingSlash(url);
  const otherEnvironment = other(keyEnvironment);
  if (baseUrl === SPEC_BASE_URLS[otherEnvironment]) {
    throw new PartnerClientConfigError(
      "environment_mismatch",
      `A ${keyEnvironment} key cannot be sent to ${baseUrl}, the ${otherEnvironment} base URL.`,
    );
  }
  // RFC 6761: names under .invalid never resolve; the spec uses one as production's placeholder.
  if (url.hostname.endsWith(".invalid")) {
    throw new PartnerClientConfigError(
      "base_url_required",
      `${baseUrl} is a placeholder that never resolves: pass baseUrl, the ${keyEnvironment} address shown in your partner dashboard.`,
    );
  }
  // A live key in clear text could be read on the way; loopback stays on this machine (a local proxy or a test server).
  if (keyEnvironment === "production" && url.protocol === "http:" && !isLoopback(url.hostname)) {
    throw new PartnerClientConfigError(
      "insecure_base_url",
      `A production key is only sent over https (or to a loopback address), not to ${baseUrl}.`,
    );
  }
  return { environment: keyEnvironment, baseUrl };
}

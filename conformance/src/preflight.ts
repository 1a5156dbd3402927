/**
 * Before any check: is the base URL an API of this contract, are the keys accepted, and does the
 * target serve what the run was told it serves? Each problem is one line naming its cause, instead
 * of every check failing with it buried. One call a key: GET /api/v1/health answers, for a valid
 * key, the key's environment and the variants the deployment serves, and counts against the
 * overall rate limits only.
 */
import type { Target } from "./target.js";

export class PreflightError extends Error {
  constructor(message: string) {
    // One line whatever a cause carried (an error text of several lines, a body).
    super(message.replace(/\s*\n\s*/g, " "));
  }
}

const PROBE_PATH = "/api/v1/health";
const PROBE_TIMEOUT_MS = 15_000;
const KEY_PREFIXES = { sandbox: "sk_sandbox_", production: "sk_live_" } as const;
const VARIANTS_OF_KIND = { R: ["R"], D: ["D"], full: ["R", "D"] } as const;

/** Why a request got no answer, in words. */
function unreachable(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === "TimeoutError") return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  switch (cause?.code) {
    case "ECONNREFUSED":
      return "connection refused (is the server running on that port?)";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "the host name does not resolve";
    case "ECONNRESET":
    case "UND_ERR_SOCKET":
      return "the connection was closed without an answer (an https URL for an http server, or the reverse?)";
    case "ERR_SSL_WRONG_VERSION_NUMBER":
    case "ERR_SSL_PACKET_LENGTH_TOO_LONG":
      return "the server does not speak TLS there (http://, not https://?)";
    default:
      if (cause?.message === "bad port") return "fetch refuses that port (one of the browsers' blocked ports)";
      return (cause?.message ?? (error as Error).message).trim();
  }
}

async function probe(target: Target, key: string): Promise<{ response: Response; text: string }> {
  try {
    const response = await fetch(`${target.baseUrl}${PROBE_PATH}`, {
      headers: { Authorization: `Bearer ${key}`, Accept: "application/json" },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    return { response, text: await response.text() };
  } catch (error) {
    throw new PreflightError(`cannot reach ${target.baseUrl}: ${unreachable(error)}`);
  }
}

function parsedJson(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The API's root, when the base URL was given with the API's own path prefix (a common slip). */
function rootHint(baseUrl: string): string {
  const url = new URL(baseUrl);
  const prefix = url.pathname.search(/\/api(\/|$)/);
  return prefix >= 0 ? ` (try ${url.origin}${url.pathname.slice(0, prefix)})` : "";
}

async function checkKey(target: Target, key: string, option: string): Promise<void> {
  const { response, text } = await probe(target, key);
  const where = `GET ${target.baseUrl}${PROBE_PATH}`;
  const body = parsedJson(text);
  const contentType = response.headers.get("content-type") ?? "no content type";
  const isJson = /^application\/(problem\+)?json\b/i.test(contentType);
  if (response.status === 404 || response.status === 405)
    throw new PreflightError(`${where} answered ${response.status}: --base-url is not this API's root${rootHint(target.baseUrl)}`);
  if (response.status === 401 || response.status === 403) {
    if (!isJson || typeof body?.error !== "string")
      throw new PreflightError(`${where} answered ${response.status} without this API's error body: is --base-url this API?`);
    throw new PreflightError(
      `${option} was refused by ${target.baseUrl} (${response.status} ${body.error}): check the key, and that it is of this deployment's environment`,
    );
  }
  // Nothing to learn from an answer of the limits, and nothing wrong with the key either.
  if (response.status === 429) return;
  if (response.status >= 500) throw new PreflightError(`${where} answered ${response.status}: the server is failing`);
  if (response.status !== 200) throw new PreflightError(`${where} answered ${response.status}, not 200: is --base-url this API?`);
  if (!isJson || body === null)
    throw new PreflightError(`${where} answered 200 with ${contentType}, not a JSON object: is --base-url this API?`);

  if (body.environment === "sandbox" || body.environment === "production") {
    if (body.environment !== target.environment)
      throw new PreflightError(
        `${option} is a ${target.environment} key (${KEY_PREFIXES[target.environment]}...) but ${target.baseUrl} says it is a ${body.environment} deployment: use a ${KEY_PREFIXES[body.environment]}... key`,
      );
  }
  if (Array.isArray(body.variants)) {
    const missing = VARIANTS_OF_KIND[target.kind].filter((variant) => !(body.variants as unknown[]).includes(variant));
    if (missing.length)
      throw new PreflightError(
        `${target.baseUrl} serves Variant ${(body.variants as unknown[]).join(" and ")} only, not ${missing.join(" and ")}: pass --variant ${(body.variants as unknown[])[0]}`,
      );
  }
}

export async function preflight(target: Target): Promise<void> {
  const keys: Array<[string, string | null]> = [
    ["--api-key", target.apiKey],
    ["--second-key", target.secondKey],
    ["--revoked-key", target.revokedKey],
  ];
  for (const [option, key] of keys)
    if (key !== null && !key.startsWith(KEY_PREFIXES[target.environment]))
      throw new PreflightError(
        option === "--api-key"
          ? "--api-key is not a key of this API: keys start with sk_sandbox_ or sk_live_"
          : `${option} must be a key of the same environment as --api-key (${KEY_PREFIXES[target.environment]}...)`,
      );
  if (target.secondKey !== null && target.secondKey === target.apiKey)
    throw new PreflightError("--second-key must be another partner's key, not --api-key again");
  if (target.revokedKey !== null && (target.revokedKey === target.apiKey || target.revokedKey === target.secondKey))
    throw new PreflightError("--revoked-key must be a revoked key, not one of the keys the run uses");
  await checkKey(target, target.apiKey, "--api-key");
  if (target.secondKey) await checkKey(target, target.secondKey, "--second-key");
}

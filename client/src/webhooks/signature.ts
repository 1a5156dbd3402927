/**
 * `Partner-Signature: sha256=<hex>`: HMAC-SHA256 of the raw body keyed with the endpoint's secret,
 * lowercase hex. During a secret rotation the header carries one value per active secret,
 * separated by ", "; any one valid value suffices.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export type RawBody = string | Uint8Array;
export type SignatureHeader = string | readonly string[] | null | undefined;

const VALUE = /^sha256=([0-9a-f]{64})$/;

function requireRawBody(rawBody: unknown): asserts rawBody is RawBody {
  if (typeof rawBody !== "string" && !(rawBody instanceof Uint8Array)) {
    // The usual mistake: the body after a JSON parser. Re-serialising it changes the bytes that were signed.
    throw new TypeError("rawBody must be the request body exactly as received (a string or bytes), not the parsed JSON");
  }
}

function secretsOf(secret: string | readonly string[]): readonly string[] {
  const secrets = typeof secret === "string" ? [secret] : secret;
  if (secrets.length === 0 || secrets.some((value) => typeof value !== "string" || value.length === 0)) {
    throw new TypeError("secret must be a non-empty signing secret (whsec_...) or a list of them");
  }
  return secrets;
}

const hmac = (rawBody: RawBody, secret: string) => createHmac("sha256", secret).update(rawBody).digest();

/** The digests of the well-formed values; a value without `sha256=` or not 64 lowercase hex digits is ignored. */
export function signatureDigests(header: SignatureHeader): Uint8Array[] {
  const joined = typeof header === "string" ? header : (header ?? []).join(",");
  return joined
    .split(",")
    .map((value) => VALUE.exec(value.trim())?.[1])
    .filter((hex): hex is string => hex !== undefined)
    .map((hex) => Uint8Array.from(hex.match(/../g)!, (byte) => Number.parseInt(byte, 16)));
}

/** `sha256=<hex>` for a body: what the API sends; for testing a receiver. */
export function signWebhookBody(rawBody: RawBody, secret: string): string {
  requireRawBody(rawBody);
  return `sha256=${hmac(rawBody, secretsOf(secret)[0]!).toString("hex")}`;
}

/**
 * Whether any value of the header is the HMAC of the body under any of the secrets (the receiver
 * may hold two during its own switch-over). Signature only: verifyWebhookSignature also parses the
 * body and checks the replay window.
 */
export function hasValidWebhookSignature(rawBody: RawBody, header: SignatureHeader, secret: string | readonly string[]): boolean {
  requireRawBody(rawBody);
  const expected = secretsOf(secret).map((value) => hmac(rawBody, value));
  let valid = false;
  // Every pair is compared, in constant time (both are 32 bytes), so timing tells nothing about the digests.
  for (const digest of signatureDigests(header)) {
    for (const candidate of expected) valid = timingSafeEqual(digest, candidate) || valid;
  }
  return valid;
}

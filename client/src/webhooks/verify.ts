/** One call for a receiver: signature, then envelope, then replay window; the event, or a throw. */
import type { WebhookEvent } from "./events.js";
import { checkReplayWindow, type ReplayWindowOptions } from "./replay-window.js";
import { hasValidWebhookSignature, signatureDigests, type RawBody, type SignatureHeader } from "./signature.js";
import { WebhookVerificationError } from "./verification-error.js";

export type VerifyWebhookOptions = ReplayWindowOptions;

const isEnvelope = (value: unknown): value is WebhookEvent => {
  if (typeof value !== "object" || value === null) return false;
  const { id, type, created_at, sent_at, api_version, data } = value as Record<string, unknown>;
  return (
    typeof id === "string" &&
    typeof type === "string" &&
    typeof created_at === "string" &&
    typeof sent_at === "string" &&
    typeof api_version === "string" &&
    typeof data === "object" &&
    data !== null
  );
};

/**
 * Verifies a delivery and returns its event. Throws WebhookVerificationError (`reason` says why)
 * when the header is missing or malformed, no value matches, the body is not an event envelope
 * (`sent_at` included), or `sent_at` is outside the replay window. Throwing, rather than returning a flag, means a
 * forgotten check cannot let a forged event through.
 */
export function verifyWebhookSignature(
  rawBody: RawBody,
  signatureHeader: SignatureHeader,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const present = typeof signatureHeader === "string" ? signatureHeader.trim() !== "" : (signatureHeader ?? []).length > 0;
  if (!present) throw new WebhookVerificationError("missing_signature", "No Partner-Signature header");
  if (signatureDigests(signatureHeader).length === 0)
    throw new WebhookVerificationError("malformed_signature", "Partner-Signature has no sha256=<64 lowercase hex digits> value");
  if (!hasValidWebhookSignature(rawBody, signatureHeader, secret))
    throw new WebhookVerificationError("signature_mismatch", "No Partner-Signature value matches the body and secret");
  // Parsed only once authenticated.
  let event: unknown;
  try {
    event = JSON.parse(typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody));
  } catch {
    throw new WebhookVerificationError("malformed_body", "The body is not JSON");
  }
  if (!isEnvelope(event))
    throw new WebhookVerificationError(
      "malformed_body",
      "The body is not an event envelope {id, type, created_at, sent_at, api_version, data}",
    );
  // sent_at is the attempt's time on the real clock (a retry is not a replay). created_at never
  // stands in for it: it follows the partner's clock, which a sandbox moves ahead at will.
  checkReplayWindow(event.sent_at, options);
  return event;
}

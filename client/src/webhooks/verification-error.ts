/** Why a delivery was refused; answer it with a 4xx and do not act on the body. */
export type WebhookRejection =
  | "missing_signature"
  | "malformed_signature"
  | "signature_mismatch"
  | "malformed_body"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new";

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  constructor(
    readonly reason: WebhookRejection,
    message: string,
  ) {
    super(message);
  }
}

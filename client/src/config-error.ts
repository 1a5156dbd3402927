/** Thrown when the client is set up, or asked to send a request, in a way that would misuse the key. */
export type ConfigErrorCode =
  | "invalid_api_key"
  | "environment_mismatch"
  | "invalid_base_url"
  | "base_url_required"
  | "insecure_base_url"
  | "browser_refused"
  | "foreign_origin";

export class PartnerClientConfigError extends Error {
  override readonly name = "PartnerClientConfigError";
  constructor(
    readonly code: ConfigErrorCode,
    message: string,
  ) {
    super(message);
  }
}

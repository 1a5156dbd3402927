/** @partner-api/client/webhooks: verify the API's signed webhook deliveries (Node's crypto). */
export { verifyWebhookSignature } from "./webhooks/verify.js";
export type { VerifyWebhookOptions } from "./webhooks/verify.js";
export { hasValidWebhookSignature, signWebhookBody } from "./webhooks/signature.js";
export type { RawBody, SignatureHeader } from "./webhooks/signature.js";
export { checkReplayWindow, DEFAULT_TOLERANCE_SECONDS } from "./webhooks/replay-window.js";
export type { ReplayWindowOptions } from "./webhooks/replay-window.js";
export { WebhookVerificationError } from "./webhooks/verification-error.js";
export type { WebhookRejection } from "./webhooks/verification-error.js";
export type { WebhookEvent, WebhookEventSchemas, WebhookEventType } from "./webhooks/events.js";

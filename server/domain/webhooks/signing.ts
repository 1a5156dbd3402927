/** The webhook signature: HMAC-SHA256 of the raw body with the endpoint's secret, `sha256=<lowercase hex>`. */
import { createHmac } from "node:crypto";

export const signatureOf = (body: string, secret: string) => `sha256=${createHmac("sha256", secret).update(body, "utf8").digest("hex")}`;

/** One signature per secret that still signs, current first, joined as the spec's header shows. */
export const signatureHeader = (body: string, secrets: readonly string[]) => secrets.map((secret) => signatureOf(body, secret)).join(", ");

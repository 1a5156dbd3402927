/**
 * One HTTP POST of a delivery. Host names are resolved here and every resolved address checked
 * against the address policy, so a name that resolves to a private address (or is re-pointed
 * after registration) is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { Environment } from "../auth/api-keys.js";
import { isAllowedAddress } from "./address-policy.js";

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export type WebhookSender = (url: string, body: string, headers: Record<string, string>) => Promise<SendResult>;

/** The spec: a 2xx within 10 seconds counts as delivered. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Enough of an answer to tell success; the rest is not read. */
const MAX_RESPONSE_BYTES = 64 * 1024;

function guardedLookup(environment: Environment): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as LookupAddress[];
      const refused = list.find((entry) => !isAllowedAddress(entry.address, environment));
      if (refused) return callback(Object.assign(new Error(`${hostname} resolves to ${refused.address}, an address webhooks are not sent to`), { code: "EADDRNOTALLOWED" }), "", 0);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

export function httpSender(environment: Environment, timeoutMs = DELIVERY_TIMEOUT_MS): WebhookSender {
  const lookup = guardedLookup(environment);
  return (url, body, headers) =>
    new Promise((resolve) => {
      const started = performance.now();
      const finish = (statusCode: number | null, error: string | null) =>
        resolve({ statusCode, error, durationMs: Math.round(performance.now() - started) });
      const target = new URL(url);
      const options: RequestOptions = { method: "POST", headers: { ...headers, "Content-Length": Buffer.byteLength(body) }, lookup, timeout: timeoutMs };
      const request = (target.protocol === "https:" ? httpsRequest : httpRequest)(target, options, (response) => {
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        const status = response.statusCode ?? null;
        response.on("close", () => finish(status, status !== null && status >= 200 && status < 300 ? null : `receiver answered ${status}`));
      });
      request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} seconds`)));
      request.on("error", (error: NodeJS.ErrnoException) => finish(null, error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message));
      request.end(body);
    });
}

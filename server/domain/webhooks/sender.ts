/**
 * One HTTP POST of a delivery. The URL is checked against the address policy again (it may have been
 * registered under an older policy, and an IP-address host is never looked up), then host names are
 * resolved here and every resolved address checked, so a name that resolves to a private address (or
 * is re-pointed after registration) is refused too; the connection goes to the address checked.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { request as httpRequest, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { Environment } from "../../../generated/deployment.js";
import { isAllowedAddress, webhookUrlProblem } from "./address-policy.js";

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Sends one attempt. `deadlineMs`, when given, replaces the sender's own deadline for this attempt
 * (the dispatcher's, shorter than its lease).
 */
export type WebhookSender = (url: string, body: string, headers: Record<string, string>, deadlineMs?: number) => Promise<SendResult>;

/** The spec: a 2xx within 10 seconds counts as delivered, the whole answer read. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Enough of an answer to tell success; the rest is not read. */
const MAX_RESPONSE_BYTES = 64 * 1024;

/** Every address a host name resolves to (node:dns `lookup` with `all`); tests give their own. */
export type ResolveHost = (
  hostname: string,
  options: LookupAllOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: ResolveHost = (hostname, options, callback) => dnsLookup(hostname, options, callback);

function guardedLookup(environment: Environment, resolveHost: ResolveHost): LookupFunction {
  return (hostname, options, callback) => {
    resolveHost(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, "", 0);
      const refused = list.find((entry) => !isAllowedAddress(entry.address, environment));
      if (refused)
        return callback(
          Object.assign(new Error(`${hostname} resolves to ${refused.address}, an address webhooks are not sent to`), {
            code: "EADDRNOTALLOWED",
          }),
          "",
          0,
        );
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

/**
 * A sender over node:http(s). One deadline covers the whole attempt, from the lookup to the last
 * byte of the answer, through one abort signal: a socket's idle timeout would let a receiver that
 * trickles a byte at a time hold the attempt open for as long as it likes.
 */
export function httpSender(environment: Environment, timeoutMs = DELIVERY_TIMEOUT_MS, resolveHost = systemResolver): WebhookSender {
  const lookup = guardedLookup(environment, resolveHost);
  return (url, body, headers, deadlineMs = timeoutMs) =>
    new Promise((resolve) => {
      const started = performance.now();
      let settled = false;
      let status: number | null = null;
      const deadline = AbortSignal.timeout(deadlineMs);
      const finish = (statusCode: number | null, error: string | null) => {
        if (settled) return;
        settled = true;
        deadline.removeEventListener("abort", onDeadline);
        resolve({ statusCode, error, durationMs: Math.round(performance.now() - started) });
      };
      // Recorded before the signal tears the request down, so the teardown's own events cannot answer first.
      const onDeadline = () =>
        finish(status, `${status === null ? "no answer" : "no complete answer"} within ${deadlineMs / 1000} seconds`);
      deadline.addEventListener("abort", onDeadline, { once: true });
      const refusal = webhookUrlProblem(url, environment);
      if (refusal) return finish(null, refusal.message);
      const target = new URL(url);
      const options: RequestOptions = {
        method: "POST",
        headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
        lookup,
        signal: deadline,
      };
      const request = (target.protocol === "https:" ? httpsRequest : httpRequest)(target, options, (response) => {
        status = response.statusCode ?? null;
        let received = 0;
        response.on("data", (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on("error", () => undefined);
        response.on("close", () => finish(status, status !== null && status >= 200 && status < 300 ? null : `receiver answered ${status}`));
      });
      request.on("error", (error: NodeJS.ErrnoException) =>
        finish(null, error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message),
      );
      request.end(body);
    });
}

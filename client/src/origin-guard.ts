/**
 * openapi-fetch lets a single call override `baseUrl`. The key travels in every request, so a
 * request is refused, before it is sent, unless it goes under the base URL the client was checked
 * against (environment.ts).
 */
import type { Middleware } from "openapi-fetch";
import { PartnerClientConfigError } from "./config-error.js";

export function originGuard(baseUrl: string): Middleware {
  return {
    onRequest({ request }) {
      if (request.url === baseUrl || request.url.startsWith(`${baseUrl}/`)) return undefined;
      throw new PartnerClientConfigError(
        "foreign_origin",
        `Refused to send the API key to ${new URL(request.url).origin}: this client is bound to ${baseUrl}.`,
      );
    },
  };
}

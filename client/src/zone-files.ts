/**
 * Zone files (both variants): the export is `text/dns`, which openapi-fetch would read as JSON, so it
 * is read as text here; the import is a JSON call whose refusal carries the per-line report.
 */
import type { Client } from "openapi-fetch";
import type { components, paths } from "./api-types.js";
import { isCodedError, PartnerApiError } from "./errors.js";

export type ZoneImportRequest = components["schemas"]["ZoneImportRequest"];
export type ZoneImportResult = components["schemas"]["ZoneImportResult"];
export type ZoneImportLine = components["schemas"]["ZoneImportLine"];
export type ZoneImportError = components["schemas"]["ZoneImportError"];

export interface ZoneExport {
  /** The zone file, as the service wrote it. */
  text: string;
  /** The zone's entity tag: pass it as `ifMatch` to import only into the zone exported. */
  etag: string | null;
  /** The file name the service offers (`<domain>.zone`). */
  filename: string | null;
}

export interface ZoneImportOptions {
  /** The `etag` of an export: the import applies only while the zone is as exported (else 412). */
  ifMatch?: string;
  /** Makes the import safe to retry (see the client's retries). */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const FILENAME = /filename="([^"]+)"/;

/** Errors come as JSON whatever the success type is: the text read is parsed back for PartnerApiError. */
function errorBodyOf(text: unknown): unknown {
  if (typeof text !== "string") return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `GET /api/v1/domains/{domain_id}/zone`; throws PartnerApiError when refused. */
export async function exportZone(client: Client<paths>, domainId: string, signal?: AbortSignal): Promise<ZoneExport> {
  const { data, error, response } = await client.GET("/api/v1/domains/{domain_id}/zone", {
    params: { path: { domain_id: domainId } },
    headers: { Accept: "text/dns" },
    parseAs: "text",
    signal,
  });
  if (!response.ok || typeof data !== "string") throw new PartnerApiError(response, errorBodyOf(error));
  const disposition = response.headers.get("Content-Disposition");
  return { text: data, etag: response.headers.get("ETag"), filename: (disposition && FILENAME.exec(disposition)?.[1]) ?? null };
}

/** `POST /api/v1/domains/{domain_id}/zone/import`; throws PartnerApiError when refused (a refused file: `isZoneImportRejected`). */
export async function importZone(
  client: Client<paths>,
  domainId: string,
  body: ZoneImportRequest,
  options: ZoneImportOptions = {},
): Promise<ZoneImportResult> {
  const header: { "If-Match"?: string; "Idempotency-Key"?: string } = {};
  if (options.ifMatch !== undefined) header["If-Match"] = options.ifMatch;
  if (options.idempotencyKey !== undefined) header["Idempotency-Key"] = options.idempotencyKey;
  const { data, error, response } = await client.POST("/api/v1/domains/{domain_id}/zone/import", {
    params: { path: { domain_id: domainId }, header },
    body,
    signal: options.signal,
  });
  if (!data) throw new PartnerApiError(response, error);
  return data;
}

/** A zone file refused as a whole: its `details.lines` say which lines and why. */
export function isZoneImportRejected(body: unknown): body is ZoneImportError & { details: { lines: ZoneImportLine[] } } {
  return isCodedError(body) && (body.details as { code?: unknown } | undefined)?.code === "zone_import_rejected";
}

/**
 * What a page says after a change (Post/Redirect/Get). The redirect carries the notice as a token
 * signed with a key of the browser session, so only this session's own changes can be announced:
 * a crafted link cannot make a page claim a charge or a deletion that did not happen. Names and dates
 * are read from the store when the page is shown; the token holds only what the store does not
 * (what was charged, which event a deletion was).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { DnsTemplateId } from "../../../generated/operations.js";
import type { Cents } from "../../platform/money.js";
import type { EmbedSessionRow } from "../../domain/sessions/session-store.js";

export type Notice =
  | { kind: "purchased" | "renewed"; domain: string; years: number; charged: Cents; currency: string }
  | { kind: "setting"; domain: string; setting: "auto_renew" | "whois_privacy"; on: boolean }
  | { kind: "record-added" | "record-saved" | "record-restored"; domain: string; type: string; name: string }
  /** `event` is the dns_record.deleted event the record can be restored from. */
  | { kind: "record-deleted"; domain: string; type: string; name: string; event: string }
  | { kind: "template-applied"; domain: string; template: DnsTemplateId; count: number }
  | { kind: "connection-fixed"; domain: string; count: number }
  | { kind: "zone-imported"; domain: string; count: number };

const keyOf = (session: EmbedSessionRow) => createHmac("sha256", session.csrfToken).update("embed notice").digest();

const signatureOf = (session: EmbedSessionRow, payload: string) =>
  createHmac("sha256", keyOf(session)).update(payload).digest("base64url").slice(0, 32);

/** The query parameter that carries the notice to the next page. */
export function noticeParameter(session: EmbedSessionRow, notice: Notice): string {
  const payload = Buffer.from(JSON.stringify(notice)).toString("base64url");
  return `notice=${payload}.${signatureOf(session, payload)}`;
}

/** The notice of a page's query, when this session signed it; anything else is ignored. */
export function noticeOf(session: EmbedSessionRow, query: Record<string, unknown>): Notice | null {
  const token = query.notice;
  if (typeof token !== "string" || token.length > 2048) return null;
  const [payload, signature, ...rest] = token.split(".");
  if (!payload || !signature || rest.length > 0) return null;
  const expected = Buffer.from(signatureOf(session, payload));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    return JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Notice;
  } catch {
    return null;
  }
}

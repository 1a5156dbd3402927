/**
 * What an apply form carries from its preview: the file's text, the mode, and a seal over both and
 * the state of the zone the preview was made against. Applying checks the seal against the zone as
 * it is then (in the import's domain-locked transaction), so a file is applied only to the zone it
 * was previewed on: a record changed, added or deleted meanwhile breaks the seal, and the user sees
 * the preview again instead. The seal is keyed with the browser session, as the notices are.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { ZoneImportMode } from "../../domain/zone-files/zone-transfer.js";
import type { EmbedSessionRow } from "../../domain/sessions/session-store.js";

export interface PreviewedImport {
  domainId: string;
  mode: ZoneImportMode;
  text: string;
  /** The zone's entity tag (zone-transfer.ts `zoneTag`): any change of any record changes it. */
  zoneState: string;
}

export function sealOf(session: EmbedSessionRow, previewed: PreviewedImport): string {
  return createHmac("sha256", createHmac("sha256", session.csrfToken).update("embed zone import").digest())
    .update([previewed.domainId, previewed.mode, previewed.zoneState, previewed.text].join("\u0000"))
    .digest("base64url");
}

/** Whether the seal an apply form carries is the one its preview made, against the zone as it is now. */
export function isSealed(session: EmbedSessionRow, previewed: PreviewedImport, seal: string): boolean {
  const expected = Buffer.from(sealOf(session, previewed));
  const given = Buffer.from(seal);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

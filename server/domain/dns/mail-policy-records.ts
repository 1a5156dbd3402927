/**
 * Mail policies published as TXT records that a name may hold only once: SPF (RFC 7208) and
 * DMARC (RFC 7489). A receiver that finds two fails SPF for the whole domain (a permanent error)
 * or applies no DMARC policy at all, so a second one is a zone conflict, not a matter of style.
 */
import type { RecordDraft } from "./record-rules.js";

export type MailPolicy = "spf" | "dmarc";

// RFC 7208 4.5: the version section "v=spf1" ends at a space or at the end of the record; ABNF
// strings are case-insensitive (RFC 5234 2.3).
const SPF_VERSION = /^v=spf1(?: |$)/i;
// RFC 7489 6.4: the tag name "v" is case-insensitive and may have spaces around "=", its value
// "DMARC1" must match exactly and ends the tag.
const DMARC_VERSION = /^[vV][ \t]*=[ \t]*DMARC1[ \t]*(?:;|$)/;
// RFC 7489 6.1: the policy of a domain is published at the name "_dmarc" below it.
const DMARC_NAME = /^_dmarc(?:\.|$)/i;

/** The policy a record publishes, if any; `text` is its TXT strings joined (RFC 7208 3.3). */
export function mailPolicyOf(record: Pick<RecordDraft, "type" | "name">, text: string): MailPolicy | null {
  if (record.type !== "TXT") return null;
  if (SPF_VERSION.test(text)) return "spf";
  if (DMARC_NAME.test(record.name) && DMARC_VERSION.test(text)) return "dmarc";
  return null;
}

/** Why a second record of the policy is refused, naming the rule. */
export function secondPolicyMessage(policy: MailPolicy, name: string): string {
  return policy === "spf"
    ? `An SPF record (v=spf1) already exists at ${name}; a name may hold only one (RFC 7208 3.2): change that record instead`
    : `A DMARC record (v=DMARC1) already exists at ${name}; a name may hold only one (RFC 7489 6.6.3): change that record instead`;
}

/**
 * A record's comment and lock (the DNS records tag: Comments and locked records): what people and
 * the partner attach to a record, outside the DNS rules, so a change of either alone never makes a
 * record conflict with another or breaks a rule of its content.
 */
import { apiErrors } from "../../platform/errors.js";
import type { DnsRecordRow } from "./record-store.js";
import type { RuleViolation } from "./record-rules.js";

/** In Unicode code points, as JSON Schema's maxLength counts: Cloudflare's largest comment fits. */
export const COMMENT_MAX_LENGTH = 500;

/**
 * C0 and C1 controls and DEL: a comment is one line of text that every table and log shows as
 * written. The front doors refuse them in any text first (server/platform/plain-text.ts); this
 * keeps the rule with the comment for any other caller.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;

export type RecordAnnotations = Pick<DnsRecordRow, "comment" | "locked">;

/** What a request asks of the annotations: each field given replaces the stored one; null or "" removes the comment. */
export interface AnnotationChange {
  comment?: string | null;
  locked?: boolean;
}

export const NO_ANNOTATIONS: RecordAnnotations = { comment: null, locked: false };

/** The rules a comment breaks; an absent or null comment breaks none. */
export function commentViolations(comment: string | null | undefined): RuleViolation[] {
  if (comment === undefined || comment === null) return [];
  const violations: RuleViolation[] = [];
  if ([...comment].length > COMMENT_MAX_LENGTH)
    violations.push({ field: "comment", code: "too_long", message: `comment must be at most ${COMMENT_MAX_LENGTH} characters` });
  if (CONTROL_CHARACTER.test(comment))
    violations.push({
      field: "comment",
      code: "invalid_format",
      message: "comment must not contain control characters such as line breaks or tabs",
    });
  return violations;
}

/** The annotations after a change: what the change names replaces what `before` holds. */
export function annotationsAfter(before: RecordAnnotations, change: AnnotationChange): RecordAnnotations {
  return {
    comment: change.comment === undefined ? before.comment : change.comment === "" ? null : change.comment,
    locked: change.locked ?? before.locked,
  };
}

/** The annotation fields of a request body, without its other fields: what to spread over a record draft. */
export function annotationChangeOf(body: AnnotationChange): AnnotationChange {
  return {
    ...(body.comment !== undefined ? { comment: body.comment } : {}),
    ...(body.locked !== undefined ? { locked: body.locked } : {}),
  };
}

/**
 * The lock binds the user, not the partner: the embedded interface calls this before it changes or
 * deletes a record, the API does not. 409 (`record_locked`), naming the record.
 */
export function assertUnlockedForUser(record: DnsRecordRow): void {
  if (!record.locked) return;
  throw apiErrors.conflict(
    `The ${record.type} record ${record.name} is locked by the partner: it cannot be changed or deleted in the embedded interface`,
    { field: "id", code: "record_locked" },
  );
}

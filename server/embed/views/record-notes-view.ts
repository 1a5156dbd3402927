/** A record's comment and the partner's lock as the DNS pages show them: in the records table and the record forms. */
import { COMMENT_MAX_LENGTH } from "../../domain/dns/record-annotations.js";
import type { DnsRecordRow } from "../../domain/dns/record-store.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { textInput } from "./controls.js";

/** The comment under a record's value; nothing for a record without one. */
export const recordComment = (l: Localizer, record: Pick<DnsRecordRow, "comment">): Html | null =>
  record.comment === null
    ? null
    : html`<p class="record-comment"><span class="visually-hidden">${l.t.recordNotes.commentPrefix} </span>${record.comment}</p>`;

/** Drawn, not an emoji: a page's fonts may have no padlock glyph. */
const PADLOCK = html`<svg aria-hidden="true" focusable="false" width="11" height="11" viewBox="0 0 16 16"><path fill="currentColor" d="M4 7V5a4 4 0 0 1 8 0v2h1a1 1 0 0 1 1 1v7a1 1 0 0 1-1 1H3a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1h1zm2 0h4V5a2 2 0 0 0-4 0v2z"/></svg>`;

/**
 * The lock's mark: seen as a padlock and a word, read as one image named with the partner, so a
 * screen reader says who locked it where a sighted user sees the row lose its edit and delete.
 */
export const lockMark = (l: Localizer, partner: string): Html =>
  html`<span class="badge lock-badge" role="img" aria-label="${l.t.recordNotes.lockedBy(partner)}" title="${l.t.recordNotes.lockedBy(partner)}">${PADLOCK} ${l.t.recordNotes.locked}</span>`;

/** The comment field of the add and edit forms; an empty field is no comment. */
export const commentField = (l: Localizer, prefix: string, value: string, error: string | undefined): Html =>
  textInput({
    l,
    id: `${prefix}-comment`,
    name: "comment",
    label: l.t.recordNotes.comment,
    value,
    hint: l.t.recordNotes.commentHint(COMMENT_MAX_LENGTH),
    error,
  });

/** A domain's page and its DNS records: add, edit, delete (after a confirmation) and restore, apply a template (after a review). */
import type { Request, Response } from "express";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import { interfaceDefaultTtl } from "../../domain/dns/default-ttl.js";
import { recordViolations, type RecordDraft } from "../../domain/dns/record-rules.js";
import { createRecord, deleteRecord, updateRecord } from "../../domain/dns/record-service.js";
import { applyTemplate, checkTemplateRecords } from "../../domain/dns/template-service.js";
import { type ApiError, apiErrors } from "../../platform/errors.js";
import type { DnsRecordRow } from "../../domain/dns/record-store.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { html, type Html } from "../../web/html.js";
import { answerChange, chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "./embed-context.js";
import {
  assertUnchangedSinceShown,
  choiceOf,
  integerOf,
  NO_ERRORS,
  textOf,
  valuesOf,
  type FormBody,
  type FormErrors,
  type FormState,
} from "./forms.js";
import { conflictMessage, friendlyErrors, violationErrors } from "../i18n/form-errors.js";
import { noticeOf, noticeParameter, type Notice } from "./notices.js";
import { csrfInput } from "../views/controls.js";
import {
  dnsPage,
  RECORD_TYPES,
  recordDeletePage,
  recordEditPage,
  recordFormFields,
  templateReviewPage,
  type DnsView,
} from "../views/dns-view.js";
import { recordSortOf, sortRecords } from "../views/record-order.js";
import { domainNotice } from "./domains.js";
import { connectionSectionOf } from "./connection.js";
import { assertUnlockedForUser, commentViolations, type AnnotationChange } from "../../domain/dns/record-annotations.js";
import type { RouteTable } from "../../web/route-table.js";

/** How long a deleted record can be restored from the page that announces its deletion, by the partner's clock. */
const RESTORE_WINDOW_MS = 10 * 60 * 1000;

type Failure = Pick<DnsView, "addRecord" | "template" | "zoneImport">;

const defaultTtlOf = (context: EmbedContext) => interfaceDefaultTtl(context.services.deployment.variants);

/** The restore button of a deletion's notice, while its window is open. */
async function restoreForm(context: EmbedContext, domain: DomainRow, eventId: string): Promise<Html | null> {
  const event = await context.services.events.findEvent(context.session.partnerId, eventId);
  if (!event || event.createdAt.getTime() + RESTORE_WINDOW_MS <= context.services.clock.now().getTime()) return null;
  const { notices } = context.l.t;
  return html` <form method="post" action="/domains/${domain.id}/restore" class="inline-action">
${csrfInput(context.session.csrfToken)}
<input type="hidden" name="event" value="${eventId}">
<button type="submit">${notices.restore}</button>
</form> <span class="hint">${notices.restoreWithin(RESTORE_WINDOW_MS / 60_000)}</span>`;
}

async function dnsNotice(context: EmbedContext, query: Record<string, unknown>): Promise<Html | string | null> {
  const notice = noticeOf(context.session, query);
  if (!notice) return null;
  const { l } = context;
  const { notices } = l.t;
  return domainNotice(context, notice, async (domain): Promise<Html | string | null> => {
    switch (notice.kind) {
      case "purchased":
        return notices.purchased(
          domain.name,
          l.money(notice.charged, notice.currency),
          l.t.controls.years(notice.years),
          l.dateText(domain.expiresAt),
        );
      case "record-added":
        return notices.recordAdded(notice.type, notice.name, domain.name);
      case "record-saved":
        return notices.recordSaved(notice.type, notice.name);
      case "record-restored":
        return notices.recordRestored(notice.type, notice.name);
      case "record-deleted":
        return html`${notices.recordDeleted(notice.type, notice.name)}${await restoreForm(context, domain, notice.event)}`;
      case "template-applied":
        return notices.templateApplied(l.t.templates.titles[notice.template], notice.count, domain.name);
      case "connection-fixed":
        return l.t.connection.fixed(notice.count, context.partnerName);
      case "zone-imported":
        return l.t.zoneFiles.imported(notice.count, domain.name);
      default:
        return null;
    }
  });
}

export async function renderDns(
  context: EmbedContext,
  req: Request,
  domainId: string,
  failure: Failure = {},
  message: string | null = null,
): Promise<string> {
  const domain = await domainOfSessionUser(context, domainId);
  const sort = recordSortOf(req.query);
  const records = sortRecords(await context.services.store.recordsOfDomain(domain.id), sort);
  const notice = message ?? (Object.keys(failure).length > 0 ? null : await dnsNotice(context, req.query));
  return dnsPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domain,
    records,
    sort,
    notice,
    defaultTtl: defaultTtlOf(context),
    connection: await connectionSectionOf(context, domain),
    ...failure,
  });
}

/**
 * A record as the form describes it, in the terms the DNS rules use (Variant D's content and
 * priority), with its comment (an empty field removes it). The user never sets the lock: a form's
 * `locked` field is not read.
 */
function draftOf(context: EmbedContext, body: FormBody, type: DnsRecordRow["type"]): RecordDraft & Pick<AnnotationChange, "comment"> {
  return {
    type,
    name: textOf(body, "name"),
    content: textOf(body, "content"),
    ttl: integerOf(body, "ttl") ?? defaultTtlOf(context),
    priority: integerOf(body, "priority") ?? null,
    // A form without the field (one cached from before comments) leaves the comment as it is.
    ...(body.comment === undefined ? {} : { comment: textOf(body, "comment") }),
  };
}

/** What a user is told when they try to change or delete a record the partner locked: the record, and who locked it. */
const lockedMessage = (context: EmbedContext, record: Pick<DnsRecordRow, "type" | "name">) =>
  context.l.t.recordNotes.refused(record.type, record.name, context.partnerName);

/** The domain's page saying a locked record was left as it is (409: nothing was changed). */
async function refuseLocked(context: EmbedContext, req: Request, res: Response, domainId: string, record: DnsRecordRow) {
  res
    .status(409)
    .type("html")
    .send(await renderDns(context, req, domainId, {}, lockedMessage(context, record)));
}

/**
 * A record form's problems: every rule the record breaks, each at its field (the services name only
 * the first); else the refusal itself (a conflict with the zone, the domain's limit).
 */
function recordFormErrors(
  context: EmbedContext,
  error: ApiError,
  body: FormBody,
  type: DnsRecordRow["type"] | null,
  domain: DomainRow,
): FormErrors {
  const situation = { domain, record: { type: type ?? "A", name: valuesOf(body, ["name"]).name! } } as const;
  if (type === null) return friendlyErrors(context.l, error, situation);
  let draft: ReturnType<typeof draftOf>;
  try {
    draft = draftOf(context, body, type);
  } catch {
    return friendlyErrors(context.l, error, { ...situation, record: { type, name: situation.record.name } });
  }
  const violations = [...recordViolations(draft, domain.name), ...commentViolations(draft.comment)];
  return violations.length > 0
    ? violationErrors(context.l, violations, { domain, record: draft })
    : friendlyErrors(context.l, error, { domain, record: draft });
}

/** The type a form names, or null when it names none the form offers. */
function typeOf(body: FormBody): DnsRecordRow["type"] | null {
  try {
    return choiceOf(body, "type", RECORD_TYPES);
  } catch {
    return null;
  }
}

async function recordOf(domain: DomainRow, context: EmbedContext, recordId: string): Promise<DnsRecordRow> {
  const record = await context.services.store.findRecord(recordId);
  if (!record || record.domainId !== domain.id) throw apiErrors.notFound("DNS record", recordId);
  return record;
}

const afterChange = (context: EmbedContext, domain: DomainRow, notice: Notice) =>
  `/domains/${domain.id}?${noticeParameter(context.session, notice)}#records-title`;

const isTemplateId = (id: string): id is DnsTemplateId => Object.hasOwn(dnsTemplates, id);

const variableFieldsOf = (templateId: DnsTemplateId) => Object.keys(dnsTemplates[templateId].variables).map((name) => `variables.${name}`);

/** The variables a template form gave; empty fields are left out, so the template's defaults apply, as when the API is sent no value. */
function variablesOf(body: FormBody, templateId: DnsTemplateId): Record<string, string> {
  return Object.fromEntries(
    variableFieldsOf(templateId)
      .map((field) => [field.slice("variables.".length), textOf(body, field)])
      .filter(([, value]) => value !== ""),
  );
}

/** The records a template would add, checked as applying it checks them (template-service.ts), with every problem in the user's words. */
async function templateCheck(
  context: EmbedContext,
  domain: DomainRow,
  templateId: DnsTemplateId,
  variables: Record<string, string>,
): Promise<{ drafts: RecordDraft[]; errors: FormErrors }> {
  const { l } = context;
  const checks = await checkTemplateRecords(context.services.store, domain, templateId, variables);
  const summary = checks.flatMap(({ draft, violations, conflict }) => [
    ...violationErrors(l, violations, { domain, record: draft }).summary.map((message) =>
      l.t.errors.templateRecord(draft.type, draft.name, message),
    ),
    ...(conflict ? [conflictMessage(l, conflict.code, draft)] : []),
  ]);
  return { drafts: checks.map(({ draft }) => draft), errors: { fields: {}, summary } };
}

export async function showDomain(req: Request, res: Response) {
  res.type("html").send(await renderDns(embedContextOf(res), req, String(req.params.domainId)));
}

export async function addRecord(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const body = req.body as FormBody;
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const record = await createRecord(tx.services, domain, draftOf(context, body, choiceOf(body, "type", RECORD_TYPES)));
      return afterChange(context, domain, { kind: "record-added", domain: domain.id, type: record.type, name: record.name });
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      const errors = recordFormErrors(context, error, body, typeOf(body), domain);
      return { html: await renderDns(context, req, domainId, { addRecord: { values: valuesOf(body, recordFormFields), errors } }) };
    },
    "domain-locked",
  );
}

export async function showRecordEdit(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  const record = await recordOf(domain, context, String(req.params.recordId));
  if (record.locked) return refuseLocked(context, req, res, domain.id, record);
  const values = {
    name: record.name,
    content: record.content,
    ttl: String(record.ttl),
    priority: record.type === "MX" && record.priority !== null ? String(record.priority) : "",
    comment: record.comment ?? "",
  };
  res.type("html").send(
    recordEditPage({
      chrome: chromeOf(context, "domains"),
      csrfToken: context.session.csrfToken,
      domain,
      record,
      state: { values, errors: NO_ERRORS },
      defaultTtl: defaultTtlOf(context),
    }),
  );
}

export async function editRecord(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const recordId = String(req.params.recordId);
  const body = req.body as FormBody;
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const record = await recordOf(domain, tx, recordId);
      // Before the form is read: a locked record is refused whatever was posted.
      assertUnlockedForUser(record);
      const draft = draftOf(context, body, record.type);
      assertUnchangedSinceShown(body, record, "DNS record");
      const saved = await updateRecord(tx.services, domain, record, draft);
      return afterChange(context, domain, { kind: "record-saved", domain: domain.id, type: saved.type, name: saved.name });
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      const record = await recordOf(domain, context, recordId);
      if (error.details?.code === "record_locked")
        return { html: await renderDns(context, req, domainId, {}, lockedMessage(context, record)) };
      const changedMeanwhile = error.code === "precondition_failed";
      const state: FormState = {
        values: valuesOf(body, recordFormFields),
        errors: changedMeanwhile ? NO_ERRORS : recordFormErrors(context, error, body, record.type, domain),
      };
      return {
        html: recordEditPage({
          chrome: chromeOf(context, "domains"),
          csrfToken: context.session.csrfToken,
          domain,
          record,
          state,
          changedMeanwhile,
          defaultTtl: defaultTtlOf(context),
        }),
      };
    },
    "domain-locked",
  );
}

// Deleting asks first, on a page of its own: it works without scripts, and says what goes.
export async function showRecordDeletion(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  const record = await recordOf(domain, context, String(req.params.recordId));
  if (record.locked) return refuseLocked(context, req, res, domain.id, record);
  res.type("html").send(recordDeletePage({ chrome: chromeOf(context, "domains"), csrfToken: context.session.csrfToken, domain, record }));
}

export async function deleteRecordFromForm(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const recordId = String(req.params.recordId);
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const record = await recordOf(domain, tx, recordId);
      assertUnlockedForUser(record);
      assertUnchangedSinceShown(req.body as FormBody, record, "DNS record");
      const event = await deleteRecord(tx.services, domain, record);
      return afterChange(context, domain, {
        kind: "record-deleted",
        domain: domain.id,
        type: record.type,
        name: record.name,
        event: event.id,
      });
    },
    // Besides a missing domain or record (the not-found page), only the partner's lock and a change since the page was shown refuse a deletion.
    async (error) => {
      if (error.details?.code === "record_locked") {
        const domain = await domainOfSessionUser(context, domainId);
        return { html: await renderDns(context, req, domainId, {}, lockedMessage(context, await recordOf(domain, context, recordId))) };
      }
      if (error.code !== "precondition_failed") throw error;
      return { html: await renderDns(context, req, domainId, {}, context.l.t.deletion.changed) };
    },
    "domain-locked",
  );
}

// Restoring is adding the record again as it was, from its deletion's event: the same rules and
// checks as adding, so a record that now conflicts (the name was taken meanwhile) is refused.
export async function restoreRecords(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  // The event history is written once and never changed: it is read before the change's transaction.
  const event = await context.services.events.findEvent(context.session.partnerId, textOf(req.body as FormBody, "event"));
  const payload = event?.type === "dns_record.deleted" ? (event.payload as { domain_id?: string; data?: Partial<DnsRecordRow> }) : null;
  const deleted = payload?.data;
  const draft: (RecordDraft & AnnotationChange) | null = deleted?.type
    ? {
        type: deleted.type,
        name: deleted.name!,
        content: deleted.content!,
        ttl: deleted.ttl!,
        priority: deleted.type === "MX" ? (deleted.priority ?? null) : null,
        // What the user deleted comes back with its comment (the event carries it since issue 35).
        comment: deleted.comment ?? null,
      }
    : null;
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      if (!event || !draft || payload?.domain_id !== domain.id) throw apiErrors.notFound("Deleted record", event?.id ?? "");
      if (event.createdAt.getTime() + RESTORE_WINDOW_MS <= tx.services.clock.now().getTime()) {
        throw apiErrors.unprocessable("The record can no longer be restored", { field: "event", code: "restore_window_closed" });
      }
      const record = await createRecord(tx.services, domain, draft);
      return afterChange(context, domain, { kind: "record-restored", domain: domain.id, type: record.type, name: record.name });
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      const message =
        error.details?.code === "restore_window_closed"
          ? context.l.t.deletion.tooLate
          : friendlyErrors(context.l, error, { domain, ...(draft ? { record: draft } : {}) }).summary[0]!;
      return { html: await renderDns(context, req, domainId, {}, message) };
    },
    "domain-locked",
  );
}

// The review of a template: the exact records it adds with the values given, before anything is added.
export async function showTemplate(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  const templateId = String(req.params.templateId);
  if (!isTemplateId(templateId)) throw apiErrors.notFound("Template", templateId);
  const query = req.query as FormBody;
  const values = valuesOf(query, variableFieldsOf(templateId));
  let check: { drafts: RecordDraft[]; errors: FormErrors };
  try {
    check = await templateCheck(context, domain, templateId, variablesOf(query, templateId));
  } catch (error) {
    if (!(error as ApiError).details) throw error;
    const errors = friendlyErrors(context.l, error as ApiError, { domain, template: templateId });
    res
      .status((error as ApiError).status)
      .type("html")
      .send(await renderDns(context, req, domain.id, { template: { id: templateId, state: { values, errors } } }));
    return;
  }
  const status = check.errors.summary.length > 0 ? 409 : 200;
  res
    .status(status)
    .type("html")
    .send(
      templateReviewPage({
        chrome: chromeOf(context, "domains"),
        csrfToken: context.session.csrfToken,
        domain,
        template: templateId,
        drafts: check.drafts,
        values: Object.fromEntries(Object.entries(values).filter(([, value]) => value !== "")),
        errors: check.errors,
      }),
    );
}

export async function applyTemplateFromForm(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  await domainOfSessionUser(context, domainId);
  const body = req.body as FormBody;
  // Which template's form answers; the field itself is read (and refused if repeated) with the others.
  const templateId = valuesOf(body, ["template_id"]).template_id!;
  if (!isTemplateId(templateId)) throw apiErrors.notFound("Template", templateId);
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const records = await applyTemplate(tx.services, domain, choiceOf(body, "template_id", [templateId]), variablesOf(body, templateId));
      return afterChange(context, domain, { kind: "template-applied", domain: domain.id, template: templateId, count: records.length });
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      // A conflict with the zone (it changed since the review): the review's check names the record and why.
      const conflicts =
        error.code === "conflict" ? (await templateCheck(context, domain, templateId, variablesOf(body, templateId))).errors : NO_ERRORS;
      const errors = conflicts.summary.length > 0 ? conflicts : friendlyErrors(context.l, error, { domain, template: templateId });
      return {
        html: await renderDns(context, req, domainId, {
          template: { id: templateId, state: { values: valuesOf(body, variableFieldsOf(templateId)), errors } },
        }),
      };
    },
    "domain-locked",
  );
}

export const DNS_ROUTES: RouteTable = {
  "/domains/:domainId": { get: showDomain },
  "/domains/:domainId/dns": { post: addRecord },
  "/domains/:domainId/dns/:recordId/edit": { get: showRecordEdit },
  "/domains/:domainId/dns/:recordId": { post: editRecord },
  "/domains/:domainId/dns/:recordId/delete": { get: showRecordDeletion, post: deleteRecordFromForm },
  "/domains/:domainId/restore": { post: restoreRecords },
  "/domains/:domainId/templates/:templateId": { get: showTemplate },
  "/domains/:domainId/templates": { post: applyTemplateFromForm },
};

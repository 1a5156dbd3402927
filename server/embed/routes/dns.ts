/** A domain's page and its DNS records: add, edit, delete, apply a template. */
import type { Express, Request, Response } from "express";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import type { RecordDraft } from "../../dns/record-rules.js";
import { createRecord, deleteRecord, updateRecord } from "../../dns/record-service.js";
import { applyTemplate } from "../../dns/template-service.js";
import { ApiError, apiErrors } from "../../errors.js";
import type { DnsRecordRow, DomainRow } from "../../store/types.js";
import { chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "../embed-context.js";
import { choiceOf, formErrors, integerOf, textOf, valuesOf, type FormBody, type FormState } from "../forms.js";
import { DEFAULT_TTL, dnsPage, RECORD_TYPES, recordEditPage, recordFormFields, type DnsView } from "../views/dns-view.js";
import { noticeFor, type NoticeCode } from "./notices.js";

type Failure = Pick<DnsView, "addRecord" | "template">;

function renderDns(context: EmbedContext, req: Request, domain: DomainRow, failure: Failure = {}): string {
  const records = context.services.store.recordsOfDomain(domain.id);
  const notice = Object.keys(failure).length > 0 ? null : noticeFor(context, req.query);
  return dnsPage({ chrome: chromeOf(context, "domains"), csrfToken: context.session.csrfToken, domain, records, notice, ...failure });
}

/** A record as the form describes it, in the terms the DNS rules use (Variant D's content and priority). */
function draftOf(body: FormBody, type: DnsRecordRow["type"]): RecordDraft {
  return {
    type,
    name: textOf(body, "name"),
    content: textOf(body, "content"),
    ttl: integerOf(body, "ttl") ?? Number(DEFAULT_TTL),
    priority: integerOf(body, "priority") ?? null,
  };
}

function recordOf(domain: DomainRow, context: EmbedContext, recordId: string): DnsRecordRow {
  const record = context.services.store.findRecord(recordId);
  if (!record || record.domainId !== domain.id) throw apiErrors.notFound("DNS record", recordId);
  return record;
}

/** Runs a change; on an ApiError answers the page with the refused form instead of redirecting. */
function change(res: Response, redirectTo: string, act: () => void, refused: (error: ApiError) => { status?: number; html: string }): void {
  try {
    act();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status === 403) throw error;
    const answer = refused(error);
    res
      .status(answer.status ?? error.status)
      .type("html")
      .send(answer.html);
    return;
  }
  res.redirect(303, redirectTo);
}

const afterChange = (domain: DomainRow, notice: NoticeCode) => `/domains/${domain.id}?notice=${notice}&domain=${domain.id}`;

const isTemplateId = (id: string): id is DnsTemplateId => Object.hasOwn(dnsTemplates, id);

export function registerDnsRoutes(app: Express): void {
  app.get("/domains/:domainId", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    res.type("html").send(renderDns(context, req, domainOfSessionUser(context, String(req.params.domainId))));
  });

  app.post("/domains/:domainId/dns", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = domainOfSessionUser(context, String(req.params.domainId));
    const body = req.body as FormBody;
    change(
      res,
      afterChange(domain, "record-added"),
      () => createRecord(context.services, domain, draftOf(body, choiceOf(body, "type", RECORD_TYPES))),
      (error) => ({
        html: renderDns(context, req, domain, { addRecord: { values: valuesOf(body, recordFormFields), errors: formErrors(error) } }),
      }),
    );
  });

  app.get("/domains/:domainId/dns/:recordId/edit", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = domainOfSessionUser(context, String(req.params.domainId));
    const record = recordOf(domain, context, String(req.params.recordId));
    const values = {
      name: record.name,
      content: record.content,
      ttl: String(record.ttl),
      priority: record.type === "MX" && record.priority !== null ? String(record.priority) : "",
    };
    res.type("html").send(
      recordEditPage({
        chrome: chromeOf(context, "domains"),
        csrfToken: context.session.csrfToken,
        domain,
        record,
        state: { values, errors: { fields: {}, summary: [] } },
      }),
    );
  });

  app.post("/domains/:domainId/dns/:recordId", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = domainOfSessionUser(context, String(req.params.domainId));
    const record = recordOf(domain, context, String(req.params.recordId));
    const body = req.body as FormBody;
    change(
      res,
      afterChange(domain, "record-saved"),
      () => updateRecord(context.services, domain, record, draftOf(body, record.type)),
      (error) => {
        const state: FormState = { values: valuesOf(body, recordFormFields), errors: formErrors(error) };
        return {
          html: recordEditPage({ chrome: chromeOf(context, "domains"), csrfToken: context.session.csrfToken, domain, record, state }),
        };
      },
    );
  });

  app.post("/domains/:domainId/dns/:recordId/delete", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = domainOfSessionUser(context, String(req.params.domainId));
    const record = recordOf(domain, context, String(req.params.recordId));
    deleteRecord(context.services, domain, record);
    res.redirect(303, afterChange(domain, "record-deleted"));
  });

  app.post("/domains/:domainId/templates", (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = domainOfSessionUser(context, String(req.params.domainId));
    const body = req.body as FormBody;
    // Which template's form answers; the field itself is read (and refused if repeated) with the others.
    const templateId = valuesOf(body, ["template_id"]).template_id!;
    if (!isTemplateId(templateId)) throw apiErrors.notFound("Template", templateId);
    const variableNames = Object.keys(dnsTemplates[templateId].variables).map((name) => `variables.${name}`);
    // Empty fields are left out, so the template's defaults apply, as when the API is sent no value.
    const variablesOf = () =>
      Object.fromEntries(
        variableNames.map((field) => [field.slice("variables.".length), textOf(body, field)]).filter(([, value]) => value !== ""),
      );
    change(
      res,
      afterChange(domain, "template-applied"),
      () => applyTemplate(context.services, domain, choiceOf(body, "template_id", [templateId]), variablesOf()),
      (error) => ({
        html: renderDns(context, req, domain, {
          template: { id: templateId, state: { values: valuesOf(body, variableNames), errors: formErrors(error) } },
        }),
      }),
    );
  });
}

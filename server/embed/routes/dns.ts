/** A domain's page and its DNS records: add, edit, delete, apply a template. */
import type { Express, Request, Response } from "express";
import { dnsTemplates, type DnsTemplateId } from "../../../generated/operations.js";
import type { RecordDraft } from "../../dns/record-rules.js";
import { createRecord, deleteRecord, updateRecord } from "../../dns/record-service.js";
import { applyTemplate } from "../../dns/template-service.js";
import { apiErrors } from "../../errors.js";
import type { DnsRecordRow, DomainRow } from "../../store/types.js";
import { answerChange, chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "../embed-context.js";
import {
  assertUnchangedSinceShown,
  choiceOf,
  formErrors,
  integerOf,
  NO_ERRORS,
  textOf,
  valuesOf,
  type FormBody,
  type FormState,
} from "../forms.js";
import { DEFAULT_TTL, dnsPage, RECORD_TYPES, recordEditPage, recordFormFields, type DnsView } from "../views/dns-view.js";
import { noticeFor, type NoticeCode } from "./notices.js";

type Failure = Pick<DnsView, "addRecord" | "template">;

async function renderDns(context: EmbedContext, req: Request, domainId: string, failure: Failure = {}): Promise<string> {
  const domain = await domainOfSessionUser(context, domainId);
  const records = await context.services.store.recordsOfDomain(domain.id);
  const notice = Object.keys(failure).length > 0 ? null : await noticeFor(context, req.query);
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

async function recordOf(domain: DomainRow, context: EmbedContext, recordId: string): Promise<DnsRecordRow> {
  const record = await context.services.store.findRecord(recordId);
  if (!record || record.domainId !== domain.id) throw apiErrors.notFound("DNS record", recordId);
  return record;
}

/** What the domain's page says when a record changed after it was shown, so a deletion was not made. */
const CHANGED_BEFORE_DELETION =
  "That record changed after this page was shown, so it was not deleted. Its current values are below; delete it again if you still want to.";

const afterChange = (domain: DomainRow, notice: NoticeCode) => `/domains/${domain.id}?notice=${notice}&domain=${domain.id}`;

const isTemplateId = (id: string): id is DnsTemplateId => Object.hasOwn(dnsTemplates, id);

export function registerDnsRoutes(app: Express): void {
  app.get("/domains/:domainId", async (req: Request, res: Response) => {
    res.type("html").send(await renderDns(embedContextOf(res), req, String(req.params.domainId)));
  });

  app.post("/domains/:domainId/dns", async (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domainId = String(req.params.domainId);
    const body = req.body as FormBody;
    await answerChange(
      res,
      context,
      async (tx) => {
        const domain = await domainOfSessionUser(tx, domainId);
        await createRecord(tx.services, domain, draftOf(body, choiceOf(body, "type", RECORD_TYPES)));
        return afterChange(domain, "record-added");
      },
      async (error) => ({
        html: await renderDns(context, req, domainId, {
          addRecord: { values: valuesOf(body, recordFormFields), errors: formErrors(error) },
        }),
      }),
      "domain-locked",
    );
  });

  app.get("/domains/:domainId/dns/:recordId/edit", async (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domain = await domainOfSessionUser(context, String(req.params.domainId));
    const record = await recordOf(domain, context, String(req.params.recordId));
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

  app.post("/domains/:domainId/dns/:recordId", async (req: Request, res: Response) => {
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
        const draft = draftOf(body, record.type);
        assertUnchangedSinceShown(body, record, "DNS record");
        await updateRecord(tx.services, domain, record, draft);
        return afterChange(domain, "record-saved");
      },
      async (error) => {
        const domain = await domainOfSessionUser(context, domainId);
        const record = await recordOf(domain, context, recordId);
        const changedMeanwhile = error.code === "precondition_failed";
        const state: FormState = { values: valuesOf(body, recordFormFields), errors: changedMeanwhile ? NO_ERRORS : formErrors(error) };
        return {
          html: recordEditPage({
            chrome: chromeOf(context, "domains"),
            csrfToken: context.session.csrfToken,
            domain,
            record,
            state,
            changedMeanwhile,
          }),
        };
      },
      "domain-locked",
    );
  });

  app.post("/domains/:domainId/dns/:recordId/delete", async (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domainId = String(req.params.domainId);
    const recordId = String(req.params.recordId);
    await answerChange(
      res,
      context,
      async (tx) => {
        const domain = await domainOfSessionUser(tx, domainId);
        const record = await recordOf(domain, tx, recordId);
        assertUnchangedSinceShown(req.body as FormBody, record, "DNS record");
        await deleteRecord(tx.services, domain, record);
        return afterChange(domain, "record-deleted");
      },
      // Besides a missing domain or record (the not-found page), only a change since the page was shown refuses a deletion.
      async (error) => {
        if (error.code !== "precondition_failed") throw error;
        const domain = await domainOfSessionUser(context, domainId);
        const records = await context.services.store.recordsOfDomain(domain.id);
        const chrome = chromeOf(context, "domains");
        return { html: dnsPage({ chrome, csrfToken: context.session.csrfToken, domain, records, notice: CHANGED_BEFORE_DELETION }) };
      },
      "domain-locked",
    );
  });

  app.post("/domains/:domainId/templates", async (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const domainId = String(req.params.domainId);
    await domainOfSessionUser(context, domainId);
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
    await answerChange(
      res,
      context,
      async (tx) => {
        const domain = await domainOfSessionUser(tx, domainId);
        await applyTemplate(tx.services, domain, choiceOf(body, "template_id", [templateId]), variablesOf());
        return afterChange(domain, "template-applied");
      },
      async (error) => ({
        html: await renderDns(context, req, domainId, {
          template: { id: templateId, state: { values: valuesOf(body, variableNames), errors: formErrors(error) } },
        }),
      }),
      "domain-locked",
    );
  });
}

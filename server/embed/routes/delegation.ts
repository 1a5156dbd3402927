/** A domain's nameservers and DNSSEC DS records in the embedded interface. */
import type { Request, Response } from "express";
import { delegationOf } from "../../domain/domains/delegation.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { addDsRecord, DIGEST_LENGTHS, MAX_DS_RECORDS, removeDsRecord } from "../../domain/domains/ds-records.js";
import { readNameservers, requestNameservers } from "../../domain/domains/nameservers.js";
import { DEFAULT_NAMESERVERS } from "../../domain/domains/registration.js";
import { type ApiError, apiErrors } from "../../platform/errors.js";
import type { RouteTable } from "../../web/route-table.js";
import { friendlyErrors } from "../i18n/form-errors.js";
import { delegationPage, type DelegationView } from "../views/delegation-view.js";
import { answerChange, chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "./embed-context.js";
import { choiceOf, type FormBody, type FormErrors } from "./forms.js";

const MODES = ["ours", "custom"] as const;
/** What the page says after a change; the sentence comes from the domain as it is now, so a crafted link claims nothing. */
const DONE = ["requested", "ds-added", "ds-removed"] as const;

const sentence = (field: string, text: string): FormErrors => ({ fields: { [field]: text }, summary: [text] });

/** The refusals of the nameserver form in the user's words. */
function nameserverErrors(context: EmbedContext, domain: DomainRow, hosts: readonly string[], error: ApiError): FormErrors {
  const { t } = context.l;
  const field = typeof error.details?.field === "string" ? error.details.field : "";
  const host = hosts[Number(field.split(".")[1])] ?? "";
  switch (error.details?.code) {
    case "out_of_range":
      return sentence("nameservers", t.delegation.errors.count);
    case "invalid_format":
      return sentence("nameservers", t.delegation.errors.hostName(host));
    case "duplicate_nameserver":
      return sentence("nameservers", t.delegation.errors.duplicate(host));
    case "invalid_value":
      return sentence("nameservers", t.delegation.errors.ours);
    case "glue_required":
      return sentence("nameservers", t.delegation.errors.glue(host));
    case "invalid_status":
      return { fields: {}, summary: [t.delegation.notActive(t.statuses[domain.status])] };
    default:
      return friendlyErrors(context.l, error);
  }
}

function dsErrors(context: EmbedContext, body: FormBody, error: ApiError): FormErrors {
  const { t } = context.l;
  const digestType = Number(body.digest_type);
  switch (error.details?.code) {
    case "duplicate_ds_record":
      return sentence("digest", t.delegation.dsErrors.duplicate);
    case "ds_limit_exceeded":
      return { fields: {}, summary: [t.delegation.dsErrors.limit(MAX_DS_RECORDS)] };
    case "invalid_format":
      return sentence(
        String(error.details?.field),
        error.details?.field === "digest" ? t.delegation.dsErrors.hex : t.delegation.dsErrors.keyTag,
      );
    case "invalid_value":
      if (error.details?.field === "digest")
        return sentence("digest", t.delegation.dsErrors.digestLength(DIGEST_LENGTHS[digestType] ?? 64));
      return friendlyErrors(context.l, error);
    case "out_of_range":
    case "invalid_type":
      return sentence("key_tag", t.delegation.dsErrors.keyTag);
    default:
      return friendlyErrors(context.l, error);
  }
}

async function render(
  context: EmbedContext,
  domain: DomainRow,
  extra: Partial<Pick<DelegationView, "notice" | "nameserverForm" | "dsForm">> = {},
) {
  const { store } = context.services;
  return delegationPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domain,
    delegation: await delegationOf(context.services, domain),
    dsRecords: await store.delegations.dsRecordsOf(domain.id),
    notice: extra.notice ?? null,
    nameserverForm: extra.nameserverForm,
    dsForm: extra.dsForm,
  });
}

export async function showDelegation(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  const done = DONE.find((value) => value === req.query.done) ?? null;
  const { t } = context.l;
  let noticeText: string | null = null;
  if (done === "requested") {
    const { pending } = await delegationOf(context.services, domain);
    noticeText = pending ? t.delegation.requested(domain.name) : t.delegation.unchanged;
  }
  if (done === "ds-added") noticeText = t.delegation.dsAdded;
  if (done === "ds-removed") noticeText = t.delegation.dsRemoved;
  res.type("html").send(await render(context, domain, { notice: noticeText }));
}

/** Host names as typed: separated by commas or spaces, in any case (the rules lower-case and check them). */
const hostsOf = (text: string) => text.split(/[\s,;]+/).filter((host) => host !== "");

export async function changeNameservers(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const body = req.body as FormBody;
  const mode = choiceOf(body, "mode", MODES);
  const typed = typeof body.nameservers === "string" ? body.nameservers : "";
  const hosts = mode === "custom" ? hostsOf(typed) : [...DEFAULT_NAMESERVERS];
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const nameservers = mode === "custom" ? readNameservers(hosts) : hosts;
      // The warning is confirmed once, when the records would stop applying; moving between custom nameservers needs no confirmation.
      const { custom } = await delegationOf(tx.services, domain);
      if (mode === "custom" && !custom && body.confirm !== "yes")
        throw apiErrors.invalidValue("confirm", "confirmation_required", "confirm");
      await requestNameservers(tx.services, domain, nameservers);
      return `/domains/${domainId}/nameservers?done=requested`;
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      const errors =
        error.details?.code === "confirmation_required"
          ? sentence("confirm", context.l.t.delegation.confirmMissing)
          : nameserverErrors(context, domain, hosts, error);
      return { status: 422, html: await render(context, domain, { nameserverForm: { mode, nameservers: typed, errors } }) };
    },
    "domain-locked",
  );
}

const DS_FIELDS = ["key_tag", "algorithm", "digest_type", "digest"] as const;

export async function addDs(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const body = req.body as FormBody;
  const values = Object.fromEntries(DS_FIELDS.map((name) => [name, typeof body[name] === "string" ? (body[name] as string).trim() : ""]));
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const keyTag = /^\d{1,5}$/.test(values.key_tag!) ? Number(values.key_tag) : Number.NaN;
      await addDsRecord(tx.services, domain, {
        keyTag,
        algorithm: Number(values.algorithm),
        digestType: Number(values.digest_type),
        digest: values.digest!,
      });
      return `/domains/${domainId}/nameservers?done=ds-added#ds-title`;
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      return { status: 422, html: await render(context, domain, { dsForm: { values, errors: dsErrors(context, body, error) } }) };
    },
    "domain-locked",
  );
}

export async function removeDs(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  await answerChange(
    res,
    context,
    async (tx) => {
      await removeDsRecord(tx.services, await domainOfSessionUser(tx, domainId), String(req.params.dsId));
      return `/domains/${domainId}/nameservers?done=ds-removed#ds-title`;
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      return { html: await render(context, domain, { dsForm: { values: {}, errors: friendlyErrors(context.l, error) } }) };
    },
    "domain-locked",
  );
}

export const DELEGATION_ROUTES: RouteTable = {
  "/domains/:domainId/nameservers": { get: showDelegation, post: changeNameservers },
  "/domains/:domainId/ds": { post: addDs },
  "/domains/:domainId/ds/:dsId/delete": { post: removeDs },
};

/** A domain's transfer settings: the registrar lock, the transfer code on request, and the answer to another registrar's request. */
import type { Request, Response } from "express";
import { inTransaction } from "../../application/transactions.js";
import { updateDomainSettings } from "../../domain/domains/domain-settings.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { readAuthCode, transferAllowedFrom, transferControlsOf } from "../../domain/domains/transfer-controls.js";
import { answerOutboundTransfer } from "../../domain/transfers/outbound-transfers.js";
import { ApiError } from "../../platform/errors.js";
import type { RouteTable } from "../../web/route-table.js";
import { friendlyErrors } from "../i18n/form-errors.js";
import { transferredPage, transferSettingsPage } from "../views/transfer-out-view.js";
import { answerChange, chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "./embed-context.js";
import { choiceOf, NO_ERRORS, type FormBody, type FormErrors } from "./forms.js";

const BOOLEAN = ["true", "false"] as const;
const DECISIONS = ["approve", "reject"] as const;
/** What the page says after a change; the sentence is built from the domain as it is now, so a crafted link cannot claim what did not happen. */
const DONE = ["lock", "rejected"] as const;

/** The refusals these forms can meet in the owner's words; others as the interface says them everywhere. */
function transferErrors(context: EmbedContext, domain: DomainRow, error: ApiError): FormErrors {
  const { l } = context;
  const sentence = (text: string): FormErrors => ({ fields: {}, summary: [text] });
  switch (error.details?.code) {
    case "transfer_not_yet_allowed":
      return sentence(l.t.transferOut.codeNotYet(l.dateText(transferAllowedFrom(domain))));
    case "invalid_status":
      return sentence(
        error.details.field === "status" && domain.status === "active"
          ? l.t.transferOut.noPending
          : l.t.transferOut.notActive(l.t.statuses[domain.status]),
      );
    default:
      return friendlyErrors(l, error);
  }
}

async function renderSettings(
  context: EmbedContext,
  domain: DomainRow,
  extra: { revealedCode?: string; done?: (typeof DONE)[number] | null; errors?: FormErrors } = {},
): Promise<string> {
  const { store, clock } = context.services;
  const { l } = context;
  const controls = await transferControlsOf(store, domain);
  const latest = (await store.transferOut.latestOutboundTransfer(domain.id)) ?? null;
  const availableFrom = transferAllowedFrom(domain);
  let noticeText: string | null = null;
  if (extra.done === "lock")
    noticeText = controls.transferLock ? l.t.transferOut.lockOn(domain.name) : l.t.transferOut.lockOff(domain.name);
  if (extra.done === "rejected" && latest?.status === "rejected") noticeText = l.t.transferOut.rejected(domain.name);
  return transferSettingsPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domain,
    transferLock: controls.transferLock,
    codeAvailableFrom: clock.now() < availableFrom ? availableFrom : null,
    revealedCode: extra.revealedCode ?? null,
    latestTransfer: latest,
    notice: noticeText,
    errors: extra.errors ?? NO_ERRORS,
  });
}

export async function showTransferSettings(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  const done = DONE.find((value) => value === req.query.done) ?? null;
  res.type("html").send(await renderSettings(context, domain, { done }));
}

export async function changeTransferLock(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      await updateDomainSettings(tx.services, domain, {
        transferLock: choiceOf(req.body as FormBody, "transfer_lock", BOOLEAN) === "true",
      });
      return `/domains/${domain.id}/transfer?done=lock`;
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      return { html: await renderSettings(context, domain, { errors: transferErrors(context, domain, error) }) };
    },
  );
}

// The code is shown in the answer to this request alone: never in a URL, never in the page by default.
export async function revealTransferCode(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  try {
    const controls = await inTransaction(context.services, (services) => readAuthCode(services.store, domain, services.clock.now()));
    res
      .set("Cache-Control", "no-store")
      .type("html")
      .send(await renderSettings(context, domain, { revealedCode: controls.authCode }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status === 403) throw error;
    res
      .status(error.status)
      .type("html")
      .send(await renderSettings(context, domain, { errors: transferErrors(context, domain, error) }));
  }
}

/** The answer to a pending request. A rejection goes back to the settings; an approval answers a page of its own, the domain being gone. */
export async function answerTransferRequest(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const decision = choiceOf(req.body as FormBody, "decision", DECISIONS);
  const refused = async (error: ApiError) => {
    const domain = await domainOfSessionUser(context, domainId);
    return { html: await renderSettings(context, domain, { errors: transferErrors(context, domain, error) }) };
  };
  if (decision === "reject") {
    await answerChange(
      res,
      context,
      async (tx) => {
        await answerOutboundTransfer(tx.services, await domainOfSessionUser(tx, domainId), "reject");
        return `/domains/${domainId}/transfer?done=rejected`;
      },
      refused,
    );
    return;
  }
  try {
    const { domainName, registrar } = await inTransaction(context.services, async (services) => {
      const domain = await domainOfSessionUser({ ...context, services }, domainId);
      const transfer = await answerOutboundTransfer(services, domain, "approve");
      return { domainName: domain.name, registrar: transfer.gainingRegistrar };
    });
    res.type("html").send(transferredPage({ chrome: chromeOf(context, "domains"), domainName, registrar }));
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 404 || error.status === 403) throw error;
    const answer = await refused(error);
    res.status(error.status).type("html").send(answer.html);
  }
}

export const TRANSFER_OUT_ROUTES: RouteTable = {
  "/domains/:domainId/transfer": { get: showTransferSettings },
  "/domains/:domainId/transfer-lock": { post: changeTransferLock },
  "/domains/:domainId/transfer-code": { post: revealTransferCode },
  "/domains/:domainId/transfer-out": { post: answerTransferRequest },
};

/** Your domains: the list, the auto-renew and WHOIS privacy switches, renewal after a review. */
import type { Request, Response } from "express";
import { updateDomainSettings } from "../../domain/domains/domain-settings.js";
import { isRenewable, renewableYears, renewalCost, renewDomain, renewedUntil } from "../../domain/domains/renewal.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { answerChange, chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "./embed-context.js";
import { assertUnchangedSinceShown, choiceOf, integerOf, NO_ERRORS, textOf, valuesOf, type FormBody, type FormErrors } from "./forms.js";
import { friendlyErrors, problemErrors } from "../i18n/form-errors.js";
import { noticeOf, noticeParameter, type Notice } from "./notices.js";
import { domainsPage, privacyOffPage, renewalReviewPage, type DomainsView } from "../views/domains-view.js";
import type { RouteTable } from "../../web/route-table.js";

/** The sentence of a notice about one of the user's domains, from the domain as it is now; null when it is not theirs. */
export async function domainNotice<T>(
  context: EmbedContext,
  notice: Notice,
  render: (domain: DomainRow) => T | Promise<T>,
): Promise<T | null> {
  const domain = await context.services.store.findDomain(notice.domain);
  if (!domain || domain.partnerId !== context.session.partnerId || domain.userIdentifier !== context.session.userIdentifier) return null;
  return render(domain);
}

async function listNotice(context: EmbedContext, query: Record<string, unknown>): Promise<string | null> {
  const notice = noticeOf(context.session, query);
  const { l } = context;
  const { notices } = l.t;
  if (notice?.kind === "renewed")
    return domainNotice(context, notice, (domain) =>
      notices.renewed(
        domain.name,
        l.money(notice.charged, notice.currency),
        l.t.controls.years(notice.years),
        l.dateText(domain.expiresAt),
      ),
    );
  if (notice?.kind === "setting")
    return domainNotice(context, notice, (domain) => {
      if (notice.setting === "whois_privacy") return notice.on ? notices.privacyOn(domain.name) : notices.privacyOff(domain.name);
      return notice.on
        ? notices.autoRenewOn(domain.name, l.dateText(domain.expiresAt), l.money(domain.renewalPrice, domain.currency))
        : notices.autoRenewOff(domain.name, l.dateText(domain.expiresAt));
    });
  return null;
}

async function renderDomains(context: EmbedContext, req: Request, failed?: DomainsView["failed"]): Promise<string> {
  const { store, clock } = context.services;
  const owned = await store.domainsOfUser(context.session.partnerId, context.session.userIdentifier);
  const counts = await Promise.all(owned.map((domain) => store.countRecords(domain.id)));
  const now = clock.now();
  const domains = owned.map((domain, index) => ({ ...domain, recordCount: counts[index]!, renewableYears: renewableYears(domain, now) }));
  return domainsPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domains,
    notice: failed ? null : await listNotice(context, req.query),
    failed,
  });
}

const BOOLEAN = ["true", "false"] as const;

/** The one setting a switch sends; a body naming neither is refused as the API refuses an unknown field. */
function settingsOf(body: FormBody) {
  if (textOf(body, "auto_renew") !== "") return { autoRenew: choiceOf(body, "auto_renew", BOOLEAN) === "true" };
  return { whoisPrivacy: choiceOf(body, "whois_privacy", BOOLEAN) === "true" };
}

/** The renewal's review, with the problems of a refused confirmation when there were any. */
function renderRenewalReview(context: EmbedContext, domain: DomainRow, years: number, errors: FormErrors): string {
  return renewalReviewPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domain,
    years,
    total: renewalCost(domain, years),
    until: renewedUntil(domain, years, context.services.clock.now()),
    errors,
  });
}

export async function showDomains(req: Request, res: Response) {
  res.type("html").send(await renderDomains(embedContextOf(res), req));
}

export async function changeDomainSettings(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const settings = settingsOf(req.body as FormBody);
      assertUnchangedSinceShown(req.body as FormBody, domain, "domain");
      await updateDomainSettings(tx.services, domain, settings);
      const notice: Notice =
        settings.autoRenew !== undefined
          ? { kind: "setting", domain: domain.id, setting: "auto_renew", on: settings.autoRenew }
          : { kind: "setting", domain: domain.id, setting: "whois_privacy", on: settings.whoisPrivacy! };
      return `/domains?${noticeParameter(context.session, notice)}#domain-${domain.id}`;
    },
    async (error) => {
      // Changed meanwhile: the page shows the settings as they are now, the switch unpressed.
      const errors =
        error.code === "precondition_failed"
          ? { fields: {}, summary: [context.l.t.domains.changedSinceShown] }
          : friendlyErrors(context.l, error);
      return { html: await renderDomains(context, req, { domainId, form: "settings", state: { values: {}, errors } }) };
    },
  );
}

// Turning WHOIS privacy off publishes the owner's details: a page says which, and asks.
export async function showWhoisPrivacy(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  if (!domain.whoisPrivacy) {
    res.redirect(303, `/domains#domain-${domain.id}`);
    return;
  }
  res.type("html").send(privacyOffPage({ chrome: chromeOf(context, "domains"), csrfToken: context.session.csrfToken, domain }));
}

// The review: what the renewal costs and until when; a GET, so nothing is charged here.
export async function showRenewal(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  const query = req.query as FormBody;
  const years = integerOf(query, "years") ?? 1;
  const most = renewableYears(domain, context.services.clock.now());
  if (years < 1 || years > most || !isRenewable(domain)) {
    // The refusal renewDomain would give, before anything is shown to confirm.
    const problem = isRenewable(domain) ? { field: "years", code: "out_of_range" } : { field: "status", code: "invalid_status" };
    const errors = problemErrors(context.l, problem, { domain, renewableYears: most });
    res
      .status(422)
      .type("html")
      .send(
        await renderDomains(context, req, { domainId: domain.id, form: "renew", state: { values: valuesOf(query, ["years"]), errors } }),
      );
    return;
  }
  res.type("html").send(renderRenewalReview(context, domain, years, NO_ERRORS));
}

export async function renewDomainFromForm(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const body = req.body as FormBody;
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const years = integerOf(body, "years") ?? 1;
      const renewal = await renewDomain(tx.services, domain, years, integerOf(body, "expected_total") ?? -1);
      const notice: Notice = { kind: "renewed", domain: domain.id, years, charged: renewal.cost, currency: domain.currency };
      return `/domains?${noticeParameter(context.session, notice)}#domain-${domain.id}`;
    },
    async (error) => {
      const domain = await domainOfSessionUser(context, domainId);
      // A changed price shows the review again, with the new total to confirm (the years were read, so they read again).
      if (error.details?.code === "price_changed")
        return {
          html: renderRenewalReview(context, domain, integerOf(body, "years") ?? 1, {
            fields: {},
            summary: [context.l.t.renewal.priceChanged(context.l.money(domain.renewalPrice, domain.currency))],
          }),
        };
      const errors = friendlyErrors(context.l, error, { domain, renewableYears: renewableYears(domain, context.services.clock.now()) });
      return {
        html: await renderDomains(context, req, { domainId, form: "renew", state: { values: valuesOf(body, ["years"]), errors } }),
      };
    },
  );
}

export const DOMAIN_ROUTES: RouteTable = {
  "/domains": { get: showDomains },
  "/domains/:domainId/settings": { post: changeDomainSettings },
  "/domains/:domainId/whois-privacy": { get: showWhoisPrivacy },
  "/domains/:domainId/renew": { get: showRenewal, post: renewDomainFromForm },
};

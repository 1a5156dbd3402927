/** Find a domain (a name, or a word on every TLD), review the purchase, and buy it. */
import type { Request, Response } from "express";
import { quoteEveryTld, quoteName } from "../../domain/catalog/availability.js";
import { addYears } from "../../platform/clock.js";
import { purchaseDomain, purchaseQuote, type PurchaseQuote } from "../../domain/domains/purchase.js";
import { ApiError } from "../../platform/errors.js";
import { answerChange, chromeOf, embedContextOf, type EmbedContext } from "./embed-context.js";
import { integerOf, NO_ERRORS, textOf, valuesOf, type FormBody, type FormErrors, type FormState } from "./forms.js";
import { friendlyErrors } from "../i18n/form-errors.js";
import { noticeParameter } from "./notices.js";
import { purchaseReviewPage, searchPage, type SearchResult } from "../views/search-view.js";
import type { RouteTable } from "../../web/route-table.js";

/** A query without a dot is a word to try on every TLD; with one, a name. */
const isWord = (query: string) => !query.includes(".");

async function searchResult(context: EmbedContext, query: string): Promise<SearchResult> {
  const { store, deployment } = context.services;
  if (isWord(query))
    return { kind: "word", word: query.toLowerCase(), names: await quoteEveryTld(store, deployment.environment, query, "q") };
  return { kind: "name", ...(await quoteName(store, deployment.environment, query)) };
}

/**
 * The search page for the name in a field (`q` of the search form, `domain_name` of a refused
 * purchase): its availability, or why the field is not a name we sell. A refused purchase whose name
 * cannot be read shows its errors at the search field.
 */
async function renderSearch(
  context: EmbedContext,
  fields: FormBody,
  name: "q" | "domain_name",
  purchase?: FormState,
): Promise<{ status: number; html: string }> {
  const query = valuesOf(fields, [name])[name]!;
  const base = { chrome: chromeOf(context, "search"), query, purchase };
  try {
    const text = textOf(fields, name);
    if (text === "") return { status: 200, html: searchPage({ ...base, queryErrors: purchase?.errors ?? NO_ERRORS, result: null }) };
    return { status: 200, html: searchPage({ ...base, queryErrors: NO_ERRORS, result: await searchResult(context, text) }) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const errors = friendlyErrors(context.l, error, { query });
    // Shown at the search field, whichever field the refusal named.
    return {
      status: error.status,
      html: searchPage({ ...base, queryErrors: { fields: { q: errors.summary[0]! }, summary: errors.summary }, result: null }),
    };
  }
}

/** The purchase's review; `errorsOf` says what refused a confirmation, given the price now. */
function renderReview(
  context: EmbedContext,
  domainName: string,
  years: number,
  errorsOf: (quote: PurchaseQuote) => FormErrors = () => NO_ERRORS,
): string {
  const quote = purchaseQuote(context.services, domainName, years);
  return purchaseReviewPage({
    chrome: chromeOf(context, "search"),
    csrfToken: context.session.csrfToken,
    quote,
    until: addYears(context.services.clock.now(), years),
    errors: errorsOf(quote),
  });
}

export async function showSearch(req: Request, res: Response) {
  const { status, html } = await renderSearch(embedContextOf(res), req.query as FormBody, "q");
  res.status(status).type("html").send(html);
}

// The review: name, period, price and total; a GET, so nothing is charged here.
export async function showPurchase(req: Request, res: Response) {
  const context = embedContextOf(res);
  const query = req.query as FormBody;
  try {
    res.type("html").send(renderReview(context, textOf(query, "domain_name"), integerOf(query, "years") ?? 1));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const { html } = await renderSearch(context, query, "domain_name", {
      values: valuesOf(query, ["years"]),
      errors: friendlyErrors(context.l, error, { query: valuesOf(query, ["domain_name"]).domain_name }),
    });
    res.status(error.status).type("html").send(html);
  }
}

export async function purchaseDomainFromForm(req: Request, res: Response) {
  const context = embedContextOf(res);
  const body = req.body as FormBody;
  const years = () => integerOf(body, "years") ?? 1;
  // The total the review showed; none (a form not made by the review) is no agreement to any price.
  const expectedTotal = () => integerOf(body, "expected_total") ?? -1;
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await purchaseDomain(tx.services, {
        partnerId: context.session.partnerId,
        userIdentifier: context.session.userIdentifier,
        domainName: textOf(body, "domain_name"),
        years: years(),
        expectedCharge: expectedTotal(),
      });
      const notice = noticeParameter(context.session, {
        kind: "purchased",
        domain: domain.id,
        years: years(),
        // purchaseDomain charged exactly the total shown, or refused.
        charged: expectedTotal(),
        currency: domain.currency,
      });
      return `/domains/${domain.id}?${notice}`;
    },
    async (error) => {
      const domainName = valuesOf(body, ["domain_name"]).domain_name!;
      // A changed price shows the review again, with the new total to confirm.
      if (error.details?.code === "price_changed") {
        const priceChanged = (quote: PurchaseQuote) => ({
          fields: {},
          summary: [context.l.t.purchase.priceChanged(context.l.money(quote.yearlyPrice, quote.currency))],
        });
        return { status: 409, html: renderReview(context, domainName, years(), priceChanged) };
      }
      const { html } = await renderSearch(context, body, "domain_name", {
        values: valuesOf(body, ["years"]),
        errors: friendlyErrors(context.l, error, { query: domainName }),
      });
      return { status: error.status, html };
    },
  );
}

export const SEARCH_ROUTES: RouteTable = {
  "/search": { get: showSearch },
  "/purchase": { get: showPurchase, post: purchaseDomainFromForm },
};

/** Find a domain (availability, price, suggestions) and buy it. */
import type { Express, Request, Response } from "express";
import { checkAvailability } from "../../catalog/availability.js";
import { purchaseDomain } from "../../domains/purchase.js";
import { ApiError } from "../../errors.js";
import { answerChange, chromeOf, embedContextOf, type EmbedContext } from "../embed-context.js";
import { formErrors, integerOf, NO_ERRORS, textOf, valuesOf, type FormBody, type FormState } from "../forms.js";
import { searchPage } from "../views/search-view.js";

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
  const base = {
    chrome: chromeOf(context, "search"),
    csrfToken: context.session.csrfToken,
    query: valuesOf(fields, [name])[name]!,
    purchase,
  };
  try {
    const query = textOf(fields, name);
    if (query === "") return { status: 200, html: searchPage({ ...base, queryErrors: purchase?.errors ?? NO_ERRORS, result: null }) };
    const result = await checkAvailability(context.services.store, context.services.deployment.environment, query);
    return { status: 200, html: searchPage({ ...base, queryErrors: NO_ERRORS, result }) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, html: searchPage({ ...base, queryErrors: formErrors(error), result: null }) };
  }
}

export function registerSearchRoutes(app: Express): void {
  app.get("/search", async (req: Request, res: Response) => {
    const { status, html } = await renderSearch(embedContextOf(res), req.query as FormBody, "q");
    res.status(status).type("html").send(html);
  });

  app.post("/purchase", async (req: Request, res: Response) => {
    const context = embedContextOf(res);
    const body = req.body as FormBody;
    await answerChange(
      res,
      context,
      async (tx) => {
        const domain = await purchaseDomain(tx.services, {
          partnerId: context.session.partnerId,
          userIdentifier: context.session.userIdentifier,
          domainName: textOf(body, "domain_name"),
          years: integerOf(body, "years") ?? 1,
        });
        return `/domains/${domain.id}?notice=purchased&domain=${domain.id}`;
      },
      async (error) => {
        const { html } = await renderSearch(context, body, "domain_name", { values: valuesOf(body, ["years"]), errors: formErrors(error) });
        return { status: error.status, html };
      },
    );
  });
}

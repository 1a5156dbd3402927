/**
 * The one-click fix of the domain page's connection section: the changes the check answers,
 * applied as one DNS change set (all or none, with the usual record events), only while they are
 * still the ones the page showed.
 */
import type { Request, Response } from "express";
import { applyChangeSet } from "../../domain/dns/change-sets.js";
import { checkConnection, type ConnectionCheck } from "../../domain/connection/connection-service.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { ApiError } from "../../platform/errors.js";
import type { Html } from "../../web/html.js";
import type { RouteTable } from "../../web/route-table.js";
import { connectionSection, fixDigest } from "../views/connection-view.js";
import { answerChange, domainOfSessionUser, embedContextOf, type EmbedContext } from "./embed-context.js";
import { textOf, type FormBody } from "./forms.js";
import { noticeParameter } from "./notices.js";

/** The domain page's connection section, or null when the partner declares no requirements. */
export async function connectionSectionOf(context: EmbedContext, domain: DomainRow): Promise<Html | null> {
  const check: ConnectionCheck = await checkConnection(context.services, domain);
  return connectionSection({ l: context.l, partnerName: context.partnerName, domain, check, csrfToken: context.session.csrfToken });
}

export async function fixConnection(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const shown = textOf(req.body as FormBody, "fix");
  await answerChange(
    res,
    context,
    async (tx) => {
      const domain = await domainOfSessionUser(tx, domainId);
      const { answer } = await checkConnection(tx.services, domain);
      // The zone changed since the page was shown: the page shows the changes needed now, to be confirmed again.
      if (!answer.change_set || fixDigest(answer.change_set) !== shown) return `/domains/${domain.id}#connection`;
      // Checked in full before anything is written: a refused set has changed nothing, and the page shows the zone as it is.
      const outcome = await applyChangeSet(tx.services, domain, answer.change_set).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 422) return null;
        throw error;
      });
      if (!outcome) return `/domains/${domain.id}#connection`;
      const count = outcome.deleted.length + outcome.updated.length + outcome.created.length;
      return `/domains/${domain.id}?${noticeParameter(context.session, { kind: "connection-fixed", domain: domain.id, count })}`;
    },
    // Nothing a user typed can be wrong here: any other refusal is the error page's.
    async (error) => {
      throw error;
    },
    "domain-locked",
  );
}

export const CONNECTION_ROUTES: RouteTable = {
  "/domains/:domainId/connection/fix": { post: fixConnection },
};

/**
 * The domain page's connection section: whether the domain is set up for the partner (its
 * connection requirements), what each needs, and the changes that set it up, offered as one button
 * when they are the service's records to change.
 */
import { createHash } from "node:crypto";
import type { ConnectionCheck } from "../../domain/connection/connection-service.js";
import type { ConnectionFix, ConnectionRecord } from "../../domain/connection/connection-check.js";
import type { ConnectionRequirement } from "../../domain/connection/connection-requirements.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { html, type Html } from "../../web/html.js";
import type { Localizer } from "../i18n/localizer.js";
import { csrfInput } from "./controls.js";

export interface ConnectionView {
  l: Localizer;
  partnerName: string;
  domain: DomainRow;
  check: ConnectionCheck;
  csrfToken: string;
}

/** What the page offered to change, as the form sends it back: the fix applied is the one shown, or none. */
export const fixDigest = (changeSet: unknown) => createHash("sha256").update(JSON.stringify(changeSet)).digest("base64url").slice(0, 22);

function requirementText(l: Localizer, domain: DomainRow, requirement: ConnectionRequirement): string {
  const c = l.t.connection;
  if (requirement.kind === "apex" && requirement.addresses) return c.apexAddresses(domain.name, requirement.addresses.join(", "));
  if (requirement.kind === "apex") return c.apexAlias(domain.name, requirement.target!);
  if (requirement.kind === "www") return c.www(domain.name, requirement.target!);
  return c.txt(requirement.name!);
}

function fixText(l: Localizer, fix: ConnectionFix, found: readonly ConnectionRecord[]): string {
  const c = l.t.connection;
  if (fix.action === "create") return c.create(fix.record!.type, fix.record!.name, fix.record!.content);
  const record = found.find((candidate) => candidate.id === fix.record_id);
  if (fix.action === "update") return c.update(fix.record!.type, fix.record!.name, fix.record!.content);
  return c.remove(record?.type ?? "", record?.name ?? "", record?.content ?? "");
}

/** The section, or nothing when the partner declares no requirements. */
export function connectionSection(view: ConnectionView): Html | null {
  const { l, partnerName, domain, check, csrfToken } = view;
  const c = l.t.connection;
  const { answer, situation } = check;
  if (situation === "no_requirements") return null;
  const headline =
    situation === "custom_unknown"
      ? c.customUnknown(partnerName)
      : situation === "no_answer"
        ? c.noAnswer
        : answer.configured
          ? c.configured(partnerName)
          : c.notConfigured(partnerName);
  const results = answer.requirements;
  const fixes = results.flatMap((result) => result.fixes.map((fix) => fixText(l, fix, result.found)));
  const known = answer.status === "configured" || answer.status === "not_configured";
  return html`<section aria-labelledby="connection-title" class="card connection" id="connection">
<h2 id="connection-title">${c.title(partnerName)}</h2>
<p class="connection-status"><strong>${headline}</strong>${situation === "propagating" ? html` ${c.propagating}` : ""}</p>
${
  known
    ? html`<ul class="connection-requirements">
${results.map((result) => html`<li>${requirementText(l, domain, result.requirement)} <strong>(${result.satisfied ? c.met : c.notMet})</strong></li>`)}
</ul>`
    : ""
}
${
  fixes.length > 0
    ? html`<h3>${answer.change_set ? c.changesTitle : c.hostMust}</h3>
<ul class="connection-fixes">${fixes.map((line) => html`<li>${line}</li>`)}</ul>`
    : ""
}
${
  answer.change_set
    ? html`<form method="post" action="/domains/${domain.id}/connection/fix">
${csrfInput(csrfToken)}
<input type="hidden" name="fix" value="${fixDigest(answer.change_set)}">
<p class="hint">${c.fixHint}</p>
<button type="submit" class="primary">${c.fixButton}</button>
</form>`
    : ""
}
</section>`;
}

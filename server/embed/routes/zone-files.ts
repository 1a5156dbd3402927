/**
 * A domain's zone file in the embedded interface: the download (the API's export, byte for byte),
 * and the import in two steps: a preview (a dry run of the file, every line with what it would do)
 * and the apply of exactly the file previewed, to the zone it was previewed on. The user's import
 * keeps the partner's locked records as they are (keepLocked), as their forms do.
 */
import type { Request, Response } from "express";
import { exportZone, importZone, zoneTag, type ZoneImportMode, type ZoneImportOutcome } from "../../domain/zone-files/zone-transfer.js";
import { readZoneFile } from "../../domain/zone-files/zone-file.js";
import type { DomainRow } from "../../domain/domains/domain-store.js";
import { type ApiError, apiErrors } from "../../platform/errors.js";
import type { RouteTable } from "../../web/route-table.js";
import { lineNote } from "../i18n/zone-file-notes.js";
import { sizeLimitText, zonePreviewPage } from "../views/zone-file-view.js";
import { answerChange, chromeOf, domainOfSessionUser, embedContextOf, type EmbedContext } from "./embed-context.js";
import type { FormBody } from "./forms.js";
import { noticeParameter } from "./notices.js";
import { renderDns } from "./dns.js";
import { isSealed, sealOf } from "./zone-preview-seal.js";
import { ZONE_FIELDS } from "../views/zone-file-form.js";
import { carriedZoneText, modeOf, UploadRefusal, uploadedZoneText, type UploadProblem } from "./zone-upload.js";

/** Codes of an apply refused: the zone changed since the preview, or the import refused a line meanwhile. */
const CHANGED_SINCE_PREVIEW = "changed_since_preview";

export async function downloadZone(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domain = await domainOfSessionUser(context, String(req.params.domainId));
  const { filename, text } = await exportZone(context.services, domain);
  // As the API's export answers it (server/api/http/routes.ts): a domain's name needs no escaping inside the quotes.
  res.setHeader("Content-Disposition", `attachment; filename="${filename}"`);
  res.setHeader("Cache-Control", "no-store");
  res.type("text/dns").send(text);
}

/** The import form's problem, in the user's words, at the field it concerns. */
function uploadErrors(context: EmbedContext, problem: UploadProblem) {
  const { zoneFiles } = context.l.t;
  const message = problem === "too_large" ? zoneFiles.tooLarge(sizeLimitText(context.l)) : zoneFiles[problem];
  return { fields: { [ZONE_FIELDS.file]: message }, summary: [message] };
}

/** The domain's page with the import form open, as it was sent, and its problem. */
async function refuseUpload(context: EmbedContext, req: Request, res: Response, domainId: string, problem: UploadProblem, body: FormBody) {
  const pasted = typeof body[ZONE_FIELDS.text] === "string" ? (body[ZONE_FIELDS.text] as string) : "";
  const values = { mode: body[ZONE_FIELDS.mode] === "replace" ? "replace" : "merge", zone_text: problem === "too_large" ? "" : pasted };
  res
    .status(problem === "too_large" ? 413 : 422)
    .type("html")
    .send(await renderDns(context, req, domainId, { zoneImport: { values, errors: uploadErrors(context, problem) } }));
}

/** Every line of a dry run with its note, and the page that shows them with the apply form sealed to the zone as it is. */
async function renderPreview(
  context: EmbedContext,
  domain: DomainRow,
  mode: ZoneImportMode,
  text: string,
  changedMeanwhile = false,
): Promise<{ status: number; html: string }> {
  const [outcome, records] = await Promise.all([
    importZone(context.services, domain, text, { mode, dryRun: true, keepLocked: true }),
    context.services.store.recordsOfDomain(domain.id),
  ]);
  const read = readZoneFile(text, domain.name, []);
  const recordsByLine = new Map(read.records.map((record) => [record.line, record]));
  const notes = outcome.lines.map((line) => lineNote({ l: context.l, domain, partnerName: context.partnerName, recordsByLine }, line));
  const refused = outcome.counts.refuse > 0;
  const html = zonePreviewPage({
    chrome: chromeOf(context, "domains"),
    csrfToken: context.session.csrfToken,
    domain,
    mode,
    text,
    seal: sealOf(context.session, { domainId: domain.id, mode, text, zoneState: zoneTag(records) }),
    outcome,
    notes,
    changedMeanwhile,
  });
  return { status: changedMeanwhile ? 409 : refused ? 422 : 200, html };
}

export async function previewImport(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const domain = await domainOfSessionUser(context, domainId);
  const body = (req.body ?? {}) as FormBody;
  const problem = res.locals.zoneUploadProblem as UploadProblem | undefined;
  if (problem) return refuseUpload(context, req, res, domainId, problem, body);
  let text: string;
  try {
    text = uploadedZoneText(req.file, body);
  } catch (error) {
    if (error instanceof UploadRefusal) return refuseUpload(context, req, res, domainId, error.problem, body);
    throw error;
  }
  const answer = await renderPreview(context, domain, modeOf(body), text);
  res.status(answer.status).type("html").send(answer.html);
}

export async function applyImport(req: Request, res: Response) {
  const context = embedContextOf(res);
  const domainId = String(req.params.domainId);
  const body = (req.body ?? {}) as FormBody;
  const problem = res.locals.zoneUploadProblem as UploadProblem | undefined;
  let text: string;
  try {
    if (problem) throw new UploadRefusal(problem);
    text = carriedZoneText(body);
  } catch (error) {
    // The apply form is the page's own: one that does not carry a readable file was not sent as the preview made it.
    if (error instanceof UploadRefusal)
      throw apiErrors.badRequest(ZONE_FIELDS.carried, "invalid_format", "The previewed zone file is missing");
    throw error;
  }
  const mode = modeOf(body);
  const seal = typeof body[ZONE_FIELDS.digest] === "string" ? (body[ZONE_FIELDS.digest] as string) : "";
  await answerChange(
    res,
    context,
    async (tx) => {
      // Read first: the unit of work locks the domain, so the zone stays as checked until the import is written.
      const domain = await domainOfSessionUser(tx, domainId);
      const zoneState = zoneTag(await tx.services.store.recordsOfDomain(domain.id));
      if (!isSealed(context.session, { domainId: domain.id, mode, text, zoneState }, seal))
        throw apiErrors.conflict("The records changed since the preview", { field: ZONE_FIELDS.carried, code: CHANGED_SINCE_PREVIEW });
      const outcome: ZoneImportOutcome = await importZone(tx.services, domain, text, { mode, dryRun: false, keepLocked: true });
      if (!outcome.applied) throw apiErrors.conflict("The import was refused", { field: ZONE_FIELDS.carried, code: CHANGED_SINCE_PREVIEW });
      const count = outcome.counts.create + outcome.counts.update + outcome.counts.delete;
      return `/domains/${domain.id}?${noticeParameter(context.session, { kind: "zone-imported", domain: domain.id, count })}#records-title`;
    },
    // Whatever refused it (the seal, a line the import now refuses), nothing was written: the preview against the zone as it is now says why.
    async (error: ApiError) => {
      const domain = await domainOfSessionUser(context, domainId);
      return renderPreview(context, domain, mode, text, error.details?.code === CHANGED_SINCE_PREVIEW);
    },
    "domain-locked",
  );
}

export const ZONE_FILE_ROUTES: RouteTable = {
  "/domains/:domainId/zone": { get: downloadZone },
  "/domains/:domainId/zone/preview": { post: previewImport },
  "/domains/:domainId/zone/apply": { post: applyImport },
};

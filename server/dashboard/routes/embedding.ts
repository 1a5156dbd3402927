/**
 * Who may frame the embedded interface, and how it looks for the partner's users (accent colour,
 * logo), per environment: stored for every instance's embed host to read.
 */
import type { Request, RequestHandler, Response } from "express";
import multer from "multer";
import { readAccentColour, MIN_CONTRAST } from "../../partners/branding/accent-colour.js";
import { logoTypeOf, MAX_LOGO_BYTES } from "../../partners/branding/logo.js";
import { sendLogo } from "../../web/logo-answer.js";
import { parseEmbedOrigin } from "../../partners/framing/framing.js";
import { textOf, type FormBody } from "../../web/form-fields.js";
import { memberOf, type MemberRequest } from "./dashboard-context.js";
import { formErrors } from "../views/controls.js";
import { embeddingPage, MAX_FRAMING_ORIGINS } from "../views/embedding-view.js";
import type { RouteTable } from "../../web/route-table.js";

const configuredOf = (request: MemberRequest) => request.dashboard.services.deployment.embedOrigins.get(request.partner.id) ?? [];

const DONE = {
  saved: "Saved: pages of the embedded interface opened from now on allow these origins.",
  accent: "Saved: the embedded interface uses this colour on its next page.",
  "accent-removed": "The embedded interface uses its own colour again.",
  logo: "Saved: the embedded interface shows this logo on its next page.",
  "logo-removed": "The logo is removed.",
} as const;

type PageState = Omit<Parameters<typeof embeddingPage>[0], "chrome" | "configured" | "origins" | "look"> & { origins?: string };

async function renderEmbedding(res: Response, status: number, state: PageState): Promise<void> {
  const request = memberOf(res);
  const { deployment, persistence } = request.dashboard.services;
  const [origins, look] = await Promise.all([
    persistence.framingOrigins.originsOf(request.partner.id, deployment.environment),
    persistence.branding.brandingOf(request.partner.id, deployment.environment),
  ]);
  res
    .status(status)
    .type("html")
    .send(
      embeddingPage({
        chrome: request.chrome("embedding"),
        configured: configuredOf(request),
        origins: origins.join("\n"),
        look,
        ...state,
      }),
    );
}

/**
 * The logo form's body (multipart): parsed after the member is known and before the CSRF check,
 * which reads the form's token from it. One file, at most MAX_LOGO_BYTES, kept in memory; a body
 * beyond the limits is answered here with the page and its error, having changed nothing.
 */
export function logoUpload(): RequestHandler {
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_LOGO_BYTES, files: 1, fields: 4, parts: 5 } }).single(
    "logo",
  );
  return (req, res, next) => {
    parse(req, res, (error: unknown) => {
      if (!error) return next();
      const tooLarge = error instanceof multer.MulterError && error.code === "LIMIT_FILE_SIZE";
      const message = tooLarge
        ? `The logo is larger than ${MAX_LOGO_BYTES / 1024} KB. Make it smaller and upload it again.`
        : "The upload could not be read. Choose the file again.";
      renderEmbedding(res, tooLarge ? 413 : 400, { logoErrors: formErrors({ logo: message }) }).catch(next);
    });
  };
}

export async function showEmbedding(req: Request, res: Response) {
  const done = typeof req.query.done === "string" && Object.hasOwn(DONE, req.query.done) ? DONE[req.query.done as keyof typeof DONE] : null;
  await renderEmbedding(res, 200, { message: done });
}

export async function saveFramingOrigins(req: Request, res: Response) {
  const request = memberOf(res);
  const { deployment, persistence } = request.dashboard.services;
  // Line breaks separate origins: the form's one field, read raw rather than as one line of text.
  const raw = (req.body as FormBody).origins;
  const text = typeof raw === "string" ? raw : "";
  textOf({ origins: Array.isArray(raw) ? raw : text.replace(/\r?\n/g, " ") }, "origins");
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  const problems: string[] = [];
  const origins: string[] = [];
  for (const line of lines) {
    try {
      origins.push(parseEmbedOrigin(line));
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (origins.length > MAX_FRAMING_ORIGINS) problems.push(`At most ${MAX_FRAMING_ORIGINS} origins.`);
  if (problems.length > 0) {
    await renderEmbedding(res, 422, { origins: text, errors: { fields: { origins: problems[0]! }, summary: problems } });
    return;
  }
  await persistence.framingOrigins.setOrigins(request.partner.id, deployment.environment, [...new Set(origins)]);
  res.redirect(303, "/embedding?done=saved");
}

export async function saveAccentColour(req: Request, res: Response) {
  const request = memberOf(res);
  const { deployment, persistence, clock } = request.services;
  const value = textOf(req.body as FormBody, "accent_colour");
  if (value === "") {
    await persistence.branding.setAccentColour(request.partner.id, deployment.environment, null, clock.now());
    res.redirect(303, "/embedding?done=accent-removed");
    return;
  }
  const reading = readAccentColour(value);
  if ("problem" in reading) {
    const message =
      reading.problem === "unreadable"
        ? "Enter a colour such as #6a1b9a, rgb(106 27 154) or rebeccapurple; it must be opaque."
        : `This colour is too light: text on it and links in it reach a contrast of ${reading.contrast}:1, and need at least ${MIN_CONTRAST}:1 (WCAG AA). Choose a darker shade.`;
    await renderEmbedding(res, 422, { accentValue: value, accentErrors: formErrors({ accent_colour: message }) });
    return;
  }
  await persistence.branding.setAccentColour(request.partner.id, deployment.environment, reading.colour, clock.now());
  res.redirect(303, "/embedding?done=accent");
}

export async function uploadLogo(req: Request, res: Response) {
  const request = memberOf(res);
  const { deployment, persistence, clock } = request.services;
  const file = (req as { file?: { buffer: Buffer } }).file;
  const type = file ? logoTypeOf(file.buffer) : null;
  if (!file || !type) {
    const message = file ? "This file is not a PNG, JPEG or WebP image." : "Choose an image file to upload.";
    await renderEmbedding(res, 422, { logoErrors: formErrors({ logo: message }) });
    return;
  }
  await persistence.branding.setLogo(request.partner.id, deployment.environment, { type, bytes: file.buffer }, clock.now());
  res.redirect(303, "/embedding?done=logo");
}

export async function removeLogo(_req: Request, res: Response) {
  const request = memberOf(res);
  const { deployment, persistence, clock } = request.services;
  await persistence.branding.setLogo(request.partner.id, deployment.environment, null, clock.now());
  res.redirect(303, "/embedding?done=logo-removed");
}

// The logo as stored, for the preview above its form.
export async function showLogo(_req: Request, res: Response) {
  const request = memberOf(res);
  const { deployment, persistence } = request.dashboard.services;
  sendLogo(res, await persistence.branding.logoOf(request.partner.id, deployment.environment));
}

export const EMBEDDING_ROUTES: RouteTable = {
  "/embedding": { get: showEmbedding, post: saveFramingOrigins },
  "/embedding/accent": { post: saveAccentColour },
  "/embedding/logo": { post: uploadLogo, get: showLogo },
  "/embedding/logo/remove": { post: removeLogo },
};

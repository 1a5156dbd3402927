/**
 * The zone file forms' bodies: multipart, because a file can be chosen, and read before the CSRF
 * check, which reads the form's token from them. A file or pasted text, not both (which of them
 * the user meant is not guessed); either is at most ZONE_FILE_MAX_BYTES and must be UTF-8. A body
 * beyond the limits still passes the CSRF check with the token read before the limit was hit (the
 * form puts it first), and the route answers with the import form and its error, having changed nothing.
 */
import type { RequestHandler } from "express";
import multer from "multer";
import { isUtf8 } from "node:buffer";
import type { ZoneImportMode } from "../../domain/zone-files/zone-transfer.js";
import { ZONE_FIELDS, ZONE_FILE_MAX_BYTES } from "../views/zone-file-form.js";
import { apiErrors } from "../../platform/errors.js";
import type { FormBody } from "./forms.js";

/** Why an upload could not be read: each has its own sentence at the form. */
export type UploadProblem = "too_large" | "unreadable" | "missing" | "both";

export class UploadRefusal extends Error {
  constructor(readonly problem: UploadProblem) {
    super(`zone file upload: ${problem}`);
  }
}

const MODES: readonly ZoneImportMode[] = ["merge", "replace"];

const parse = multer({
  storage: multer.memoryStorage(),
  // Files and text fields alike: the carried text of the apply form is a field as large as the file.
  limits: { fileSize: ZONE_FILE_MAX_BYTES, fieldSize: ZONE_FILE_MAX_BYTES * 2, files: 1, fields: 6, parts: 7 },
}).single(ZONE_FIELDS.file);

/** Parses a multipart body; a refusal is kept on the request for the route to answer in the user's language. */
export function zoneFileUpload(): RequestHandler {
  return (req, res, next) => {
    parse(req, res, (error: unknown) => {
      if (error) {
        const tooLarge = error instanceof multer.MulterError && (error.code === "LIMIT_FILE_SIZE" || error.code === "LIMIT_FIELD_VALUE");
        res.locals.zoneUploadProblem = tooLarge ? "too_large" : "unreadable";
        req.body ??= {};
      }
      next();
    });
  };
}

/** One value of a field; a repeated one is a tampered form. */
function rawField(body: FormBody, name: string): string {
  const value = body[name];
  if (Array.isArray(value)) throw apiErrors.badRequest(name, "repeated_field", `${name} must be given once`);
  return typeof value === "string" ? value : "";
}

const withoutByteOrderMark = (text: string) => (text.startsWith("\uFEFF") ? text.slice(1) : text);

/** The text a preview form sent: the chosen file, else the pasted text. */
export function uploadedZoneText(file: Express.Multer.File | undefined, body: FormBody): string {
  const pasted = rawField(body, ZONE_FIELDS.text);
  if (file && file.size > 0) {
    if (pasted.trim() !== "") throw new UploadRefusal("both");
    if (!isUtf8(file.buffer)) throw new UploadRefusal("unreadable");
    return withoutByteOrderMark(file.buffer.toString("utf8"));
  }
  if (pasted.trim() === "") throw new UploadRefusal("missing");
  if (Buffer.byteLength(pasted) > ZONE_FILE_MAX_BYTES) throw new UploadRefusal("too_large");
  return withoutByteOrderMark(pasted);
}

/** The text an apply form carried back from its preview. */
export function carriedZoneText(body: FormBody): string {
  const carried = rawField(body, ZONE_FIELDS.carried);
  const bytes = Buffer.from(carried, "base64");
  if (bytes.length === 0 || bytes.length > ZONE_FILE_MAX_BYTES || bytes.toString("base64") !== carried || !isUtf8(bytes))
    throw new UploadRefusal("unreadable");
  return bytes.toString("utf8");
}

export function modeOf(body: FormBody): ZoneImportMode {
  const mode = rawField(body, ZONE_FIELDS.mode);
  if (!(MODES as readonly string[]).includes(mode)) throw apiErrors.invalidValue("mode", "invalid_value", "mode must be merge or replace");
  return mode as ZoneImportMode;
}

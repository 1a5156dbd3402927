/**
 * Form input of the embedded interface and the errors shown with it. Values are checked by the same
 * services the API uses; what is checked here is only what the API checks before them (a field's
 * type, plain text: see server/plain-text.ts), and an ApiError's `details.field` puts its message
 * next to that field.
 *
 * Every field of these forms takes one value: a form built by these pages sends each name once, so a
 * repeated name is a tampered or broken request, refused (400) rather than guessed at. All reading
 * goes through `textOf`, so no form can forget it.
 */
import { assertIfMatch } from "../concurrency/entity-tags.js";
import { isUtf8 } from "node:buffer";
import { type ApiError, apiErrors } from "../errors.js";
import { textProblem, textProblemMessage } from "../plain-text.js";

/** A parsed urlencoded body: strings, or arrays of them when a name repeats. */
export type FormBody = Record<string, unknown>;

export interface FormErrors {
  /** Message by field name (the API's field names: content, ttl, domain_name, variables.ip...). */
  fields: Record<string, string>;
  /** Every problem found, for the summary at the top of the form. */
  summary: string[];
}

export interface FormState {
  values: Record<string, string>;
  errors: FormErrors;
}

export const NO_ERRORS: FormErrors = { fields: {}, summary: [] };

/**
 * body-parser's hook on a form's raw bytes, before it decodes them: the pages are UTF-8, so their
 * forms are. Raw bytes or percent-escapes that are not UTF-8 would be read as U+FFFD, storing
 * something other than what was sent, so they are refused (decodeURIComponent throws on them).
 */
export function requireUtf8Form(_req: unknown, _res: unknown, bytes: Buffer, encoding: string): void {
  if (encoding !== "utf-8") throw apiErrors.unsupportedMediaType("Forms must be sent in UTF-8");
  const malformed = () => apiErrors.badRequest("body", "malformed_utf8", "The form is not valid UTF-8");
  if (!isUtf8(bytes)) throw malformed();
  for (const pair of bytes.toString("utf8").split("&")) {
    try {
      decodeURIComponent(pair.replaceAll("+", " "));
    } catch {
      throw malformed();
    }
  }
}

export function formErrors(error: ApiError): FormErrors {
  const field = error.details?.field;
  return { fields: typeof field === "string" ? { [field]: error.message } : {}, summary: error.messages ?? [error.message] };
}

/** The field's text, trimmed; a missing field reads as empty. Refuses a repeated field and text that is not plain. */
export function textOf(body: FormBody, name: string): string {
  const value = body[name];
  if (Array.isArray(value)) throw apiErrors.badRequest(name, "repeated_field", `${name} must be given once`);
  const text = typeof value === "string" ? value.trim() : "";
  const problem = textProblem(text);
  if (problem) throw apiErrors.badRequest(name, problem.code, textProblemMessage(name, problem));
  return text;
}

/** A whole number, or undefined when the field is empty; anything else is refused as the API refuses a wrong type. */
export function integerOf(body: FormBody, name: string): number | undefined {
  const text = textOf(body, name);
  if (text === "") return undefined;
  if (!/^\d{1,9}$/.test(text)) throw apiErrors.invalidValue(name, "invalid_type", `${name} must be a whole number`);
  return Number(text);
}

/** One of the given values; the forms offer only these, so anything else is a tampered request. */
export function choiceOf<T extends string>(body: FormBody, name: string, choices: readonly T[]): T {
  const text = textOf(body, name);
  if (!(choices as readonly string[]).includes(text))
    throw apiErrors.invalidValue(name, "invalid_value", `${name} must be one of ${choices.join(", ")}`);
  return text as T;
}

/**
 * The form's fields as sent, to show them again beside their errors (the page escapes them); never
 * refuses: a repeated field shows its first value, and its error says why it was refused.
 */
export function valuesOf(body: FormBody, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, shownValue(body[name])]));
}

function shownValue(value: unknown): string {
  const first = Array.isArray(value) ? (value as unknown[])[0] : value;
  return typeof first === "string" ? first.trim() : "";
}

/**
 * Refuses the change (412) unless what it changes is still as the page showed it: the form carries
 * the entity tag of what it showed (`etag`), checked in the change's transaction, so nobody's
 * change is overwritten unseen.
 */
export function assertUnchangedSinceShown(body: FormBody, row: object, what: string): void {
  const shown = textOf(body, "etag");
  if (shown === "")
    throw apiErrors.badRequest("etag", "missing_required_field", `The form lacks the version of the ${what} it showed; reload the page`);
  assertIfMatch(shown, row, what);
}

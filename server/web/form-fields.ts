/**
 * Reading urlencoded forms, for the pages of every front door: each field of these forms takes
 * one value, so a repeated name is a tampered or broken request, refused (400) rather than guessed
 * at; text must be plain (server/platform/plain-text.ts); the bytes must be UTF-8.
 */
import { isUtf8 } from "node:buffer";
import { apiErrors } from "../platform/errors.js";
import { textProblem, textProblemMessage } from "../platform/plain-text.js";

/** A parsed urlencoded body: strings, or arrays of them when a name repeats. */
export type FormBody = Record<string, unknown>;

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

/** The field exactly as sent (a password: spaces count), or empty; refuses a repeated field and control characters. */
export function secretOf(body: FormBody, name: string): string {
  const value = body[name];
  if (Array.isArray(value)) throw apiErrors.badRequest(name, "repeated_field", `${name} must be given once`);
  const text = typeof value === "string" ? value : "";
  const problem = textProblem(text);
  if (problem) throw apiErrors.badRequest(name, problem.code, textProblemMessage(name, problem));
  return text;
}

/** Every value of a field that may repeat (checkboxes), each plain text. */
export function listOf(body: FormBody, name: string): string[] {
  const value = body[name];
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values.map((item) => {
    if (typeof item !== "string") throw apiErrors.badRequest(name, "invalid_type", `${name} must be text`);
    const problem = textProblem(item);
    if (problem) throw apiErrors.badRequest(name, problem.code, textProblemMessage(name, problem));
    return item;
  });
}

/**
 * Form input of the embedded interface and the errors shown with it. Values are checked by the same
 * services the API uses; what is checked here is only what a JSON schema checks in the API (a field's
 * type), and an ApiError's `details.field` puts its message next to that field.
 */
import { ApiError, apiErrors } from "../errors.js";

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

export function formErrors(error: ApiError): FormErrors {
  const field = error.details?.field;
  return { fields: typeof field === "string" ? { [field]: error.message } : {}, summary: error.messages ?? [error.message] };
}

/** The field's text; a missing or repeated field reads as empty. */
export function textOf(body: FormBody, name: string): string {
  const value = body[name];
  return typeof value === "string" ? value.trim() : "";
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
  if (!(choices as readonly string[]).includes(text)) throw apiErrors.invalidValue(name, "invalid_value", `${name} must be one of ${choices.join(", ")}`);
  return text as T;
}

/** The form's fields as strings, to show them again beside their errors. */
export function valuesOf(body: FormBody, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, textOf(body, name)]));
}

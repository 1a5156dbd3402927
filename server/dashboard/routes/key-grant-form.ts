/**
 * The key form read into what the API would be sent (scopes, restrictions, expires_at) and checked
 * by the same parser as `POST /api/v1/api_keys` (server/partners/keys/key-grant.ts), its problems
 * put beside the fields they concern, in the dashboard's words.
 */
import { type GrantProblem, type KeyGrant, MAX_RESTRICTION_ENTRIES, parseKeyGrant } from "../../partners/keys/key-grant.js";
import { keyNameProblem } from "../../partners/keys/key-management.js";
import { choiceOf, type FormBody, textOf } from "../../web/form-fields.js";
import { formErrors, type FormErrors } from "../views/controls.js";
import { type AccessLevel, NO_SCOPES, RESTRICTION_FIELDS, SCOPE_RESOURCES, scopeFieldName, scopesOf } from "../views/key-access-view.js";
import { KEY_FIELD_IDS, KEY_KINDS, KEY_PRESETS, type KeyFormValues } from "../views/key-form-view.js";

/** A field of several lines: line breaks separate its values, so it is read raw, and each line as plain text (as textOf does). */
function linesOf(body: FormBody, name: string): string {
  const raw = body[name];
  textOf({ [name]: typeof raw === "string" ? raw.replace(/\r?\n/g, " ") : raw }, name);
  return typeof raw === "string" ? raw.replace(/\r\n?/g, "\n").trim() : "";
}

/** The form's fields, read strictly: a choice no form offers is a tampered request (choiceOf refuses it). */
export function readKeyForm(body: FormBody): KeyFormValues {
  const levels = { ...NO_SCOPES };
  for (const { resource, levels: offered } of SCOPE_RESOURCES) {
    // A grid sent without a row (no radio checked there) reads as none, as the form first shows it.
    if (body[scopeFieldName(resource)] !== undefined)
      levels[resource] = choiceOf<AccessLevel>(body, scopeFieldName(resource), offered as readonly AccessLevel[]);
  }
  return {
    name: textOf(body, "name"),
    kind: body.kind === undefined ? "full" : choiceOf(body, "kind", KEY_KINDS),
    levels,
    restrictions: Object.fromEntries(RESTRICTION_FIELDS.map(({ field }) => [field, linesOf(body, field)])) as KeyFormValues["restrictions"],
    expiresDate: textOf(body, "expires_date"),
    expiresTime: textOf(body, "expires_time"),
    preset: body.preset === undefined ? "" : choiceOf(body, "preset", KEY_PRESETS),
  };
}

/** "a, b\nc" as ["a", "b", "c"]; empty: no restriction (undefined, as the API's field left out). */
export function listOfText(text: string): string[] | undefined {
  const entries = text.split(/[\s,]+/).filter((entry) => entry !== "");
  return entries.length > 0 ? entries : undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}(:\d{2})?$/;

/** The expiry as the API's `expires_at` (RFC 3339, UTC), undefined when none, or the problem with the fields. */
function expiresAtOf(values: KeyFormValues): { expiresAt?: string } | { problem: string } {
  const { expiresDate: date, expiresTime: time } = values;
  if (date === "" && time === "") return {};
  if (date === "") return { problem: "Give the date the key expires, or clear the time for a key that does not expire." };
  if (!DATE.test(date)) return { problem: "Give the expiry date as YYYY-MM-DD, such as 2027-03-31." };
  if (time !== "" && !TIME.test(time)) return { problem: "Give the expiry time as HH:MM in UTC, such as 17:30." };
  const expiresAt = `${date}T${time === "" ? "00:00" : time.slice(0, 5)}:00Z`;
  // new Date() rolls 2027-02-30 over into March: a date that does not exist is refused, not moved.
  const parsed = new Date(expiresAt);
  if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 16) !== expiresAt.slice(0, 16))
    return { problem: "That date or time does not exist. Give the expiry as YYYY-MM-DD and HH:MM in UTC." };
  return { expiresAt };
}

const LABEL_OF: Record<string, string> = Object.fromEntries(RESTRICTION_FIELDS.map(({ field, label }) => [field, label]));

/** A problem of the parser on the form's field it concerns, worded for the form rather than the API. */
function fieldProblem(problem: GrantProblem): { field: string; message: string } {
  const [root, restriction] = problem.field.split(".");
  if (root === "scopes") return { field: "scopes", message: "Choose at least one scope: Read or Write in a row of the grid." };
  if (root === "expires_at")
    return {
      field: "expires_at",
      message: problem.message.replace(/^expires_at lies/, "The expiry must lie").replace(/^expires_at is/, "The expiry is"),
    };
  if (root === "restrictions" && restriction && LABEL_OF[restriction]) {
    const message = /holds 1 to/.test(problem.message)
      ? `${LABEL_OF[restriction]}: at most ${MAX_RESTRICTION_ENTRIES} entries.`
      : `${LABEL_OF[restriction]}: ${problem.message}`;
    return { field: restriction, message };
  }
  return { field: "", message: problem.message };
}

/** The fields' problems in the order the form shows the fields, so the summary reads top to bottom. */
const inFormOrder = (fields: Record<string, string>) =>
  Object.fromEntries(Object.keys(KEY_FIELD_IDS).flatMap((field) => (fields[field] ? [[field, fields[field]]] : [])));

/** The key the form asks for (its name and grant), or its problems by field: the first of each beside it, all in the summary. */
export function keyOfForm(values: KeyFormValues, now: Date): { name: string; grant: KeyGrant } | { errors: FormErrors } {
  const fields: Record<string, string> = {};
  const other: string[] = [];
  const add = (field: string, message: string) => {
    if (field === "") other.push(message);
    else fields[field] ??= message;
  };
  const nameProblem = keyNameProblem(values.name);
  if (nameProblem) add("name", nameProblem);
  const restrictions = Object.fromEntries(
    RESTRICTION_FIELDS.flatMap(({ field }) => {
      const list = listOfText(values.restrictions[field]);
      return list ? [[field, list]] : [];
    }),
  );
  const restricted = values.kind === "restricted";
  const scopes = scopesOf(values.levels);
  if (!restricted && (scopes.length > 0 || Object.keys(restrictions).length > 0))
    add(
      "kind",
      "A full-access key takes no scopes or restrictions: choose Restricted, or set every scope to None and clear the restrictions.",
    );
  if (values.preset === "acme" && restricted && !restrictions.domains)
    add("domains", "Enter the domain the ACME client gets certificates for, such as example.com.");
  const expiry = expiresAtOf(values);
  if ("problem" in expiry) add("expires_at", expiry.problem);
  const parsed = parseKeyGrant(
    {
      scopes: restricted ? scopes : undefined,
      restrictions: restricted && Object.keys(restrictions).length > 0 ? restrictions : undefined,
      expires_at: "expiresAt" in expiry ? expiry.expiresAt : undefined,
    },
    now,
  );
  if ("problems" in parsed)
    for (const problem of parsed.problems) {
      const { field, message } = fieldProblem(problem);
      add(field, message);
    }
  if (Object.keys(fields).length > 0 || other.length > 0) return { errors: formErrors(inFormOrder(fields), other) };
  if ("problems" in parsed) return { errors: formErrors({}, ["The key could not be made."]) };
  return { name: values.name, grant: parsed.grant };
}

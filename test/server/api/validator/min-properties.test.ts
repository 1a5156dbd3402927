/**
 * Every `minProperties` of every request body in the published document is enforced by the server:
 * for each one, a body that reaches that object with fewer properties than it asks for is refused
 * 400 `missing_required_field` and changes nothing. Found in the bundled document, so a new schema
 * with `minProperties` is covered without a new test.
 */
import { describe, expect, it } from "vitest";
import { HTTP_METHODS, loadDocument, type OpenApiDocument } from "../../../support/openapi-document.js";
import { PARTNER_A_KEY, useTestServer } from "../../../support/test-server.js";

type Schema = Record<string, any>;

const document = loadDocument("full");

const resolve = (schema: Schema): Schema =>
  typeof schema.$ref === "string"
    ? resolve(
        schema.$ref
          .slice(2)
          .split("/")
          .reduce((node: OpenApiDocument, key: string) => node[key.replaceAll("~1", "/").replaceAll("~0", "~")], document),
      )
    : schema;

/** The smallest value a schema takes, for the properties a body needs around the object under test. */
function minimalValue(schema: Schema): unknown {
  const resolved = resolve(schema);
  if (resolved.enum) return resolved.enum[0];
  if (resolved.oneOf ?? resolved.anyOf) return minimalValue((resolved.oneOf ?? resolved.anyOf)[0]);
  switch (resolved.type) {
    case "boolean":
      return false;
    case "integer":
    case "number":
      return resolved.minimum ?? 1;
    case "array":
      return Array.from({ length: resolved.minItems ?? 0 }, () => minimalValue(resolved.items));
    case "object":
      return Object.fromEntries((resolved.required ?? []).map((name: string) => [name, minimalValue(resolved.properties[name])]));
    default:
      return minimalText(resolved);
  }
}

/** The schema's example, or a short text its pattern and length take. */
function minimalText(schema: Schema): string {
  const candidates = [schema.example, "x", "x1", "adalovelace.com", "192.0.2.1"].filter((text) => typeof text === "string");
  const fits = (text: string) =>
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Infinity) &&
    new RegExp(schema.pattern ?? "", "u").test(text);
  const text = candidates.find(fits);
  if (text === undefined) throw new Error(`no minimal text for ${JSON.stringify(schema)}: give this test one`);
  return text;
}

/** The objects with `minProperties` that the cases below reach, by identity. */
const reached = new Set<Schema>();

interface Shortfall {
  /** Where the object sits in the body, as the error's `details.field` names it. */
  field: string;
  minProperties: number;
  body: unknown;
}

/**
 * Every object with `minProperties` a body can reach through properties and array items, each in a
 * body that holds it with only its required properties, when those are fewer than it asks for.
 */
function shortfalls(schema: Schema, field: string[] = []): Shortfall[] {
  const resolved = resolve(schema);
  const found: Shortfall[] = [];
  if (resolved.type === "array" && resolved.items) {
    for (const inner of shortfalls(resolved.items, [...field, "0"])) found.push({ ...inner, body: [inner.body] });
  }
  if (resolved.type !== "object") return found;
  const required: string[] = resolved.required ?? [];
  const least = minimalValue(resolved) as Record<string, unknown>;
  if (typeof resolved.minProperties === "number") reached.add(resolved);
  if (typeof resolved.minProperties === "number" && required.length < resolved.minProperties) {
    found.push({ field: field.join(".") || "body", minProperties: resolved.minProperties, body: least });
  }
  for (const [name, property] of Object.entries<Schema>(resolved.properties ?? {})) {
    for (const inner of shortfalls(property, [...field, name])) found.push({ ...inner, body: { ...least, [name]: inner.body } });
  }
  return found;
}

const cases = Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
  HTTP_METHODS.filter((method) => item[method]?.requestBody).flatMap((method) => {
    const schema = resolve(item[method].requestBody).content?.["application/json"]?.schema;
    return schema
      ? shortfalls(schema).map((shortfall) => ({ operation: `${method.toUpperCase()} ${path}`, path, method, ...shortfall }))
      : [];
  }),
);

const s = useTestServer();

/** Every object of the document with `minProperties`, wherever it is. */
function everyMinProperties(node: unknown, found: Schema[] = []): Schema[] {
  if (typeof node !== "object" || node === null) return found;
  if (typeof (node as Schema).minProperties === "number") found.push(node as Schema);
  for (const value of Object.values(node)) everyMinProperties(value, found);
  return found;
}

describe("minProperties in request bodies", () => {
  it("reaches every object of the document that asks for a least number of properties", () => {
    const operations = new Set(cases.map(({ operation }) => operation));
    expect(operations).toContain("POST /api/v1/domains/{domain_id}/dns/changes");
    // One the walk above does not reach (under a oneOf, say) needs the walk extended, not skipped.
    expect(everyMinProperties(document).filter((schema) => !reached.has(schema))).toEqual([]);
  });

  it.each(cases)("$operation refuses $field with fewer than $minProperties properties: 400", async ({ path, method, field, body }) => {
    const eventsBefore = s.outbox.events.length;
    const answer = await fetch(`${s.baseUrl}${path.replaceAll(/\{[^}]+\}/g, "x")}`, {
      method: method.toUpperCase(),
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(answer.status, JSON.stringify(body)).toBe(400);
    const refusal = (await answer.json()) as { errors?: string[] };
    // Variant R's operations answer their own error shape: a list of messages.
    if (refusal.errors) expect(refusal.errors).toContain(`${field} is required`);
    else expect(refusal).toMatchObject({ error: "validation_error", details: { field, code: "missing_required_field" } });
    expect(s.outbox.events.length).toBe(eventsBefore);
  });
});

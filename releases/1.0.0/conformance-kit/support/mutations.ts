/**
 * Schemathesis-style negative inputs: a valid body (the document's example) changed to break one
 * constraint of its schema at a time. Each must be refused with a documented 4xx.
 */
import type { OpenApiDocument } from "./openapi-document.js";

export interface Mutation {
  /** What the mutation breaks, for the report. */
  breaks: string;
  body: unknown;
}

type Schema = Record<string, any>;

/** Follows `$ref` and merges `allOf` (our request schemas use no oneOf/anyOf). */
export function resolveSchema(document: OpenApiDocument, schema: Schema): Schema {
  if (schema.$ref) return resolveSchema(document, schema.$ref.split("/").slice(1).reduce((node: any, key: string) => node[key], document));
  if (schema.allOf) {
    const { allOf: _allOf, ...own } = schema;
    const parts = [...schema.allOf.map((part: Schema) => resolveSchema(document, part)), own];
    return {
      ...Object.assign({}, ...parts),
      properties: Object.assign({}, ...parts.map((part: Schema) => part.properties ?? {})),
      required: parts.flatMap((part: Schema) => part.required ?? []),
    };
  }
  return schema;
}

/** A value of another JSON type than the schema's. */
function wrongType(schema: Schema): unknown {
  switch (schema.type) {
    case "string":
      return 12345;
    case "integer":
    case "number":
      return "12";
    case "boolean":
      return "true";
    case "array":
      return { not: "an array" };
    default:
      return "not an object";
  }
}

export function mutationsOf(document: OpenApiDocument, rootSchema: Schema, example: Record<string, unknown>): Mutation[] {
  const schema = resolveSchema(document, rootSchema);
  const mutations: Mutation[] = [];
  const withField = (name: string, value: unknown) => ({ ...example, [name]: value });
  for (const name of schema.required ?? []) {
    const { [name]: _removed, ...rest } = example;
    mutations.push({ breaks: `required field ${name} missing`, body: rest });
  }
  if (schema.additionalProperties === false) mutations.push({ breaks: "an unknown field", body: withField("unknown_field_x", true) });
  for (const [name, raw] of Object.entries<Schema>(schema.properties ?? {})) {
    const property = resolveSchema(document, raw);
    mutations.push({ breaks: `${name} of the wrong type`, body: withField(name, wrongType(property)) });
    if (property.enum) mutations.push({ breaks: `${name} outside its enum`, body: withField(name, `not-${String(property.enum[0])}`) });
    if (property.maxLength !== undefined) mutations.push({ breaks: `${name} longer than ${property.maxLength}`, body: withField(name, "a".repeat(property.maxLength + 1)) });
    if (property.minLength !== undefined && property.minLength > 0) mutations.push({ breaks: `${name} shorter than ${property.minLength}`, body: withField(name, "") });
    if (property.maximum !== undefined) mutations.push({ breaks: `${name} above ${property.maximum}`, body: withField(name, property.maximum + 1) });
    if (property.minimum !== undefined) mutations.push({ breaks: `${name} below ${property.minimum}`, body: withField(name, property.minimum - 1) });
    if (property.type === "array" && property.minItems) mutations.push({ breaks: `${name} with fewer than ${property.minItems} items`, body: withField(name, []) });
  }
  mutations.push({ breaks: "a body that is not an object", body: [] });
  return mutations;
}

/**
 * The document the reference server hands express-openapi-validator: a published document without
 * what only readers use. The validator deep-clones, crawls and preprocesses the whole document at
 * every start-up, and traverses it again for each route it compiles; descriptions, summaries,
 * examples, tags, external docs and `x-` extensions (the webhooks' catalogue, rate-limit tables,
 * DNS templates: the server reads those from generated/operations.ts) are about half of it, and
 * its preparation is faster without them (figures in bench/results/).
 *
 * Kept: everything the validator or the server reads: `openapi`, `info` (title and version, which
 * OpenAPI requires), `servers`, `security`, every path, operation (with its `operationId`, which
 * server/api/http/routes.ts dispatches on), parameter, request body, response and component, every
 * schema keyword, and `x-eov-*` (the validator's own extensions).
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Keywords that only annotate: no validator reads them. */
const ANNOTATIONS = new Set(["description", "summary", "example", "examples", "externalDocs", "tags"]);

/**
 * Objects whose keys are names chosen by the author, not keywords: a property called
 * `description`, a status code, a media type, a component's name. Their keys are all kept.
 */
const NAME_MAPS = new Set([
  "properties",
  "patternProperties",
  "paths",
  "responses",
  "content",
  "encoding",
  "headers",
  "links",
  "callbacks",
  "variables",
  "mapping",
  "scopes",
  "schemas",
  "parameters",
  "requestBodies",
  "securitySchemes",
]);

/** Keywords whose values are data (instances), copied whole whatever keys they hold. */
const DATA = new Set(["enum", "default"]);

const isObject = (value: Json | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `discriminator` only names the branch of a `oneOf` that its members' own `type` enums decide
 * anyway, and the one schema with it (WebhookEvent) describes the deliveries the service sends,
 * which the validator never sees. Kept, it also made the validator's preparation differ under
 * server/api/validator/startup-shortcuts.ts (a nullable type inside a mapped schema prepared twice).
 */
const UNUSED_BY_THE_SERVER = new Set(["discriminator"]);

const isAnnotation = (key: string) =>
  ANNOTATIONS.has(key) || UNUSED_BY_THE_SERVER.has(key) || (key.startsWith("x-") && !key.startsWith("x-eov-"));

/** The validator's document of a published one (which is left unchanged). */
export function validatorDocument(published: JsonObject): JsonObject {
  const { info, ...rest } = published;
  const document = keywordsOf(rest);
  return {
    openapi: document.openapi ?? null,
    info: isObject(info) ? { title: info.title ?? null, version: info.version ?? null } : null,
    ...Object.fromEntries(Object.entries(document).filter(([key]) => key !== "openapi")),
  };
}

/** An object whose keys are keywords: annotations dropped, each value walked by what its keyword holds. */
function keywordsOf(node: JsonObject): JsonObject {
  const kept: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (isAnnotation(key)) continue;
    if (DATA.has(key)) kept[key] = value;
    else if (NAME_MAPS.has(key) && isObject(value))
      kept[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, walk(item)]));
    else kept[key] = walk(value);
  }
  return kept;
}

function walk(node: Json): Json {
  if (Array.isArray(node)) return node.map(walk);
  return isObject(node) ? keywordsOf(node) : node;
}

/** Renders generated/operations.ts: the operation table the server routes and rate-limits from. */
type JsonObject = Record<string, unknown>;

const METHODS = ["get", "put", "post", "delete", "patch"] as const;

interface OperationRow {
  operationId: string;
  method: (typeof METHODS)[number];
  path: string;
  tag: string;
  variants: string[];
  environments: string[];
  rateLimitClass: string | null;
  rateLimitExempt: boolean;
  authenticated: boolean;
  successStatus: number;
  hasRequestBody: boolean;
  listErrorStatuses: number[];
  integerQueryParameters: string[];
  headerParameters: string[];
  shownOnceFields: string[];
  requiredScope: string;
}

/** The scopes a key may hold (the enum of \`ApiKeyScope\`), from which \`x-required-scope\` takes its values. */
function keyScopes(document: JsonObject): string[] {
  const scope = ((document.components as JsonObject).schemas as Record<string, JsonObject>).ApiKeyScope;
  if (!Array.isArray(scope?.enum)) throw new Error("components.schemas.ApiKeyScope needs an enum: it lists the scopes of keys");
  return scope.enum as string[];
}

/** An operation's \`x-required-scope\`: a scope, \`any\` (every key) or \`unrestricted\` (full keys only). */
function requiredScopeOf(document: JsonObject, operationId: string, op: JsonObject): string {
  const value = op["x-required-scope"];
  if (typeof value !== "string") throw new Error(`${operationId} has no x-required-scope`);
  if (value !== "any" && value !== "unrestricted" && !keyScopes(document).includes(value))
    throw new Error(`${operationId}: x-required-scope ${value} is no scope of ApiKeyScope, nor any or unrestricted`);
  return value;
}

/** Error statuses whose documented body is the list shape (`ErrorList`), read from the responses. */
function listErrorStatuses(document: JsonObject, responses: Record<string, JsonObject>): number[] {
  const shared = (document.components as JsonObject).responses as Record<string, JsonObject>;
  return Object.entries(responses)
    .filter(([, response]) => {
      const resolved = typeof response.$ref === "string" ? shared[response.$ref.split("/").pop()!]! : response;
      return JSON.stringify(resolved.content ?? {}).includes('"#/components/schemas/ErrorList"');
    })
    .map(([status]) => Number(status));
}

/** An operation's parameters, its own and its path's, references resolved. */
function parametersOf(document: JsonObject, item: JsonObject, op: JsonObject): JsonObject[] {
  const shared = ((document.components as JsonObject).parameters ?? {}) as Record<string, JsonObject>;
  const resolve = (parameter: JsonObject) => (typeof parameter.$ref === "string" ? shared[parameter.$ref.split("/").pop()!]! : parameter);
  return [...((item.parameters ?? []) as JsonObject[]), ...((op.parameters ?? []) as JsonObject[])].map(resolve);
}

/** The names of an operation's integer query parameters. */
function integerQueryParameters(document: JsonObject, item: JsonObject, op: JsonObject): string[] {
  return parametersOf(document, item, op)
    .filter((parameter) => parameter.in === "query" && (parameter.schema as JsonObject | undefined)?.type === "integer")
    .map((parameter) => String(parameter.name));
}

/** The names of an operation's header parameters, as the document writes them. */
function headerParameters(document: JsonObject, item: JsonObject, op: JsonObject): string[] {
  return parametersOf(document, item, op)
    .filter((parameter) => parameter.in === "header")
    .map((parameter) => String(parameter.name));
}

/**
 * The fields of an operation's success answer marked `x-shown-once` (a secret): never stored for a
 * replay. Read from the answer's schema and the schemas it combines with `allOf`.
 */
function shownOnceFields(document: JsonObject, op: JsonObject, successStatus: number): string[] {
  const schemas = (document.components as JsonObject).schemas as Record<string, JsonObject>;
  const resolve = (schema: JsonObject): JsonObject =>
    typeof schema.$ref === "string" ? resolve(schemas[schema.$ref.split("/").pop()!]!) : schema;
  const fieldsOf = (schema: JsonObject | undefined): string[] => {
    if (!schema) return [];
    const resolved = resolve(schema);
    const own = Object.entries((resolved.properties ?? {}) as Record<string, JsonObject>)
      .filter(([, property]) => resolve(property)["x-shown-once"] === true)
      .map(([name]) => name);
    return [...own, ...((resolved.allOf ?? []) as JsonObject[]).flatMap(fieldsOf)];
  };
  const response = (op.responses as Record<string, JsonObject>)[String(successStatus)];
  const content = response?.content as Record<string, JsonObject> | undefined;
  return fieldsOf(content?.["application/json"]?.schema as JsonObject | undefined);
}

export function operationRows(document: JsonObject): OperationRow[] {
  const rows: OperationRow[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
    for (const method of METHODS) {
      const op = item[method] as JsonObject | undefined;
      if (!op) continue;
      const statuses = Object.keys(op.responses as JsonObject).map(Number);
      const successStatus = Math.min(...statuses.filter((status) => status >= 200 && status < 300));
      rows.push({
        operationId: String(op.operationId),
        method,
        path,
        tag: (op.tags as string[])[0]!,
        variants: op["x-variants"] as string[],
        environments: (op["x-environments"] as string[] | undefined) ?? ["production", "sandbox"],
        rateLimitClass: (op["x-rate-limit-class"] as string | undefined) ?? null,
        rateLimitExempt: op["x-rate-limit-exempt"] === true,
        // An operation-level `security: []` switches authentication off.
        authenticated: !(Array.isArray(op.security) && op.security.length === 0),
        successStatus,
        hasRequestBody: op.requestBody !== undefined,
        listErrorStatuses: listErrorStatuses(document, op.responses as Record<string, JsonObject>),
        integerQueryParameters: integerQueryParameters(document, item, op),
        headerParameters: headerParameters(document, item, op),
        shownOnceFields: shownOnceFields(document, op, successStatus),
        requiredScope: requiredScopeOf(document, String(op.operationId), op),
      });
    }
  }
  return rows;
}

/**
 * The longest sandbox clock advance, in seconds: the schema's maximum of `seconds`, which bounds
 * `to` as well, so the handler's check and the validator's are one number.
 */
function sandboxMaxAdvanceSeconds(document: JsonObject): number {
  const schemas = (document.components as JsonObject).schemas as Record<string, JsonObject>;
  const maximum = ((schemas.SandboxClockAdvance?.properties as Record<string, JsonObject> | undefined)?.seconds as JsonObject | undefined)
    ?.maximum;
  if (typeof maximum !== "number") throw new Error("SandboxClockAdvance.seconds needs a maximum: it bounds every sandbox clock advance");
  return maximum;
}

const subscribableEvents = (document: JsonObject): string[] =>
  ((document.components as JsonObject).schemas as Record<string, JsonObject>).WebhookEventTypeSubscribable!.enum as string[];

/** Whether the event type's `x-webhooks` entry is marked `x-opt-in`; a subscribable type without an entry is an error. */
function isOptInEvent(document: JsonObject, type: string): boolean {
  const entry = (document["x-webhooks"] as Record<string, JsonObject> | undefined)?.[type]?.post as JsonObject | undefined;
  if (!entry) throw new Error(`WebhookEventTypeSubscribable lists ${type}, which x-webhooks does not describe`);
  return entry["x-opt-in"] === true;
}

export function renderOperationTable(document: JsonObject): string {
  const rows = operationRows(document);
  const body = rows
    .map((row) => {
      const { operationId, ...rest } = row;
      return `  ${operationId}: ${JSON.stringify(rest)},`;
    })
    .join("\n");
  return `// Generated by scripts/generate.ts from spec/partner-api.yml. Do not edit: change the spec and run \`npm run generate\`.

import type { Environment, Variant } from "./deployment.js";

/** The scopes a key may hold (\`ApiKeyScope\`); a \`write\` scope includes the \`read\` of its resource. */
export const keyScopes = ${JSON.stringify(keyScopes(document))} as const;

export type Scope = (typeof keyScopes)[number];

/** What an operation asks of a key (\`x-required-scope\`): a scope, \`any\` key, or an \`unrestricted\` (full) key. */
export type RequiredScope = Scope | "any" | "unrestricted";

export interface OperationInfo {
  readonly method: "get" | "put" | "post" | "delete" | "patch";
  /** OpenAPI path template, e.g. \`/api/v1/domains/{domain_id}\`. */
  readonly path: string;
  readonly tag: string;
  readonly variants: readonly Variant[];
  /** Environments whose deployments serve the operation (\`x-environments\`; default both). */
  readonly environments: readonly Environment[];
  /** Per-operation rate-limit class (\`x-rate-limit-class\`); null counts against the overall limits only. */
  readonly rateLimitClass: RateLimitClass | null;
  /** Counted against no bucket and never refused (\`x-rate-limit-exempt\`); the overall buckets are still reported. */
  readonly rateLimitExempt: boolean;
  readonly authenticated: boolean;
  readonly successStatus: number;
  readonly hasRequestBody: boolean;
  /** Error statuses answered in the list shape (\`{ errors: [...] }\`); all others use the coded shape. */
  readonly listErrorStatuses: readonly number[];
  /** Query parameters of type integer: written as decimal digits only, checked before the validator reads them as numbers. */
  readonly integerQueryParameters: readonly string[];
  /** Header parameters (as the document writes their names): what a handler's \`header\` input holds. */
  readonly headerParameters: readonly string[];
  /** Fields of the success answer shown once (\`x-shown-once\`, a secret): a replay of the answer leaves them out. */
  readonly shownOnceFields: readonly string[];
  /** What the operation asks of the key (\`x-required-scope\`), checked before any handler runs. */
  readonly requiredScope: RequiredScope;
}

/** Every operation of both variants, keyed by operationId. */
export const operationTable = {
${body}
} as const satisfies Record<string, OperationInfo>;

export type OperationId = keyof typeof operationTable;

/** The service description's rate limits (\`x-rate-limits\`): requests per window of seconds. */
export const rateLimits = ${JSON.stringify(document["x-rate-limits"], null, 2)} as const;

export type RateLimitClass = keyof typeof rateLimits.classes;

/** Bounds of one domain's DNS records (\`x-dns-limits\`): records it may hold, records per page. */
export const dnsLimits = ${JSON.stringify(document["x-dns-limits"], null, 2)} as const;

/** The DNS template catalogue (\`x-dns-templates\`). */
export const dnsTemplates = ${JSON.stringify(document["x-dns-templates"], null, 2)} as const;

export type DnsTemplateId = keyof typeof dnsTemplates;

/** The event types a webhook endpoint may subscribe to (\`WebhookEventTypeSubscribable\`). */
export const subscribableWebhookEvents = ${JSON.stringify(subscribableEvents(document))} as const;

/** What an endpoint that names no event types receives: every subscribable type but the opt-in ones (\`x-opt-in\`). */
export const defaultWebhookEvents = ${JSON.stringify(subscribableEvents(document).filter((type) => !isOptInEvent(document, type)))} as const;

/** The most a sandbox clock advance may move, \`seconds\` or \`to\` alike (the maximum of \`SandboxClockAdvance.seconds\`). */
export const sandboxMaxAdvanceSeconds = ${sandboxMaxAdvanceSeconds(document)};
`;
}

/**
 * Renders generated/types/required-scopes.ts: the scopes and each operation's \`x-required-scope\`,
 * values without imports, so the client's package (which copies generated/types/) carries them.
 */
export function renderRequiredScopes(document: JsonObject): string {
  const rows = operationRows(document)
    .map((row) => `  ${row.operationId}: ${JSON.stringify(row.requiredScope)},`)
    .join("\n");
  return `// Generated by scripts/generate.ts from spec/partner-api.yml. Do not edit: change the spec and run \`npm run generate\`.

/** The scopes a key may hold (\`ApiKeyScope\`); a \`write\` scope includes the \`read\` of its resource. */
export const keyScopes = ${JSON.stringify(keyScopes(document))} as const;

export type Scope = (typeof keyScopes)[number];

/** What an operation asks of a key: a scope, \`any\` key, or an \`unrestricted\` (full) key. */
export type RequiredScope = Scope | "any" | "unrestricted";

/** Each operation's \`x-required-scope\`, by operationId. */
export const requiredScopes = {
${rows}
} as const satisfies Record<string, RequiredScope>;
`;
}

/** Renders generated/handlers.ts: the typed contract every operation's handler must satisfy. */
export function renderHandlerContract(document: JsonObject): string {
  const members = operationRows(document)
    .map((row) => `  /** ${row.method.toUpperCase()} ${row.path} */\n  ${row.operationId}: Handler<"${row.operationId}", Context>;`)
    .join("\n");
  return `// Generated by scripts/generate.ts from spec/partner-api.yml. Do not edit: change the spec and run \`npm run generate\`.
import type { operations } from "./types/full.js";
import type { OperationId } from "./operations.js";

type JsonContent<T> = T extends { content: { "application/json": infer Body } } ? Body : never;
type SuccessStatus = 200 | 201 | 204;
type Responses<K extends OperationId> = operations[K]["responses"];

/** The entity tag a success answer carries, where the document gives it an \`ETag\` header. */
type ETagOf<R> = R extends { headers: { ETag?: infer T } } ? (unknown extends T ? unknown : { etag: string }) : unknown;

/** The \`text/*\` media types an answer documents (a zone file's \`text/dns\`), for answers that are no JSON. */
type TextMediaType<R> = R extends { content: infer Media } ? Extract<keyof Media, \`text/\${string}\`> : never;

/** A JSON answer's body, or a text answer's text with the media type it is sent as and, for a download, its file name. */
type AnswerOf<R> = R extends { content: { "application/json": infer Body } }
  ? { body: Body }
  : [TextMediaType<R>] extends [never]
    ? { body: never }
    : { text: string; mediaType: TextMediaType<R>; attachment?: string };

/** What a handler returns: one of the operation's documented success statuses with its body (and its ETag where documented). */
export type OperationResult<K extends OperationId> = {
  [S in keyof Responses<K> & SuccessStatus]: S extends 204
    ? { status: S }
    : { status: S } & AnswerOf<Responses<K>[S]> & ETagOf<Responses<K>[S]>;
}[keyof Responses<K> & SuccessStatus];

type Parameters<K extends OperationId, In extends "path" | "query" | "header"> = NonNullable<operations[K]["parameters"][In]>;

/** What a handler receives: the validated path parameters, query (defaults applied), header parameters and body. */
export interface OperationInput<K extends OperationId> {
  path: Parameters<K, "path">;
  query: Parameters<K, "query">;
  header: Parameters<K, "header">;
  body: operations[K] extends { requestBody: infer Body } ? JsonContent<NonNullable<Body>> : undefined;
}

export type Handler<K extends OperationId, Context> = (
  input: OperationInput<K>,
  context: Context,
) => OperationResult<K> | Promise<OperationResult<K>>;

/** One handler per operation of both variants: a missing or mistyped handler does not compile. */
export interface OperationHandlers<Context> {
${members}
}
`;
}

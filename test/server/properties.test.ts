/**
 * Property-based tests over HTTP, for every operation of both variants: random well-typed and
 * ill-typed requests (bodies, query strings, path segments, methods, media types) sent with plain
 * fetch. Whatever is sent, the server answers a status the document gives the operation (or one
 * any answer may have: 404/405 where nothing is routed, 413, 415, 429), never a 5xx, with a body
 * the document's schema for that status accepts; a refusal (4xx) changes nothing it stores; no
 * request pollutes Object.prototype. Then: prototype-named keys behave as any unknown key,
 * prototype-named strings are ordinary data (also once sandbox time passes), and random request
 * sequences followed by time passing keep every answer documented.
 *
 * Seeded (FC_SEED, default 20261123) and bounded (FC_RUNS_SCALE multiplies every numRuns, for a
 * longer hunt: `FC_RUNS_SCALE=20 npx vitest run test/server/properties.test.ts`).
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationTable, type OperationId, type OperationInfo } from "../../generated/operations.js";
import type { OutboxEvent } from "../../server/platform/events.js";
import { DEFAULT_RATE_LIMITS, scaleRateLimits } from "../../server/platform/rate-limits/policy.js";
import {
  brokenOnce,
  defineOwn,
  FixtureRef,
  HOSTILE_KEYS,
  nodesOf,
  oddSegment,
  percentEncode,
  pollutingValue,
  PROTOTYPE_NAMES,
  queryPairs,
  queryString,
  Raw,
  Repeat,
  resolvePlaceholders,
  SchemaValues,
  updateAt,
  withKey,
  withoutKey,
  withPrototypeName,
  type Fixtures,
  type QueryPair,
} from "../support/arbitraries.js";
import { loadDocument, pointer, SchemaValidator } from "../support/openapi-document.js";
import { MemoryPersistence } from "../../server/store/memory/memory-persistence.js";
import { MemoryStore } from "../../server/store/memory/memory-store.js";
import { MemoryWebhookStore } from "../../server/store/memory/memory-webhook-store.js";
import { PARTNER_A_KEY, usePersistence, useTestServer } from "../support/test-server.js";

const SEED = Number(process.env.FC_SEED ?? 20261123);
const SCALE = Number(process.env.FC_RUNS_SCALE ?? 1);
const runs = (count: number) => Math.max(1, Math.round(count * SCALE));
const settings = (numRuns: number) => ({ seed: SEED, numRuns: runs(numRuns) });

// Every limit 1000 times the description's: the suite sends thousands of requests a minute.
const s = useTestServer({ rateLimits: scaleRateLimits(DEFAULT_RATE_LIMITS, 1000), store: "memory" });

/** The sandbox document of both variants: what the test server serves. */
const document = loadDocument("full");
const validator = new SchemaValidator(document);
const values = new SchemaValues(document);

type Schema = Record<string, any>;
type Method = "get" | "put" | "post" | "delete" | "patch";

// ---------------------------------------------------------------------------------------------
// The operations, as the document describes them

interface Operation {
  id: OperationId;
  info: OperationInfo;
  method: Method;
  path: string;
  spec: Schema;
  pathParameters: Schema[];
  queryParameters: Schema[];
  bodySchema: Schema | null;
  pattern: RegExp;
}

const OPERATIONS: Operation[] = (Object.keys(operationTable) as OperationId[]).map((id) => {
  const info: OperationInfo = operationTable[id];
  const item = document.paths[info.path];
  const spec = item[info.method];
  const parameters: Schema[] = [...(item.parameters ?? []), ...(spec.parameters ?? [])].map((parameter: Schema) =>
    values.resolve(parameter),
  );
  return {
    id,
    info,
    method: info.method,
    path: info.path,
    spec,
    pathParameters: parameters.filter((parameter) => parameter.in === "path"),
    queryParameters: parameters.filter((parameter) => parameter.in === "query"),
    bodySchema: spec.requestBody?.content?.["application/json"]?.schema ?? null,
    pattern: new RegExp(`^${info.path.replace(/\{[^}]+\}/g, "[^/]+")}$`),
  };
});
const OPERATION = new Map(OPERATIONS.map((op) => [op.id, op]));
const operation = (id: OperationId) => OPERATION.get(id)!;
const WITH_BODY = OPERATIONS.filter((op) => op.bodySchema);

/** Static segments before parameters, position by position (OpenAPI's path matching). */
function staticFirst(a: Operation, b: Operation): number {
  const left = a.path.split("/");
  const right = b.path.split("/");
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const leftParameter = left[i]!.startsWith("{");
    if (leftParameter !== right[i]!.startsWith("{")) return leftParameter ? 1 : -1;
  }
  return right.length - left.length;
}

const decodes = (segment: string) => {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
};

/**
 * The operations a request addresses. The URL the server sees is the normalised one (dot
 * segments resolved by the URL parser); paths match exactly (the spec's "Paths and methods": no
 * trailing slash, no empty segment). A request whose path matches no operation of its method,
 * whose most specific path has no such method, or with a segment that does not decode, may also
 * be answered 404 or 405.
 */
function addressed(method: string, url: URL): { candidates: Operation[]; unroutable: boolean } {
  const path = url.pathname;
  const matching = OPERATIONS.filter((op) => op.pattern.test(path)).sort(staticFirst);
  const candidates = matching.filter((op) => op.method.toUpperCase() === method);
  const best = matching[0]?.path;
  const undecodable = !path.split("/").every(decodes);
  return { candidates, unroutable: undecodable || candidates.length === 0 || !candidates.some((op) => op.path === best) };
}

// ---------------------------------------------------------------------------------------------
// Requests

/** A path parameter: a FixtureRef, a Raw segment sent as written, or a value to percent-encode. */
type PathValue = unknown;

interface BodyCase {
  contentType: string | null;
  /** A JSON value (placeholders resolved, own `__proto__` keys kept) or raw text parts. */
  json?: unknown;
  text?: Array<string | Repeat>;
}

interface RequestCase {
  operationId: OperationId;
  method?: string;
  path: Record<string, PathValue>;
  query: QueryPair[];
  body: BodyCase | null;
}

interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array<ArrayBuffer>;
  label: string;
}

const segment = (value: PathValue, fixtures: Fixtures) =>
  value instanceof Raw ? value.resolve() : percentEncode(String(resolvePlaceholders(value, fixtures)));

function build(request: RequestCase, fixtures: Fixtures): BuiltRequest {
  const op = operation(request.operationId);
  const method = (request.method ?? op.method).toUpperCase();
  const path = op.path.replace(/\{([^}]+)\}/g, (_match, name: string) => segment(request.path[name], fixtures));
  const url = `${s.baseUrl}${path}${queryString(request.query)}`;
  const headers: Record<string, string> = { Authorization: `Bearer ${PARTNER_A_KEY}` };
  let body: Uint8Array<ArrayBuffer> | undefined;
  let bodyText = "";
  if (request.body && method !== "GET" && method !== "HEAD") {
    const text =
      request.body.text !== undefined
        ? request.body.text.map((part) => (typeof part === "string" ? part : part.resolve())).join("")
        : JSON.stringify(resolvePlaceholders(request.body.json, fixtures));
    // Bytes, so that fetch adds no Content-Type of its own.
    body = new TextEncoder().encode(text);
    bodyText = text;
    if (request.body.contentType !== null) headers["Content-Type"] = request.body.contentType;
  }
  const shown = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…(${text.length} characters)` : text);
  const label = `${method} ${shown(url.slice(s.baseUrl.length), 240)}${body ? ` [${headers["Content-Type"] ?? "no Content-Type"}] ${shown(bodyText, 300)}` : ""}`;
  return { method, url, headers, body, label };
}

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  json: unknown;
}

/** FC_STATS=1 prints how often each operation answered each status: to see that the arbitraries reach the handlers. */
const statistics = process.env.FC_STATS ? new Map<string, number>() : null;
afterAll(() => {
  if (statistics)
    console.log(
      [...statistics]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, count]) => `${key}: ${count}`)
        .join("\n"),
    );
});

async function send(request: BuiltRequest): Promise<Answer> {
  const response = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body });
  if (statistics) {
    const { candidates } = addressed(request.method, new URL(request.url));
    const key = `${candidates[0]?.id ?? `(${request.method} unrouted)`} ${response.status}`;
    statistics.set(key, (statistics.get(key) ?? 0) + 1);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = text === "" ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get("content-type"), text, json };
}

// ---------------------------------------------------------------------------------------------
// What every answer must be

/** Statuses any answer may have besides the documented ones: body limits, media types, rate limits. */
const GENERIC = [413, 415, 429];

function responsePointer(op: Operation, status: number): { pointer: string; response: Schema } | null {
  const documented = op.spec.responses[String(status)];
  if (!documented) return null;
  if (typeof documented.$ref === "string") {
    const name = documented.$ref.split("/").pop()!;
    return { pointer: pointer("components", "responses", name), response: document.components.responses[name] };
  }
  return { pointer: pointer("paths", op.path, op.method, "responses", String(status)), response: documented };
}

/** Why the body does not conform to what the operation documents for the status, or null. */
function bodyProblem(op: Operation | null, status: number, answer: Answer): string | null {
  const documented = op && responsePointer(op, status);
  const json = documented?.response.content?.["application/json"];
  // A text answer (a zone file) is one of the documented text types; its schema is a string.
  const textTypes = Object.keys(documented?.response.content ?? {}).filter((type) => type.startsWith("text/"));
  if (documented && !json && textTypes.length > 0)
    return textTypes.some((type) => (answer.contentType ?? "").toLowerCase().startsWith(type))
      ? null
      : `Content-Type ${answer.contentType}, not one of ${textTypes.join(", ")}`;
  if (documented && !json) return answer.text === "" ? null : `a ${status} of ${op!.id} has no body in the document, but one was sent`;
  if (!/^application\/json\b/i.test(answer.contentType ?? "")) return `Content-Type ${answer.contentType}, not application/json`;
  if (answer.json === undefined) return `a body that is not JSON: ${answer.text.slice(0, 200)}`;
  if (documented) {
    const errors = validator.errorsAt(`${documented.pointer}/content/application~1json/schema`, answer.json);
    if (errors) return `the ${status} schema of ${op!.id} refuses the body: ${errors}`;
  }
  if (status >= 400) {
    // Errors in the list shape where the operation lists the status, in the coded shape elsewhere.
    const shape = op && (op.info.listErrorStatuses as readonly number[]).includes(status) ? "ErrorList" : "Error";
    const errors = validator.schemaErrors(shape, answer.json);
    if (errors) return `not the ${shape === "ErrorList" ? "list" : "coded"} error shape: ${errors}`;
  }
  return null;
}

/** Every way the answer breaks the document for the request; empty when it conforms. */
function answerProblems(request: BuiltRequest, answer: Answer): string[] {
  const { candidates, unroutable } = addressed(request.method, new URL(request.url));
  if (answer.status >= 500) return [`answered ${answer.status}`];
  if (answer.status === 401) return ["answered 401 to a valid key"];
  const allowed = new Set<number>(GENERIC);
  for (const op of candidates) Object.keys(op.spec.responses).forEach((status) => allowed.add(Number(status)));
  if (unroutable) [404, 405].forEach((status) => allowed.add(status));
  if (!allowed.has(answer.status)) {
    return [
      `answered ${answer.status}, documented for ${candidates.map((op) => op.id).join(", ") || "no operation"}: ${[...allowed].sort().join(", ")}`,
    ];
  }
  // The body must conform for at least one operation the request may address.
  // A request that may address no operation may be answered in the shape of none.
  const problems = (unroutable ? [...candidates, null] : candidates).map((op) => bodyProblem(op, answer.status, answer));
  return problems.every((problem) => problem !== null) ? [...new Set(problems as string[])] : [];
}

function expectConforming(request: BuiltRequest, answer: Answer): void {
  const problems = answerProblems(request, answer);
  expect(problems, `${request.label}\n  → ${answer.status} ${answer.text.slice(0, 400)}\n  ${problems.join("\n  ")}`).toEqual([]);
}

// ---------------------------------------------------------------------------------------------
// State: set up once, restored before every run, compared around refusals

/** A write through a store's public interface. */
interface Write {
  method: string;
  args: unknown[];
}

interface Template {
  storeWrites: Write[];
  webhookWrites: Write[];
  events: OutboxEvent[];
  fixtures: Fixtures;
}

let template: Template;

/** The store, with every write (save*, delete*) logged as a deep copy of its arguments. */
function recording<T extends object>(store: T, writes: Write[]): T {
  return new Proxy(store, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (typeof value !== "function") return value;
      if (typeof property === "string" && /^(save|delete|addToOutbox|fanOutOldest|recordAttempt|markEndpointFailing)/.test(property)) {
        return (...args: unknown[]) => {
          writes.push({ method: property, args: structuredClone(args) });
          return value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

async function replay(store: object, writes: readonly Write[]): Promise<void> {
  for (const { method, args } of writes)
    await (store as Record<string, (...args: unknown[]) => unknown>)[method]!(...structuredClone(args));
}

/** Puts the server back to the state set up in beforeAll: a fresh deployment holding the fixtures. */
async function restore(): Promise<Fixtures> {
  await s.reset();
  await replay(s.services.store, template.storeWrites);
  await replay(s.services.webhooks.store, template.webhookWrites);
  s.outbox.events.push(...structuredClone(template.events));
  return template.fixtures;
}

async function created(answer: Promise<{ data?: unknown; response: Response }>): Promise<any> {
  const { data, response } = await answer;
  if (response.status >= 300) throw new Error(`setting up failed with ${response.status} ${JSON.stringify(data)}`);
  return data;
}

beforeAll(async () => {
  await s.reset();
  const storeWrites: Write[] = [];
  const webhookWrites: Write[] = [];
  // Transactions write through the persistence's own stores: those are the recording ones.
  usePersistence(s, new MemoryPersistence(recording(new MemoryStore(), storeWrites), recording(new MemoryWebhookStore(), webhookWrites)));
  const ids = {} as Fixtures;
  for (const [prefix, client, partnerId, user, name, transferName] of [
    ["", s.api, "partner_a", "u1", "example.com", "moving.org"],
    ["other", s.otherPartner, "partner_b", "b1", "other.net", "leaving.org"],
  ] as const) {
    const key = (field: string) => (prefix ? `${prefix}${field[0]!.toUpperCase()}${field.slice(1)}` : field) as keyof Fixtures;
    await created(client.POST("/api/v1/users", { body: { user_identifier: user, email: `${user}@example.com` } }));
    const domainId = await s.registerDomainFor(user, name, partnerId);
    const record = await created(
      client.POST("/api/v1/domains/{domain_id}/dns", {
        params: { path: { domain_id: domainId } },
        body: { type: "A", name: "www", content: "192.0.2.10" },
      }),
    );
    const transfer = await created(
      client.POST("/api/v1/domains/transfer", { body: { domain_name: transferName, user_identifier: user, auth_code: "Xk8#pL2q!Rm9" } }),
    );
    const endpoint = await created(client.POST("/api/v1/webhook_endpoints", { body: { url: `https://hooks.example.com/${user}` } }));
    const delivery = await created(
      client.POST("/api/v1/webhook_endpoints/{endpoint_id}/test", { params: { path: { endpoint_id: endpoint.id } } }),
    );
    Object.assign(ids, {
      [key("user")]: user,
      [key("domainId")]: domainId,
      [key("domainName")]: name,
      [key("recordId")]: record.id,
      [key("transferId")]: transfer.transfer_id,
      [key("endpointId")]: endpoint.id,
      [key("deliveryId")]: delivery.id,
    });
  }
  template = { storeWrites, webhookWrites, events: structuredClone(s.outbox.events), fixtures: ids };
});

/** Maps, Sets and Dates as comparable plain values; Map and Set order does not count. */
function canonical(value: unknown): unknown {
  if (typeof value === "function") return "[function]";
  if (value === null || typeof value !== "object") return value;
  const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
  if (value instanceof Date) return { $date: Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString() };
  if (value instanceof Map) return { $map: [...value].map(([key, item]) => [canonical(key), canonical(item)]).sort(byJson) };
  if (value instanceof Set) return { $set: [...value].map(canonical).sort(byJson) };
  if (Array.isArray(value)) return value.map(canonical);
  const out = {};
  for (const key of Object.keys(value).sort()) defineOwn(out, key, canonical((value as Record<string, unknown>)[key]));
  return out;
}

/** Everything the deployment keeps: rows, indexes, webhook endpoints and deliveries, events, sandbox clocks. */
function state(): unknown {
  return canonical({
    store: { ...s.services.store },
    webhooks: { ...s.services.webhooks.store },
    events: s.outbox.events,
    clockOffsets: { partner_a: s.services.clocks.offsetOf("partner_a"), partner_b: s.services.clocks.offsetOf("partner_b") },
  });
}

const PLAIN_PROTOTYPES = new Set<unknown>([Object.prototype, null, Array.prototype, Date.prototype, Map.prototype, Set.prototype]);

/** A class's prototype (the store's own helpers), not an object a body put in a prototype's place. */
const isClassPrototype = (prototype: any) =>
  prototype !== null &&
  Object.hasOwn(prototype, "constructor") &&
  typeof prototype.constructor === "function" &&
  prototype.constructor.prototype === prototype;

/** Stored values with a prototype-named own key or a foreign prototype: what a careless merge of a body leaves. */
function foreignShapes(value: unknown, path = "state", found: string[] = []): string[] {
  if (value === null || typeof value !== "object") return found;
  const prototype = Object.getPrototypeOf(value);
  if (!PLAIN_PROTOTYPES.has(prototype) && !isClassPrototype(prototype)) found.push(`${path} has a foreign prototype`);
  if (value instanceof Map) for (const [key, item] of value) foreignShapes(item, `${path}[${String(key)}]`, found);
  else if (value instanceof Set) for (const item of value) foreignShapes(item, `${path}{}`, found);
  else if (!(value instanceof Date)) {
    for (const key of Reflect.ownKeys(value)) {
      if ((HOSTILE_KEYS as readonly PropertyKey[]).includes(key) || key === "polluted") found.push(`${path} has an own ${String(key)} key`);
      foreignShapes((value as Record<PropertyKey, unknown>)[key], `${path}.${String(key)}`, found);
    }
  }
  return found;
}

function storedShapeProblems(): string[] {
  return [
    ...foreignShapes({ ...s.services.store }, "store"),
    ...foreignShapes({ ...s.services.webhooks.store }, "webhooks"),
    ...foreignShapes(s.outbox.events, "events"),
  ];
}

const BUILT_IN_PROTOTYPES = {
  Object: Object.prototype,
  Array: Array.prototype,
  Function: Function.prototype,
  String: String.prototype,
  Number: Number.prototype,
};
const PROTOTYPE_KEYS = Object.fromEntries(
  Object.entries(BUILT_IN_PROTOTYPES).map(([name, prototype]) => [name, Reflect.ownKeys(prototype).map(String).sort()]),
);

function expectNoPollution(label: string): void {
  const now = Object.fromEntries(
    Object.entries(BUILT_IN_PROTOTYPES).map(([name, prototype]) => [name, Reflect.ownKeys(prototype).map(String).sort()]),
  );
  expect(now, `${label}: built-in prototypes gained or lost keys`).toEqual(PROTOTYPE_KEYS);
  expect(({} as Record<string, unknown>).polluted, `${label}: ({}).polluted`).toBeUndefined();
  expect(Object.prototype.toString.call([]), label).toBe("[object Array]");
}

/** Sends the request and checks the answer; a refusal must leave the state as it was. */
async function exchange(request: BuiltRequest): Promise<Answer> {
  const before = state();
  const answer = await send(request);
  expectConforming(request, answer);
  if (answer.status >= 400 && answer.status < 500) {
    expect(state(), `${request.label}\n  → ${answer.status} ${answer.text.slice(0, 300)}\n  a refused request changed the state`).toEqual(
      before,
    );
  }
  expectNoPollution(request.label);
  expect(storedShapeProblems(), request.label).toEqual([]);
  return answer;
}

// ---------------------------------------------------------------------------------------------
// Request arbitraries

const CONTENT_TYPES = fc.oneof(
  { weight: 14, arbitrary: fc.constant("application/json") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "application/json; charset=utf-8",
      "APPLICATION/JSON",
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/xml",
      "application/merge-patch+json",
      "application/json; charset=latin1",
      "application/json; charset=utf-16",
      "application/jsonp",
      "",
    ),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

const RAW_TEXTS: fc.Arbitrary<Array<string | Repeat>> = fc.oneof(
  fc
    .constantFrom(
      "",
      " ",
      "{",
      "[",
      "nul",
      '{"a":',
      "\u0000",
      "{}",
      "[]",
      '"text"',
      "123",
      "null",
      "true",
      '{"a":1,"a":2}',
      "\ufeff{}",
      '{"a":"\\ud800"}',
      '{"__proto__":{"polluted":"yes"}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"__proto__":{"__proto__":{"polluted":"yes"}}}',
      "user_identifier=u1",
    )
    .map((text) => [text]),
  fc.constantFrom(10, 5_000).map((depth): Array<string | Repeat> => [new Repeat("[", depth), new Repeat("]", depth)]),
  fc.constant<Array<string | Repeat>>([new Repeat("{", 3_000)]),
  fc.string({ maxLength: 30 }).map((text) => [text]),
);

/** A body over the 1 MiB limit, valid JSON. */
const OVERSIZED: fc.Arbitrary<BodyCase> = fc.constant({ contentType: "application/json", json: { padding: new Repeat("x", 1_100_000) } });

function bodyCase(op: Operation, mode: "any" | "valid"): fc.Arbitrary<BodyCase | null> {
  if (op.method === "get") return fc.constant(null);
  if (!op.bodySchema) {
    if (mode === "valid") return fc.constant(null);
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: fc.record({ contentType: CONTENT_TYPES, json: fc.jsonValue({ maxDepth: 2 }) }) },
      { weight: 1, arbitrary: fc.record({ contentType: CONTENT_TYPES, text: RAW_TEXTS }) },
    );
  }
  const valid = values.valid(op.bodySchema);
  if (mode === "valid") return valid.map((json) => ({ contentType: "application/json", json }));
  return fc.oneof(
    { weight: 5, arbitrary: fc.record({ contentType: CONTENT_TYPES, json: valid }) },
    { weight: 6, arbitrary: fc.record({ contentType: CONTENT_TYPES, json: valid.chain(brokenOnce) }) },
    { weight: 1, arbitrary: fc.record({ contentType: CONTENT_TYPES, json: fc.jsonValue({ maxDepth: 3 }) }) },
    { weight: 1, arbitrary: fc.record({ contentType: CONTENT_TYPES, text: RAW_TEXTS }) },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: OVERSIZED },
  );
}

const METHODS = ["GET", "PUT", "POST", "DELETE", "PATCH", "OPTIONS"];

/** A request for the operation, with any part possibly wrong ("any"), or well-formed ("valid"). */
function requestCase(op: Operation, mode: "any" | "valid" = "any"): fc.Arbitrary<RequestCase> {
  const pathModel: Record<string, fc.Arbitrary<PathValue>> = {};
  for (const parameter of op.pathParameters) {
    const valid = values.valid(parameter.schema, parameter.name);
    pathModel[parameter.name] = mode === "valid" ? valid : fc.oneof({ weight: 6, arbitrary: valid }, { weight: 2, arbitrary: oddSegment });
  }
  return fc.record({
    operationId: fc.constant(op.id),
    path: fc.record(pathModel, { noNullPrototype: true }),
    query: queryPairs(values, op.queryParameters, { onlyValid: mode === "valid" }),
    body: bodyCase(op, mode),
  });
}

/** Path parameters naming partner A's own fixtures, so that a request reaches the operation's logic. */
const OWN_FIXTURE: Record<string, FixtureRef> = {
  user_identifier: new FixtureRef("user"),
  domain_id: new FixtureRef("domainId"),
  transfer_id: new FixtureRef("transferId"),
  endpoint_id: new FixtureRef("endpointId"),
  delivery_id: new FixtureRef("deliveryId"),
  id: new FixtureRef("recordId"),
  record_id: new FixtureRef("recordId"),
};

function ownPath(op: Operation): Record<string, PathValue> {
  return Object.fromEntries(op.pathParameters.map((parameter) => [parameter.name, OWN_FIXTURE[parameter.name] ?? "x"]));
}

/** The same request sent with a method its path does not have (or has for another operation). */
function otherMethodCase(op: Operation): fc.Arbitrary<RequestCase> {
  const any = requestCase(op);
  // Bodies of this operation, or of one that takes a body (for operations without one); fetch sends none with GET.
  const withBody = op.bodySchema ? op : WITH_BODY[0]!;
  const bodies = bodyCase({ ...withBody, method: "post" }, "any");
  return fc
    .record({ request: any, method: fc.constantFrom(...METHODS.filter((method) => method !== op.method.toUpperCase())), body: bodies })
    .map(({ request, method, body }) => ({ ...request, method, body: method === "GET" ? null : body }));
}

// ---------------------------------------------------------------------------------------------
// The properties

describe("every operation", () => {
  const cases = OPERATIONS.map((op) => [op.id, op] as const);

  it.each(cases)(
    "%s, well-typed requests: a documented status and a conforming body, never 5xx; a refusal changes nothing",
    async (_id, op) => {
      await fc.assert(
        fc.asyncProperty(requestCase(op, "valid"), async (request) => {
          const fixtures = await restore();
          await exchange(build(request, fixtures));
        }),
        settings(20),
      );
    },
  );

  it.each(cases)("%s, ill-typed requests (body, query, path, media type): the same, and nothing polluted", async (_id, op) => {
    await fc.assert(
      fc.asyncProperty(requestCase(op), async (request) => {
        const fixtures = await restore();
        await exchange(build(request, fixtures));
      }),
      settings(15),
    );
  });
});

describe("methods a path does not have", () => {
  it.each(OPERATIONS.map((op) => [op.id, op] as const))(
    "%s's path with another method: 404/405 or what the operation of that method documents, whatever the body",
    async (_id, op) => {
      await fc.assert(
        fc.asyncProperty(otherMethodCase(op), async (request) => {
          const fixtures = await restore();
          await exchange(build(request, fixtures));
        }),
        settings(4),
      );
    },
  );
});

describe("prototype pollution", () => {
  it.each(WITH_BODY.map((op) => [op.id, op] as const))(
    "%s: a prototype-named key (__proto__, constructor, ...) is answered as any unknown key of the same place",
    async (_id, op) => {
      const cases = values.valid(op.bodySchema!).chain((valid) => {
        const objects = nodesOf(valid).filter(
          (node) => typeof node.value === "object" && node.value !== null && !Array.isArray(node.value),
        );
        // Nested objects first: a key at the top is refused by the schema anyway (and the ill-typed property sends those too).
        const places = objects.map((node) => ({ weight: node.path.length === 0 ? 1 : 3, arbitrary: fc.constant(node.path) }));
        return fc.oneof(...places).chain((at) => {
          // Where the schema takes keys of any name (template variables), mostly a value it accepts, so the key's name is all that differs.
          const extra = values.schemaAt(op.bodySchema!, at)?.additionalProperties;
          const value =
            typeof extra === "object"
              ? fc.oneof({ weight: 3, arbitrary: values.valid(extra) }, { weight: 1, arbitrary: pollutingValue })
              : pollutingValue;
          return fc.record({
            valid: fc.constant(valid),
            at: fc.constant(at),
            key: fc.constantFrom(...HOSTILE_KEYS, ...PROTOTYPE_NAMES),
            value,
          });
        });
      });
      await fc.assert(
        fc.asyncProperty(cases, async ({ valid, at, key, value }) => {
          const answers: Answer[] = [];
          for (const name of [key, "zz_unknown_key"]) {
            const body = updateAt(valid, at, (object) => withKey(object as Record<string, unknown>, name, value));
            const fixtures = await restore();
            const request: RequestCase = {
              operationId: op.id,
              path: ownPath(op),
              query: [],
              body: { contentType: "application/json", json: body },
            };
            answers.push(await exchange(build(request, fixtures)));
          }
          // The field an error names, with the inserted key's own name left out: an ignored key names some other field.
          const [hostile, ordinary] = answers.map((answer, index) => ({
            status: answer.status,
            error: (answer.json as any)?.error,
            code: (answer.json as any)?.details?.code,
            field: ((answer.json as any)?.details?.field as string | undefined)
              ?.split(".")
              .map((part) => (part === [key, "zz_unknown_key"][index] ? "<the key>" : part))
              .join("."),
          }));
          expect(hostile, `key ${JSON.stringify(key)} at ${JSON.stringify(at)} answered unlike an ordinary unknown key`).toEqual(ordinary);
        }),
        settings(6),
      );
    },
  );

  it("a user created or updated with prototype-named keys or identifiers has exactly the documented properties", async () => {
    const userSchema = values.resolve(
      document.paths["/api/v1/users/{user_identifier}"].get.responses["200"].content["application/json"].schema,
    );
    const documentedKeys = Object.keys(userSchema.properties).sort();
    const identifier = fc.oneof(
      fc.constantFrom(...PROTOTYPE_NAMES.filter((name) => /^[A-Za-z0-9_-]+$/.test(name))),
      fc.constant("u1"),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/),
    );
    const hostileBody = fc
      .record(
        { user_identifier: identifier, email: fc.option(fc.emailAddress(), { nil: undefined }) },
        { requiredKeys: ["user_identifier"] },
      )
      .chain((body) =>
        fc.oneof(
          fc.constant(body),
          fc.tuple(fc.constantFrom(...HOSTILE_KEYS), pollutingValue).map(([key, value]) => withKey(body, key, value)),
        ),
      );
    await fc.assert(
      fc.asyncProperty(hostileBody, fc.boolean(), async (body, update) => {
        const fixtures = await restore();
        const rowKeys = Object.keys((await s.services.store.findUser("partner_a", fixtures.user))!).sort();
        const identifierOf = (body as { user_identifier: string }).user_identifier;
        const request: RequestCase = update
          ? {
              operationId: "updateUser",
              path: { user_identifier: new FixtureRef("user") },
              query: [],
              body: { contentType: "application/json", json: withoutKey(body, "user_identifier") },
            }
          : { operationId: "createUserSession", path: {}, query: [], body: { contentType: "application/json", json: body } };
        const answer = await exchange(build(request, fixtures));
        if (answer.status >= 300) return;
        const id = update ? fixtures.user : identifierOf;
        const row = (await s.services.store.findUser("partner_a", id))!;
        expect(Object.getPrototypeOf(row), "the stored user's prototype").toBe(Object.prototype);
        expect(Object.keys(row).sort(), "the stored user's properties").toEqual(rowKeys);
        const read = await exchange(build({ operationId: "getUser", path: { user_identifier: id }, query: [], body: null }, fixtures));
        expect(read.status).toBe(200);
        expect(Object.keys(read.json as object).sort(), "the user's properties over the API").toEqual(documentedKeys);
      }),
      settings(20),
    );
  });
});

/** Reads of what a successful request created, so that its stored form is shown back too. */
function readsOf(operationId: OperationId, answer: Answer): RequestCase[] {
  if (answer.status >= 300 || typeof answer.json !== "object" || answer.json === null) return [];
  const body = answer.json as Record<string, string>;
  const read = (id: OperationId, path: Record<string, string>): RequestCase => ({
    operationId: id,
    path: Object.fromEntries(Object.entries(path).map(([name, value]) => [name, new Raw(percentEncode(value))])),
    query: [],
    body: null,
  });
  switch (operationId) {
    case "createUserSession":
      return [
        read("getUser", { user_identifier: body.user_identifier! }),
        read("listUserDomains", { user_identifier: body.user_identifier! }),
      ];
    case "initiateTransfer":
      return [read("getTransfer", { transfer_id: body.transfer_id! })];
    case "createSandboxDomain":
      return [read("getDomain", { domain_id: body.id! }), read("listDomainDnsRecords", { domain_id: body.id! })];
    case "createDomainDnsRecord":
    case "createDnsRecord":
      return [read("getDnsRecord", { id: body.id! })];
    case "createWebhookEndpoint":
      return [read("getWebhookEndpoint", { endpoint_id: body.id! }), read("listWebhookDeliveries", { endpoint_id: body.id! })];
    default:
      return [];
  }
}

/** What partner A can read of its fixtures and lists. */
const READ_BACK: RequestCase[] = [
  { operationId: "getUser", path: { user_identifier: new FixtureRef("user") }, query: [], body: null },
  { operationId: "listUsers", path: {}, query: [], body: null },
  { operationId: "listUserDomains", path: { user_identifier: new FixtureRef("user") }, query: [], body: null },
  { operationId: "getDomain", path: { domain_id: new FixtureRef("domainId") }, query: [], body: null },
  { operationId: "listDomainDnsRecords", path: { domain_id: new FixtureRef("domainId") }, query: [], body: null },
  { operationId: "getTransfer", path: { transfer_id: new FixtureRef("transferId") }, query: [], body: null },
  { operationId: "listWebhookEndpoints", path: {}, query: [], body: null },
  { operationId: "listWebhookDeliveries", path: { endpoint_id: new FixtureRef("endpointId") }, query: [], body: null },
  { operationId: "getSandboxClock", path: {}, query: [], body: null },
];

/** Sandbox time moving on: past transfer steps (hours, days) and expiries (a year and more). */
const advance = fc.constantFrom(3_600, 2 * 86_400, 8 * 86_400, 400 * 86_400, 3 * 366 * 86_400).map(
  (seconds): RequestCase => ({
    operationId: "advanceSandboxClock",
    path: {},
    query: [],
    body: { contentType: "application/json", json: { seconds } },
  }),
);

/** Sends the steps, then lets time pass, then reads back what they created and the fixtures: every answer checked. */
async function runThenLetTimePass(steps: RequestCase[], passing: RequestCase, readBack: readonly RequestCase[] = READ_BACK): Promise<void> {
  const fixtures = await restore();
  const reads: RequestCase[] = [];
  for (const step of steps) {
    const answer = await exchange(build(step, fixtures));
    reads.push(...readsOf(step.operationId, answer));
  }
  for (const read of reads) await exchange(build(read, fixtures));
  await exchange(build(passing, fixtures));
  for (const read of [...reads, ...readBack]) await exchange(build(read, fixtures));
}

describe("data that outlives the request", () => {
  const withStrings = OPERATIONS.filter((op) => op.bodySchema || op.pathParameters.length > 0);

  it.each(withStrings.map((op) => [op.id, op] as const))(
    "%s: prototype-named strings (__proto__, constructor, toString...) are ordinary data, also once sandbox time passes",
    async (_id, op) => {
      const isEnum = (path: ReadonlyArray<string | number>) => Array.isArray(values.schemaAt(op.bodySchema ?? {}, path)?.enum);
      const isReference = (path: ReadonlyArray<string | number>, body: unknown) =>
        nodesOf(body).some((node) => node.value instanceof FixtureRef && node.path.join("\u0000") === path.join("\u0000"));
      const cases = requestCase(op, "valid").chain((request) => {
        const options: Array<fc.WeightedArbitrary<RequestCase>> = [];
        const body = request.body?.json;
        const withBody = (json: unknown): RequestCase => ({
          ...request,
          path: ownPath(op),
          body: { contentType: "application/json", json },
        });
        // Values the request stores (an auth code, a name) rather than ones that look an object up.
        const stored = body === undefined ? null : withPrototypeName(body, (path) => isEnum(path) || isReference(path, body));
        if (stored) options.push({ weight: 4, arbitrary: stored.map(withBody) });
        const lookedUp = body === undefined ? null : withPrototypeName(body, (path) => !isReference(path, body));
        if (lookedUp) options.push({ weight: 1, arbitrary: lookedUp.map(withBody) });
        if (op.pathParameters.length > 0) {
          const renamed = fc
            .tuple(fc.constantFrom(...op.pathParameters.map((parameter) => parameter.name as string)), fc.constantFrom(...PROTOTYPE_NAMES))
            .map(([name, value]) => ({ ...request, path: { ...request.path, [name]: value } }));
          options.push({ weight: 1, arbitrary: renamed });
        }
        return options.length > 0 ? fc.oneof(...options) : fc.constant(request);
      });
      await fc.assert(
        fc.asyncProperty(cases, advance, async (request, passing) => runThenLetTimePass([request], passing, [])),
        settings(6),
      );
    },
  );

  it("random sequences of requests, then sandbox time passing: every answer documented, refusals change nothing", async () => {
    const step = fc
      .constantFrom(...OPERATIONS.filter((op) => op.id !== "resetSandbox"))
      .chain((op) => fc.oneof({ weight: 3, arbitrary: requestCase(op, "valid") }, { weight: 1, arbitrary: requestCase(op) }));
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 5 }), advance, async (steps, passing) =>
        runThenLetTimePass(steps, passing),
      ),
      settings(30),
    );
  });
});

describe("requests that address no operation get 404 or 405, whatever their body or path encoding", () => {
  const unroutable: Array<[string, string, string | undefined]> = [
    ["PATCH", "/api/v1/users", "{"],
    ["DELETE", "/api/v1/users", '""'],
    ["PUT", "/api/v1/sandbox/reset", "["],
    ["POST", "/api/v1/webhook_endpoints//deliveries//redeliver", '{"a":'],
    ["GET", "/api/v1/domains/%FF/renew", undefined],
    ["PATCH", "/api/v1/webhook_endpoints/%FF", undefined],
  ];
  it.each(unroutable)("%s %s with body %s is answered 404 or 405", async (method, path, text) => {
    const request: BuiltRequest = {
      method,
      url: `${s.baseUrl}${path}`,
      headers: { Authorization: `Bearer ${PARTNER_A_KEY}`, ...(text === undefined ? {} : { "Content-Type": "application/json" }) },
      body: text === undefined ? undefined : new TextEncoder().encode(text),
      label: `${method} ${path} ${text ?? ""}`,
    };
    const answer = await send(request);
    expect(answerProblems(request, answer), `${answer.status} ${answer.text}`).toEqual([]);
  });
});

describe("the oracle itself", () => {
  it("addresses requests as the server routes them", () => {
    const at = (method: string, path: string) => {
      const { candidates, unroutable } = addressed(method, new URL(`http://x${path}`));
      return { ids: candidates.map((op) => op.id).sort(), unroutable };
    };
    expect(at("GET", "/api/v1/domains/tlds")).toEqual({ ids: ["getDomain", "listTlds"], unroutable: false });
    expect(at("PUT", "/api/v1/domains/tlds")).toEqual({ ids: ["updateDomain"], unroutable: true });
    expect(at("GET", "/api/v1/users/")).toEqual({ ids: [], unroutable: true });
    expect(at("GET", "/api/v1/dns_records/%FF")).toEqual({ ids: ["getDnsRecord"], unroutable: true });
    expect(at("GET", "/api/v1/nothing")).toEqual({ ids: [], unroutable: true });
    expect(at("DELETE", "/api/v1/domains/a%2Fb/dns/x")).toEqual({ ids: ["deleteDomainDnsRecord"], unroutable: false });
  });

  it("builds bodies that keep prototype-named keys as own keys", () => {
    const body = build(
      {
        operationId: "createUserSession",
        path: {},
        query: [],
        body: { contentType: "application/json", json: withKey({ user_identifier: "u1" }, "__proto__", { polluted: "yes" }) },
      },
      {} as Fixtures,
    );
    expect(new TextDecoder().decode(body.body)).toBe('{"user_identifier":"u1","__proto__":{"polluted":"yes"}}');
  });
});

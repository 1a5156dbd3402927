/**
 * What the robustness checks share: every operation's scenario answer, and the documented headers
 * of an answer, read from the target's document.
 */
import type { CheckContext } from "../check.js";
import { operationsOfDocument, type CallInput, type CallResult, type OperationRef } from "../contract-client.js";
import type { OpenApiDocument } from "../documents.js";
import { missingNeed, SCENARIOS } from "../scenarios.js";

/** A node of the document (a schema, a response, a parameter), as JSON. */
// biome-ignore lint/suspicious/noExplicitAny: a document's nodes are whatever JSON the document holds.
export type DocumentNode = Record<string, any>;

/** Follows `$ref`s within the document to what they name. */
export function resolved(document: OpenApiDocument, node: unknown): DocumentNode | undefined {
  let current = node as DocumentNode | undefined;
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 20; hops++)
    current = (current.$ref as string)
      .replace(/^#\//, "")
      .split("/")
      .reduce((parent: DocumentNode | undefined, segment) => parent?.[segment.replace(/~1/g, "/").replace(/~0/g, "~")], document);
  return current;
}

/** The headers the document gives the answer `status` of `op`, by lower-case name, each with its schema. */
export function documentedHeaders(
  document: OpenApiDocument,
  op: OperationRef,
  status: number,
): Map<string, { name: string; schema: DocumentNode }> {
  const response = resolved(document, op.operation.responses[String(status)] ?? op.operation.responses.default);
  const headers = new Map<string, { name: string; schema: DocumentNode }>();
  for (const [name, header] of Object.entries(response?.headers ?? {}))
    headers.set(name.toLowerCase(), { name, schema: resolved(document, resolved(document, header)?.schema) ?? {} });
  return headers;
}

/** An operation with the input of its scenario, for every operation the target serves and the fixtures allow. */
export interface ScenarioCall {
  op: OperationRef;
  input: CallInput;
}

/** Every non-destructive operation with a scenario the fixtures allow, each with a fresh input. */
export async function* scenarioCalls(
  context: CheckContext,
  select: (op: OperationRef) => boolean = () => true,
): AsyncGenerator<ScenarioCall> {
  const fixtures = await context.fixtures();
  for (const op of operationsOfDocument(context.target.document)) {
    const scenario = SCENARIOS[op.operationId];
    if (!scenario || scenario.destructive || !select(op) || missingNeed(scenario, fixtures)) continue;
    yield { op, input: await scenario.input(fixtures, context.api) };
  }
}

/** Runs `each` on every item, collecting every failure, so one run names them all. */
export async function collectFailures<T>(items: AsyncIterable<T> | Iterable<T>, each: (item: T) => Promise<void>): Promise<void> {
  const failures: string[] = [];
  let count = 0;
  for await (const item of items) {
    count++;
    try {
      await each(item);
    } catch (error) {
      failures.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (failures.length) throw new Error(`${failures.length} of ${count}:\n${failures.join("\n")}`);
}

/** `"name";key=value;key=value`, the items of RateLimit-Policy and RateLimit (structured fields, RFC 9651). */
const RATE_LIMIT_ITEM = (keys: string[]) => new RegExp(`^"[A-Za-z0-9_.-]+"${keys.map((key) => `;${key}=\\d+`).join("")}$`);

/** How a documented header's value breaks its schema (and the grammar its description gives), or null. */
export function headerProblem(name: string, schema: DocumentNode, value: string): string | null {
  const lower = name.toLowerCase();
  if (schema.type === "integer") {
    if (!/^\d+$/.test(value)) return `${name}: ${JSON.stringify(value)} is not a whole number`;
    if (typeof schema.minimum === "number" && Number(value) < schema.minimum) return `${name}: ${value} is below ${schema.minimum}`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.includes(value))
    return `${name}: ${JSON.stringify(value)} is not one of ${schema.enum.join(", ")}`;
  if (typeof schema.pattern === "string" && !new RegExp(schema.pattern).test(value))
    return `${name}: ${JSON.stringify(value)} does not match ${schema.pattern}`;
  if (schema.type === "string" && value.trim() === "") return `${name} is empty`;
  if (lower === "ratelimit-policy") {
    const items = value.split(/,\s*/);
    if (!items.every((item) => RATE_LIMIT_ITEM(["q", "w"]).test(item)))
      return `${name}: ${JSON.stringify(value)} is not a list of "name";q=limit;w=window`;
  }
  if (lower === "ratelimit" && !RATE_LIMIT_ITEM(["r", "t"]).test(value))
    return `${name}: ${JSON.stringify(value)} is not "name";r=remaining;t=seconds`;
  return null;
}

/**
 * Every way `result`'s headers break what the document says of them: a documented header present
 * but malformed; X-Request-Id (documented on every answer) missing; RateLimit-Policy and RateLimit
 * missing where documented, or RateLimit naming no bucket of the policy.
 */
export function headerProblems(document: OpenApiDocument, op: OperationRef, result: CallResult): string[] {
  const documented = documentedHeaders(document, op, result.status);
  const problems: string[] = [];
  for (const [lower, { name, schema }] of documented) {
    const value = result.headers.get(lower);
    if (value === null) {
      if (["x-request-id", "ratelimit-policy", "ratelimit"].includes(lower)) problems.push(`${name} is missing`);
      continue;
    }
    const problem = headerProblem(name, schema, value);
    if (problem) problems.push(problem);
  }
  const policy = result.headers.get("ratelimit-policy");
  const reported = /^"([^"]+)"/.exec(result.headers.get("ratelimit") ?? "")?.[1];
  if (policy && reported && !policy.includes(`"${reported}"`))
    problems.push(`RateLimit reports bucket ${reported}, which RateLimit-Policy does not list (${policy})`);
  return problems.map((problem) => `${result.label} ${result.status}: ${problem}`);
}

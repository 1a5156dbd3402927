/**
 * Reading a target's rate-limit fields: the IETF `RateLimit-Policy` (every bucket that applies)
 * and `RateLimit` (the reported one) the spec adds, beside the description's X-RateLimit-*.
 */
import type { CheckContext } from "../check.js";
import type { CallInput, OperationRef } from "../contract-client.js";

export interface PolicyItem {
  name: string;
  /** Requests per window. */
  q: number;
  /** Window, seconds. */
  w: number;
}

export interface Reported {
  name: string;
  remaining: number;
  /** Seconds until the reported bucket's window resets. */
  seconds: number;
  /** X-RateLimit-* as whole numbers. */
  limit: number;
  xRemaining: number;
  reset: number;
}

const items = (field: string) =>
  field.split(",").map((member) => {
    const [name, ...parameters] = member.trim().split(";");
    const values = Object.fromEntries(parameters.map((parameter) => parameter.trim().split("=") as [string, string]));
    return { name: name!.trim().replace(/^"|"$/g, ""), values };
  });

export function policyOf(headers: Headers, label: string): PolicyItem[] {
  const field = headers.get("ratelimit-policy");
  if (!field) throw new Error(`${label} answered without RateLimit-Policy`);
  return items(field).map(({ name, values }) => ({ name, q: Number(values.q), w: Number(values.w) }));
}

export function reportedOf(headers: Headers, label: string): Reported {
  const field = headers.get("ratelimit");
  if (!field) throw new Error(`${label} answered without RateLimit`);
  const [item] = items(field);
  const whole = (name: string) => {
    const value = headers.get(name);
    if (!value || !/^\d+$/.test(value)) throw new Error(`${label} answered ${name}: ${JSON.stringify(value)}, not a whole number`);
    return Number(value);
  };
  return {
    name: item!.name,
    remaining: Number(item!.values.r),
    seconds: Number(item!.values.t),
    limit: whole("x-ratelimit-limit"),
    xRemaining: whole("x-ratelimit-remaining"),
    reset: whole("x-ratelimit-reset"),
  };
}

/** The description's table as the document publishes it (root `x-rate-limits`), by bucket name. */
export function publishedBuckets(context: CheckContext): Map<string, { limit: number; window: number }> {
  const table = context.target.document["x-rate-limits"];
  if (!table) throw new Error("the published document has no x-rate-limits");
  const buckets = new Map<string, { limit: number; window: number }>();
  for (const bucket of table.overall) buckets.set(`overall_${bucket.window}s`, bucket);
  for (const [name, bucket] of Object.entries<{ limit: number; window: number }>(table.classes)) buckets.set(name, bucket);
  return buckets;
}

/** An identifier no resource has: requests with it are answered (404) without changing anything. */
export const ABSENT = "dom_conformanceAbsent000000000";

/**
 * A request to `op` that changes nothing: unknown ids in the path, else for a write an empty body
 * (refused) and for a read nothing at all.
 */
export function harmlessInput(op: OperationRef): CallInput {
  const path = Object.fromEntries([...op.path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => [name!, ABSENT]));
  if (op.method === "get" || op.method === "delete") return { path };
  const hasPath = Object.keys(path).length > 0;
  return { path, body: hasPath ? (op.operation.requestBody?.content?.["application/json"]?.example ?? {}) : {} };
}

/** One request without the kit's pacer and its retries, to see a 429 as the target sends it. */
export async function rawCall(
  context: CheckContext,
  op: OperationRef,
  input: CallInput,
): Promise<{ status: number; headers: Headers; body: any }> {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(input.path?.[name] ?? ABSENT));
  const response = await fetch(`${context.target.baseUrl}${path}`, {
    method: op.method.toUpperCase(),
    headers: {
      Accept: "application/json",
      Authorization: `Bearer ${context.target.apiKey}`,
      ...(input.body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: input.body === undefined ? undefined : JSON.stringify(input.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // kept as text: the check says what came
  }
  return { status: response.status, headers: response.headers, body };
}

/**
 * Calls operations of the target and checks every answer against the published document with an
 * independent validator (Ajv over the bundle, not the server's express-openapi-validator):
 * documented status, JSON body valid for that status, empty body where none is documented.
 */
import { pointer, SchemaValidator, type OpenApiDocument } from "./documents.js";
import { RateLimitPacer } from "./rate-limit-pacer.js";
import type { Target } from "./target.js";

export interface OperationRef {
  operationId: string;
  method: string;
  path: string;
  operation: Record<string, any>;
}

export interface CallInput {
  path?: Record<string, string>;
  query?: Record<string, string | number>;
  /**
   * The query string sent as it is, instead of `query`: how a client that leaves `*`, `@` or `:` unencoded
   * (RFC 3986 allows them in a query) or encodes them asks, where URLSearchParams would choose.
   */
  rawQuery?: string;
  body?: unknown;
  /** Raw text instead of JSON, to send what no client library would. */
  rawBody?: string;
  /** null sends no Authorization header; default the target's key. */
  key?: string | null;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  /** Every way the answer breaks the document; empty when it conforms. */
  violations: string[];
  label: string;
}

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
/** A refused request on a rate limit is retried after the wait it names, this many times at most (the pacer should leave none). */
const RATE_LIMIT_RETRIES = 3;

export function operationsOfDocument(document: OpenApiDocument): OperationRef[] {
  return Object.entries<Record<string, any>>(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      operationId: item[method].operationId as string,
      method,
      path,
      operation: item[method],
    })),
  );
}

export class ContractClient {
  private readonly validator: SchemaValidator;
  private readonly operations: Map<string, OperationRef>;
  /** Operations called at least once, for the coverage check. */
  readonly called = new Set<string>();
  /** Every 5xx answer of the run, for robustness.no-server-error: whichever check caused it, the run fails. */
  readonly serverErrors: string[] = [];
  /** Requests sent, per key (the key's last characters): what a run costs against the target's limits. */
  readonly requests = new Map<string, number>();

  constructor(
    private readonly target: Target,
    /** Waits out the target's rate limits between calls. */
    readonly pacer: RateLimitPacer = new RateLimitPacer(),
  ) {
    this.validator = new SchemaValidator(target.document);
    this.operations = new Map(operationsOfDocument(target.document).map((op) => [op.operationId, op]));
  }

  has(operationId: string): boolean {
    return this.operations.has(operationId);
  }

  operation(operationId: string): OperationRef {
    const op = this.operations.get(operationId);
    if (!op) throw new Error(`${operationId} is not in the ${this.target.kind} document`);
    return op;
  }

  async call(operationId: string, input: CallInput = {}): Promise<CallResult> {
    const op = this.operation(operationId);
    this.called.add(operationId);
    const path = op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(input.path?.[name] ?? `missing-${name}`));
    const query = input.rawQuery ?? new URLSearchParams(Object.entries(input.query ?? {}).map(([k, v]) => [k, String(v)])).toString();
    const url = `${this.target.baseUrl}${path}${query ? `?${query}` : ""}`;
    const key = input.key === undefined ? this.target.apiKey : input.key;
    const headers: Record<string, string> = {
      Accept: "application/json",
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...input.headers,
    };
    let payload: string | undefined;
    if (input.rawBody !== undefined) payload = input.rawBody;
    else if (input.body !== undefined) payload = JSON.stringify(input.body);
    if (payload !== undefined && !headers["Content-Type"]) headers["Content-Type"] = "application/json";
    const label = `${op.method.toUpperCase()} ${op.path}`;
    for (let attempt = 0; ; attempt++) {
      if (key) await this.pacer.beforeCall(key, operationId);
      const counted = key ? `…${key.slice(-4)}` : "no key";
      this.requests.set(counted, (this.requests.get(counted) ?? 0) + 1);
      const response = await fetch(url, { method: op.method.toUpperCase(), headers, body: payload });
      const text = await response.text();
      if (response.status >= 500) this.serverErrors.push(`${label} answered ${response.status}: ${text.slice(0, 200)}`);
      if (key) this.pacer.afterResponse(key, operationId, response.headers);
      if (response.status === 429 && attempt < RATE_LIMIT_RETRIES) {
        await this.pacer.afterRefusal(operationId, response.headers);
        continue;
      }
      const { body, violations } = this.check(op, response, text);
      return { status: response.status, headers: response.headers, body, violations, label };
    }
  }

  /** The ways an answer breaks the document. */
  private check(op: OperationRef, response: Response, text: string): { body: unknown; violations: string[] } {
    const label = `${op.method.toUpperCase()} ${op.path}`;
    const violations: string[] = [];
    const status = String(response.status);
    const documented = op.operation.responses[status] ?? op.operation.responses.default;
    let body: unknown = text;
    if (!documented) {
      violations.push(
        `${label} answered ${status}, which it does not document (documented: ${Object.keys(op.operation.responses).join(", ")})`,
      );
      return { body: safeJson(text), violations };
    }
    const [responsePointer, resolved] = this.resolveResponse(op, status, documented);
    const json = resolved.content?.["application/json"];
    const textTypes = Object.keys(resolved.content ?? {}).filter((mediaType) => mediaType.startsWith("text/"));
    if (!json && textTypes.length > 0)
      return { body: text, violations: this.checkText(label, status, response, text, responsePointer, textTypes) };
    if (!json) {
      if (text.length > 0) violations.push(`${label} answered ${status} with a body, where the document has none`);
      return { body: null, violations };
    }
    if (!/^application\/json\b/i.test(response.headers.get("content-type") ?? "")) {
      violations.push(`${label} answered ${status} with Content-Type ${response.headers.get("content-type")}, not application/json`);
    }
    body = safeJson(text);
    if (body === undefined) {
      violations.push(`${label} answered ${status} with a body that is not JSON: ${text.slice(0, 120)}`);
      return { body: text, violations };
    }
    const errors = this.validator.errorsAt(`${responsePointer}/content/application~1json/schema`, body);
    if (errors) violations.push(`${label} answered ${status} with a body that breaks the document: ${errors}`);
    return { body, violations };
  }

  /** A text answer (a zone file's `text/dns`): one of the documented text types, and a string its schema admits. */
  private checkText(
    label: string,
    status: string,
    response: Response,
    text: string,
    responsePointer: string,
    textTypes: string[],
  ): string[] {
    const contentType = (response.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!textTypes.includes(contentType))
      return [`${label} answered ${status} with Content-Type ${response.headers.get("content-type")}, not ${textTypes.join(" or ")}`];
    const errors = this.validator.errorsAt(`${responsePointer}/content/${contentType.replace("/", "~1")}/schema`, text);
    return errors ? [`${label} answered ${status} with a body that breaks the document: ${errors}`] : [];
  }

  private resolveResponse(op: OperationRef, status: string, documented: Record<string, any>): [string, Record<string, any>] {
    if (typeof documented.$ref === "string") {
      const name = documented.$ref.split("/").pop()!;
      return [pointer("components", "responses", name), this.target.document.components.responses[name]];
    }
    const key = op.operation.responses[status] ? status : "default";
    return [pointer("paths", op.path, op.method, "responses", key), documented];
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

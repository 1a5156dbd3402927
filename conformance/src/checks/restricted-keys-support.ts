/**
 * Restricted keys made by the kit over HTTP with the target's full key, revoked again when the check
 * ends (passed or failed), and the expectations of their refusals. The key operations are found by
 * method and path in the target's document, so the kit follows the spec's operation names.
 */
import type { CheckContext } from "../check.js";
import { operationsOfDocument, type CallInput, type CallResult } from "../contract-client.js";
import { expectConforming, expectStatus } from "./expectations.js";

export interface KeyRestrictions {
  domains?: string[];
  record_names?: string[];
  record_types?: string[];
  client_ips?: string[];
}

export interface KeyGrant {
  scopes: string[];
  restrictions?: KeyRestrictions;
  expires_at?: string;
}

export interface KitKey {
  id: string;
  secret: string;
  grant: KeyGrant;
  /** The key as the target answered its creation (without `secret`). */
  answered: Record<string, unknown>;
}

/** The scopes an operation's `x-required-scope` may name besides a resource's read or write. */
export const EVERY_KEY = "any";
export const FULL_KEYS_ONLY = "unrestricted";

const KEYS_PATH = "/api/v1/api_keys";
const KEY_PATH = "/api/v1/api_keys/{key_id}";

/** The operation at `method` `path` of the target's document, or null where it serves none. */
export function operationAt(context: CheckContext, method: string, path: string): string | null {
  const found = operationsOfDocument(context.target.document).find((op) => op.method === method && op.path === path);
  return found?.operationId ?? null;
}

export const keyOperations = (context: CheckContext) => ({
  list: operationAt(context, "get", KEYS_PATH),
  create: operationAt(context, "post", KEYS_PATH),
  get: operationAt(context, "get", KEY_PATH),
  roll: operationAt(context, "post", `${KEY_PATH}/roll`),
  revoke: operationAt(context, "delete", KEY_PATH),
});

/** The zone file import (an addition), found by its path like the key operations; null where not served. */
export const zoneImportOperation = (context: CheckContext) => operationAt(context, "post", "/api/v1/domains/{domain_id}/zone/import");

/** The scopes the target's document lists for a key (the create body's `scopes` items). */
export function scopesOfDocument(context: CheckContext): string[] {
  const { document } = context.target;
  const resolve = (schema: any): any =>
    schema?.$ref
      ? resolve(
          schema.$ref
            .split("/")
            .slice(1)
            .reduce((node: any, part: string) => node?.[part], document),
        )
      : schema;
  const create = keyOperations(context).create;
  if (!create) return [];
  const body = resolve(context.api.operation(create).operation.requestBody?.content?.["application/json"]?.schema);
  const items = resolve(resolve(body?.properties?.scopes)?.items);
  return Array.isArray(items?.enum) ? [...items.enum] : [];
}

/** `users:read` -> `users`; `any` and `unrestricted` have no resource. */
export const resourceOf = (scope: string) => (scope.includes(":") ? scope.split(":")[0]! : null);

/** The operation's `x-required-scope` in the target's document. */
export const requiredScopeOf = (operation: Record<string, any>): string | undefined => operation["x-required-scope"];

/** An RFC 3339 time `seconds` from now (by this machine's clock, moved by `offset` milliseconds), whole seconds. */
export const secondsFromNow = (seconds: number, offset = 0) =>
  new Date(Date.now() + offset + seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");

/**
 * How far the target's clock is ahead of this machine's, in milliseconds, read from an answer's
 * `Date` header (whole seconds): an expiry a few seconds ahead must be ahead by the target's clock.
 */
export async function targetClockOffset(context: CheckContext): Promise<number> {
  const answer = await context.api.call(context.api.has("getApiHealth") ? "getApiHealth" : "listUsers", { query: {} });
  const date = Date.parse(answer.headers.get("date") ?? "");
  // The header drops the milliseconds: the target's clock is up to a second later than it says.
  return Number.isFinite(date) ? date + 500 - Date.now() : 0;
}

/**
 * Keys of one check: made with the target's full key, each remembered so `revokeAll` (in the check's
 * `finally`) leaves none behind on a shared deployment.
 */
export class KitKeys {
  private readonly made: KitKey[] = [];
  private readonly operations: ReturnType<typeof keyOperations>;

  constructor(private readonly context: CheckContext) {
    this.operations = keyOperations(context);
    if (!this.operations.create || !this.operations.revoke)
      context.notApplicable("the target serves no key operations (POST and DELETE /api/v1/api_keys...) to make restricted keys with");
  }

  get ids() {
    return this.operations;
  }

  /** Makes a key with this grant, failing with the answer when the target refuses it. */
  async make(stem: string, grant: KeyGrant): Promise<KitKey> {
    const result = await this.context.api.call(this.operations.create!, {
      // Names are at most 80 characters; the run's unique suffix is what tells the kit's keys apart.
      body: { name: this.context.unique(`kit ${stem}`.slice(0, 40)), ...grant },
    });
    expectConforming(result);
    expectStatus(result, 201, `making a key ${JSON.stringify(grant)}`);
    const { secret, ...answered } = result.body as Record<string, unknown>;
    if (typeof secret !== "string" || !secret)
      throw new Error(`${result.label} answered no secret for the new key: ${JSON.stringify(result.body)}`);
    const key: KitKey = { id: String(answered.id), secret, grant, answered };
    this.made.push(key);
    return key;
  }

  /** Remembers a key the check made otherwise (a roll's new key), to revoke it too. */
  adopt(key: KitKey): void {
    this.made.push(key);
  }

  /** Revokes the key now, failing unless the target answers 204. */
  async revoke(key: KitKey): Promise<void> {
    const result = await this.context.api.call(this.operations.revoke!, { path: { key_id: key.id } });
    expectConforming(result);
    expectStatus(result, 204, "revoking a key with the full key");
  }

  /** Revokes every key made, ignoring the answers (some are revoked or expired already). */
  async revokeAll(): Promise<void> {
    for (const key of this.made.splice(0))
      await this.context.api.call(this.operations.revoke!, { path: { key_id: key.id } }).catch(() => undefined);
  }
}

/** Runs `body` with the check's keys, revoking them whatever happens. */
export async function withKeys<T>(context: CheckContext, body: (keys: KitKeys) => Promise<T>): Promise<T> {
  const keys = new KitKeys(context);
  try {
    return await body(keys);
  } finally {
    await keys.revokeAll();
  }
}

/** Calls with the restricted key. */
export const callWith = (context: CheckContext, key: KitKey, operationId: string, input: CallInput = {}) =>
  context.api.call(operationId, { ...input, key: key.secret });

const shown = (result: CallResult) => JSON.stringify(result.body)?.slice(0, 300);

/**
 * The refusal a 403 carries: the coded shape is `error` forbidden with the refusal in `details.code`
 * and what refused in a detail; Variant R's list shape has messages only, which must name it.
 */
function refusalNames(result: CallResult, code: string, detail: string, value: string): boolean {
  if (result.status !== 403) return false;
  const body = result.body ?? {};
  // A message names `record_names` in words as well ("record names").
  if (Array.isArray(body.errors))
    return body.errors.some(
      (message: unknown) => typeof message === "string" && (message.includes(value) || message.includes(value.replaceAll("_", " "))),
    );
  return body.error === "forbidden" && body.details?.code === code && body.details?.[detail] === value && typeof body.message === "string";
}

/** 403 insufficient_scope in the documented shape, naming the scope the operation needs. */
export function expectInsufficientScope(result: CallResult, requiredScope: string, why: string): void {
  if (!refusalNames(result, "insufficient_scope", "required_scope", requiredScope))
    throw new Error(
      `${result.label} (${why}) answered ${result.status} ${shown(result)}, expected 403 insufficient_scope naming the required scope ${requiredScope}`,
    );
  expectConforming(result);
}

/** 403 key_restricted in the documented shape, naming the restriction that refused (one of `restrictions`). */
export function expectKeyRestricted(
  result: CallResult,
  restrictions: keyof KeyRestrictions | Array<keyof KeyRestrictions>,
  why: string,
): void {
  const named = Array.isArray(restrictions) ? restrictions : [restrictions];
  if (!named.some((restriction) => refusalNames(result, "key_restricted", "restriction", restriction)))
    throw new Error(
      `${result.label} (${why}) answered ${result.status} ${shown(result)}, expected 403 key_restricted naming the restriction ${named.join(" or ")}`,
    );
  expectConforming(result);
}

/** Not refused for the key: neither 401 nor 403 (the request may still fail for what it asks). */
export function expectAdmitted(result: CallResult, why: string): void {
  if (result.status === 401 || result.status === 403)
    throw new Error(`${result.label} (${why}) answered ${result.status} ${shown(result)}: the key should be admitted`);
}

/** The key no longer authenticates: 401 unauthorized. */
export function expectKeyEnded(result: CallResult, why: string): void {
  if (result.status !== 401 || result.body?.error !== "unauthorized")
    throw new Error(`${result.label} (${why}) answered ${result.status} ${shown(result)}, expected 401 unauthorized`);
  expectConforming(result);
}

/** Calls until `done` says so or the deadline passes; the last answer when it passes. */
export async function callUntil(
  call: () => Promise<CallResult>,
  done: (result: CallResult) => boolean,
  deadlineMilliseconds: number,
  intervalMilliseconds = 200,
): Promise<CallResult> {
  const deadline = Date.now() + deadlineMilliseconds;
  for (;;) {
    const result = await call();
    if (done(result) || Date.now() >= deadline) return result;
    await new Promise((resolve) => setTimeout(resolve, intervalMilliseconds));
  }
}

/**
 * The scope matrix: every operation the target serves, called with restricted keys made for the
 * run, its required scope read from the published document's `x-required-scope` (never a list
 * kept here). One key per scope set, reused across operations.
 */
import type { CheckContext } from "../check.js";
import { operationsOfDocument, type CallInput, type OperationRef } from "../contract-client.js";
import { missingNeed, SCENARIOS } from "../scenarios.js";
import {
  EVERY_KEY,
  FULL_KEYS_ONLY,
  requiredScopeOf,
  resourceOf,
  scopesOfDocument,
  type KitKey,
  type KitKeys,
} from "./restricted-keys-support.js";

export interface MatrixEntry {
  op: OperationRef;
  scope: string;
  input: CallInput;
  /** No scenario makes a call that can succeed: ids that name nothing and the documented example body, enough to be refused. */
  guessed: boolean;
}

/** A request the scope check must refuse before reading anything: made-up path ids, the document's example body. */
function documentedInput(op: OperationRef): CallInput {
  const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
  const example = op.operation.requestBody?.content?.["application/json"]?.example;
  return {
    path: Object.fromEntries(names.map((name) => [name, `kit-unknown-${name}`])),
    ...(example === undefined ? {} : { body: example }),
  };
}

/**
 * Every operation with a scenario the target can run, its required scope and its input (set up
 * now, with the full key); operations whose document names no scope, or an unknown one, are
 * failures of the document.
 */
export async function matrixOf(context: CheckContext): Promise<{ entries: MatrixEntry[]; failures: string[] }> {
  const fixtures = await context.fixtures();
  const scopes = new Set(scopesOfDocument(context));
  const entries: MatrixEntry[] = [];
  const failures: string[] = [];
  for (const op of operationsOfDocument(context.target.document)) {
    const scope = requiredScopeOf(op.operation);
    const label = `${op.operationId} (${op.method.toUpperCase()} ${op.path})`;
    if (scope === undefined) {
      failures.push(`${label}: the document names no x-required-scope`);
      continue;
    }
    if (scope !== EVERY_KEY && scope !== FULL_KEYS_ONLY && !scopes.has(scope)) {
      failures.push(`${label}: x-required-scope ${scope} is no scope a key can have (${[...scopes].join(", ")})`);
      continue;
    }
    const scenario = SCENARIOS[op.operationId];
    // A sandbox reset would take every other check's data: its scope is proved by the other sandbox writes.
    if (scenario?.destructive) continue;
    if (!scenario) {
      entries.push({ op, scope, input: documentedInput(op), guessed: true });
      continue;
    }
    const missing = missingNeed(scenario, fixtures);
    if (missing) {
      context.note(`${op.operationId}: not applicable, ${missing}`);
      continue;
    }
    entries.push({ op, scope, input: await scenario.input(fixtures, context.api), guessed: false });
  }
  return { entries, failures };
}

/** Keys made on first use, one per set of scopes, so an operation-by-operation sweep makes few. */
export class KeysByScopes {
  private readonly cache = new Map<string, Promise<KitKey>>();
  readonly scopes: string[];

  constructor(
    private readonly keys: KitKeys,
    context: CheckContext,
  ) {
    this.scopes = scopesOfDocument(context);
  }

  of(scopes: readonly string[]): Promise<KitKey> {
    const name = [...scopes].sort().join(" ");
    let key = this.cache.get(name);
    if (!key) this.cache.set(name, (key = this.keys.make(`${scopes.length} scopes`, { scopes: [...scopes] })));
    return key;
  }

  /** A key with every scope but those of `resource`. */
  allBut(resource: string): Promise<KitKey> {
    return this.of(this.scopes.filter((scope) => resourceOf(scope) !== resource));
  }

  /** A key with every scope a key can have: still not a full key. */
  every(): Promise<KitKey> {
    return this.of(this.scopes);
  }

  has(scope: string): boolean {
    return this.scopes.includes(scope);
  }
}

/** The keys that lack `scope`: the read of its resource for a write, and a key with every other resource's scopes. */
export async function keysLacking(keys: KeysByScopes, scope: string): Promise<Array<[KitKey, string]>> {
  if (scope === FULL_KEYS_ONLY) return [[await keys.every(), "a key with every scope"]];
  const resource = resourceOf(scope);
  if (!resource) return [];
  const lacking: Array<[KitKey, string]> = [[await keys.allBut(resource), `a key with every scope but ${resource}'s`]];
  const read = `${resource}:read`;
  if (scope.endsWith(":write") && keys.has(read)) lacking.push([await keys.of([read]), `a key with ${read} only`]);
  return lacking;
}

/** The keys that hold `scope`: exactly it, and for a read the write of its resource too (write includes read). */
export async function keysHolding(keys: KeysByScopes, scope: string): Promise<Array<[KitKey, string]>> {
  if (scope === FULL_KEYS_ONLY) return [];
  if (scope === EVERY_KEY) return [[await keys.of([keys.scopes[0]!]), `a key with ${keys.scopes[0]} only`]];
  const holding: Array<[KitKey, string]> = [[await keys.of([scope]), `a key with ${scope} only`]];
  const write = scope.replace(/:read$/, ":write");
  if (write !== scope && keys.has(write)) holding.push([await keys.of([write]), `a key with ${write} only (write includes read)`]);
  return holding;
}

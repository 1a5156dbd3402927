/**
 * Restricted keys: the scopes a key may hold and the one each operation needs, from the spec's
 * `x-required-scope` (generated, never written here), so a caller can check a key's grant before a
 * request, or explain a 403 `insufficient_scope`.
 */
import type { components } from "./api-types.js";
import { keyScopes, requiredScopes, type RequiredScope, type Scope } from "./api-types.js";

export type { RequiredScope, Scope };
export type ApiKey = components["schemas"]["ApiKey"];
export type ApiKeyWithSecret = components["schemas"]["ApiKeyWithSecret"];
export type ApiKeyCreate = components["schemas"]["ApiKeyCreate"];
export type ApiKeyRestrictions = components["schemas"]["ApiKeyRestrictions"];

/** Every scope a key may hold. */
export const KEY_SCOPES: readonly Scope[] = keyScopes;

export type ScopedOperationId = keyof typeof requiredScopes;

/** The scope an operation needs: a scope, `any` (every key) or `unrestricted` (full keys only). */
export function requiredScopeOf(operationId: ScopedOperationId): RequiredScope {
  return requiredScopes[operationId];
}

/** Whether a key with `scopes` (null: a full key) may call the operation; a `write` scope includes its `read`. */
export function scopesAllow(scopes: readonly Scope[] | null, operationId: ScopedOperationId): boolean {
  const required = requiredScopeOf(operationId);
  if (required === "any" || scopes === null) return true;
  if (required === "unrestricted") return false;
  const [resource, access] = required.split(":");
  return scopes.includes(required) || (access === "read" && scopes.includes(`${resource}:write` as Scope));
}

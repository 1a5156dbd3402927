/**
 * Shows each operation's `x-required-scope` in its description, so the HTML reference (Redoc shows
 * descriptions, not extensions) and every reader of the published documents see what a key needs.
 */
type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const METHODS = ["get", "put", "post", "delete", "patch"] as const;
const isObject = (value: Json | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** The sentence for a scope: a `read` scope is also granted by the `write` of its resource. */
export function requiredScopeSentence(scope: string): string {
  if (scope === "any") return "**Required scope:** none; any key may call it.";
  if (scope === "unrestricted") return "**Required scope:** a full key; restricted keys are refused (403 `insufficient_scope`).";
  const [resource, access] = scope.split(":");
  return access === "read" ? `**Required scope:** \`${scope}\` (or \`${resource}:write\`).` : `**Required scope:** \`${scope}\`.`;
}

/** Appends the sentence to the description of every authenticated operation of `paths`, in place. */
export function describeRequiredScopes(doc: JsonObject): void {
  const paths = doc.paths;
  if (!isObject(paths)) return;
  for (const item of Object.values(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || typeof operation["x-required-scope"] !== "string") continue;
      if (Array.isArray(operation.security) && operation.security.length === 0) continue;
      const description = typeof operation.description === "string" ? operation.description.trimEnd() : "";
      operation.description = `${description}${description ? "\n\n" : ""}${requiredScopeSentence(operation["x-required-scope"])}\n`;
    }
  }
}

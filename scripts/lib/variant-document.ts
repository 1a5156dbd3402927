/**
 * Derives the published documents (Variant R, Variant D, both; each for production and for the
 * sandbox) from the one source spec.
 */
import type { DocumentKind, Environment, Variant } from "../../generated/deployment.js";
import { describeRequiredScopes } from "./required-scope-docs.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

const isObject = (value: Json | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/** Returns a new document holding only what the given variant serves in the given environment. */
export function variantDocument(source: JsonObject, kind: DocumentKind, environment: Environment): JsonObject {
  const doc = structuredClone(source);
  keepOperationsOf(doc, "paths", kind, environment);
  keepOperationsOf(doc, "x-webhooks", kind, environment);
  describeRequiredScopes(doc);
  applyVariantSchemas(doc, kind);
  if (kind !== "full") renameForVariant(doc, kind);
  if (!usesOperation(doc, "applyDnsTemplate")) delete doc["x-dns-templates"];
  removeUnusedTags(doc);
  removeUnusedComponents(doc);
  return doc;
}

/**
 * Drops operations whose `x-variants` does not include the variant or whose `x-environments`
 * (default: every environment) does not include the environment, and emptied path items.
 */
function keepOperationsOf(doc: JsonObject, key: "paths" | "x-webhooks", kind: DocumentKind, environment: Environment): void {
  const items = doc[key];
  if (!isObject(items)) return;
  for (const [path, item] of Object.entries(items)) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const variants = operation["x-variants"];
      const environments = operation["x-environments"];
      if (kind !== "full" && Array.isArray(variants) && !variants.includes(kind)) delete item[method];
      else if (Array.isArray(environments) && !environments.includes(environment)) delete item[method];
    }
    if (!HTTP_METHODS.some((method) => method in item)) delete items[path];
  }
}

/**
 * A media type may name a narrower schema and example for a variant
 * (`x-variant-schemas`, `x-variant-examples`); the full and D documents keep the default.
 */
function applyVariantSchemas(node: Json, kind: DocumentKind): void {
  if (Array.isArray(node)) {
    node.forEach((child) => applyVariantSchemas(child, kind));
    return;
  }
  if (!isObject(node)) return;
  const schemas = node["x-variant-schemas"];
  const examples = node["x-variant-examples"];
  if (kind !== "full" && isObject(schemas) && schemas[kind] !== undefined) node.schema = schemas[kind];
  if (kind !== "full" && isObject(examples) && examples[kind] !== undefined) node.example = examples[kind];
  delete node["x-variant-schemas"];
  delete node["x-variant-examples"];
  Object.values(node).forEach((child) => applyVariantSchemas(child, kind));
}

function renameForVariant(doc: JsonObject, variant: Variant): void {
  const info = doc.info as JsonObject;
  info.title = `${String(info.title)} (Variant ${variant})`;
  info["x-variant"] = variant;
}

function usesOperation(doc: JsonObject, operationId: string): boolean {
  return JSON.stringify(doc.paths).includes(`"operationId":"${operationId}"`);
}

function operationsOf(doc: JsonObject): JsonObject[] {
  const found: JsonObject[] = [];
  for (const key of ["paths", "x-webhooks"] as const) {
    const items = doc[key];
    if (!isObject(items)) continue;
    for (const item of Object.values(items)) {
      if (!isObject(item)) continue;
      for (const method of HTTP_METHODS) if (isObject(item[method])) found.push(item[method] as JsonObject);
    }
  }
  return found;
}

function removeUnusedTags(doc: JsonObject): void {
  const used = new Set(operationsOf(doc).flatMap((op) => (Array.isArray(op.tags) ? op.tags : [])));
  if (Array.isArray(doc.tags)) doc.tags = doc.tags.filter((tag) => isObject(tag) && used.has(tag.name ?? null));
}

/** Removes components no longer reachable from the paths, webhooks or security schemes. */
function removeUnusedComponents(doc: JsonObject): void {
  const components = doc.components;
  if (!isObject(components)) return;
  const reachable = new Set<string>();
  const pending: Json[] = Object.entries(doc)
    .filter(([key]) => key !== "components")
    .map(([, value]) => value);
  while (pending.length > 0) {
    const node = pending.pop();
    if (Array.isArray(node)) pending.push(...node);
    else if (isObject(node)) {
      const ref = node.$ref;
      if (typeof ref === "string" && ref.startsWith("#/components/") && !reachable.has(ref)) {
        reachable.add(ref);
        const [, , kind, name] = ref.split("/");
        const target = (components[kind!] as JsonObject | undefined)?.[name!];
        if (target !== undefined) pending.push(target);
      }
      pending.push(...Object.values(node));
    }
  }
  for (const [kind, group] of Object.entries(components)) {
    if (kind === "securitySchemes" || !isObject(group)) continue;
    for (const name of Object.keys(group)) {
      if (!reachable.has(`#/components/${kind}/${name}`)) delete group[name];
    }
    if (Object.keys(group).length === 0) delete components[kind];
  }
}

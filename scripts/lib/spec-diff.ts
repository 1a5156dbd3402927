/**
 * Breaking-change detection between two versions of a published document, with `redocly diff`
 * (its JSON report). What Redocly rates major is a break for a client of the base document.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse, stringify } from "yaml";

export type Impact = "major" | "minor" | "patch";

export interface SpecChange {
  /** JSON pointer of what changed, in the revision (or the base, for a removal). */
  path: string;
  kind: string;
  impact: Impact;
  /** Redocly's rule, e.g. schema-constraint-changed. */
  rule: string;
  message: string;
  /** Set when the gate rates a change Redocly calls major as compatible: why (its impact is then patch). */
  compatible?: string;
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
const isObject = (value: Json | undefined): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The document with its inline parameters named (nameInlineParameters), and each inline member of a component schema's `allOf` moved into a component of
 * its own (`Name.allOf.N`) and referenced there. Redocly compares inline `allOf` members as wholes,
 * so one new optional property in one reads as the member removed and another added (a major
 * change it is not); named, they are compared property by property, as every other schema is.
 * Both documents of a comparison get the same names, from their positions.
 */
export function withNamedAllOfMembers(document: JsonObject): JsonObject {
  const copy = structuredClone(document);
  const components = copy.components;
  const schemas = isObject(components) ? components.schemas : undefined;
  if (!isObject(schemas)) return copy;
  nameInlineParameters(copy);
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema) || !Array.isArray(schema.allOf)) continue;
    schema.allOf = schema.allOf.map((member, index) => {
      if (!isObject(member) || "$ref" in member) return member;
      const memberName = `${name}.allOf.${index}`;
      schemas[memberName] = member;
      return { $ref: `#/components/schemas/${memberName}` };
    });
  }
  return copy;
}

/** The value at a JSON pointer of a document, following local `$ref`s on the way, as Redocly's report paths do. */
export function resolvePointer(document: JsonObject, pointer: string): Json | undefined {
  const deref = (node: Json | undefined, depth = 0): Json | undefined => {
    if (!isObject(node) || typeof node.$ref !== "string" || !node.$ref.startsWith("#/") || depth > 32) return node;
    return deref(resolvePointer(document, node.$ref), depth + 1);
  };
  let node: Json | undefined = document;
  for (const raw of pointer.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    const segment = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = deref(node);
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return deref(node);
}

const INTEGER_FORMAT_BOUNDS: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/**
 * Why a change Redocly rates major breaks nobody, or null. Redocly reads any new `format` as a
 * narrower type; an integer `format` on a schema whose `minimum` and `maximum` already lie within
 * it admits exactly the values it admitted before (clients generated from either get the same type).
 * And it reads every enum value a response gains as a break, while the spec's versioning policy
 * (info.md, "Versioning and compatibility") names new event types additive: clients must ignore
 * event types they do not know. An enum whose every value is a webhook of `x-webhooks` is one.
 */
function compatibleReason(change: RedoclyChange, message: string, revision: JsonObject): string | null {
  return integerFormatReason(change, message, revision) ?? eventTypeReason(change, message, revision);
}

function eventTypeReason(change: RedoclyChange, message: string, revision: JsonObject): string | null {
  if (!/^Enum of `[^`]+` gained values: /.test(message)) return null;
  const schema = resolvePointer(revision, change.path);
  const webhooks = revision["x-webhooks"] ?? revision.webhooks;
  if (!isObject(schema) || !Array.isArray(schema.enum) || !isObject(webhooks)) return null;
  return schema.enum.every((value) => typeof value === "string" && value in webhooks)
    ? "the values are event types, which the versioning policy names additive (clients ignore event types they do not know)"
    : null;
}

function integerFormatReason(change: RedoclyChange, message: string, revision: JsonObject): string | null {
  const format = /`format`(?: of `[^`]+`)? was set to '(int32|int64)'/.exec(message)?.[1];
  if (!format) return null;
  const schema = resolvePointer(revision, change.path);
  if (!isObject(schema) || schema.type !== "integer" || typeof schema.minimum !== "number" || typeof schema.maximum !== "number")
    return null;
  const [low, high] = INTEGER_FORMAT_BOUNDS[format]!;
  return schema.minimum >= low && schema.maximum <= high
    ? `${format} admits every integer from ${schema.minimum} to ${schema.maximum}, the bounds the schema already had`
    : null;
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

/**
 * Each inline parameter of an operation moved into `components.parameters` (named by its path,
 * method, place and name) and referenced there, for the reason members of `allOf` are named: Redocly
 * pairs inline parameters of two versions by how alike they are, so a parameter whose bound,
 * format and description all changed reads as removed and another added (a removal it is not).
 */
function nameInlineParameters(document: JsonObject): void {
  const components = document.components as JsonObject;
  const parameters = isObject(components.parameters) ? components.parameters : (components.parameters = {});
  for (const [path, item] of Object.entries(isObject(document.paths) ? document.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation) || !Array.isArray(operation.parameters)) continue;
      operation.parameters = operation.parameters.map((parameter) => {
        if (!isObject(parameter) || "$ref" in parameter) return parameter;
        const name = `${method} ${path} ${String(parameter.in)} ${String(parameter.name)}`.replace(/[^A-Za-z0-9._-]+/g, ".");
        parameters[name] = parameter;
        return { $ref: `#/components/parameters/${name}` };
      });
    }
  }
}

interface RedoclyChange {
  path: string;
  kind: string;
  impact: Impact;
  verdicts?: Array<{ ruleId: string; impact: Impact; message: string }>;
}

/** Every change from the base document to the revision, as Redocly rates it (one per verdict). */
export function diffDocuments(basePath: string, revisionPath: string): SpecChange[] {
  // A document unchanged since the base (most of them, in most pull requests) needs no Redocly process.
  const [base, revision] = [readFileSync(basePath, "utf8"), readFileSync(revisionPath, "utf8")];
  if (base === revision) return [];
  const workDir = mkdtempSync(join(tmpdir(), "spec-diff-"));
  try {
    const [namedBase, namedRevision, report] = ["base.yml", "revision.yml", "report.json"].map((file) => join(workDir, file)) as [
      string,
      string,
      string,
    ];
    const revisionDocument = withNamedAllOfMembers(parse(revision) as JsonObject);
    writeFileSync(namedBase, stringify(withNamedAllOfMembers(parse(base) as JsonObject)));
    writeFileSync(namedRevision, stringify(revisionDocument));
    const result = spawnSync(
      "node_modules/.bin/redocly",
      ["diff", namedBase, namedRevision, "--config", "redocly.yaml", "--format", "json", "--fail-on", "none", "-o", report],
      { encoding: "utf8" },
    );
    let changes: RedoclyChange[];
    try {
      changes = (JSON.parse(readFileSync(report, "utf8")) as { changes: RedoclyChange[] }).changes;
    } catch {
      throw new Error(`redocly diff could not compare ${basePath} and ${revisionPath}:\n${result.stdout}${result.stderr}`);
    }
    return changes.flatMap((change) =>
      // Redocly gives its rules' verdicts for what it rates major; additions and edits carry none.
      (change.verdicts?.length ? change.verdicts : [{ ruleId: "", impact: change.impact, message: "" }]).map((verdict): SpecChange => {
        const found = { path: change.path, kind: change.kind, impact: verdict.impact, rule: verdict.ruleId, message: verdict.message };
        const compatible = verdict.impact === "major" ? compatibleReason(change, verdict.message, revisionDocument) : null;
        return compatible ? { ...found, impact: "patch", compatible } : found;
      }),
    );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

export const majorChanges = (changes: SpecChange[]) => changes.filter((change) => change.impact === "major");

/**
 * express-openapi-validator 5.6 spends most of a server's start-up on work whose result this
 * server never uses. These three shortcuts cut its preparation to a small part of what it was
 * (before and after in bench/results/) without changing what it prepares
 * (test/server/api/validator/validator-startup-shortcuts.test.ts compares the prepared documents and routes,
 * with and without them, for every document the server loads). Largest saving first:
 *
 * 1. It compiles the whole OpenAPI 3.0 meta-schema with Ajv even with `validateApiSpec: false`,
 *    when nothing ever validates against it. The compilation now waits for the first
 *    validation, which with `validateApiSpec: false` never comes.
 * 2. Its schema preprocessor resolves each `$ref` with `ajv.getSchema`, which compiles the target
 *    schema (and everything it references) only to read back the object it was given, in an Ajv
 *    instance thrown away right after. Local references are now read by JSON pointer.
 * 3. It runs `@apidevtools/json-schema-ref-parser`'s `bundle` over the document to inline external
 *    files: a URL resolution per `$ref`. On a document whose references are all local
 *    that returns the document unchanged, so it is skipped for such documents.
 *
 * Like route-regexp-cache.ts, each shortcut replaces a member the validator reads at call time on
 * its module objects, so they apply without forking it (README.md here: when to delete each). Imported from this module,
 * they are the same module instances the validator uses, under tsx and in the bundled server
 * (scripts/lib/server-build.ts). express-openapi-validator is pinned exactly: an upgrade that
 * reshapes these internals fails the tests above, or `applyValidatorStartupShortcuts` itself.
 */
import frameworkModule from "express-openapi-validator/dist/framework/index.js";
import schemaValidatorModule from "express-openapi-validator/dist/framework/openapi.schema.validator.js";
import preprocessorModule from "express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface SchemaValidator {
  validate(document: unknown): { errors: unknown[] | null };
}
type SchemaValidatorClass = new (options: Record<string, unknown>) => SchemaValidator;

/** The members replaced, as the validator's compiled JavaScript has them (its types mark them private). */
interface ValidatorInternals {
  schemaValidator: { OpenAPISchemaValidator: SchemaValidatorClass };
  framework: { OpenAPIFramework: { prototype: { loadSpec(spec: unknown, refParser?: unknown): Promise<unknown> } } };
  preprocessor: {
    SchemaPreprocessor: {
      prototype: { resolveSchema(this: PreprocessorState, schema: unknown): unknown };
    };
  };
}

interface PreprocessorState {
  apiDoc: Json;
  resolvedSchemaCache: Map<string, unknown>;
}

const APPLIED = Symbol.for("partner-api.validatorStartupShortcuts");

const internals = {
  schemaValidator: schemaValidatorModule,
  framework: frameworkModule,
  preprocessor: preprocessorModule,
} as unknown as ValidatorInternals;

/** Whether `applyValidatorStartupShortcuts` has run in this process (the validator's modules are per process). */
export const validatorStartupShortcutsApplied = () => (internals.schemaValidator as { [APPLIED]?: true })[APPLIED] === true;

export function applyValidatorStartupShortcuts(): void {
  const { schemaValidator, framework, preprocessor } = internals;
  if (validatorStartupShortcutsApplied()) return;
  const originalLoadSpec = framework.OpenAPIFramework.prototype.loadSpec;
  const originalResolveSchema = preprocessor.SchemaPreprocessor.prototype.resolveSchema;
  if (
    typeof schemaValidator.OpenAPISchemaValidator !== "function" ||
    typeof originalLoadSpec !== "function" ||
    typeof originalResolveSchema !== "function"
  ) {
    throw new Error("express-openapi-validator's internals changed: review server/api/validator/startup-shortcuts.ts");
  }

  schemaValidator.OpenAPISchemaValidator = lazilyCompiled(schemaValidator.OpenAPISchemaValidator);

  framework.OpenAPIFramework.prototype.loadSpec = function loadSpec(spec, refParser) {
    return typeof spec === "object" && spec !== null && hasOnlyLocalRefs(spec as Json)
      ? Promise.resolve(spec)
      : originalLoadSpec.call(this, spec, refParser);
  };

  preprocessor.SchemaPreprocessor.prototype.resolveSchema = function resolveSchema(schema) {
    const ref = (schema as { $ref?: unknown } | null | undefined)?.$ref;
    if (typeof ref !== "string" || !ref.startsWith("#/")) return originalResolveSchema.call(this, schema);
    // As the original: a reference that leads nowhere resolves to undefined, and is cached too.
    if (this.resolvedSchemaCache.has(ref)) return this.resolvedSchemaCache.get(ref);
    const resolved = atPointer(this.apiDoc, ref);
    this.resolvedSchemaCache.set(ref, resolved);
    return resolved;
  };

  Object.defineProperty(schemaValidator, APPLIED, { value: true });
}

/** The same class, compiling its meta-schema on the first `validate` instead of in the constructor. */
function lazilyCompiled(Compiled: SchemaValidatorClass): SchemaValidatorClass {
  return class LazilyCompiledSchemaValidator implements SchemaValidator {
    private compiled: SchemaValidator | undefined;
    constructor(private readonly options: Record<string, unknown>) {}
    validate(document: unknown): { errors: unknown[] | null } {
      this.compiled ??= new Compiled(this.options);
      return this.compiled.validate(document);
    }
  };
}

/** Whether every `$ref` in the document points inside it ("#/..."): then bundling changes nothing. */
export function hasOnlyLocalRefs(document: Json): boolean {
  const pending: Json[] = [document];
  while (pending.length > 0) {
    const node = pending.pop()!;
    if (node === null || typeof node !== "object") continue;
    if (Array.isArray(node)) {
      pending.push(...node);
      continue;
    }
    const ref = node.$ref;
    if (ref !== undefined && (typeof ref !== "string" || !ref.startsWith("#"))) return false;
    for (const key in node) pending.push(node[key]!);
  }
  return true;
}

/** RFC 6901: "#/components/schemas/Domain" inside `document`; undefined where nothing is. */
export function atPointer(document: Json, pointer: string): Json | undefined {
  let node: Json | undefined = document;
  for (const segment of pointer.slice(2).split("/")) {
    if (node === null || typeof node !== "object") return undefined;
    const key = segment.replaceAll("~1", "/").replaceAll("~0", "~");
    node = Array.isArray(node) ? node[Number(key)] : Object.hasOwn(node, key) ? node[key] : undefined;
  }
  return node;
}

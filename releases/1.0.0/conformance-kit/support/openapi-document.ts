/** Loads the published documents and validates values against their schemas with Ajv (independent of the server's validator). */
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { parse } from "yaml";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Release copy: the documents of this release, beside the kit (was scripts/lib/variant-document.ts and bundle-paths.ts).
export type DocumentKind = "R" | "D" | "full";
export type Environment = "production" | "sandbox";
const OPENAPI = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "openapi");
const FILES: Record<DocumentKind, string> = { R: "partner-api", D: "partner-api.d", full: "partner-api.full" };
const bundlePath = (kind: DocumentKind, environment: Environment) =>
  join(OPENAPI, `${FILES[kind]}${environment === "sandbox" ? ".sandbox" : ""}.yml`);

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type OpenApiDocument = Record<string, any>;

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** A published document; by default the sandbox one, which the test server serves (production's plus the helpers). */
export function loadDocument(kind: DocumentKind, environment: Environment = "sandbox"): OpenApiDocument {
  const path = bundlePath(kind, environment);
  return parse(readFileSync(path, "utf8")) as OpenApiDocument;
}

/** JSON pointer escaping (RFC 6901). */
export const pointer = (...segments: Array<string | number>) =>
  "#/" + segments.map((s) => String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("/");

/** Validates values against schemas found by JSON pointer inside one document. */
export class SchemaValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    // strict: false because the document carries OpenAPI keywords (example, x-...) Ajv does not know;
    // Ajv understands OpenAPI 3.0's `nullable` itself.
    this.ajv = new Ajv({ strict: false, allErrors: true, discriminator: false });
    addFormats(this.ajv);
    this.ajv.addSchema(document, "doc");
  }

  /** Returns null when the value is valid, else Ajv's error text. */
  errorsAt(schemaPointer: string, value: unknown): string | null {
    let validate = this.cache.get(schemaPointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `doc${schemaPointer}` });
      this.cache.set(schemaPointer, validate);
    }
    return validate(value) ? null : this.ajv.errorsText(validate.errors);
  }

  schemaErrors(name: string, value: unknown): string | null {
    return this.errorsAt(pointer("components", "schemas", name), value);
  }
}

export interface OperationEntry {
  path: string;
  method: string;
  operation: Record<string, any>;
  location: "paths" | "x-webhooks";
}

export function operationsOf(document: OpenApiDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const location of ["paths", "x-webhooks"] as const) {
    for (const [path, item] of Object.entries<Record<string, any>>(document[location] ?? {})) {
      for (const method of HTTP_METHODS) {
        if (item[method]) entries.push({ path, method, operation: item[method], location });
      }
    }
  }
  return entries;
}

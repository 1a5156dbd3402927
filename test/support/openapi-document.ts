/** Loads the published documents and validates values against their schemas with Ajv (independent of the server's validator). */
import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { parse } from "yaml";
import { bundlePath, type DocumentKind, type Environment } from "../../generated/deployment.js";
import { readSourceDocument } from "../../scripts/lib/source-document.js";

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type OpenApiDocument = Record<string, any>;

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** Each document read and parsed once per worker (the test files of a worker share their modules). */
const parsedDocuments = new Map<string, OpenApiDocument>();

/**
 * A published document, by default the sandbox one, which the test server serves (production's
 * plus the helpers); or the source, read from its files as one. Each caller gets its own copy, so
 * a test may change what it was given.
 */
export function loadDocument(kind: DocumentKind | "source", environment: Environment = "sandbox"): OpenApiDocument {
  const key = kind === "source" ? kind : `${kind}:${environment}`;
  let document = parsedDocuments.get(key);
  if (!document) {
    document = kind === "source" ? readSourceDocument() : (parse(readFileSync(bundlePath(kind, environment), "utf8")) as OpenApiDocument);
    parsedDocuments.set(key, document);
  }
  return structuredClone(document);
}

/** JSON pointer escaping (RFC 6901). */
export const pointer = (...segments: Array<string | number>) =>
  `#/${segments.map((s) => String(s).replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;

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

/**
 * The published documents the kit checks against, and an Ajv validator over them, independent of
 * any server's own validator. In a checkout they are the bundles `npm run generate` writes; in the
 * packed kit, copies beside its code (conformance/package.json's files).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import { parse } from "yaml";

// ajv-formats is CommonJS; under NodeNext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export type OpenApiDocument = Record<string, any>;
export type DocumentKind = "R" | "D" | "full";
export type Environment = "sandbox" | "production";

const FILE_STEMS: Record<DocumentKind, string> = { R: "partner-api", D: "partner-api.d", full: "partner-api.full" };

/** The folder holding the documents: the package's `documents/`, else the checkout's generated/openapi. */
function documentsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, "..", "documents"), join(here, "..", "..", "generated", "openapi")];
  const found = candidates.find((folder) => existsSync(join(folder, "partner-api.full.yml")));
  if (!found) throw new Error(`the published documents are not beside the kit (looked in ${candidates.join(", ")})`);
  return found;
}

export const documentFile = (kind: DocumentKind, environment: Environment) =>
  join(documentsFolder(), `${FILE_STEMS[kind]}${environment === "sandbox" ? ".sandbox" : ""}.yml`);

const parsed = new Map<string, OpenApiDocument>();

/** A published document (sandbox documents carry the sandbox helpers too); each caller gets its own copy. */
export function publishedDocument(kind: DocumentKind, environment: Environment = "sandbox"): OpenApiDocument {
  const file = documentFile(kind, environment);
  let document = parsed.get(file);
  if (!document) {
    document = parse(readFileSync(file, "utf8")) as OpenApiDocument;
    parsed.set(file, document);
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

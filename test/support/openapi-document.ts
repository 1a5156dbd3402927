/** Loads the published documents and validates values against their schemas with Ajv (independent of the server's validator). */
import type { DocumentKind, Environment } from "../../generated/deployment.js";
import { publishedDocument, type OpenApiDocument } from "../../conformance/src/documents.js";
import { readSourceDocument } from "../../scripts/lib/source-document.js";

export type { OpenApiDocument };

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch"] as const;

/** The source, read from its files once per worker (the test files of a worker share their modules). */
let sourceDocument: OpenApiDocument | undefined;

/**
 * A published document, by default the sandbox one, which the test server serves (production's
 * plus the helpers); or the source, read from its files as one. Each caller gets its own copy, so
 * a test may change what it was given.
 */
export function loadDocument(kind: DocumentKind | "source", environment: Environment = "sandbox"): OpenApiDocument {
  // The published ones are the conformance kit's, read and parsed once there.
  if (kind !== "source") return publishedDocument(kind, environment);
  sourceDocument ??= readSourceDocument();
  return structuredClone(sourceDocument);
}

export { pointer, SchemaValidator } from "../../conformance/src/documents.js";

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

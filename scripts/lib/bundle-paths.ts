/**
 * Where the generator writes the published documents. The server and everything else read these
 * paths from generated/deployment.ts, written from this module (scripts/lib/deployment-module.ts).
 */
import type { DocumentKind, Environment } from "../../generated/deployment.js";

export const SOURCE_PATH = "spec/partner-api.yml";

/** Published document per kind: Variant R keeps the name the service description publishes. */
export const BUNDLE_PATHS: Record<DocumentKind, string> = {
  R: "generated/openapi/partner-api.yml",
  D: "generated/openapi/partner-api.d.yml",
  full: "generated/openapi/partner-api.full.yml",
};

/** The same documents with the sandbox test helpers, for sandbox deployments and their users. */
export const SANDBOX_BUNDLE_PATHS: Record<DocumentKind, string> = {
  R: "generated/openapi/partner-api.sandbox.yml",
  D: "generated/openapi/partner-api.d.sandbox.yml",
  full: "generated/openapi/partner-api.full.sandbox.yml",
};

export const bundlePath = (kind: DocumentKind, environment: Environment) =>
  (environment === "sandbox" ? SANDBOX_BUNDLE_PATHS : BUNDLE_PATHS)[kind];

/** The document the server's validator loads, as JSON (scripts/lib/validator-document.ts). */
export const validatorDocumentPath = (kind: DocumentKind, environment: Environment) =>
  bundlePath(kind, environment)
    .replace(/^generated\/openapi\//, "generated/validator/")
    .replace(/\.yml$/, ".json");

/**
 * The implementation under test, from the environment the conformance runner sets: its base URL,
 * keys, the variants it serves and whether it is a stateless mock.
 */
import { loadDocument, type DocumentKind, type OpenApiDocument } from "./openapi-document.js";

export interface Target {
  baseUrl: string;
  apiKey: string;
  /** A key of a second partner, for the cross-partner rules; optional. */
  secondKey: string | null;
  kind: DocumentKind;
  environment: "sandbox" | "production";
  /** A mock answers examples and keeps no state: only the stateless checks apply. */
  stateless: boolean;
  /**
   * Behind Prism's validating proxy, which answers requests without credentials and bodies that
   * are not JSON itself, in its own shapes (stoplightio/prism#1827: its security check cannot be
   * turned off): the checks of those two cases are skipped.
   */
  throughPrismProxy: boolean;
  document: OpenApiDocument;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite through \`npm run conformance -- --base-url URL --api-key KEY\``);
  return value;
}

export function loadTarget(env: NodeJS.ProcessEnv = process.env): Target {
  const variant = (env.CONTRACT_VARIANT ?? "both").toUpperCase();
  const kind: DocumentKind = variant === "BOTH" ? "full" : variant === "R" ? "R" : variant === "D" ? "D" : (() => {
    throw new Error(`CONTRACT_VARIANT must be R, D or both (got ${env.CONTRACT_VARIANT})`);
  })();
  const apiKey = required("CONTRACT_API_KEY");
  const environment = apiKey.startsWith("sk_live_") ? "production" : "sandbox";
  return {
    baseUrl: required("CONTRACT_BASE_URL").replace(/\/$/, ""),
    apiKey,
    secondKey: env.CONTRACT_SECOND_KEY || null,
    kind,
    environment,
    stateless: env.CONTRACT_STATELESS === "1",
    throughPrismProxy: env.CONTRACT_THROUGH_PRISM_PROXY === "1",
    document: loadDocument(kind, environment),
  };
}

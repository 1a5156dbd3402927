/**
 * The implementation under test: its base URL, keys, the variants it serves, whether it is a
 * stateless mock, and where its webhooks can reach the kit's receiver.
 */
import { publishedDocument, type DocumentKind, type Environment, type OpenApiDocument } from "./documents.js";

export interface Target {
  baseUrl: string;
  apiKey: string;
  /** A key of a second partner, for the tenancy rules; optional. */
  secondKey: string | null;
  /** A revoked key of the same partner, for the 401 rules; optional. */
  revokedKey: string | null;
  kind: DocumentKind;
  environment: Environment;
  /** A mock answers examples and keeps no state: only the stateless checks apply. */
  stateless: boolean;
  /**
   * Behind Prism's validating proxy, which answers requests without credentials and bodies that
   * are not JSON itself, in its own shapes (stoplightio/prism#1827: its security check cannot be
   * turned off): the checks of those two cases are not applicable.
   */
  throughPrismProxy: boolean;
  /**
   * The URL the target's webhooks reach the kit's receiver at, when the target is not on this
   * machine (a tunnel to `receiverPort`); null: the receiver's own loopback address.
   */
  receiverUrl: string | null;
  /** The local port the receiver listens on; 0 for any free one. */
  receiverPort: number;
  document: OpenApiDocument;
}

export interface TargetOptions {
  baseUrl: string;
  apiKey: string;
  secondKey?: string | null;
  revokedKey?: string | null;
  /** "R", "D" or "both" (any case). */
  variant?: string;
  stateless?: boolean;
  throughPrismProxy?: boolean;
  receiverUrl?: string | null;
  receiverPort?: number;
}

export class TargetError extends Error {}

const KINDS: Record<string, DocumentKind> = { R: "R", D: "D", BOTH: "full" };

export function describeTarget(options: TargetOptions): Target {
  const kind = KINDS[(options.variant ?? "both").toUpperCase()];
  if (!kind) throw new TargetError(`--variant must be R, D or both, not ${JSON.stringify(options.variant)}`);
  let url: URL;
  try {
    url = new URL(options.baseUrl);
  } catch {
    throw new TargetError(`--base-url ${JSON.stringify(options.baseUrl)} is not a URL (e.g. http://127.0.0.1:3000)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TargetError(`--base-url must be an http or https URL, not ${url.protocol.replace(/:$/, "")}`);
  const environment: Environment = options.apiKey.startsWith("sk_live_") ? "production" : "sandbox";
  return {
    baseUrl: url.href.replace(/\/$/, ""),
    apiKey: options.apiKey,
    secondKey: options.secondKey || null,
    revokedKey: options.revokedKey || null,
    kind,
    environment,
    stateless: options.stateless ?? false,
    throughPrismProxy: options.throughPrismProxy ?? false,
    receiverUrl: options.receiverUrl || null,
    receiverPort: options.receiverPort ?? 0,
    document: publishedDocument(kind, environment),
  };
}

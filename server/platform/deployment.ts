/** Where and as what this server is deployed: what handlers and the domain rules read of it. */
import type { Environment, Variant } from "../../generated/deployment.js";

export interface Deployment {
  environment: Environment;
  variants: readonly Variant[];
  /** Base URL of the embed host that login_url points at. */
  embedBaseUrl: string;
  /** By partner id: the origins allowed to frame the embedded interface (none: nothing may). */
  embedOrigins: ReadonlyMap<string, readonly string[]>;
  /** Where people reach the partner dashboard, without a trailing slash; null where the deployment names none. */
  dashboardUrl: string | null;
  /** The developer portal (the dashboard's /docs/): the OpenAPI documents and their reference; null likewise. */
  referenceUrl: string | null;
}

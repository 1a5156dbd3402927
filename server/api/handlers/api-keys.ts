/**
 * API keys (issue 36, an addition): a full key lists, makes, reads, rolls and revokes its partner's
 * stored keys. The API makes restricted keys only (scopes required by the schema): a key leaking
 * from automation can never make one stronger than itself. Times are the deployment's wall clock,
 * never a sandbox clock: a key's expiry is real, like a roll's grace period.
 */
import type { OperationHandlers } from "../../../generated/handlers.js";
import type { components } from "../../../generated/types/full.js";
import { partnerOf, type RequestContext, type Services } from "../../application/context.js";
import type { StoredApiKey } from "../../partners/keys/api-key-store.js";
import { parseKeyGrant } from "../../partners/keys/key-grant.js";
import { createKey, keyNameProblem, keyOfPartner, keysOfPartner, revokeKey, rollKey } from "../../partners/keys/key-management.js";
import { apiErrors } from "../../platform/errors.js";

type Handlers = OperationHandlers<RequestContext>;
type ApiKey = components["schemas"]["ApiKey"];

/** A stored key as the API shows it: never its hash. */
export function apiKeyView(key: StoredApiKey): ApiKey {
  return {
    id: key.id,
    name: key.name,
    environment: key.environment,
    hint: key.hint,
    last_four: key.lastFour,
    scopes: key.scopes,
    restrictions: key.restrictions && {
      domains: key.restrictions.domains,
      record_names: key.restrictions.recordNames,
      record_types: key.restrictions.recordTypes,
      client_ips: key.restrictions.clientIps,
    },
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    expires_at: key.expiresAt?.toISOString() ?? null,
  };
}

const deploymentNow = (services: Services) => services.clocks.base.now();
const keyStore = (services: Services) => services.persistence.apiKeys;

export const apiKeyHandlers: Pick<Handlers, "listApiKeys" | "createApiKey" | "getApiKey" | "revokeApiKey" | "rollApiKey"> = {
  listApiKeys: async (_input, context) => {
    const { services } = context;
    const keys = await keysOfPartner(keyStore(services), partnerOf(context).id, services.deployment.environment, deploymentNow(services));
    return { status: 200, body: { api_keys: keys.map(apiKeyView) } };
  },

  createApiKey: async ({ body }, context) => {
    const { services } = context;
    const now = deploymentNow(services);
    const nameProblem = keyNameProblem(body.name);
    const parsed = parseKeyGrant(body, now);
    const problems = [
      ...(nameProblem ? [{ field: "name", code: "invalid_value", message: nameProblem }] : []),
      ...("problems" in parsed ? parsed.problems.map((problem) => ({ ...problem, code: "invalid_value" })) : []),
    ];
    if (problems.length > 0 || "problems" in parsed) throw apiErrors.invalidValues(problems);
    const made = await createKey(keyStore(services), partnerOf(context), services.deployment.environment, body.name, now, parsed.grant);
    return { status: 201, body: { ...apiKeyView(made.stored), secret: made.key } };
  },

  getApiKey: async ({ path }, context) => {
    const { services } = context;
    const key = await keyOfPartner(
      keyStore(services),
      partnerOf(context).id,
      services.deployment.environment,
      path.key_id,
      deploymentNow(services),
    );
    if (!key) throw apiErrors.notFound("API key", path.key_id);
    return { status: 200, body: apiKeyView(key) };
  },

  revokeApiKey: async ({ path }, context) => {
    const { services } = context;
    const partnerId = partnerOf(context).id;
    // Only a key of this environment: the other environment's keys are another deployment's.
    const key = await keyOfPartner(keyStore(services), partnerId, services.deployment.environment, path.key_id, deploymentNow(services));
    if (!key || !(await revokeKey(keyStore(services), partnerId, key.id))) throw apiErrors.notFound("API key", path.key_id);
    return { status: 204 };
  },

  rollApiKey: async ({ path, body }, context) => {
    const { services } = context;
    const rolled = await rollKey(
      keyStore(services),
      partnerOf(context),
      services.deployment.environment,
      path.key_id,
      body.grace_seconds ?? 0,
      deploymentNow(services),
    );
    if (!rolled) throw apiErrors.notFound("API key", path.key_id);
    return { status: 201, body: { ...apiKeyView(rolled.made.stored), secret: rolled.made.key } };
  },
};

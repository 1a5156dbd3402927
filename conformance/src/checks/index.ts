/** Every check of the kit, by family; the rule catalogue (spec/rules/) names them by id. */
import type { Check } from "../check.js";
import auth from "./auth.js";
import catalogue from "./catalogue.js";
import changeSets from "./change-sets.js";
import connectionCheck from "./connection-check.js";
import dnsBulk from "./dns-bulk.js";
import dnsRecords from "./dns-records.js";
import dnsTemplates from "./dns-templates.js";
import domains from "./domains.js";
import embed from "./embed.js";
import entityTags from "./entity-tags.js";
import events from "./events.js";
import idempotency from "./idempotency.js";
import limits from "./limits.js";
import modelRules from "./model-rules.js";
import nameservers from "./nameservers.js";
import operations from "./operations.js";
import paging from "./paging.js";
import recordAnnotations from "./record-annotations.js";
import recordTypes from "./record-types.js";
import registrarControls from "./registrar-controls.js";
import renewals from "./renewals.js";
import restrictedKeys from "./restricted-keys.js";
import robustness from "./robustness.js";
import sandbox from "./sandbox.js";
import tenancy from "./tenancy.js";
import transfers from "./transfers.js";
import users from "./users.js";
import webhooks from "./webhooks.js";
import zoneFiles from "./zone-files.js";

export const ALL_CHECKS: readonly Check[] = [
  ...operations,
  ...auth,
  ...tenancy,
  ...users,
  ...embed,
  ...domains,
  ...renewals,
  ...transfers,
  ...registrarControls,
  ...nameservers,
  ...catalogue,
  ...dnsRecords,
  ...recordTypes,
  ...recordAnnotations,
  ...dnsBulk,
  ...dnsTemplates,
  ...changeSets,
  ...zoneFiles,
  ...connectionCheck,
  ...limits,
  ...paging,
  ...idempotency,
  ...entityTags,
  ...events,
  ...webhooks,
  ...sandbox,
  ...modelRules,
  ...restrictedKeys,
  // Last: robustness.no-server-error reads every answer the checks before it had.
  ...robustness,
];

/** Every operation's handler; `satisfies` makes a missing or mistyped handler a compile error. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import type { RequestContext } from "../../application/context.js";
import { apiKeyHandlers } from "./api-keys.js";
import { catalogHandlers } from "./catalog.js";
import { connectionHandlers } from "./connection.js";
import { dnsRecordDHandlers } from "./dns-records-d.js";
import { dnsRecordRHandlers } from "./dns-records-r.js";
import { delegationHandlers } from "./delegation.js";
import { domainHandlers } from "./domains.js";
import { eventHandlers } from "./events.js";
import { healthHandlers } from "./health.js";
import { sandboxHandlers } from "./sandbox.js";
import { transferHandlers } from "./transfers.js";
import { transferOutHandlers } from "./transfer-out.js";
import { userHandlers } from "./users.js";
import { webhookEndpointHandlers } from "./webhook-endpoints.js";
import { zoneFileHandlers } from "./zone-files.js";

export const handlers = {
  ...healthHandlers,
  ...userHandlers,
  ...domainHandlers,
  ...delegationHandlers,
  ...transferHandlers,
  ...transferOutHandlers,
  ...catalogHandlers,
  ...dnsRecordRHandlers,
  ...dnsRecordDHandlers,
  ...sandboxHandlers,
  ...webhookEndpointHandlers,
  ...eventHandlers,
  ...connectionHandlers,
  ...zoneFileHandlers,
  ...apiKeyHandlers,
} satisfies OperationHandlers<RequestContext>;

/**
 * What the owner (the full key) reads of everything a set of operation inputs touches: the users,
 * domains, records, endpoints and keys they name, the partner's lists and its newest events. Taken
 * before and after refused calls, two equal snapshots show the refusals changed nothing.
 */
import type { CheckContext } from "../check.js";
import type { CallInput } from "../contract-client.js";

/** Fields that move with time alone (a sandbox clock, a delivery's attempts), not by anyone's write. */
const MOVING = new Set(["last_login", "last_used_at", "next_attempt_at", "attempts", "status_changed_at", "now", "checked_at"]);

const still = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(still);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([name]) => !MOVING.has(name))
      .map(([name, member]) => [name, still(member)]),
  );
};

/** The ids the inputs name, by kind. */
function touched(inputs: readonly CallInput[]) {
  const ids = { users: new Set<string>(), domains: new Set<string>(), recordsR: new Set<string>(), endpoints: new Set<string>() };
  for (const input of inputs) {
    const path = input.path ?? {};
    const body = (input.body ?? {}) as Record<string, unknown>;
    if (path.user_identifier) ids.users.add(path.user_identifier);
    if (typeof body.user_identifier === "string") ids.users.add(body.user_identifier);
    if (path.domain_id) ids.domains.add(path.domain_id);
    if (typeof body.domain_id === "string") ids.domains.add(body.domain_id);
    if (path.id) ids.recordsR.add(path.id);
    if (path.endpoint_id) ids.endpoints.add(path.endpoint_id);
  }
  return ids;
}

/** The owner's view of what `inputs` touch; `keysList` is the key list operation, when served. */
export async function ownerSnapshot(
  context: CheckContext,
  inputs: readonly CallInput[],
  keysList: string | null,
): Promise<Record<string, unknown>> {
  const { api } = context;
  const view: Record<string, unknown> = {};
  const read = async (label: string, operationId: string, input: CallInput = {}) => {
    if (!api.has(operationId)) return;
    const result = await api.call(operationId, input);
    view[label] = { status: result.status, body: still(result.body) };
  };
  const ids = touched(inputs);
  for (const user of ids.users) {
    await read(`user ${user}`, "getUser", { path: { user_identifier: user } });
    await read(`domains of ${user}`, "listUserDomains", { path: { user_identifier: user } });
  }
  for (const domain of ids.domains) {
    const path = { domain_id: domain };
    await read(`domain ${domain}`, "getDomain", { path });
    await read(`records of ${domain}`, "listDomainDnsRecords", { path, query: { limit: 100 } });
    await read(`glue of ${domain}`, "listGlueRecords", { path });
    await read(`DS of ${domain}`, "listDsRecords", { path });
    await read(`outbound transfer of ${domain}`, "getOutboundTransfer", { path });
  }
  for (const record of ids.recordsR) await read(`record ${record}`, "getDnsRecord", { path: { id: record } });
  for (const endpoint of ids.endpoints) {
    await read(`endpoint ${endpoint}`, "getWebhookEndpoint", { path: { endpoint_id: endpoint } });
    const deliveries = await api.call("listWebhookDeliveries", { path: { endpoint_id: endpoint }, query: { limit: 100 } });
    view[`deliveries of ${endpoint}`] = (deliveries.body?.deliveries ?? []).map((d: { id: string }) => d.id).sort();
  }
  await read("webhook endpoints", "listWebhookEndpoints");
  await read("connection requirements", "getConnectionRequirements");
  const users = await api.call("listUsers", { query: { limit: 100, sort: "created_at", order: "desc" } });
  view["newest users"] = (users.body?.users ?? []).map((u: { user_identifier: string }) => u.user_identifier);
  const events = await api.call("listEvents", { query: { limit: 5 } });
  view["newest events"] = (events.body?.events ?? []).map((e: { id: string; type: string }) => `${e.type} ${e.id}`);
  if (keysList) {
    const keys = await api.call(keysList, {});
    view.keys = (keys.body?.api_keys ?? keys.body?.keys ?? []).map((k: { id: string }) => k.id).sort();
  }
  // Its `now` runs on (a moving field); `advanced_seconds` is what a refused advance would change.
  await read("sandbox clock", "getSandboxClock");
  return view;
}

/** What differs between two snapshots, one line per part read, empty when they are equal. */
export function snapshotChanges(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((label) => JSON.stringify(before[label]) !== JSON.stringify(after[label]))
    .map((label) => `${label}: ${JSON.stringify(before[label])?.slice(0, 400)} became ${JSON.stringify(after[label])?.slice(0, 400)}`);
}

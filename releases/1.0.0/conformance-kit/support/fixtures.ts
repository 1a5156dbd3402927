/**
 * The data the checks work on, set up through the public API (and the sandbox helpers when the
 * target is a sandbox): names carry a random run id, so runs against a shared deployment never
 * collide.
 */
import { randomBytes } from "node:crypto";
import type { ContractClient } from "./contract-client.js";
import type { Target } from "./target.js";

export interface Fixtures {
  run: string;
  user: string;
  /** A domain of the user; null when the target cannot create one (production has no purchase operation). */
  domainId: string | null;
  domainName: string;
  recordIdD: string | null;
  recordIdR: string | null;
  transferId: string | null;
  endpointId: string | null;
  deliveryId: string | null;
}

/** A receiver address that is valid everywhere and never resolves (RFC 2606), so nothing is really sent. */
export const RECEIVER_URL = "https://hooks.contract-run.invalid/partner-api";

export const newRunId = () => randomBytes(4).toString("hex");

/** Calls an operation that must succeed for the suite to go on, failing with the answer if it does not. */
export async function setUp(client: ContractClient, operationId: string, input: Parameters<ContractClient["call"]>[1]): Promise<any> {
  const result = await client.call(operationId, input);
  if (result.status >= 300) throw new Error(`setting up with ${result.label} failed: ${result.status} ${JSON.stringify(result.body)}`);
  return result.body;
}

export async function prepareFixtures(client: ContractClient, target: Target): Promise<Fixtures> {
  const run = newRunId();
  const user = `contract_${run}_u1`;
  const domainName = `contract-${run}.com`;
  await setUp(client, "createUserSession", { body: { user_identifier: user } });
  const fixtures: Fixtures = { run, user, domainId: null, domainName, recordIdD: null, recordIdR: null, transferId: null, endpointId: null, deliveryId: null };
  if (client.has("createSandboxDomain")) {
    const domain = await setUp(client, "createSandboxDomain", { body: { user_identifier: user, domain_name: domainName, years: 1 } });
    fixtures.domainId = domain.id;
    fixtures.domainName = domain.name;
  }
  if (fixtures.domainId && client.has("createDomainDnsRecord")) {
    fixtures.recordIdD = (await setUp(client, "createDomainDnsRecord", { path: { domain_id: fixtures.domainId }, body: { type: "A", name: "www", content: "192.0.2.10" } })).id;
  }
  if (fixtures.domainId && client.has("createDnsRecord")) {
    fixtures.recordIdR = (await setUp(client, "createDnsRecord", { body: { domain_id: fixtures.domainId, type: "TXT", name: "r", value: "contract run" } })).id;
  }
  fixtures.transferId = (await setUp(client, "initiateTransfer", { body: { domain_name: `contract-${run}-t.com`, user_identifier: user, auth_code: "Xk8#pL2q!Rm9" } })).transfer_id;
  if (client.has("createWebhookEndpoint")) {
    fixtures.endpointId = (await setUp(client, "createWebhookEndpoint", { body: { url: RECEIVER_URL, description: `contract run ${run}` } })).id;
    fixtures.deliveryId = (await setUp(client, "sendTestWebhook", { path: { endpoint_id: fixtures.endpointId! } })).id;
  }
  void target;
  return fixtures;
}

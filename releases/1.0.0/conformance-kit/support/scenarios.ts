/**
 * One successful call per operation of the API: how to make it, from the fixtures. The table is
 * checked against the document, so an operation added to the spec without a scenario fails the
 * suite instead of going unchecked.
 */
import type { ContractClient, CallInput } from "./contract-client.js";
import { RECEIVER_URL, setUp, type Fixtures } from "./fixtures.js";

export interface Scenario {
  /** What the scenario needs beyond a user; it is skipped, saying why, when the target lacks it. */
  needs?: Array<"domain" | "recordD" | "recordR" | "transfer" | "endpoint">;
  /** Changes data others rely on: run after every other check. */
  destructive?: boolean;
  input(fixtures: Fixtures, client: ContractClient): Promise<CallInput> | CallInput;
}

const domain = (f: Fixtures) => ({ domain_id: f.domainId! });
/** Scenarios run more than once (with and without a key...): what they create must differ each time. */
let sequence = 0;
const unique = (f: Fixtures, stem: string) => `${stem}-${f.run}-${++sequence}`;

export const SCENARIOS: Record<string, Scenario> = {
  getHealth: { input: () => ({ key: null }) },
  getApiHealth: { input: () => ({}) },
  listUsers: { input: () => ({ query: { limit: 10, sort: "created_at", order: "asc" } }) },
  createUserSession: { input: (f) => ({ body: { user_identifier: f.user, email: "contract@example.com" } }) },
  getUser: { input: (f) => ({ path: { user_identifier: f.user } }) },
  updateUser: { input: (f) => ({ path: { user_identifier: f.user }, body: { email: "contract2@example.com" } }) },
  deleteUser: {
    input: async (f, client) => {
      const user = unique(f, "contract_gone").replaceAll("-", "_");
      await setUp(client, "createUserSession", { body: { user_identifier: user } });
      return { path: { user_identifier: user } };
    },
  },
  listUserDomains: { input: (f) => ({ path: { user_identifier: f.user } }) },
  getDomain: { needs: ["domain"], input: (f) => ({ path: domain(f) }) },
  updateDomain: { needs: ["domain"], input: (f) => ({ path: domain(f), body: { auto_renew: false } }) },
  renewDomain: { needs: ["domain"], input: (f) => ({ path: domain(f), body: { years: 1 } }) },
  initiateTransfer: { input: (f) => ({ body: { domain_name: `contract-${f.run}-t2.com`, user_identifier: f.user, auth_code: "Xk8#pL2q!Rm9", extend_registration: true } }) },
  getTransfer: { needs: ["transfer"], input: (f) => ({ path: { transfer_id: f.transferId! } }) },
  listTlds: { input: () => ({}) },
  checkAvailability: { input: (f) => ({ path: { domain_name: `contract-${f.run}-free.com` } }) },
  createDnsRecord: { needs: ["domain"], input: (f) => ({ body: { domain_id: f.domainId!, type: "MX", name: unique(f, "mx"), value: "mail.example.com", priority: 10 } }) },
  getDnsRecord: { needs: ["recordR"], input: (f) => ({ path: { id: f.recordIdR! } }) },
  updateDnsRecord: { needs: ["recordR"], input: (f) => ({ path: { id: f.recordIdR! }, body: { value: "contract run, updated", ttl: 600 } }) },
  deleteDnsRecord: {
    needs: ["domain"],
    input: async (f, client) => ({ path: { id: (await setUp(client, "createDnsRecord", { body: { domain_id: f.domainId!, type: "TXT", name: unique(f, "gone"), value: "x" } })).id } }),
  },
  listDomainDnsRecords: { needs: ["domain"], input: (f) => ({ path: domain(f) }) },
  createDomainDnsRecord: { needs: ["domain"], input: (f) => ({ path: domain(f), body: { type: "AAAA", name: unique(f, "v6"), content: "2001:db8::1", ttl: 300 } }) },
  updateDomainDnsRecord: { needs: ["recordD"], input: (f) => ({ path: { ...domain(f), record_id: f.recordIdD! }, body: { content: "192.0.2.11" } }) },
  deleteDomainDnsRecord: {
    needs: ["domain"],
    input: async (f, client) => ({
      path: { ...domain(f), record_id: (await setUp(client, "createDomainDnsRecord", { path: domain(f), body: { type: "TXT", name: unique(f, "gone"), content: "x" } })).id },
    }),
  },
  bulkCreateDomainDnsRecords: {
    needs: ["domain"],
    input: (f) => ({ path: domain(f), body: { records: [{ type: "A", name: "bulk", content: "192.0.2.20" }, { type: "CNAME", name: "@", content: "bad.example.com" }] } }),
  },
  applyDnsTemplate: {
    needs: ["domain"],
    // A template's records are fixed, so applying it twice to one domain conflicts: each call gets a fresh domain.
    input: async (f, client) => {
      const fresh = client.has("createSandboxDomain")
        ? (await setUp(client, "createSandboxDomain", { body: { user_identifier: f.user, domain_name: `${unique(f, "contract-tpl")}.com` } })).id
        : f.domainId!;
      return { path: { domain_id: fresh }, body: { template_id: "web-host", variables: { ip: "192.0.2.30" } } };
    },
  },
  getSandboxClock: { input: () => ({}) },
  advanceSandboxClock: { input: () => ({ body: { seconds: 60 } }) },
  createSandboxDomain: { input: (f) => ({ body: { user_identifier: f.user, domain_name: `contract-${f.run}-2.net` } }) },
  setSandboxDomainStatus: { needs: ["domain"], input: (f) => ({ path: domain(f), body: { status: "active" } }) },
  resetSandbox: { destructive: true, input: () => ({}) },
  listWebhookEndpoints: { input: () => ({}) },
  createWebhookEndpoint: { input: (f) => ({ body: { url: `${RECEIVER_URL}/${f.run}`, events: ["domain.registered"] } }) },
  getWebhookEndpoint: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! } }) },
  updateWebhookEndpoint: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! }, body: { description: "contract run, updated" } }) },
  deleteWebhookEndpoint: {
    input: async (f, client) => ({ path: { endpoint_id: (await setUp(client, "createWebhookEndpoint", { body: { url: `${RECEIVER_URL}/gone-${f.run}` } })).id } }),
  },
  rotateWebhookSecret: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! }, body: { previous_secret_valid_for: 60 } }) },
  sendTestWebhook: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! } }) },
  listWebhookDeliveries: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! }, query: { limit: 5 } }) },
  redeliverWebhook: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId!, delivery_id: f.deliveryId! } }) },
};

/** Why a scenario cannot run on these fixtures, or null. */
export function missingNeed(scenario: Scenario, f: Fixtures): string | null {
  const have = { domain: f.domainId, recordD: f.recordIdD, recordR: f.recordIdR, transfer: f.transferId, endpoint: f.endpointId };
  const missing = (scenario.needs ?? []).filter((need) => !have[need]);
  return missing.length ? `needs ${missing.join(", ")}, which the target could not provide (a production target has no way to create a domain)` : null;
}

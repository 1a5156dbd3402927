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

/** A restricted key the kit makes for a scenario: harmless if it were ever used, and gone within a day. */
const scenarioKey = () => ({
  name: "conformance kit scenario",
  scopes: ["events:read"],
  expires_at: new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d+Z$/, "Z"),
});

/**
 * The fixture domain made ready to leave: past the registries' 60 days (the sandbox clock moved to
 * when its code is available, once), unlocked; answers its code.
 */
async function readyToLeave(f: Fixtures, client: ContractClient): Promise<string> {
  const path = domain(f);
  let read = await client.call("getTransferAuthCode", { path });
  if (read.status === 409 && typeof read.body?.details?.available_at === "string") {
    await setUp(client, "advanceSandboxClock", { body: { to: read.body.details.available_at } });
    read = await client.call("getTransferAuthCode", { path });
  }
  if (read.status !== 200) throw new Error(`setting up with ${read.label} failed: ${read.status} ${JSON.stringify(read.body)}`);
  await setUp(client, "updateDomain", { path, body: { transfer_lock: false } });
  return read.body.auth_code;
}

/** A pending outbound transfer of the fixture domain, requested as a gaining registrar would (the sandbox's helper). */
async function pendingOutbound(f: Fixtures, client: ContractClient): Promise<void> {
  const code = await readyToLeave(f, client);
  const latest = await client.call("getOutboundTransfer", { path: domain(f) });
  if (latest.status === 200 && latest.body.status === "pending") return;
  await setUp(client, "requestSandboxOutboundTransfer", { path: domain(f), body: { auth_code: code } });
}
/** Scenarios run more than once (with and without a key...): what they create must differ each time. */
let sequence = 0;
const unique = (f: Fixtures, stem: string) => `${stem}-${f.run}-${++sequence}`;

export const SCENARIOS: Record<string, Scenario> = {
  getServiceIndex: { input: () => ({ key: null }) },
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
  getDomainConnection: { needs: ["domain"], input: (f) => ({ path: domain(f) }) },
  getConnectionRequirements: { input: () => ({}) },
  // None: the partner's requirements as a run starts, so the checks after this one see no connection events.
  replaceConnectionRequirements: { input: () => ({ body: { requirements: [] } }) },
  getTransferAuthCode: {
    needs: ["domain"],
    input: async (f, client) => {
      await readyToLeave(f, client);
      return { path: domain(f) };
    },
  },
  getOutboundTransfer: {
    needs: ["domain"],
    input: async (f, client) => {
      await pendingOutbound(f, client);
      return { path: domain(f) };
    },
  },
  // Rejected, never approved: an approval would take the fixture domain away from the checks after this one.
  answerOutboundTransfer: {
    needs: ["domain"],
    input: async (f, client) => {
      await pendingOutbound(f, client);
      return { path: domain(f), body: { decision: "reject" } };
    },
  },
  requestSandboxOutboundTransfer: {
    needs: ["domain"],
    input: async (f, client) => {
      const code = await readyToLeave(f, client);
      const latest = await client.call("getOutboundTransfer", { path: domain(f) });
      if (latest.status === 200 && latest.body.status === "pending")
        await setUp(client, "answerOutboundTransfer", { path: domain(f), body: { decision: "reject" } });
      return { path: domain(f), body: { auth_code: code } };
    },
  },
  initiateTransfer: {
    input: (f) => ({
      body: { domain_name: `contract-${f.run}-t2.com`, user_identifier: f.user, auth_code: "Xk8#pL2q!Rm9", extend_registration: true },
    }),
  },
  getTransfer: { needs: ["transfer"], input: (f) => ({ path: { transfer_id: f.transferId! } }) },
  listTlds: { input: () => ({}) },
  checkAvailability: { input: (f) => ({ path: { domain_name: `contract-${f.run}-free.com` } }) },
  createDnsRecord: {
    needs: ["domain"],
    input: (f) => ({ body: { domain_id: f.domainId!, type: "MX", name: unique(f, "mx"), value: "mail.example.com", priority: 10 } }),
  },
  getDnsRecord: { needs: ["recordR"], input: (f) => ({ path: { id: f.recordIdR! } }) },
  updateDnsRecord: {
    needs: ["recordR"],
    input: (f) => ({ path: { id: f.recordIdR! }, body: { value: "contract run, updated", ttl: 600 } }),
  },
  deleteDnsRecord: {
    needs: ["domain"],
    input: async (f, client) => ({
      path: {
        id: (await setUp(client, "createDnsRecord", { body: { domain_id: f.domainId!, type: "TXT", name: unique(f, "gone"), value: "x" } }))
          .id,
      },
    }),
  },
  listDomainDnsRecords: { needs: ["domain"], input: (f) => ({ path: domain(f) }) },
  createDomainDnsRecord: {
    needs: ["domain"],
    input: (f) => ({ path: domain(f), body: { type: "AAAA", name: unique(f, "v6"), content: "2001:db8::1", ttl: 300 } }),
  },
  updateDomainDnsRecord: {
    needs: ["recordD"],
    input: (f) => ({ path: { ...domain(f), record_id: f.recordIdD! }, body: { content: "192.0.2.11" } }),
  },
  deleteDomainDnsRecord: {
    needs: ["domain"],
    input: async (f, client) => ({
      path: {
        ...domain(f),
        record_id: (
          await setUp(client, "createDomainDnsRecord", { path: domain(f), body: { type: "TXT", name: unique(f, "gone"), content: "x" } })
        ).id,
      },
    }),
  },
  bulkCreateDomainDnsRecords: {
    needs: ["domain"],
    input: (f) => ({
      path: domain(f),
      body: {
        records: [
          { type: "A", name: "bulk", content: "192.0.2.20" },
          { type: "CNAME", name: "@", content: "bad.example.com" },
        ],
      },
    }),
  },
  // Nameservers, glue and DNSSEC (additions). The DELETE right after the PUT cancels its pending change,
  // so the fixture domain stays on the service's nameservers for the checks after these.
  setDomainNameservers: {
    needs: ["domain"],
    input: (f) => ({ path: domain(f), body: { nameservers: ["ns1.contract-dns.net", "ns2.contract-dns.net"] } }),
  },
  resetDomainNameservers: { needs: ["domain"], input: (f) => ({ path: domain(f) }) },
  listGlueRecords: { needs: ["domain"], input: (f) => ({ path: domain(f) }) },
  setGlueRecord: {
    needs: ["domain"],
    input: (f) => ({ path: { ...domain(f), host: `ns1.${f.domainName}` }, body: { ipv4: ["192.0.2.53"] } }),
  },
  deleteGlueRecord: {
    needs: ["domain"],
    input: async (f, client) => {
      const host = `${unique(f, "gone")}.${f.domainName}`;
      await setUp(client, "setGlueRecord", { path: { ...domain(f), host }, body: { ipv4: ["192.0.2.54"] } });
      return { path: { ...domain(f), host } };
    },
  },
  listDsRecords: { needs: ["domain"], input: (f) => ({ path: domain(f) }) },
  createDsRecord: {
    needs: ["domain"],
    input: async (f, client) => {
      // The sweep calls this more than once; a domain holds few DS records, so room is made first.
      const { ds_records: held } = await setUp(client, "listDsRecords", { path: domain(f) });
      for (const ds of held.slice(0, Math.max(0, held.length - 4)))
        await setUp(client, "deleteDsRecord", { path: { ...domain(f), ds_id: ds.id } });
      return { path: domain(f), body: { key_tag: ++sequence % 65536, algorithm: 13, digest_type: 2, digest: "ab".repeat(32) } };
    },
  },
  deleteDsRecord: {
    needs: ["domain"],
    input: async (f, client) => {
      const { ds_records: held } = await setUp(client, "listDsRecords", { path: domain(f) });
      for (const ds of held.slice(0, Math.max(0, held.length - 4)))
        await setUp(client, "deleteDsRecord", { path: { ...domain(f), ds_id: ds.id } });
      const body = { key_tag: ++sequence % 65536, algorithm: 8, digest_type: 1, digest: "cd".repeat(20) };
      return { path: { ...domain(f), ds_id: (await setUp(client, "createDsRecord", { path: domain(f), body })).id } };
    },
  },
  applyDnsTemplate: {
    needs: ["domain"],
    // A template's records are fixed, so applying it twice to one domain conflicts: each call gets a fresh domain.
    input: async (f, client) => {
      const fresh = client.has("createSandboxDomain")
        ? (
            await setUp(client, "createSandboxDomain", {
              body: { user_identifier: f.user, domain_name: `${unique(f, "contract-tpl")}.com` },
            })
          ).id
        : f.domainId!;
      return { path: { domain_id: fresh }, body: { template_id: "web-host", variables: { ip: "192.0.2.30" } } };
    },
  },
  // Replacing one record set: repeatable, each run leaves the same zone.
  applyDnsChangeSet: {
    needs: ["domain"],
    input: (f) => ({
      path: domain(f),
      body: { deletes: [{ name: "chg", type: "A" }], creates: [{ type: "A", name: "chg", content: "192.0.2.40" }] },
    }),
  },
  // Zone files (both variants): the export, and a merge of one record the scenario owns.
  exportDomainZone: { needs: ["domain"], input: (f) => ({ path: domain(f), headers: { Accept: "text/dns" } }) },
  importDomainZone: {
    needs: ["domain"],
    input: (f) => ({ path: domain(f), body: { zone_file: "zonescenario 300 IN A 192.0.2.41\n", mode: "merge" } }),
  },
  // API keys (issue 36): each scenario makes the restricted key it reads, rolls or revokes, so none
  // touches the key the kit runs with; a key that only reads events, and expires within a day.
  listApiKeys: { input: () => ({}) },
  createApiKey: { input: () => ({ body: scenarioKey() }) },
  getApiKey: { input: async (_f, client) => ({ path: { key_id: (await setUp(client, "createApiKey", { body: scenarioKey() })).id } }) },
  rollApiKey: {
    input: async (_f, client) => ({
      path: { key_id: (await setUp(client, "createApiKey", { body: scenarioKey() })).id },
      body: { grace_seconds: 0 },
    }),
  },
  revokeApiKey: { input: async (_f, client) => ({ path: { key_id: (await setUp(client, "createApiKey", { body: scenarioKey() })).id } }) },
  listEvents: { input: () => ({ query: { limit: 5 } }) },
  // The newest event the suite's own writes emitted; a mock answers any id with its example.
  getEvent: {
    input: async (_f, client) => {
      const listed = await client.call("listEvents", { query: { limit: 1 } });
      return { path: { event_id: listed.body?.events?.[0]?.id ?? "evt_1aB2cD3eF4gH5iJ6kL7mN8o" } };
    },
  },
  // One second of events a minute ago, to the suite's own receiver address (it never answers:
  // nothing is sent). Not everything since then: an earlier run against the same partner may have
  // left more events in the last minute than the 1000 one replay takes (422 too_many_events).
  replayWebhookEvents: {
    needs: ["endpoint"],
    input: (f) => ({
      path: { endpoint_id: f.endpointId! },
      body: {
        since: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z"),
        until: new Date(Date.now() - 59_000).toISOString().replace(/\.\d+Z$/, "Z"),
      },
    }),
  },
  getSandboxClock: { input: () => ({}) },
  advanceSandboxClock: { input: () => ({ body: { seconds: 60 } }) },
  createSandboxDomain: { input: (f) => ({ body: { user_identifier: f.user, domain_name: `contract-${f.run}-2.net` } }) },
  setSandboxDomainStatus: { needs: ["domain"], input: (f) => ({ path: domain(f), body: { status: "active" } }) },
  resetSandbox: { destructive: true, input: () => ({}) },
  listWebhookEndpoints: { input: () => ({}) },
  createWebhookEndpoint: { input: (f) => ({ body: { url: `${RECEIVER_URL}/${f.run}`, events: ["domain.registered"] } }) },
  getWebhookEndpoint: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! } }) },
  updateWebhookEndpoint: {
    needs: ["endpoint"],
    input: (f) => ({ path: { endpoint_id: f.endpointId! }, body: { description: "contract run, updated" } }),
  },
  deleteWebhookEndpoint: {
    input: async (f, client) => ({
      path: { endpoint_id: (await setUp(client, "createWebhookEndpoint", { body: { url: `${RECEIVER_URL}/gone-${f.run}` } })).id },
    }),
  },
  rotateWebhookSecret: {
    needs: ["endpoint"],
    input: (f) => ({ path: { endpoint_id: f.endpointId! }, body: { previous_secret_valid_for: 60 } }),
  },
  sendTestWebhook: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! } }) },
  listWebhookDeliveries: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId! }, query: { limit: 5 } }) },
  redeliverWebhook: { needs: ["endpoint"], input: (f) => ({ path: { endpoint_id: f.endpointId!, delivery_id: f.deliveryId! } }) },
};

/** Why a scenario cannot run on these fixtures, or null. */
export function missingNeed(scenario: Scenario, f: Fixtures): string | null {
  const have = { domain: f.domainId, recordD: f.recordIdD, recordR: f.recordIdR, transfer: f.transferId, endpoint: f.endpointId };
  const missing = (scenario.needs ?? []).filter((need) => !have[need]);
  return missing.length
    ? `needs ${missing.join(", ")}, which the target could not provide (a production target has no way to create a domain)`
    : null;
}

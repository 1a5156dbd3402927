/**
 * Tenancy: a partner reaches only its own data. Another partner's domain, record or transfer is
 * 403 `forbidden`; its users, webhook endpoints, deliveries and events are unknown (404
 * `not_found`); every refused call changes nothing, which the owner reads back; no list shows
 * another partner's data.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallInput, CallResult } from "../contract-client.js";
import { QUIET_EVENT, RECEIVER_URL, setUp } from "../fixtures.js";
import { expectAnswer } from "./expectations.js";
import { createUserEstate, listedUser, type UserEstate } from "./users-support.js";

type Refusal = "forbidden" | "forbidden-list" | "not_found";

/** Calls `operationId` with the second partner's key and fails unless it is refused as `refusal` says. */
async function expectRefusedToOther(context: CheckContext, operationId: string, input: CallInput, refusal: Refusal): Promise<CallResult> {
  const result = await context.api.call(operationId, { ...input, key: context.target.secondKey! });
  const expected = {
    forbidden: [403, "error forbidden"],
    "forbidden-list": [403, "errors [message]"],
    not_found: [404, "error not_found"],
  }[refusal];
  const bodyRight =
    refusal === "forbidden-list"
      ? Array.isArray(result.body?.errors) && result.body.errors.length > 0
      : result.body?.error === (refusal === "not_found" ? "not_found" : "forbidden");
  if (result.status !== expected[0] || !bodyRight || result.violations.length)
    throw new Error(
      `another partner's ${operationId}: ${result.label} answered ${result.status} ${JSON.stringify(result.body)?.slice(0, 300)}, expected ${expected[0]} with ${expected[1]}${result.violations.length ? `; ${result.violations.join("; ")}` : ""}`,
    );
  return result;
}

/** What the owner reads of the estate's domain and records, to compare before and after the other partner tried. */
async function ownerView(context: CheckContext, estate: UserEstate): Promise<Record<string, unknown>> {
  const { api } = context;
  const read = async (operationId: string, input: CallInput) => {
    const result = await api.call(operationId, input);
    expectAnswer(result, 200, undefined, "read by the owner");
    const { body } = result;
    // What time alone moves (a sandbox clock other checks advance) is not the other partner's doing.
    if (body && typeof body === "object") for (const field of ["status", "last_login"]) delete body[field];
    return body;
  };
  const domain = { domain_id: estate.domainId! };
  return {
    user: await read("getUser", { path: { user_identifier: estate.user } }),
    domain: await read("getDomain", { path: domain }),
    transfer: await read("getTransfer", { path: { transfer_id: estate.transferId } }),
    ...(estate.recordIdR ? { recordR: await read("getDnsRecord", { path: { id: estate.recordIdR } }) } : {}),
    ...(api.has("listDomainDnsRecords") ? { recordsD: await read("listDomainDnsRecords", { path: domain }) } : {}),
  };
}

export default defineChecks([
  {
    id: "tenancy.users-are-per-partner",
    title: "another partner's user is 404 not_found to read, update, delete and list domains of; the same identifier there is another user",
    needs: ["second-key", "state"],
    async run(context) {
      const { api } = context;
      const estate = await createUserEstate(context, "tenant_user");
      const path = { user_identifier: estate.user };
      const before = await api.call("getUser", { path });
      expectAnswer(before, 200);
      await expectRefusedToOther(context, "getUser", { path }, "not_found");
      await expectRefusedToOther(context, "listUserDomains", { path }, "not_found");
      if (api.has("updateUser"))
        await expectRefusedToOther(context, "updateUser", { path, body: { email: "thief@example.com" } }, "not_found");
      if (api.has("deleteUser")) await expectRefusedToOther(context, "deleteUser", { path }, "not_found");
      if (api.has("listUsers"))
        expect({ listedToOther: await listedUser(context, estate.user, context.target.secondKey!) }).toEqual({ listedToOther: null });
      // The other partner's own user of the same identifier: created apart, owning nothing of the first's.
      const theirs = await api.call("createUserSession", {
        body: { user_identifier: estate.user, email: "other@example.com" },
        key: context.target.secondKey!,
      });
      expectAnswer(theirs, 201, { user_identifier: estate.user });
      expectAnswer(await api.call("getUser", { path, key: context.target.secondKey! }), 200, {
        email: "other@example.com",
        domain_count: 0,
      });
      expectAnswer(await api.call("listUserDomains", { path, key: context.target.secondKey! }), 200, { domains: [] });
      const after = await api.call("getUser", { path });
      expectAnswer(
        after,
        200,
        { email: estate.email, domain_count: before.body.domain_count, created_at: before.body.created_at },
        "the owner's user, unchanged",
      );
    },
  },
  {
    id: "tenancy.domains-forbidden",
    title: "another partner's domain is 403 forbidden to read, update, renew or set the status of, and nothing changes",
    needs: ["second-key", "state", "sandbox"],
    operations: ["createSandboxDomain"],
    async run(context) {
      const estate = await createUserEstate(context, "tenant_domain");
      const before = await ownerView(context, estate);
      const path = { domain_id: estate.domainId! };
      await expectRefusedToOther(context, "getDomain", { path }, "forbidden");
      await expectRefusedToOther(context, "updateDomain", { path, body: { auto_renew: false, whois_privacy: false } }, "forbidden");
      await expectRefusedToOther(context, "renewDomain", { path, body: { years: 2 } }, "forbidden");
      await expectRefusedToOther(context, "setSandboxDomainStatus", { path, body: { status: "suspended" } }, "forbidden");
      // Registrar controls (additions): the code, the outbound transfer, the answer and the sandbox's gaining registrar.
      const controls: Array<[string, CallInput]> = [
        ["getTransferAuthCode", { path }],
        ["getOutboundTransfer", { path }],
        ["answerOutboundTransfer", { path, body: { decision: "approve" } }],
        ["requestSandboxOutboundTransfer", { path, body: { auth_code: "tac_guessed" } }],
        // "Is it pointing at us?": another partner's domain is not checked against anyone's requirements.
        ["getDomainConnection", { path }],
        // Nameservers, glue and DNSSEC (additions).
        ["setDomainNameservers", { path, body: { nameservers: ["ns1.tenant-dns.net", "ns2.tenant-dns.net"] } }],
        ["resetDomainNameservers", { path }],
        ["listGlueRecords", { path }],
        ["setGlueRecord", { path: { ...path, host: "ns1.tenant-grab.com" }, body: { ipv4: ["192.0.2.53"] } }],
        ["deleteGlueRecord", { path: { ...path, host: "ns1.tenant-grab.com" } }],
        ["listDsRecords", { path }],
        ["createDsRecord", { path, body: { key_tag: 1, algorithm: 13, digest_type: 2, digest: "ab".repeat(32) } }],
        ["deleteDsRecord", { path: { ...path, ds_id: "ds_guessed" } }],
        // Zone files (both variants): neither the records out nor a file in, which would replace them.
        ["exportDomainZone", { path }],
        ["importDomainZone", { path, body: { zone_file: "intruder 300 IN A 198.51.100.66\n", mode: "replace" } }],
      ];
      for (const [operationId, input] of controls)
        if (context.api.has(operationId)) await expectRefusedToOther(context, operationId, input, "forbidden");
      // The other partner cannot give itself a domain for, or transfer one to, a user it does not have.
      await expectRefusedToOther(
        context,
        "createSandboxDomain",
        { body: { user_identifier: estate.user, domain_name: `${context.unique("tenant-grab")}.com` } },
        "not_found",
      );
      await expectRefusedToOther(
        context,
        "initiateTransfer",
        { body: { user_identifier: estate.user, domain_name: `${context.unique("tenant-move")}.com`, auth_code: "Xk8#pL2q!Rm9" } },
        "not_found",
      );
      expect(await ownerView(context, estate)).toEqual(before);
      const domain = await context.api.call("getDomain", { path });
      if (domain.body.status !== undefined) expect({ status: domain.body.status }).toEqual({ status: "active" });
    },
  },
  {
    id: "tenancy.transfers-forbidden",
    title: "another partner's transfer is 403 forbidden to read by id",
    needs: ["second-key", "state"],
    async run(context) {
      const estate = await createUserEstate(context, "tenant_transfer");
      await expectRefusedToOther(context, "getTransfer", { path: { transfer_id: estate.transferId } }, "forbidden");
      expectAnswer(await context.api.call("getTransfer", { path: { transfer_id: estate.transferId } }), 200, {
        transfer_id: estate.transferId,
      });
    },
  },
  {
    id: "tenancy.records-r-forbidden",
    title:
      "Variant R: another partner's record is 403 (list shape) to read, update and delete, its domain 403 to create in, and nothing changes",
    needs: ["second-key", "state", "sandbox"],
    operations: ["createDnsRecord", "createSandboxDomain"],
    async run(context) {
      const estate = await createUserEstate(context, "tenant_r");
      const before = await ownerView(context, estate);
      const path = { id: estate.recordIdR! };
      await expectRefusedToOther(context, "getDnsRecord", { path }, "forbidden-list");
      await expectRefusedToOther(context, "updateDnsRecord", { path, body: { value: "taken over", ttl: 60 } }, "forbidden-list");
      await expectRefusedToOther(context, "deleteDnsRecord", { path }, "forbidden-list");
      await expectRefusedToOther(
        context,
        "createDnsRecord",
        { body: { domain_id: estate.domainId!, type: "TXT", name: "intruder", value: "x" } },
        "forbidden-list",
      );
      expect(await ownerView(context, estate)).toEqual(before);
    },
  },
  {
    id: "tenancy.records-d-forbidden",
    title:
      "Variant D: another partner's domain is 403 forbidden to list, create, update, delete, bulk-create, template or change-set records in, and nothing changes",
    needs: ["second-key", "state", "sandbox"],
    operations: ["listDomainDnsRecords", "createSandboxDomain"],
    async run(context) {
      const { api } = context;
      const estate = await createUserEstate(context, "tenant_d");
      const before = await ownerView(context, estate);
      const domain = { domain_id: estate.domainId! };
      const record = { ...domain, record_id: estate.recordIdD! };
      await expectRefusedToOther(context, "listDomainDnsRecords", { path: domain }, "forbidden");
      await expectRefusedToOther(
        context,
        "createDomainDnsRecord",
        { path: domain, body: { type: "TXT", name: "intruder", content: "x" } },
        "forbidden",
      );
      await expectRefusedToOther(context, "updateDomainDnsRecord", { path: record, body: { content: "198.51.100.66" } }, "forbidden");
      await expectRefusedToOther(context, "deleteDomainDnsRecord", { path: record }, "forbidden");
      await expectRefusedToOther(
        context,
        "bulkCreateDomainDnsRecords",
        { path: domain, body: { records: [{ type: "A", name: "intruder", content: "198.51.100.66" }] } },
        "forbidden",
      );
      await expectRefusedToOther(
        context,
        "applyDnsTemplate",
        { path: domain, body: { template_id: "web-host", variables: { ip: "198.51.100.66" } } },
        "forbidden",
      );
      if (api.has("applyDnsChangeSet"))
        await expectRefusedToOther(
          context,
          "applyDnsChangeSet",
          {
            path: domain,
            body: { deletes: [{ name: "www", type: "A" }], creates: [{ type: "A", name: "www", content: "198.51.100.66" }] },
          },
          "forbidden",
        );
      expect(await ownerView(context, estate)).toEqual(before);
    },
  },
  {
    id: "tenancy.unknown-ids-not-found",
    title: "a domain, record, transfer, webhook endpoint or event that does not exist is 404 not_found (never 403)",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const fixtures = await context.fixtures();
      const nobody = (prefix: string) => `${prefix}${context.unique("none").replaceAll("-", "")}`;
      const missing: Array<[string, CallInput, boolean?]> = [
        ["getDomain", { path: { domain_id: nobody("dom_") } }],
        ["updateDomain", { path: { domain_id: nobody("dom_") }, body: { auto_renew: true } }],
        ["renewDomain", { path: { domain_id: nobody("dom_") }, body: { years: 1 } }],
        ["getTransfer", { path: { transfer_id: nobody("trf_") } }],
        ["getTransferAuthCode", { path: { domain_id: nobody("dom_") } }],
        ["getOutboundTransfer", { path: { domain_id: nobody("dom_") } }],
        ["listGlueRecords", { path: { domain_id: nobody("dom_") } }],
        ["listDsRecords", { path: { domain_id: nobody("dom_") } }],
        ["resetDomainNameservers", { path: { domain_id: nobody("dom_") } }],
        ["getDomainConnection", { path: { domain_id: nobody("dom_") } }],
        ["listDomainDnsRecords", { path: { domain_id: nobody("dom_") } }],
        ["getDnsRecord", { path: { id: nobody("rec_") } }, true],
        ["deleteDnsRecord", { path: { id: nobody("rec_") } }, true],
        ["createDnsRecord", { body: { domain_id: nobody("dom_"), type: "TXT", name: "x", value: "x" } }, true],
        ["getWebhookEndpoint", { path: { endpoint_id: nobody("we_") } }],
        ["getEvent", { path: { event_id: nobody("evt_") } }],
        ["exportDomainZone", { path: { domain_id: nobody("dom_") } }],
        ["importDomainZone", { path: { domain_id: nobody("dom_") }, body: { zone_file: "x 300 IN A 192.0.2.1\n" } }],
        ["getApiKey", { path: { key_id: nobody("key_") } }],
        ["rollApiKey", { path: { key_id: nobody("key_") }, body: {} }],
        ["revokeApiKey", { path: { key_id: nobody("key_") } }],
      ];
      if (fixtures.domainId && api.has("deleteDomainDnsRecord"))
        missing.push(["deleteDomainDnsRecord", { path: { domain_id: fixtures.domainId, record_id: nobody("rec_") } }]);
      for (const [operationId, input, listShape] of missing) {
        if (!api.has(operationId)) continue;
        const result = await api.call(operationId, input);
        expectAnswer(result, 404, listShape ? undefined : { error: "not_found" }, "an id that does not exist");
        if (listShape) expect(result.body).toEqual({ errors: [expect.any(String)] });
      }
    },
  },
  {
    id: "tenancy.webhook-endpoints-hidden",
    title: "another partner's webhook endpoint and its deliveries are 404 not_found to every operation, never listed, and nothing changes",
    needs: ["second-key", "state"],
    operations: ["createWebhookEndpoint"],
    async run(context) {
      const { api } = context;
      const description = `tenancy ${context.unique("endpoint")}`;
      const endpoint = await setUp(api, "createWebhookEndpoint", {
        body: { url: `${RECEIVER_URL}/${context.unique("tenancy")}`, description, events: [QUIET_EVENT] },
      });
      const delivery = await setUp(api, "sendTestWebhook", { path: { endpoint_id: endpoint.id } });
      const path = { endpoint_id: endpoint.id };
      await expectRefusedToOther(context, "getWebhookEndpoint", { path }, "not_found");
      await expectRefusedToOther(context, "updateWebhookEndpoint", { path, body: { description: "taken over" } }, "not_found");
      await expectRefusedToOther(context, "rotateWebhookSecret", { path, body: { previous_secret_valid_for: 60 } }, "not_found");
      await expectRefusedToOther(context, "sendTestWebhook", { path }, "not_found");
      await expectRefusedToOther(context, "listWebhookDeliveries", { path }, "not_found");
      await expectRefusedToOther(context, "redeliverWebhook", { path: { ...path, delivery_id: delivery.id } }, "not_found");
      await expectRefusedToOther(
        context,
        "replayWebhookEvents",
        { path, body: { since: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, "Z") } },
        "not_found",
      );
      await expectRefusedToOther(context, "deleteWebhookEndpoint", { path }, "not_found");
      const listed = await api.call("listWebhookEndpoints", { key: context.target.secondKey! });
      expectAnswer(listed, 200);
      expect(listed.body.endpoints.map((e: { id: string }) => e.id)).not.toContain(endpoint.id);
      expectAnswer(
        await api.call("getWebhookEndpoint", { path }),
        200,
        { id: endpoint.id, description },
        "the owner's endpoint, unchanged",
      );
      const deliveries = await api.call("listWebhookDeliveries", { path, query: { limit: 100 } });
      expectAnswer(deliveries, 200);
      expect(deliveries.body.deliveries.filter((d: { id: string }) => d.id !== delivery.id)).toEqual([]);
    },
  },
  {
    id: "tenancy.events-hidden",
    title: "another partner's event is 404 not_found by id and never in its event list",
    needs: ["second-key", "state"],
    operations: ["listEvents"],
    async run(context) {
      const { api } = context;
      await createUserEstate(context, "tenant_events");
      const ours = await api.call("listEvents", { query: { limit: 10 } });
      expectAnswer(ours, 200);
      const ids: string[] = ours.body.events.map((event: { id: string }) => event.id);
      if (ids.length === 0) throw new Error("creating a user with a domain and a transfer emitted no event the partner can list");
      for (const id of ids) await expectRefusedToOther(context, "getEvent", { path: { event_id: id } }, "not_found");
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 20; page++) {
        const theirs = await api.call("listEvents", {
          query: { limit: 100, ...(cursor ? { cursor } : {}) },
          key: context.target.secondKey!,
        });
        expectAnswer(theirs, 200);
        seen.push(...theirs.body.events.map((event: { id: string }) => event.id));
        cursor = theirs.body.next_cursor ?? undefined;
        if (!cursor) break;
      }
      expect(seen.filter((id) => ids.includes(id))).toEqual([]);
    },
  },
]);

/**
 * Restricted keys (an addition): a key made through the API carries scopes, restrictions and an
 * expiry; every operation refuses a key without its `x-required-scope` with 403 naming it and
 * changes nothing, admits one with it, and the restrictions (domains, record names and types,
 * client addresses), expiry, revocation and roll hold on the next request. The kit makes its keys
 * with the target's full key and revokes them when each check ends.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallInput, CallResult } from "../contract-client.js";
import { setUp } from "../fixtures.js";
import { zoneLines, zoneOf } from "./dns-records-support.js";
import { expectAnswer, expectConforming, expectStatus } from "./expectations.js";
import { keysHolding, keysLacking, KeysByScopes, matrixOf } from "./restricted-keys-matrix.js";
import { ownerSnapshot, snapshotChanges } from "./restricted-keys-snapshot.js";
import {
  callUntil,
  callWith,
  expectAdmitted,
  expectInsufficientScope,
  expectKeyEnded,
  expectKeyRestricted,
  FULL_KEYS_ONLY,
  operationAt,
  secondsFromNow,
  targetClockOffset,
  withKeys,
  zoneImportOperation,
  type KitKey,
} from "./restricted-keys-support.js";
import { uniqueUser } from "./users-support.js";

const needsState = ["state" as const];

/** Runs each step, collecting failures, so one run names every operation that breaks the rule. */
async function collecting(steps: Array<[string, () => Promise<void>]>, failures: string[] = []): Promise<void> {
  let checked = 0;
  for (const [label, step] of steps) {
    try {
      await step();
      checked++;
    } catch (error) {
      failures.push(`${label}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (failures.length) throw new Error(`${failures.length} of ${checked + failures.length} failed:\n${failures.join("\n")}`);
}

/** A user with two sandbox domains, for the restrictions to tell apart. */
async function twoDomains(context: CheckContext, stem: string) {
  const { api } = context;
  if (!api.has("createSandboxDomain")) context.notApplicable("needs sandbox domains (createSandboxDomain) to restrict a key to");
  const user = uniqueUser(context, stem);
  await setUp(api, "createUserSession", { body: { user_identifier: user } });
  const domain = async (suffix: string) =>
    (await setUp(api, "createSandboxDomain", {
      body: { user_identifier: user, domain_name: `${context.unique(`${stem}-${suffix}`)}.com` },
    })) as {
      id: string;
      name: string;
    };
  return { user, allowed: await domain("in"), other: await domain("out") };
}

/** The owner's view of a domain and its records, to compare before and after refused writes. */
async function domainView(context: CheckContext, domainId: string) {
  const domain = await context.api.call("getDomain", { path: { domain_id: domainId } });
  expectAnswer(domain, 200, undefined, "read by the owner");
  return { domain: domain.body, ...(context.api.has("listDomainDnsRecords") ? { zone: zoneLines(await zoneOf(context, domainId)) } : {}) };
}

export default defineChecks([
  {
    id: "restricted-keys.other-scopes-refused",
    title:
      "every operation refuses a key without its x-required-scope (another resource's scopes, or only the read for a write; every scope for a full-key operation) with 403 insufficient_scope naming it, and changes nothing",
    needs: needsState,
    async run(context) {
      await withKeys(context, async (made) => {
        const keys = new KeysByScopes(made, context);
        const { entries, failures } = await matrixOf(context);
        const writes = entries.filter((entry) => entry.op.method !== "get").map((entry) => entry.input);
        // Made before the owner's first look: the kit's own keys are no change of the refused calls.
        for (const { scope } of entries) await keysLacking(keys, scope);
        const before = await ownerSnapshot(context, writes, made.ids.list);
        const steps: Array<[string, () => Promise<void>]> = entries.map(({ op, scope, input }) => [
          `${op.operationId} (${op.method.toUpperCase()} ${op.path}, needs ${scope})`,
          async () => {
            for (const [key, what] of await keysLacking(keys, scope))
              expectInsufficientScope(await callWith(context, key, op.operationId, input), scope, what);
          },
        ]);
        steps.push([
          "what the refused calls touch, read back by the owner",
          async () => {
            const changes = snapshotChanges(before, await ownerSnapshot(context, writes, made.ids.list));
            if (changes.length) throw new Error(`refused calls changed what the owner reads:\n${changes.join("\n")}`);
          },
        ]);
        await collecting(steps, failures);
      });
    },
  },
  {
    id: "restricted-keys.required-scope-admitted",
    title:
      "every operation admits a key with exactly its x-required-scope, a read also the write of its resource, an `any` operation every key: never 401 or 403",
    needs: needsState,
    async run(context) {
      await withKeys(context, async (made) => {
        const keys = new KeysByScopes(made, context);
        const { entries, failures } = await matrixOf(context);
        await collecting(
          entries
            .filter(({ op, scope, guessed }) => {
              if (guessed)
                context.note(`${op.operationId}: the kit has no scenario to call it successfully, so only its refusals are checked`);
              return scope !== FULL_KEYS_ONLY && !guessed;
            })
            .map(({ op, scope, input }) => [
              `${op.operationId} (${op.method.toUpperCase()} ${op.path}, needs ${scope})`,
              async () => {
                // A read the full key can make succeeds for the key too; a write may fail for the state it meets, never for the key.
                for (const [key, what] of await keysHolding(keys, scope)) {
                  const result = await callWith(context, key, op.operationId, input);
                  if (op.method === "get") expectAnswer(result, [200, 201, 204], undefined, what);
                  else expectAdmitted(result, what);
                }
              },
            ]),
          failures,
        );
      });
    },
  },
  {
    id: "restricted-keys.key-operations",
    title:
      "a key made through the API answers 201 with its secret once (never in a read or a list), its scopes, restrictions and expiry as asked; a bad grant is refused 422; another partner's key is 404",
    needs: ["state", "second-key"],
    async run(context) {
      await withKeys(context, async (keys) => {
        const { api } = context;
        const grant = {
          scopes: ["dns:write", "domains:read"],
          restrictions: { domains: ["example-kit.com"], record_names: ["_acme-challenge"], record_types: ["TXT"] },
          expires_at: secondsFromNow(3600),
        };
        const key = await keys.make("operations", grant);
        expect(key.answered).toMatchObject({
          scopes: expect.arrayContaining(grant.scopes),
          restrictions: { ...grant.restrictions, client_ips: null },
          last_used_at: null,
        });
        expect({ expires_at: Date.parse(String(key.answered.expires_at)) }).toEqual({ expires_at: Date.parse(grant.expires_at) });
        expect((key.answered.scopes as string[]).length).toBe(grant.scopes.length);
        expect(key.secret.endsWith(String(key.answered.last_four))).toBe(true);
        const read = await api.call(keys.ids.get!, { path: { key_id: key.id } });
        expectAnswer(read, 200, { id: key.id, scopes: key.answered.scopes, restrictions: key.answered.restrictions });
        expect(JSON.stringify(read.body)).not.toContain(key.secret);
        const listed = await api.call(keys.ids.list!);
        expectAnswer(listed, 200);
        expect(listed.body.api_keys.map((k: { id: string }) => k.id)).toContain(key.id);
        expect(JSON.stringify(listed.body)).not.toContain(key.secret);
        const other = await api.call(keys.ids.get!, { path: { key_id: key.id }, key: context.target.secondKey! });
        expectAnswer(other, 404, { error: "not_found" }, "another partner's key");
        const revokeOther = await api.call(keys.ids.revoke!, { path: { key_id: key.id }, key: context.target.secondKey! });
        expectAnswer(revokeOther, 404, { error: "not_found" }, "another partner revoking the key");
        for (const [body, why] of [
          [{ name: "no scopes", scopes: [] }, "no scopes (the API makes restricted keys only)"],
          [{ name: "unknown scope", scopes: ["dns:admin"] }, "a scope no key can have"],
          [{ name: "past", scopes: ["dns:read"], expires_at: secondsFromNow(-60) }, "an expiry in the past"],
          [{ name: "bad range", scopes: ["dns:read"], restrictions: { client_ips: ["10.0.0.0/33"] } }, "a CIDR range that is none"],
        ] as const) {
          const refused = await api.call(keys.ids.create!, { body });
          expectConforming(refused);
          expectStatus(refused, [400, 422], why);
          expect(refused.body).toMatchObject({ error: "validation_error" });
        }
        // The secret is shown once: a replay of the creation cannot show it again, nor make a second key.
        const replayed = {
          body: { name: context.unique("kit replay"), scopes: ["events:read"] },
          headers: { "Idempotency-Key": context.unique("rk") },
        };
        const first = await api.call(keys.ids.create!, replayed);
        expectAnswer(first, 201, undefined, "a creation with an Idempotency-Key");
        keys.adopt({ id: first.body.id, secret: first.body.secret, grant: { scopes: ["events:read"] }, answered: first.body });
        const again = await api.call(keys.ids.create!, replayed);
        expectAnswer(again, 409, { error: "conflict", details: { code: "secret_shown_once" } }, "replaying a key's creation");
        const after = await api.call(keys.ids.list!);
        expect(after.body.api_keys.filter((k: { name: string }) => k.name === replayed.body.name).length).toBe(1);
        expect(
          after.body.api_keys.filter((k: { name: string }) => ["no scopes", "unknown scope", "past", "bad range"].includes(k.name)),
        ).toEqual([]);
      });
    },
  },
  {
    id: "restricted-keys.domain-restriction",
    title:
      "a key restricted to some domains gets 403 key_restricted (domains) for another domain of the partner (read, write, its records), which is unchanged, and lists only its domains",
    needs: ["state", "sandbox"],
    operations: ["createSandboxDomain"],
    async run(context) {
      const { api } = context;
      const { user, allowed, other } = await twoDomains(context, "rk-dom");
      await withKeys(context, async (keys) => {
        const key = await keys.make("domains", {
          scopes: ["users:read", "domains:write", "dns:write"],
          restrictions: { domains: [allowed.name] },
        });
        // A record of each variant in the other domain: record-id operations must find its domain refused too.
        const path = { domain_id: other.id };
        const recordD = api.has("createDomainDnsRecord")
          ? (await setUp(api, "createDomainDnsRecord", { path, body: { type: "A", name: "www", content: "192.0.2.10" } })).id
          : null;
        const recordR = api.has("createDnsRecord")
          ? (await setUp(api, "createDnsRecord", { body: { domain_id: other.id, type: "TXT", name: "owner", value: "kept" } })).id
          : null;
        const before = await domainView(context, other.id);
        const refused: Array<[string | null, CallInput]> = [
          ["getDomain", { path }],
          ["updateDomain", { path, body: { auto_renew: false } }],
          ["renewDomain", { path, body: { years: 1 } }],
          ["getDomainConnection", { path }],
          ["setDomainNameservers", { path, body: { nameservers: ["ns1.rk-grab.net", "ns2.rk-grab.net"] } }],
          ["listDomainDnsRecords", { path }],
          ["createDomainDnsRecord", { path, body: { type: "TXT", name: "_kit", content: "x" } }],
          ["updateDomainDnsRecord", { path: { ...path, record_id: recordD ?? "" }, body: { content: "192.0.2.66" } }],
          ["deleteDomainDnsRecord", { path: { ...path, record_id: recordD ?? "" } }],
          ["bulkCreateDomainDnsRecords", { path, body: { records: [{ type: "TXT", name: "_kit", content: "x" }] } }],
          ["applyDnsChangeSet", { path, body: { creates: [{ type: "TXT", name: "_kit", content: "x" }] } }],
          ["applyDnsTemplate", { path, body: { template_id: "web-host", variables: { ip: "192.0.2.30" } } }],
          [zoneImportOperation(context), { path, body: { zone_file: `$ORIGIN ${other.name}.\n_kit 300 IN TXT "x"\n` } }],
          [operationAt(context, "get", "/api/v1/domains/{domain_id}/zone"), { path }],
          ["createDnsRecord", { body: { domain_id: other.id, type: "TXT", name: "_kit", value: "x" } }],
          ["getDnsRecord", { path: { id: recordR ?? "" } }],
          ["updateDnsRecord", { path: { id: recordR ?? "" }, body: { value: "taken" } }],
          ["deleteDnsRecord", { path: { id: recordR ?? "" } }],
        ];
        const steps: Array<[string, () => Promise<void>]> = refused
          .filter((entry): entry is [string, CallInput] => entry[0] !== null && api.has(entry[0]))
          .map(([operationId, input]) => [
            operationId,
            async () => expectKeyRestricted(await callWith(context, key, operationId, input), "domains", "a domain the key is not for"),
          ]);
        steps.push(
          ["the refused domain, read back", async () => expect(await domainView(context, other.id)).toEqual(before)],
          [
            "the allowed domain",
            async () =>
              expectAnswer(await callWith(context, key, "getDomain", { path: { domain_id: allowed.id } }), 200, { id: allowed.id }),
          ],
          [
            "the user's domains, listed with the key",
            async () => {
              const listed = await callWith(context, key, "listUserDomains", { path: { user_identifier: user } });
              expectAnswer(listed, 200);
              expect(listed.body.domains.map((d: { id: string }) => d.id)).toEqual([allowed.id]);
            },
          ],
        );
        await collecting(steps);
      });
    },
  },
  {
    id: "restricted-keys.record-restrictions-every-write",
    title:
      "a key restricted to record names and types gets 403 key_restricted for any other name or type on every DNS write the target serves (create, update, delete, bulk, change set, template, Variant R), which changes nothing, and may write its own records",
    needs: ["state", "sandbox"],
    operations: ["createSandboxDomain"],
    async run(context) {
      const { api } = context;
      // `empty` takes the template, whose records would conflict with the `www` seeded in `domain`.
      const { allowed: domain, other: empty } = await twoDomains(context, "rk-rec");
      const path = { domain_id: domain.id };
      const name = "_kit-challenge";
      const nameOrType = ["record_names", "record_types"] as const;
      const www = api.has("createDomainDnsRecord")
        ? (await setUp(api, "createDomainDnsRecord", { path, body: { type: "A", name: "www", content: "192.0.2.10" } })).id
        : null;
      const wwwR = api.has("createDnsRecord")
        ? (await setUp(api, "createDnsRecord", { body: { domain_id: domain.id, type: "TXT", name: "owner", value: "kept" } })).id
        : null;
      await withKeys(context, async (keys) => {
        const key = await keys.make("records", { scopes: ["dns:write"], restrictions: { record_names: [name], record_types: ["TXT"] } });
        const others = async () =>
          api.has("listDomainDnsRecords") ? zoneLines((await zoneOf(context, domain.id)).filter((r) => r.name !== name)) : [];
        const before = await others();
        const refuse = (
          operationId: string,
          input: CallInput,
          restriction: (typeof nameOrType)[number] | typeof nameOrType,
          why: string,
        ): [string, () => Promise<void>] => [
          `${operationId}: ${why}`,
          async () => expectKeyRestricted(await callWith(context, key, operationId, input), restriction as never, why),
        ];
        const steps: Array<[string, () => Promise<void>]> = [];
        if (api.has("createDomainDnsRecord")) {
          steps.push(
            refuse("createDomainDnsRecord", { path, body: { type: "TXT", name: "other", content: "x" } }, "record_names", "another name"),
            refuse("createDomainDnsRecord", { path, body: { type: "A", name, content: "192.0.2.1" } }, "record_types", "another type"),
            refuse(
              "updateDomainDnsRecord",
              { path: { ...path, record_id: www! }, body: { content: "192.0.2.66" } },
              [...nameOrType],
              "a record of another name and type",
            ),
            refuse("deleteDomainDnsRecord", { path: { ...path, record_id: www! } }, [...nameOrType], "a record of another name and type"),
            refuse(
              "applyDnsTemplate",
              { path: { domain_id: empty.id }, body: { template_id: "web-host", variables: { ip: "192.0.2.30" } } },
              [...nameOrType],
              "a template's A records",
            ),
            ["the domain the template was refused for, read back", async () => expect(await zoneOf(context, empty.id)).toEqual([])],
          );
          if (api.has("applyDnsChangeSet"))
            steps.push(
              refuse(
                "applyDnsChangeSet",
                { path, body: { deletes: [{ name: "www", type: "A" }], creates: [{ type: "TXT", name, content: "x" }] } },
                [...nameOrType],
                "a delete of another record set beside an allowed create",
              ),
              refuse(
                "applyDnsChangeSet",
                { path, body: { updates: [{ id: www!, content: "192.0.2.67" }] } },
                [...nameOrType],
                "an update of another record",
              ),
              refuse(
                "applyDnsChangeSet",
                { path, body: { creates: [{ type: "TXT", name: "other", content: "x" }] } },
                "record_names",
                "a create of another name",
              ),
            );
          if (api.has("bulkCreateDomainDnsRecords"))
            steps.push([
              "bulkCreateDomainDnsRecords: another name beside an allowed record",
              async () => {
                const result = await callWith(context, key, "bulkCreateDomainDnsRecords", {
                  path,
                  body: {
                    records: [
                      { type: "TXT", name, content: "bulk allowed" },
                      { type: "TXT", name: "bulk-other", content: "x" },
                      { type: "CNAME", name, content: "example.net" },
                    ],
                  },
                });
                // Refused whole, or the two records outside the key refused one by one: never created.
                if (result.status === 200) {
                  expectConforming(result);
                  expect(result.body.errors.map((e: { index: number }) => e.index).sort()).toEqual([1, 2]);
                } else expectKeyRestricted(result, [...nameOrType], "records outside the key");
              },
            ]);
        }
        const zoneImport = zoneImportOperation(context);
        if (zoneImport)
          steps.push([
            `${zoneImport}: a zone file with a record outside the key beside an allowed one`,
            async () => {
              const zone_file = `$ORIGIN ${domain.name}.\n$TTL 300\n${name} IN TXT "imported"\nzone-other IN TXT "x"\n`;
              const result = await callWith(context, key, zoneImport, { path, body: { zone_file, mode: "merge" } });
              // Refused whole: 403, or the import's 422 with the line outside the key refused for it.
              if (result.status === 422) {
                expectConforming(result);
                const refused = (result.body.details?.lines ?? []).filter((line: { action: string }) => line.action === "refuse");
                expect(refused.map((line: { name: string; code: string }) => `${line.name} ${line.code}`)).toEqual([
                  "zone-other key_restricted",
                ]);
              } else expectKeyRestricted(result, "record_names", "a zone file line outside the key");
            },
          ]);
        if (api.has("createDnsRecord"))
          steps.push(
            refuse(
              "createDnsRecord",
              { body: { domain_id: domain.id, type: "TXT", name: "other", value: "x" } },
              "record_names",
              "another name (Variant R)",
            ),
            refuse(
              "createDnsRecord",
              { body: { domain_id: domain.id, type: "A", name, value: "192.0.2.1" } },
              "record_types",
              "another type (Variant R)",
            ),
            refuse(
              "updateDnsRecord",
              { path: { id: wwwR! }, body: { value: "taken" } },
              "record_names",
              "a record of another name (Variant R)",
            ),
            refuse("deleteDnsRecord", { path: { id: wwwR! } }, "record_names", "a record of another name (Variant R)"),
          );
        steps.push(["the records outside the key, read back by the owner", async () => expect(await others()).toEqual(before)]);
        if (api.has("createDomainDnsRecord") && api.has("applyDnsChangeSet"))
          steps.push([
            "the key's own record: created, updated, deleted",
            async () => {
              const created = await callWith(context, key, "createDomainDnsRecord", { path, body: { type: "TXT", name, content: "mine" } });
              expectAnswer(created, 201, { name, type: "TXT" });
              const recordPath = { ...path, record_id: created.body.id };
              const listed = await callWith(context, key, "listDomainDnsRecords", { path, query: { limit: 100 } });
              expectAnswer(listed, 200, undefined, "the zone listed with the key");
              expect({ listed: listed.body.records.map((r: { name: string; type: string }) => `${r.type} ${r.name}`) }).toEqual({
                listed: expect.arrayContaining([`TXT ${name}`]),
              });
              expect(listed.body.records.filter((r: { name: string; type: string }) => r.name !== name || r.type !== "TXT")).toEqual([]);
              expectAnswer(
                await callWith(context, key, "updateDomainDnsRecord", { path: recordPath, body: { content: "mine, updated" } }),
                200,
              );
              // Renamed out of the key's names: the record after the change is checked too.
              expectKeyRestricted(
                await callWith(context, key, "applyDnsChangeSet", { path, body: { updates: [{ id: created.body.id, name: "escaped" }] } }),
                "record_names",
                "an update renaming the key's record to another name",
              );
              expectStatus(await callWith(context, key, "deleteDomainDnsRecord", { path: recordPath }), 204, "the key's own record");
            },
          ]);
        await collecting(steps);
      });
    },
  },
  {
    id: "restricted-keys.acme-challenge-key",
    title:
      "a key for the _acme-challenge TXT records of one domain creates and deletes the challenge record and is refused everything else: other names, types, domains, users, webhooks and key operations",
    needs: ["state", "sandbox"],
    operations: ["createSandboxDomain"],
    async run(context) {
      const { api } = context;
      const { user, allowed: domain, other } = await twoDomains(context, "rk-acme");
      const path = { domain_id: domain.id };
      await withKeys(context, async (keys) => {
        const key = await keys.make("acme", {
          scopes: ["dns:write"],
          restrictions: { domains: [domain.name], record_names: ["_acme-challenge"], record_types: ["TXT"] },
        });
        const before = await domainView(context, domain.id);
        const challenge = { type: "TXT", name: "_acme-challenge", content: "gfj9Xq...Rg85nM" };
        const steps: Array<[string, () => Promise<void>]> = [];
        if (api.has("createDomainDnsRecord"))
          steps.push([
            "the challenge record, set and removed (Variant D)",
            async () => {
              const created = await callWith(context, key, "createDomainDnsRecord", { path, body: challenge });
              expectAnswer(created, 201, challenge);
              expectStatus(await callWith(context, key, "deleteDomainDnsRecord", { path: { ...path, record_id: created.body.id } }), 204);
            },
          ]);
        if (api.has("createDnsRecord"))
          steps.push([
            "the challenge record, set and removed (Variant R)",
            async () => {
              const created = await callWith(context, key, "createDnsRecord", {
                body: { domain_id: domain.id, type: "TXT", name: "_acme-challenge", value: "r-token" },
              });
              expectAnswer(created, 201);
              expectStatus(await callWith(context, key, "deleteDnsRecord", { path: { id: created.body.id } }), 204);
            },
          ]);
        const restricted: Array<[string, CallInput, Parameters<typeof expectKeyRestricted>[1]]> = [
          ["createDomainDnsRecord", { path, body: { ...challenge, name: "www" } }, "record_names"],
          ["createDomainDnsRecord", { path, body: { ...challenge, name: "_acme-challenge.www" } }, "record_names"],
          ["createDomainDnsRecord", { path, body: { type: "A", name: "_acme-challenge", content: "192.0.2.1" } }, "record_types"],
          ["createDomainDnsRecord", { path: { domain_id: other.id }, body: challenge }, "domains"],
          [
            "applyDnsTemplate",
            { path, body: { template_id: "web-host", variables: { ip: "192.0.2.30" } } },
            ["record_names", "record_types"],
          ],
          ["createDnsRecord", { body: { domain_id: other.id, type: "TXT", name: "_acme-challenge", value: "x" } }, "domains"],
          ["createDnsRecord", { body: { domain_id: domain.id, type: "TXT", name: "www", value: "x" } }, "record_names"],
        ];
        for (const [operationId, input, restriction] of restricted)
          if (api.has(operationId))
            steps.push([
              `${operationId} ${JSON.stringify(input.body)}`,
              async () => expectKeyRestricted(await callWith(context, key, operationId, input), restriction, "outside the challenge"),
            ]);
        const scoped: Array<[string, CallInput, string]> = [
          ["listUsers", {}, "users:read"],
          ["getUser", { path: { user_identifier: user } }, "users:read"],
          ["updateDomain", { path, body: { auto_renew: false } }, "domains:write"],
          ["setDomainNameservers", { path, body: { nameservers: ["ns1.acme-grab.net", "ns2.acme-grab.net"] } }, "domains:write"],
          ["createWebhookEndpoint", { body: { url: "https://hooks.contract-run.invalid/acme" } }, "webhooks:write"],
          ["listEvents", {}, "events:read"],
        ];
        for (const [operationId, input, scope] of scoped)
          if (api.has(operationId))
            steps.push([
              operationId,
              async () => expectInsufficientScope(await callWith(context, key, operationId, input), scope, "the challenge key"),
            ]);
        steps.push(
          [
            "key operations",
            async () => {
              expectInsufficientScope(await callWith(context, key, keys.ids.list!), FULL_KEYS_ONLY, "the challenge key listing keys");
              expectInsufficientScope(
                await callWith(context, key, keys.ids.create!, { body: { name: "escalate", scopes: ["users:write"] } }),
                FULL_KEYS_ONLY,
                "the challenge key making a key",
              );
            },
          ],
          ["the domain and its records, read back by the owner", async () => expect(await domainView(context, domain.id)).toEqual(before)],
        );
        await collecting(steps);
      });
    },
  },
  {
    id: "restricted-keys.client-addresses",
    title:
      "a key limited to client address ranges the kit is not in gets 403 key_restricted (client_ips); one whose ranges hold the kit's address is admitted",
    needs: needsState,
    async run(context) {
      const host = new URL(context.target.baseUrl).hostname;
      // The kit knows its own address only towards a target on this machine: loopback.
      if (!["127.0.0.1", "localhost", "[::1]"].includes(host))
        context.notApplicable(`the kit cannot tell the address ${host} sees it from (it knows it only for a target on loopback)`);
      await withKeys(context, async (keys) => {
        const elsewhere = await keys.make("elsewhere", {
          scopes: ["users:read"],
          restrictions: { client_ips: ["192.0.2.0/24", "2001:db8::/32"] },
        });
        const here = await keys.make("here", {
          scopes: ["users:read"],
          restrictions: { client_ips: ["203.0.113.7", "127.0.0.0/8", "::1"] },
        });
        expectKeyRestricted(
          await callWith(context, elsewhere, "listUsers", { query: { limit: 1 } }),
          "client_ips",
          "from loopback, outside the ranges",
        );
        expectAnswer(
          await callWith(context, here, "listUsers", { query: { limit: 1 } }),
          200,
          undefined,
          "from loopback, inside the ranges",
        );
      });
    },
  },
  {
    id: "restricted-keys.revoked-on-next-request",
    title: "a key revoked with the full key is refused 401 unauthorized on the very next request",
    needs: needsState,
    async run(context) {
      await withKeys(context, async (keys) => {
        const key = await keys.make("revoked", { scopes: ["users:read"] });
        expectAnswer(await callWith(context, key, "listUsers", { query: { limit: 1 } }), 200, undefined, "before the revocation");
        await keys.revoke(key);
        expectKeyEnded(await callWith(context, key, "listUsers", { query: { limit: 1 } }), "the request after the revocation");
      });
    },
  },
  {
    id: "restricted-keys.expiry-and-roll",
    title:
      "a key is admitted until its expires_at and refused 401 after; a rolled key's successor keeps its scopes and restrictions, and the old key ends when its grace does",
    needs: ["state", "sandbox"],
    operations: ["createSandboxDomain"],
    async run(context) {
      const { api } = context;
      const { allowed, other } = await twoDomains(context, "rk-roll");
      await withKeys(context, async (keys) => {
        const roll = keys.ids.roll ?? context.notApplicable("the target serves no POST /api/v1/api_keys/{key_id}/roll");
        // Seconds, not less: the expiry travels as whole seconds, and the requests before it must land in time.
        const lifetime = 3;
        const offset = await targetClockOffset(context);
        const expiring = await keys.make("expiring", { scopes: ["users:read"], expires_at: secondsFromNow(lifetime, offset) });
        const original = await keys.make("rolled", { scopes: ["domains:read"], restrictions: { domains: [allowed.name] } });
        const rolled = await api.call(roll, { path: { key_id: original.id }, body: { grace_seconds: lifetime } });
        expectAnswer(rolled, [200, 201], { scopes: ["domains:read"], restrictions: original.answered.restrictions }, "rolling the key");
        const successor: KitKey = { id: rolled.body.id, secret: rolled.body.secret, grant: original.grant, answered: rolled.body };
        keys.adopt(successor);
        expect(successor.secret).not.toBe(original.secret);
        const admitted = (key: KitKey, why: string) => async () =>
          expectAnswer(await callWith(context, key, "getDomain", { path: { domain_id: allowed.id } }), 200, undefined, why);
        const list = (key: KitKey) => () => callWith(context, key, "listUsers", { query: { limit: 1 } });
        const steps: Array<[string, () => Promise<void>]> = [
          ["the expiring key, before its expiry", async () => expectAnswer(await list(expiring)(), 200)],
          ["the old key, within its grace", admitted(original, "the old key within its grace")],
          ["the successor", admitted(successor, "the successor")],
          [
            "the successor keeps the restrictions",
            async () =>
              expectKeyRestricted(
                await callWith(context, successor, "getDomain", { path: { domain_id: other.id } }),
                "domains",
                "another domain",
              ),
          ],
          [
            "the successor keeps the scopes",
            async () => expectInsufficientScope(await list(successor)(), "users:read", "a users operation"),
          ],
        ];
        const ended = (result: CallResult) => result.status === 401;
        const margin = 5_000;
        steps.push(
          [
            "the expiring key, after its expiry",
            async () =>
              expectKeyEnded(await callUntil(list(expiring), ended, lifetime * 1000 + margin), `after ${lifetime} s and ${margin} ms more`),
          ],
          [
            "the old key, after its grace",
            async () =>
              expectKeyEnded(
                await callUntil(
                  () => callWith(context, original, "getDomain", { path: { domain_id: allowed.id } }),
                  ended,
                  lifetime * 1000 + margin,
                ),
                "after the grace",
              ),
          ],
          ["the successor, after the old key's grace", admitted(successor, "the successor after the grace")],
        );
        await collecting(steps);
      });
    },
  },
]);

/**
 * What a fuzzer such as Schemathesis checks of any API, checked here against this one: no 5xx for
 * anything sent, the documented response headers present and well-formed, valid input beyond the
 * examples accepted, a created resource readable at once, a deleted one gone everywhere.
 * docs/conformance-mutants.md maps each of Schemathesis's checks to the kit's.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallInput, CallResult, OperationRef } from "../contract-client.js";
import { RECEIVER_URL } from "../fixtures.js";
import { expectAnswer, expectConforming } from "./expectations.js";
import { collectFailures, headerProblems, resolved, scenarioCalls, type DocumentNode } from "./robustness-support.js";

/** Inputs no client library would send but any client may: each must get an answer below 500. */
const ODD_PATH_VALUES = ["x".repeat(300), "ü-ñ-日本 %"];
const ODD_QUERY_VALUES = ["abc", "-1", "99999999999999999999"];
const ODD_BODIES = ["{", "null", "[]", `{"a":${"[".repeat(200)}${"]".repeat(200)}}`];

function queryParameters(context: CheckContext, op: OperationRef): Array<{ name: string; schema: DocumentNode }> {
  const document = context.target.document;
  return ((op.operation.parameters ?? []) as unknown[])
    .map((parameter) => resolved(document, parameter))
    .filter((parameter): parameter is DocumentNode => parameter?.in === "query")
    .map((parameter) => ({ name: parameter.name as string, schema: resolved(document, parameter.schema) ?? {} }));
}

function bodyProperty(context: CheckContext, operationId: string, property: string): DocumentNode {
  const document = context.target.document;
  const body = resolved(document, context.api.operation(operationId).operation.requestBody?.content?.["application/json"]?.schema);
  const found = resolved(document, body?.properties?.[property]);
  // `allOf: [one]` wraps a shared schema to describe it in place.
  const schema = found?.allOf?.length === 1 ? resolved(document, found.allOf[0]) : found;
  if (!schema) throw new Error(`${operationId}'s body has no ${property} in the document`);
  return schema;
}

/** The values of the subscribable event types, from the document. */
function eventTypes(context: CheckContext): string[] {
  return resolved(context.target.document, context.target.document.components.schemas.WebhookEventTypeSubscribable)?.enum ?? [];
}

/** Fails unless `result` is a conforming 2xx: valid input is accepted. */
function expectAccepted(result: CallResult, what: string): void {
  if (result.status < 200 || result.status > 299)
    throw new Error(
      `${result.label} with ${what}: answered ${result.status} ${JSON.stringify(result.body)?.slice(0, 300)}, where the input is valid`,
    );
  expectConforming(result);
}

/** A user identifier of exactly `length` characters, within the pattern, unique to this check. */
const identifierOfLength = (stem: string, length: number) => (stem.replaceAll("-", "_") + "x".repeat(length)).slice(0, length);

export default defineChecks([
  {
    id: "robustness.no-server-error",
    title:
      "no request gets a 5xx: odd path values, odd query values and malformed bodies on every operation, and everything else the run sent",
    async run(context) {
      const { api, target } = context;
      const failures: string[] = [];
      const expectNoServerError = (result: CallResult, what: string) => {
        if (result.status >= 500)
          failures.push(`${result.label} with ${what}: ${result.status} ${JSON.stringify(result.body)?.slice(0, 200)}`);
      };
      for await (const { op, input } of scenarioCalls(context)) {
        for (const name of Object.keys(input.path ?? {}))
          for (const value of ODD_PATH_VALUES)
            expectNoServerError(
              await api.call(op.operationId, { ...input, path: { ...input.path, [name]: value } }),
              `${name}=${JSON.stringify(value)}`,
            );
        for (const { name } of queryParameters(context, op))
          for (const value of ODD_QUERY_VALUES)
            expectNoServerError(
              await api.call(op.operationId, { ...input, query: { ...input.query, [name]: value } }),
              `?${name}=${JSON.stringify(value)}`,
            );
        // Prism's proxy answers a body that is not JSON itself (stoplightio/prism#1827), and its mock
        // never answers one: a stateless target is a mock, whose robustness is not the contract's.
        if (op.operation.requestBody && !target.throughPrismProxy && !target.stateless)
          for (const body of ODD_BODIES)
            expectNoServerError(await api.call(op.operationId, { ...input, rawBody: body }), `the body ${body.slice(0, 20)}`);
      }
      // Whatever any other check sent before this one, in this run.
      failures.push(...api.serverErrors.filter((line) => !failures.some((failure) => line.startsWith(failure.split(" with ")[0]!))));
      if (failures.length) throw new Error(`${failures.length} answers were server errors:\n${[...new Set(failures)].join("\n")}`);
    },
  },
  {
    id: "robustness.documented-headers",
    title:
      "every answer carries X-Request-Id (a new one each time), and every documented header it carries is well-formed (integers, ETag, RateLimit-Policy, RateLimit)",
    async run(context) {
      const { api, target } = context;
      const requestIds = new Map<string, string>();
      const check = (op: OperationRef, result: CallResult) => {
        const problems = headerProblems(target.document, op, result);
        const id = result.headers.get("x-request-id");
        // A mock answers the documented example header, the same every time.
        if (id !== null && !target.stateless) {
          const earlier = requestIds.get(id);
          if (earlier) problems.push(`${result.label}: X-Request-Id ${id} was already the id of ${earlier}`);
          requestIds.set(id, result.label);
        }
        if (problems.length) throw new Error(problems.join("\n"));
      };
      await collectFailures(scenarioCalls(context), async ({ op, input }) => {
        // The success answer, an error answer of the same operation (an unknown field), and for an authenticated one the 401.
        check(op, await api.call(op.operationId, input));
        if (op.operation.requestBody)
          check(op, await api.call(op.operationId, { ...input, body: { ...(input.body as object), unknown_field: 1 } }));
        const authenticated = !(Array.isArray(op.operation.security) && op.operation.security.length === 0);
        if (authenticated && !target.throughPrismProxy) check(op, await api.call(op.operationId, { ...input, key: null }));
      });
      const getUser = api.operation("getUser");
      check(getUser, await api.call("getUser", { path: { user_identifier: context.unique("nobody").replaceAll("-", "_") } }));
    },
  },
  {
    id: "robustness.positive-data-accepted",
    title:
      "valid input beyond the examples is accepted with a 2xx: every query bound and enum value, optional fields, bounds of the body's numbers and lengths",
    needs: ["state", "sandbox"],
    operations: ["createSandboxDomain"],
    async run(context) {
      const { api } = context;
      const fixtures = await context.fixtures();
      // Every integer query parameter at its bounds and every value of an enumerated one, on each list the scenarios can call.
      await collectFailures(scenarioCalls(context), async ({ op, input }) => {
        const failures: string[] = [];
        for (const { name, schema } of queryParameters(context, op)) {
          const values: Array<string | number> = [
            ...(schema.type === "integer" ? [schema.minimum, schema.maximum].filter((bound) => typeof bound === "number") : []),
            ...(Array.isArray(schema.enum) ? schema.enum : []),
          ];
          for (const value of values)
            try {
              expectAccepted(await api.call(op.operationId, { ...input, query: { ...input.query, [name]: value } }), `?${name}=${value}`);
            } catch (error) {
              failures.push((error as Error).message);
            }
        }
        if (failures.length) throw new Error(failures.join("\n"));
      });

      const variants: Array<[string, () => Promise<void>]> = [];
      const accepted = async (operationId: string, input: CallInput, what: string) => {
        const result = await api.call(operationId, input);
        expectAccepted(result, what);
        return result.body;
      };
      const userIdentifier = bodyProperty(context, "createUserSession", "user_identifier");
      const locale = bodyProperty(context, "createUserSession", "locale");
      const longUser = identifierOfLength(context.unique("positive"), userIdentifier.maxLength);
      variants.push([
        "a user at the longest identifier, with email and locale",
        () =>
          accepted(
            "createUserSession",
            { body: { user_identifier: longUser, email: "positive@example.com", ...(locale?.example ? { locale: locale.example } : {}) } },
            `user_identifier of ${userIdentifier.maxLength} characters, email and locale`,
          ),
      ]);
      variants.push([
        "an email set to null",
        () => accepted("updateUser", { path: { user_identifier: longUser }, body: { email: null } }, "email null"),
      ]);
      const years = bodyProperty(context, "createSandboxDomain", "years");
      let domainId = "";
      variants.push([
        "a domain of the most years, auto-renew and privacy off",
        async () => {
          const domain = await accepted(
            "createSandboxDomain",
            {
              body: {
                user_identifier: fixtures.user,
                domain_name: `${context.unique("positive")}.com`,
                years: years.maximum,
                auto_renew: false,
                whois_privacy: false,
              },
            },
            `years ${years.maximum}, auto_renew and whois_privacy false`,
          );
          domainId = domain.id;
          await accepted(
            "updateDomain",
            { path: { domain_id: domainId }, body: { auto_renew: true, whois_privacy: true } },
            "both settings",
          );
        },
      ]);
      const ttl = bodyProperty(context, "createDomainDnsRecord", "ttl");
      const priority = bodyProperty(context, "createDomainDnsRecord", "priority");
      if (api.has("createDomainDnsRecord"))
        variants.push([
          "Variant D records at the bounds of ttl and priority, at the apex, with an underscore label and a wildcard",
          async () => {
            const path = { domain_id: domainId };
            await accepted(
              "createDomainDnsRecord",
              { path, body: { type: "A", name: "lowest", content: "192.0.2.1", ttl: ttl.minimum } },
              `ttl ${ttl.minimum}`,
            );
            const highest = await accepted(
              "createDomainDnsRecord",
              { path, body: { type: "AAAA", name: "highest", content: "2001:db8::2", ttl: ttl.maximum } },
              `ttl ${ttl.maximum}`,
            );
            await accepted(
              "createDomainDnsRecord",
              { path, body: { type: "MX", name: "@", content: "mx1.example.com", priority: priority.minimum } },
              `priority ${priority.minimum}`,
            );
            await accepted(
              "createDomainDnsRecord",
              { path, body: { type: "MX", name: "@", content: "mx2.example.com", priority: priority.maximum } },
              `priority ${priority.maximum}`,
            );
            await accepted(
              "createDomainDnsRecord",
              { path, body: { type: "TXT", name: "_dmarc", content: "v=DMARC1; p=none" } },
              "an underscore label",
            );
            await accepted("createDomainDnsRecord", { path, body: { type: "A", name: "*", content: "192.0.2.3" } }, "a wildcard name");
            await accepted(
              "updateDomainDnsRecord",
              { path: { ...path, record_id: highest.id }, body: { ttl: ttl.minimum } },
              `ttl ${ttl.minimum} on update`,
            );
            if (api.has("applyDnsChangeSet"))
              await accepted(
                "applyDnsChangeSet",
                { path, body: { dry_run: true, creates: [{ type: "A", name: "dry", content: "192.0.2.4", ttl: ttl.maximum }] } },
                "dry_run with a create",
              );
          },
        ]);
      if (api.has("createDnsRecord"))
        variants.push([
          "Variant R records at the bounds of ttl and priority",
          async () => {
            const rTtl = bodyProperty(context, "createDnsRecord", "ttl");
            await accepted(
              "createDnsRecord",
              { body: { domain_id: domainId, type: "A", name: "r-lowest", value: "192.0.2.5", ttl: rTtl.minimum } },
              `ttl ${rTtl.minimum}`,
            );
            await accepted(
              "createDnsRecord",
              { body: { domain_id: domainId, type: "A", name: "r-highest", value: "192.0.2.6", ttl: rTtl.maximum } },
              `ttl ${rTtl.maximum}`,
            );
            await accepted(
              "createDnsRecord",
              { body: { domain_id: domainId, type: "MX", name: "r-mail", value: "mx.example.com", priority: priority.maximum } },
              `priority ${priority.maximum}`,
            );
          },
        ]);
      if (api.has("createWebhookEndpoint"))
        variants.push([
          "a webhook endpoint with every event type and the longest description, disabled, its secret rotated at both bounds",
          async () => {
            const description = bodyProperty(context, "createWebhookEndpoint", "description");
            const validFor = bodyProperty(context, "rotateWebhookSecret", "previous_secret_valid_for");
            const endpoint = await accepted(
              "createWebhookEndpoint",
              {
                body: {
                  url: `${RECEIVER_URL}/${context.unique("positive")}`,
                  events: eventTypes(context),
                  description: "d".repeat(description.maxLength),
                },
              },
              `all ${eventTypes(context).length} event types, a description of ${description.maxLength} characters`,
            );
            const path = { endpoint_id: endpoint.id };
            try {
              const now = new Date();
              const stamp = (date: Date) => date.toISOString().replace(/\.\d+Z$/, "Z");
              await accepted(
                "replayWebhookEvents",
                {
                  path,
                  body: { since: stamp(new Date(now.getTime() - 60_000)), until: stamp(now), types: eventTypes(context).slice(0, 1) },
                },
                "since, until and types",
              );
              await accepted(
                "rotateWebhookSecret",
                { path, body: { previous_secret_valid_for: validFor.minimum } },
                `previous_secret_valid_for ${validFor.minimum}`,
              );
              await accepted(
                "rotateWebhookSecret",
                { path, body: { previous_secret_valid_for: validFor.maximum } },
                `previous_secret_valid_for ${validFor.maximum}`,
              );
              // Last: a disabled endpoint may refuse what it would send.
              await accepted(
                "updateWebhookEndpoint",
                { path, body: { enabled: false, description: "" } },
                "enabled false, an empty description",
              );
            } finally {
              await api.call("deleteWebhookEndpoint", { path });
            }
          },
        ]);
      variants.push([
        "a transfer that does not extend the registration",
        () =>
          accepted(
            "initiateTransfer",
            {
              body: {
                domain_name: `${context.unique("positive")}.net`,
                user_identifier: fixtures.user,
                auth_code: "Tq7#vB3m!Lp2",
                extend_registration: false,
              },
            },
            "extend_registration false",
          ),
      ]);
      const seconds = bodyProperty(context, "advanceSandboxClock", "seconds");
      variants.push([
        "the sandbox clock advanced by the least",
        () => accepted("advanceSandboxClock", { body: { seconds: seconds.minimum } }, `seconds ${seconds.minimum}`),
      ]);
      await collectFailures(variants, async ([what, run]) => {
        try {
          await run();
        } catch (error) {
          throw new Error(`${what}: ${(error as Error).message}`);
        }
      });
    },
  },
  {
    id: "robustness.resource-availability",
    title: "what a create answers 201 for is readable at once, as created, and listed",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const user = context.unique("available").replaceAll("-", "_");
      expectAnswer(await api.call("createUserSession", { body: { user_identifier: user, email: "available@example.com" } }), [200, 201]);
      expectAnswer(await api.call("getUser", { path: { user_identifier: user } }), 200, {
        user_identifier: user,
        email: "available@example.com",
      });
      if (api.has("createWebhookEndpoint")) {
        const url = `${RECEIVER_URL}/${context.unique("available")}`;
        const created = await api.call("createWebhookEndpoint", { body: { url, events: ["domain.registered"] } });
        expectAnswer(created, 201);
        try {
          expectAnswer(await api.call("getWebhookEndpoint", { path: { endpoint_id: created.body.id } }), 200, { id: created.body.id, url });
          const listed = await api.call("listWebhookEndpoints");
          expectAnswer(listed, 200);
          expect(listed.body.endpoints.map((endpoint: { id: string }) => endpoint.id)).toContain(created.body.id);
        } finally {
          await api.call("deleteWebhookEndpoint", { path: { endpoint_id: created.body.id } });
        }
      }
    },
  },
  {
    id: "robustness.use-after-free",
    title: "what a delete answered 204 for is gone: its read, update and delete answer 404 not_found, and no list shows it",
    needs: ["state"],
    async run(context) {
      const { api } = context;
      const gone = async (label: string, calls: Array<[string, CallInput]>) => {
        for (const [operationId, input] of calls) {
          const result = await api.call(operationId, input);
          expectConforming(result);
          // Variant R's errors are a list of messages, without a code.
          if (result.status !== 404 || (result.body?.error !== undefined && result.body.error !== "not_found"))
            throw new Error(
              `${label} was deleted, yet ${result.label} answered ${result.status} ${JSON.stringify(result.body)?.slice(0, 200)} (expected 404 not_found)`,
            );
        }
      };
      const user = context.unique("freed").replaceAll("-", "_");
      expectAnswer(await api.call("createUserSession", { body: { user_identifier: user } }), [200, 201]);
      expectAnswer(await api.call("deleteUser", { path: { user_identifier: user } }), 204);
      await gone(`user ${user}`, [
        ["getUser", { path: { user_identifier: user } }],
        ["updateUser", { path: { user_identifier: user }, body: { email: "freed@example.com" } }],
        ["deleteUser", { path: { user_identifier: user } }],
        ["listUserDomains", { path: { user_identifier: user } }],
      ]);
      if (api.has("createWebhookEndpoint")) {
        const created = await api.call("createWebhookEndpoint", { body: { url: `${RECEIVER_URL}/${context.unique("freed")}` } });
        expectAnswer(created, 201);
        const path = { endpoint_id: created.body.id };
        expectAnswer(await api.call("deleteWebhookEndpoint", { path }), 204);
        await gone(`webhook endpoint ${created.body.id}`, [
          ["getWebhookEndpoint", { path }],
          ["updateWebhookEndpoint", { path, body: { enabled: false } }],
          ["deleteWebhookEndpoint", { path }],
        ]);
        const listed = await api.call("listWebhookEndpoints");
        expectAnswer(listed, 200);
        expect(listed.body.endpoints.map((endpoint: { id: string }) => endpoint.id)).not.toContain(created.body.id);
      }
      const fixtures = await context.fixtures();
      if (fixtures.domainId && api.has("createDomainDnsRecord")) {
        const path = { domain_id: fixtures.domainId };
        const record = await api.call("createDomainDnsRecord", {
          path,
          body: { type: "TXT", name: context.unique("freed"), content: "freed" },
        });
        expectAnswer(record, 201);
        const recordPath = { ...path, record_id: record.body.id };
        expectAnswer(await api.call("deleteDomainDnsRecord", { path: recordPath }), 204);
        await gone(`record ${record.body.id}`, [
          ["updateDomainDnsRecord", { path: recordPath, body: { content: "back" } }],
          ["deleteDomainDnsRecord", { path: recordPath }],
        ]);
        const listed = await api.call("listDomainDnsRecords", { path, query: { name: record.body.name } });
        expectAnswer(listed, 200);
        expect(JSON.stringify(listed.body)).not.toContain(record.body.id);
      }
      if (fixtures.domainId && api.has("createDnsRecord")) {
        const record = await api.call("createDnsRecord", {
          body: { domain_id: fixtures.domainId, type: "TXT", name: context.unique("freed-r"), value: "freed" },
        });
        expectAnswer(record, 201);
        const path = { id: record.body.id };
        expectAnswer(await api.call("deleteDnsRecord", { path }), 204);
        await gone(`record ${record.body.id}`, [
          ["getDnsRecord", { path }],
          ["updateDnsRecord", { path, body: { value: "back" } }],
          ["deleteDnsRecord", { path }],
        ]);
      }
    },
  },
]);

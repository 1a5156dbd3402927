import { describe, expect, it } from "vitest";
import { loadDocument, operationsOf, pointer, SchemaValidator } from "../support/openapi-document.js";

const document = loadDocument("full");
const validator = new SchemaValidator(document);
const valid = (schema: string, value: unknown) => validator.schemaErrors(schema, value) === null;

const label = (length: number) => "a".repeat(length);

describe("bounds and formats of the service description are in the schemas", () => {
  it.each([
    ["a", true],
    ["user_12345-A", true],
    [label(255), true],
    [label(256), false],
    ["", false],
    ["user 1", false],
    ["user.1", false],
    ["usér", false],
  ])("user_identifier %j is valid: %s", (value, expected) => {
    expect(valid("UserIdentifier", value)).toBe(expected);
  });

  it.each([
    [{ user_identifier: "u1" }, true],
    [{ user_identifier: "u1", email: "ada@example.com" }, true],
    [{ user_identifier: "u1", email: "not-an-email" }, false],
    [{ email: "ada@example.com" }, false],
    [{ user_identifier: "u1", admin: true }, false],
  ])("session creation body %j is valid: %s", (value, expected) => {
    expect(valid("UserSessionCreate", value)).toBe(expected);
  });

  it.each([
    [59, false],
    [60, true],
    [86400, true],
    [86401, false],
    [300.5, false],
  ])("ttl %j is valid: %s", (value, expected) => {
    expect(valid("DnsTtl", value)).toBe(expected);
  });

  it("defaults ttl to 3600 in Variant R and 300 in Variant D", () => {
    const schemas = document.components.schemas;
    expect(schemas.DnsRecordRCreate.properties.ttl.default).toBe(3600);
    expect(schemas.DnsRecordDCreate.properties.ttl.default).toBe(300);
  });

  it.each([
    ["@", true],
    ["www", true],
    ["mail.eu", true],
    ["_dmarc", true],
    ["_sip._tcp", true],
    ["*.shop", true],
    [label(63), true],
    [label(64), false],
    [[label(63), label(63), label(63), label(61)].join("."), true], // 253 characters
    [[label(63), label(63), label(63), label(62)].join("."), false], // 254 characters
    ["", false],
    ["-www", false],
    ["www-", false],
    ["a..b", false],
    ["www.", false],
    ["w_w", false],
    ["www.*", false],
    ["wéb", false],
    ["a b", false],
  ])("record name %j is valid: %s", (value, expected) => {
    expect(valid("DnsRecordName", value)).toBe(expected);
  });

  it.each([
    [{ years: 0 }, false],
    [{ years: 1 }, true],
    [{ years: 10 }, true],
    [{ years: 11 }, false],
    [{ years: "2" }, false],
    [{}, false],
  ])("renewal %j is valid: %s", (value, expected) => {
    expect(valid("DomainRenew", value)).toBe(expected);
  });

  const record = { type: "A", name: "www", content: "203.0.113.10" };
  it.each([
    [0, false],
    [1, true],
    [100, true],
    [101, false],
  ])("a bulk request of %i records is valid: %s", (count, expected) => {
    expect(valid("DnsRecordBulkCreate", { records: Array.from({ length: count }, () => record) })).toBe(expected);
  });

  it.each([
    [{ ttl: 600 }, true],
    [{ content: "203.0.113.20", priority: 5 }, true],
    [{}, false],
    [{ type: "A" }, false],
    [{ ttl: 600, type: "AAAA" }, false],
  ])("Variant D update %j is valid: %s (type cannot change)", (value, expected) => {
    expect(valid("DnsRecordDUpdate", value)).toBe(expected);
  });

  it("lists the record, domain and transfer states of the description", () => {
    // The description's seven, then the additions of 1.1.0 (CHANGELOG.md).
    expect(document.components.schemas.DnsRecordType.enum).toEqual([
      "A",
      "AAAA",
      "CNAME",
      "MX",
      "TXT",
      "SRV",
      "NS",
      "CAA",
      "ALIAS",
      "HTTPS",
      "SVCB",
      "TLSA",
    ]);
    expect(document.components.schemas.DomainStatus.enum).toEqual(["active", "pending", "expired", "suspended"]);
    expect(document.components.schemas.TransferStatusValue.enum).toEqual(["pending", "in_progress", "completed", "failed", "cancelled"]);
  });

  it.each([
    ["12.99", true],
    ["0.00", true],
    ["1200.50", true],
    ["12.9", false],
    ["012.00", false],
    ["-1.00", false],
    ["12", false],
  ])("money amount %j is valid: %s", (value, expected) => {
    expect(valid("Money", value)).toBe(expected);
  });

  it("nulls price and currency only where the description says so", () => {
    const unavailable = { domain_name: "example.com", available: false, price: null, currency: null, premium: false, suggestions: [] };
    expect(valid("Availability", unavailable)).toBe(true);
    expect(
      valid("Tld", {
        tld: "com",
        registration_price: null,
        renewal_price: "1.00",
        transfer_price: "1.00",
        currency: "USD",
        available: true,
      }),
    ).toBe(false);
  });

  it("bounds the user list query: limit 1..100 default 50, offset from 0, sort and order enums", () => {
    const parameters = Object.fromEntries(
      document.paths["/api/v1/users"].get.parameters.map((p: { name: string; schema: object }) => [p.name, p.schema]),
    );
    expect(parameters.limit).toMatchObject({ minimum: 1, maximum: 100, default: 50 });
    expect(parameters.offset).toMatchObject({ minimum: 0, maximum: 2_147_483_647, default: 0 });
    expect(parameters.sort).toMatchObject({ enum: ["created_at", "last_login", "domain_count"], default: "created_at" });
    expect(parameters.order).toMatchObject({ enum: ["asc", "desc"], default: "desc" });
  });

  it("bounds every integer parameter on both sides, so no number the validator reads can be unbounded", () => {
    const resolve = (parameter: { $ref?: string }) =>
      parameter.$ref ? document.components.parameters[parameter.$ref.split("/").pop()!] : parameter;
    const unbounded: string[] = [];
    for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
      const operations = Object.values(item).filter((value) => typeof value === "object" && value !== null && "responses" in value);
      for (const parameter of [...(item.parameters ?? []), ...operations.flatMap((op) => op.parameters ?? [])].map(resolve)) {
        if (parameter.schema?.type !== "integer") continue;
        if (parameter.schema.minimum === undefined || parameter.schema.maximum === undefined) unbounded.push(`${path} ${parameter.name}`);
      }
    }
    expect(unbounded).toEqual([]);
  });

  it.each([
    [`sha256=${"a".repeat(64)}`, true],
    [`sha256=${"a".repeat(64)}, sha256=${"b".repeat(64)}`, true],
    ["a".repeat(64), false],
    [`sha256=${"A".repeat(64)}`, false],
    [`sha1=${"a".repeat(40)}`, false],
  ])("webhook signature header %j is valid: %s", (value, expected) => {
    expect(validator.errorsAt(pointer("components", "parameters", "WebhookSignature", "schema"), value) === null).toBe(expected);
  });
});

describe("responses of every operation", () => {
  const operations = operationsOf(document).filter((entry) => entry.location === "paths");
  const recordCentric = (path: string) => path.startsWith("/api/v1/dns_records");
  const resolve = (response: Record<string, any>) =>
    response.$ref ? document.components.responses[response.$ref.split("/").pop()] : response;
  const allowedStatuses = ["200", "201", "204", "400", "401", "403", "404", "409", "412", "413", "415", "422", "429", "500", "503"];

  it.each(operations.map((entry) => [`${entry.method.toUpperCase()} ${entry.path}`, entry] as const))(
    "%s documents its statuses, error shapes and rate-limit headers",
    (_name, { path, operation }) => {
      const responses = operation.responses as Record<string, any>;
      expect(Object.keys(responses).filter((status) => !allowedStatuses.includes(status))).toEqual([]);
      expect(responses["500"]).toBeDefined();
      // Any operation may find the database out of reach, GET /health included (a load balancer drains the instance).
      expect(responses["503"]?.$ref).toBe("#/components/responses/ServiceUnavailable");
      expect(Object.keys(resolve(responses["503"]).headers)).toContain("Retry-After");
      const authenticated = !(Array.isArray(operation.security) && operation.security.length === 0);
      if (!authenticated) return;
      expect(responses["401"]).toBeDefined();
      expect(responses["429"]).toBeDefined();
      if (operation.requestBody) {
        for (const status of ["400", "413", "415", "422"]) expect(responses[status], status).toBeDefined();
      }
      if (path.includes("{domain_id}") || path.includes("{id}") || path.includes("{transfer_id}")) {
        expect(responses["403"]).toBeDefined();
        expect(responses["404"]).toBeDefined();
      }
      for (const [status, response] of Object.entries(responses)) {
        const resolved = resolve(response);
        const schemaRef = resolved.content?.["application/json"]?.schema?.$ref as string | undefined;
        if (Number(status) >= 400) {
          const listShape = recordCentric(path) && ["400", "403", "404", "409", "422"].includes(status);
          const ownShapes: Record<string, string> = {
            "412": "PreconditionFailedError",
            "429": "RateLimitError",
            "503": "ServiceUnavailableError",
          };
          // A refused change set names each failing operation (details.errors), a refused zone file each line (details.lines).
          const refusedAsAWhole: Record<string, string> = { applyDnsChangeSet: "DnsChangeSetError", importDomainZone: "ZoneImportError" };
          const wholeShape = status === "422" ? refusedAsAWhole[operation.operationId] : undefined;
          const expected = wholeShape ?? ownShapes[status] ?? (listShape ? "ErrorList" : "Error");
          expect(schemaRef, `${status} shape`).toBe(`#/components/schemas/${expected}`);
        }
        // Refused before counting (401) or not counted at all (500, 503): no rate-limit headers are promised.
        if (status !== "401" && status !== "500" && status !== "503") {
          expect(Object.keys(resolved.headers ?? {}), `${status} headers`).toEqual(
            expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
          );
        }
      }
      expect(Object.keys(resolve(responses["429"]).headers)).toContain("Retry-After");
      // A 412 names the current entity tag, and only writes guarded by If-Match answer one: those
      // of a resource, and the zone file import, a POST that replaces the zone it was exported from.
      if (responses["412"]) {
        expect(Object.keys(resolve(responses["412"]).headers)).toContain("ETag");
        const guarded = operation.operationId === "importDomainZone" ? ["post"] : ["put", "patch", "delete"];
        expect(guarded).toContain(Object.keys(document.paths[path]).find((method) => document.paths[path][method] === operation));
      }
    },
  );

  it("requires limit, window and retry_after on every 429", () => {
    expect(valid("RateLimitError", { error: "rate_limit_exceeded", message: "slow down" })).toBe(false);
    expect(
      valid("RateLimitError", { error: "rate_limit_exceeded", message: "slow down", details: { limit: 100, window: 60, retry_after: 3 } }),
    ).toBe(true);
  });

  it("carries the description's rate-limit table", () => {
    expect(document["x-rate-limits"]).toEqual({
      overall: [
        { limit: 1000, window: 3600 },
        { limit: 100, window: 60 },
      ],
      classes: {
        user_creation: { limit: 100, window: 60 },
        user_retrieval: { limit: 1000, window: 60 },
        user_update: { limit: 60, window: 60 },
        user_deletion: { limit: 30, window: 60 },
        dns_retrieval: { limit: 1000, window: 60 },
        dns_creation: { limit: 300, window: 60 },
        dns_update: { limit: 300, window: 60 },
        dns_deletion: { limit: 300, window: 60 },
        dns_bulk: { limit: 60, window: 60 },
        domain_retrieval: { limit: 1000, window: 60 },
        domain_update: { limit: 60, window: 60 },
        domain_transfer: { limit: 10, window: 60 },
        availability: { limit: 500, window: 60 },
      },
    });
  });

  it("authenticates everything with a bearer key except GET /health, against a sandbox and a production server", () => {
    expect(document.security).toEqual([{ bearerAuth: [] }]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.paths["/health"].get.security).toEqual([]);
    expect(document.servers.map((server: { url: string }) => server.url)).toEqual([
      "http://127.0.0.1:3000",
      "{sandbox_base_url}",
      "{base_url}",
    ]);
  });
});

describe("template variables", () => {
  it("are bounded in number by the template with the most variables", () => {
    const most = Math.max(
      ...Object.values<{ variables: object }>(document["x-dns-templates"]).map((template) => Object.keys(template.variables).length),
    );
    expect(document.components.schemas.DnsTemplateApply.properties.variables.maxProperties).toBe(most);
    const variables = Object.fromEntries(Array.from({ length: most + 1 }, (_, index) => [`v${index}`, "x"]));
    expect(valid("DnsTemplateApply", { template_id: "spf-dmarc", variables })).toBe(false);
  });
});

describe("operations", () => {
  it("each have a description beside their summary", () => {
    const bare = operationsOf(document).filter(({ location, operation }) => location === "paths" && !operation.description);
    expect(bare.map(({ operation }) => operation.operationId)).toEqual([]);
  });

  it("give each path parameter an example (redocly.yaml's no-invalid-parameter-examples checks it against its schema)", () => {
    for (const { path, operation } of operationsOf(document)) {
      const parameters = [...(document.paths[path]?.parameters ?? []), ...(operation.parameters ?? [])].map(
        (parameter: { $ref?: string }) => (parameter.$ref ? document.components.parameters[parameter.$ref.split("/").at(-1)!] : parameter),
      );
      for (const parameter of parameters.filter((candidate: { in: string }) => candidate.in === "path")) {
        expect(parameter.example, `${path} ${parameter.name}`).toBeDefined();
      }
    }
  });
});

describe("webhook events", () => {
  const union = document.components.schemas.WebhookEvent;
  const members: string[] = union.oneOf.map(({ $ref }: { $ref: string }) => $ref);
  /** The event types a member's own part (beside WebhookEventBase) narrows `type` to. */
  const typesOf = (member: string): string[] =>
    document.components.schemas[member.split("/").pop()!].allOf.find((part: { properties?: object }) => part.properties).properties.type
      .enum;
  /** The member each event type belongs to, by the members' own `type` enums (the union has no discriminator). */
  const memberOfType = new Map(members.flatMap((member) => typesOf(member).map((type) => [type, member] as const)));

  it("are one union, WebhookEvent, whose members' type enums give every event type to exactly one event's schema", () => {
    const events = operationsOf(document).filter(({ location }) => location === "x-webhooks");
    expect(members.flatMap(typesOf).sort()).toEqual(document.components.schemas.EventType.enum.slice().sort());
    for (const { path, operation } of events) {
      expect(memberOfType.get(path), path).toBe(operation.requestBody.content["application/json"].schema.$ref);
    }
  });

  it("match exactly one member of the union each, the one their type belongs to", () => {
    for (const { path, operation } of operationsOf(document).filter(({ location }) => location === "x-webhooks")) {
      const example = operation.requestBody.content["application/json"].example;
      expect(validator.schemaErrors("WebhookEvent", example), path).toBeNull();
      for (const member of members) {
        const matches = validator.errorsAt(member, example) === null;
        expect(matches, `${path} as ${member}`).toBe(member === memberOfType.get(path));
      }
    }
  });
});

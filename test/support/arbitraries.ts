/**
 * fast-check arbitraries for property-based tests over HTTP: values drawn from the published
 * document's schemas (well-typed), the same values broken in one place (ill-typed), random JSON,
 * odd path segments and query strings. Values that depend on what a run sets up (ids of domains,
 * records...) are placeholders, resolved when the request is built, so counterexamples stay
 * readable and independent of the ids of one run.
 */
import fc from "fast-check";
import { dnsTemplates } from "../../generated/operations.js";
import type { OpenApiDocument } from "./openapi-document.js";

type Schema = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// Placeholders

export const FIXTURE_NAMES = [
  "user",
  "domainId",
  "domainName",
  "recordId",
  "transferId",
  "endpointId",
  "deliveryId",
  "otherUser",
  "otherDomainId",
  "otherDomainName",
  "otherRecordId",
  "otherTransferId",
  "otherEndpointId",
  "otherDeliveryId",
] as const;

export type FixtureName = (typeof FIXTURE_NAMES)[number];

/** What a run has set up: partner A's objects, and partner B's ("other") that A must not reach. */
export type Fixtures = Record<FixtureName, string>;

/** A value known only once a run has set up its objects. */
abstract class Placeholder implements fc.WithToStringMethod {
  abstract resolve(fixtures: Fixtures): string;
  abstract [fc.toStringMethod](): string;
}

/** The id or name of an object a run sets up. */
export class FixtureRef extends Placeholder {
  constructor(readonly name: FixtureName) {
    super();
  }
  resolve(fixtures: Fixtures): string {
    return fixtures[this.name];
  }
  [fc.toStringMethod](): string {
    return `fixtures.${this.name}`;
  }
}

/** A long string, printed short in counterexamples. */
export class Repeat extends Placeholder {
  constructor(
    readonly unit: string,
    readonly times: number,
  ) {
    super();
  }
  resolve(): string {
    return this.unit.repeat(this.times);
  }
  [fc.toStringMethod](): string {
    return `${JSON.stringify(this.unit)}.repeat(${this.times})`;
  }
}

/** A path segment or query part sent exactly as written (already percent-encoded, or deliberately not). */
export class Raw extends Placeholder {
  constructor(readonly text: string | Repeat) {
    super();
  }
  resolve(): string {
    return typeof this.text === "string" ? this.text : this.text.resolve();
  }
  [fc.toStringMethod](): string {
    return `raw(${typeof this.text === "string" ? JSON.stringify(this.text) : this.text[fc.toStringMethod]()})`;
  }
}

const isPlaceholder = (value: unknown): value is Placeholder => value instanceof Placeholder;

/** Defines an own property, even `__proto__`, without going through setters. */
export function defineOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, configurable: true, writable: true });
}

const isObjectNode = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !isPlaceholder(value);

/** Replaces placeholders by their values; own `__proto__` keys stay own keys. */
export function resolvePlaceholders(value: unknown, fixtures: Fixtures): unknown {
  if (isPlaceholder(value)) return value.resolve(fixtures);
  if (Array.isArray(value)) return value.map((item) => resolvePlaceholders(item, fixtures));
  if (isObjectNode(value)) {
    const copy = {};
    for (const key of Object.keys(value)) defineOwn(copy, key, resolvePlaceholders(value[key], fixtures));
    return copy;
  }
  return value;
}

// ---------------------------------------------------------------------------------------------
// Strings

/** Names that reach Object.prototype when used as keys of a plain object. */
export const PROTOTYPE_NAMES = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "isPrototypeOf",
] as const;

/** Keys of prototype pollution payloads. */
export const HOSTILE_KEYS = ["__proto__", "constructor", "prototype"] as const;

const ODD_STRINGS = [
  "",
  " ",
  "  padded  ",
  "\u0000",
  "a\u0000b",
  "\n",
  "\r\n",
  "\t",
  "%",
  "%00",
  "%2F",
  "/",
  "\\",
  "..",
  "../../etc/passwd",
  "'",
  '"',
  "<script>alert(1)</script>",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as written
  "${7*7}",
  "%s%n",
  "null",
  "undefined",
  "NaN",
  "-1",
  "0",
  "true",
  "[]",
  "{}",
  "\u202eevil",
  "\ufeffbom",
  "e\u0301",
  "\u00e9",
  "\ud834\udd1e",
  "\ud800",
  "\udc00x",
  "\uffff",
  "b\u00fccher.de",
  "xn--",
  "A",
];

/** Strings a careless handler trips on: control characters, lone surrogates, prototype names, markup. */
export const oddString: fc.Arbitrary<string> = fc.constantFrom(...ODD_STRINGS, ...PROTOTYPE_NAMES);

/** Long strings, placeholders so counterexamples stay short. */
export const longString: fc.Arbitrary<Repeat> = fc
  .tuple(fc.constantFrom("x", "\u00e9", "\ud83d\ude00", "%"), fc.constantFrom(256, 4_097, 70_000))
  .map(([unit, times]) => new Repeat(unit, times));

/** Any string, well-formed or not. */
export const anyString: fc.Arbitrary<string | Repeat> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 12 }) },
  { weight: 3, arbitrary: oddString },
  { weight: 1, arbitrary: longString },
);

/** Percent-encodes every byte but the unreserved ones; lone surrogates become U+FFFD as in UTF-8. */
export function percentEncode(text: string): string {
  let out = "";
  for (const byte of Buffer.from(text, "utf8")) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Domain-specific values

/** Mostly TLDs the catalogue sells (.uk is not transferable), some it does not. */
const TLDS = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom("com", "net", "org", "io", "dev", "app", "de", "uk") },
  { weight: 1, arbitrary: fc.constantFrom("xyz", "invalid", "c0m") },
);

const label = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,12}[a-z0-9])?$/) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "taken-one",
      "reserved-x",
      "premium-gold",
      "xn--bcher-kva",
      "b\u00fccher",
      "ab",
      "a--b",
      "-bad",
      "UPPER",
      "example",
      "moving",
    ),
  },
  // Names IDNA2008 refuses, in Unicode and as A-labels (emoji, a snowman, a middle dot out of context).
  { weight: 1, arbitrary: fc.constantFrom("\u{1F600}", "xn--e28h", "\u2603", "xn--n3h", "a\u00b7b") },
);

/** Domain names: mostly second-level names under sold TLDs, some that the catalogue refuses. */
export const domainName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(label, TLDS).map(([name, tld]) => `${name}.${tld}`) },
  { weight: 1, arbitrary: fc.tuple(label, label, TLDS).map(([sub, name, tld]) => `${sub}.${name}.${tld}`) },
  { weight: 1, arbitrary: fc.tuple(label, TLDS).map(([name, tld]) => ` ${name.toUpperCase()}.${tld}. `) },
  { weight: 1, arbitrary: fc.domain() },
);

export const hostName: fc.Arbitrary<string> = fc.oneof(
  domainName,
  fc.constantFrom("mail.example.com", "example.com.", "@", "_sip._tcp.example.com"),
);

/** Webhook receiver addresses: public names, loopback (allowed in the sandbox), private ranges (refused). */
export const webhookUrl: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.webUrl({ validSchemes: ["https", "http"], withQueryParameters: true, withFragments: true }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "https://hooks.example.com/partner",
      "http://127.0.0.1:9/hooks",
      "http://[::1]:9/hooks",
      "http://localhost/hooks",
      "http://10.0.0.1/hooks",
      "http://169.254.169.254/latest/meta-data",
      "http://[::ffff:10.0.0.1]/",
      "http://0.0.0.0/",
      "https://user:pass@hooks.example.com/",
      "https://hooks.example.com:99999/",
      "https://",
      "http://%zz/",
      "ftp://hooks.example.com/",
      "javascript:alert(1)",
    ),
  },
);

/** Record contents of every type's form, and some of none. */
export const dnsContent: fc.Arbitrary<string> = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.ipV4Extended(),
  hostName,
  fc.constantFrom("v=spf1 include:_spf.example.com ~all", '"quoted" text', "10 mail.example.com", "0 5 5060 sip.example.com", "1.2.3"),
  // Other spellings of one value, and addresses no AAAA may hold.
  fc.constantFrom(
    "2001:0DB8:0:0:0:0:0:1",
    "fe80::1%eth0",
    "::ffff:c000:201",
    "::192.0.2.1",
    '"a"   "b"',
    '"hello"',
    " 10  60 5060 SIP.example.com. ",
  ),
  fc.string({ maxLength: 40 }),
);

const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/**
 * RFC 3339 date-times in their many spellings: lower-case separators, a space for the T, leap
 * seconds, offsets with and without a colon, long fractions; mostly within a few years of the
 * test servers' clock (2026-11-22), some far away.
 */
export const dateTimeString: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc
      .integer({ min: -400 * 86_400, max: 12 * 366 * 86_400 })
      .map((seconds) => new Date(Date.parse("2026-11-22T10:00:00Z") + seconds * 1000).toISOString()),
  },
  {
    weight: 3,
    arbitrary: fc
      .record({
        year: fc.oneof(fc.integer({ min: 2026, max: 2037 }), fc.constantFrom(1969, 2026, 2099, 9999)),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
        time: fc.oneof(
          fc.tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), fc.integer({ min: 0, max: 59 })),
          fc.tuple(fc.constant(23), fc.constant(59), fc.constantFrom(59, 60)),
        ),
        fraction: fc.constantFrom("", ".5", ".123", ".123456789"),
        separator: fc.constantFrom("T", "T", "t", " "),
        zone: fc.constantFrom("Z", "Z", "z", "+00:00", "-00:00", "+01:00", "-05:30", "+14:00", "+0100", "+01", "+23:59"),
      })
      .map(
        ({ year, month, day, time: [hour, minute, second], fraction, separator, zone }) =>
          `${pad(year, 4)}-${pad(month)}-${pad(day)}${separator}${pad(hour)}:${pad(minute)}:${pad(second)}${fraction}${zone}`,
      ),
  },
);

const recordName = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.constantFrom("@", "www", "api", "mail", "_dmarc", "*", "*.dev", "blog.shop", "_sip._tcp", "xn--bcher-kva", "WWW"),
  },
  // Valid on its own (242 characters), too long with any domain: the full name is bounded (RFC 1035).
  { weight: 1, arbitrary: fc.constant(["x".repeat(63), "y".repeat(63), "z".repeat(63), "w".repeat(50)].join(".")) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/) },
);
const ttl = fc.option(fc.oneof(fc.integer({ min: 60, max: 86_400 }), fc.constantFrom(60, 300, 3_600, 86_400)), { nil: undefined });
const port = fc.integer({ min: 0, max: 65_535 });
const txt = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("v=spf1 -all", "y".repeat(255), "t".repeat(256), '"quoted"', '"two"   "strings"', '""'),
);

/** A record whose content has its type's form (Variant D's terms), so that creations get through. */
const coherentRecord = fc.oneof(
  fc.record({ type: fc.constant("A"), name: recordName, content: fc.ipV4(), ttl }, { requiredKeys: ["type", "name", "content"] }),
  fc.record({ type: fc.constant("AAAA"), name: recordName, content: fc.ipV6(), ttl }, { requiredKeys: ["type", "name", "content"] }),
  fc.record({ type: fc.constant("CNAME"), name: recordName, content: domainName, ttl }, { requiredKeys: ["type", "name", "content"] }),
  fc.record(
    { type: fc.constant("MX"), name: recordName, content: domainName, ttl, priority: port },
    { requiredKeys: ["type", "name", "content", "priority"] },
  ),
  fc.record({ type: fc.constant("TXT"), name: recordName, content: txt, ttl }, { requiredKeys: ["type", "name", "content"] }),
  fc.record({ type: fc.constant("NS"), name: recordName, content: domainName, ttl }, { requiredKeys: ["type", "name", "content"] }),
  fc
    .record({
      name: fc.constantFrom("_sip._tcp", "_xmpp._tcp", "@"),
      priority: port,
      weight: port,
      port,
      target: domainName,
      ttl,
      withPriority: fc.boolean(),
    })
    .map(({ priority, weight, port: number, target, withPriority, ...rest }) => ({
      type: "SRV",
      ...rest,
      content: `${priority} ${weight} ${number} ${target}`,
      ...(withPriority ? { priority } : {}),
    })),
);

/** The same record in Variant R's terms: value, and SRV's parts as fields. */
const coherentRecordR = coherentRecord.map(({ content, priority, ...rest }: Record<string, any>) => {
  if (rest.type !== "SRV") return { ...rest, value: content, ...(priority === undefined ? {} : { priority }) };
  const [first, weight, number, target] = (content as string).split(" ");
  return { ...rest, value: target, priority: Number(first), weight: Number(weight), port: Number(number), target };
});

const dropUndefined = (value: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined));
const someOf = (record: Record<string, unknown>) =>
  fc.subarray(Object.keys(record), { minLength: 1 }).map((keys) => Object.fromEntries(keys.map((key) => [key, record[key]])));

/** Values of the catalogue's template variables, each of its own form. */
const TEMPLATE_VARIABLE_VALUES: Record<string, fc.Arbitrary<string>> = {
  ip: fc.ipV4(),
  mx_host: domainName,
  github_user: fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,15}$/),
  report_email: fc
    .tuple(fc.stringMatching(/^[a-z0-9]{1,8}(?:[._+-][a-z0-9]{1,8}){0,2}$/), domainName)
    .map(([local, domain]) => `${local}@${domain}`),
  policy: fc.constantFrom("none", "quarantine", "reject", "monitor"),
  spf_include: fc
    .constantFrom("mx", "a", "include:", "ip4:192.0.2.0/24 include:")
    .chain((mechanisms) => (mechanisms.endsWith(":") ? domainName.map((domain) => `${mechanisms}${domain}`) : fc.constant(mechanisms))),
};

/** A template of the catalogue with its variables: the required ones, some optional ones, rarely one it does not have. */
const templateApplication = fc.constantFrom(...(Object.keys(dnsTemplates) as Array<keyof typeof dnsTemplates>)).chain((id) => {
  const specs = dnsTemplates[id].variables as Record<string, { required: boolean }>;
  const model = Object.fromEntries(
    Object.keys(specs).map((name) => [name, TEMPLATE_VARIABLE_VALUES[name] ?? fc.string({ minLength: 1, maxLength: 12 })]),
  );
  const required = Object.keys(specs).filter((name) => specs[name]!.required);
  const variables = fc.record(model, { requiredKeys: required, noNullPrototype: true });
  const extra = fc.oneof(
    { weight: 6, arbitrary: fc.constant(null) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(...Object.keys(TEMPLATE_VARIABLE_VALUES), "unknown_variable"),
        fc.string({ minLength: 1, maxLength: 8 }),
      ),
    },
  );
  return fc.tuple(variables, extra, fc.boolean()).map(([given, more, omitEmpty]) => {
    const all = more ? { ...given, [more[0]]: more[1] } : given;
    return Object.keys(all).length === 0 && omitEmpty ? { template_id: id } : { template_id: id, variables: all };
  });
});

// ---------------------------------------------------------------------------------------------
// Values from schemas

/** Arbitraries for properties and parameters by name, given the schema's own arbitrary. */
export type Hints = Record<string, (fromSchema: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>>;

const ref = (...names: FixtureName[]) => fc.constantFrom(...names.map((name) => new FixtureRef(name)));

/** Lean towards the objects a run set up, so that requests reach the handlers' logic. */
export const FIXTURE_HINTS: Hints = {
  user_identifier: (own) =>
    fc.oneof({ weight: 5, arbitrary: ref("user") }, { weight: 1, arbitrary: ref("otherUser") }, { weight: 2, arbitrary: own }),
  domain_id: (own) =>
    fc.oneof({ weight: 5, arbitrary: ref("domainId") }, { weight: 1, arbitrary: ref("otherDomainId") }, { weight: 1, arbitrary: own }),
  domain_name: (own) =>
    fc.oneof(
      { weight: 1, arbitrary: ref("domainName", "otherDomainName") },
      { weight: 5, arbitrary: domainName },
      { weight: 1, arbitrary: own },
    ),
  transfer_id: (own) =>
    fc.oneof({ weight: 5, arbitrary: ref("transferId") }, { weight: 1, arbitrary: ref("otherTransferId") }, { weight: 1, arbitrary: own }),
  endpoint_id: (own) =>
    fc.oneof({ weight: 5, arbitrary: ref("endpointId") }, { weight: 1, arbitrary: ref("otherEndpointId") }, { weight: 1, arbitrary: own }),
  delivery_id: (own) =>
    fc.oneof({ weight: 5, arbitrary: ref("deliveryId") }, { weight: 1, arbitrary: ref("otherDeliveryId") }, { weight: 1, arbitrary: own }),
  id: (own) =>
    fc.oneof({ weight: 5, arbitrary: ref("recordId") }, { weight: 1, arbitrary: ref("otherRecordId") }, { weight: 1, arbitrary: own }),
  record_id: (own) =>
    fc.oneof({ weight: 5, arbitrary: ref("recordId") }, { weight: 1, arbitrary: ref("otherRecordId") }, { weight: 1, arbitrary: own }),
  url: (own) => fc.oneof({ weight: 3, arbitrary: webhookUrl }, { weight: 1, arbitrary: own }),
  content: (own) => fc.oneof({ weight: 3, arbitrary: dnsContent }, { weight: 1, arbitrary: own }),
  value: (own) => fc.oneof({ weight: 3, arbitrary: dnsContent }, { weight: 1, arbitrary: own }),
  target: (own) => fc.oneof({ weight: 3, arbitrary: hostName }, { weight: 1, arbitrary: own }),
  auth_code: (own) =>
    fc.oneof(
      { weight: 1, arbitrary: fc.constantFrom("sandbox-fail", "sandbox-cancel", "sandbox-cancel-in-progress") },
      { weight: 3, arbitrary: own },
    ),
  seconds: (own) => fc.oneof({ weight: 2, arbitrary: fc.integer({ min: 1, max: 400 * 86_400 }) }, { weight: 1, arbitrary: own }),
  to: () => dateTimeString,
};

/** Arbitraries for whole values of a component schema, given the schema's own arbitrary. */
export const SCHEMA_HINTS: Hints = {
  DnsRecordDCreate: (own) => fc.oneof({ weight: 3, arbitrary: coherentRecord.map(dropUndefined) }, { weight: 1, arbitrary: own }),
  DnsRecordDUpdate: (own) =>
    fc.oneof(
      { weight: 3, arbitrary: coherentRecord.chain(({ type: _type, ...rest }: Record<string, unknown>) => someOf(dropUndefined(rest))) },
      { weight: 1, arbitrary: own },
    ),
  DnsRecordRCreate: (own) =>
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .tuple(ref("domainId", "domainId", "domainId", "otherDomainId"), coherentRecordR)
          .map(([domain_id, record]) => dropUndefined({ domain_id, ...record })),
      },
      { weight: 1, arbitrary: own },
    ),
  DnsRecordRUpdate: (own) =>
    fc.oneof({ weight: 3, arbitrary: coherentRecordR.chain((record) => someOf(dropUndefined(record))) }, { weight: 1, arbitrary: own }),
  DnsTemplateApply: (own) => fc.oneof({ weight: 3, arbitrary: templateApplication }, { weight: 1, arbitrary: own }),
};

/** Whether a string meets a schema's length bounds (in code points, as JSON Schema counts). */
const fitsLength = (schema: Schema) => (text: string) => {
  const length = [...text].length;
  return length >= (schema.minLength ?? 0) && length <= (schema.maxLength ?? Infinity);
};

/** Arbitraries of schema-valid values, read from the published document. */
export class SchemaValues {
  private readonly cache = new Map<Schema, fc.Arbitrary<unknown>>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly hints: Hints = FIXTURE_HINTS,
    private readonly schemaHints: Hints = SCHEMA_HINTS,
  ) {}

  /** Follows `$ref` and merges `allOf`. */
  resolve(schema: Schema): Schema {
    if (schema.$ref)
      return this.resolve(
        schema.$ref
          .split("/")
          .slice(1)
          .reduce((node: any, key: string) => node[key.replaceAll("~1", "/").replaceAll("~0", "~")], this.document),
      );
    if (schema.allOf) {
      const { allOf, ...own } = schema;
      const parts: Schema[] = [...allOf.map((part: Schema) => this.resolve(part)), own];
      const merged: Schema = Object.assign({}, ...parts);
      if (parts.some((part) => part.properties)) merged.properties = Object.assign({}, ...parts.map((part) => part.properties ?? {}));
      if (parts.some((part) => part.required)) merged.required = parts.flatMap((part) => part.required ?? []);
      return merged;
    }
    return schema;
  }

  /** The schema of the value at a path inside a value of the schema, if it has one. */
  schemaAt(schema: Schema, path: ReadonlyArray<string | number>): Schema | undefined {
    let current: Schema | undefined = this.resolve(schema);
    for (const step of path) {
      if (!current) return undefined;
      const next: Schema | undefined =
        typeof step === "number"
          ? current.items
          : (current.properties?.[step] ?? (typeof current.additionalProperties === "object" ? current.additionalProperties : undefined));
      current = next && this.resolve(next);
    }
    return current;
  }

  /** A valid value of the schema; `name` is the property or parameter it is for (see the hints). */
  valid(schema: Schema, name?: string): fc.Arbitrary<unknown> {
    const resolved = this.resolve(schema);
    let own = this.ofSchema(resolved);
    const schemaHint = typeof schema.$ref === "string" ? this.schemaHints[schema.$ref.split("/").pop()!] : undefined;
    if (schemaHint) own = schemaHint(own);
    const hint = name === undefined ? undefined : this.hints[name];
    return hint ? hint(own) : own;
  }

  private ofSchema(schema: Schema): fc.Arbitrary<unknown> {
    let arbitrary = this.cache.get(schema);
    if (!arbitrary) {
      arbitrary = this.build(schema);
      if (schema.nullable) arbitrary = fc.option(arbitrary, { nil: null, freq: 6 });
      this.cache.set(schema, arbitrary);
    }
    return arbitrary;
  }

  private build(schema: Schema): fc.Arbitrary<unknown> {
    if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
    switch (schema.type) {
      case "string":
        return this.string(schema);
      case "integer": {
        const min = schema.minimum ?? -1_000_000;
        const max = schema.maximum ?? 1_000_000;
        return fc.oneof({ weight: 4, arbitrary: fc.integer({ min, max }) }, { weight: 1, arbitrary: fc.constantFrom(min, max) });
      }
      case "number":
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum ?? -1e9, max: schema.maximum ?? 1e9 });
      case "boolean":
        return fc.boolean();
      case "array": {
        const items = this.valid(schema.items ?? {});
        const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) };
        return schema.uniqueItems
          ? fc.uniqueArray(items, { ...constraints, selector: (item) => JSON.stringify(item) })
          : fc.array(items, constraints);
      }
      case "object":
      case undefined:
        return schema.properties || schema.additionalProperties ? this.object(schema) : fc.jsonValue({ maxDepth: 2 });
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private string(schema: Schema): fc.Arbitrary<unknown> {
    const fits = fitsLength(schema);
    switch (schema.format) {
      case "email":
        return fc.emailAddress().filter(fits);
      case "uri":
        return webhookUrl.filter(fits);
      case "date-time":
        return dateTimeString;
    }
    if (schema.pattern) {
      const pattern = new RegExp(schema.pattern);
      const matching = fc.stringMatching(pattern).filter(fits);
      const prototypeNames = PROTOTYPE_NAMES.filter((name) => pattern.test(name) && fits(name));
      return prototypeNames.length > 0
        ? fc.oneof({ weight: 6, arbitrary: matching }, { weight: 1, arbitrary: fc.constantFrom(...prototypeNames) })
        : matching;
    }
    const min = schema.minLength ?? 0;
    const max = schema.maxLength ?? 10_000;
    const options: Array<fc.WeightedArbitrary<unknown>> = [
      { weight: 6, arbitrary: fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 24)) }) },
      { weight: 2, arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: Math.min(max, Math.max(min, 12)) }).filter(fits) },
      { weight: 1, arbitrary: fc.constant(max <= 5_000 ? "y".repeat(max) : new Repeat("y", max)) },
    ];
    const odd = [...ODD_STRINGS, ...PROTOTYPE_NAMES].filter(fits);
    if (odd.length > 0) options.push({ weight: 2, arbitrary: fc.constantFrom(...odd) });
    return fc.oneof(...options);
  }

  private object(schema: Schema): fc.Arbitrary<unknown> {
    const properties: Record<string, Schema> = schema.properties ?? {};
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) model[name] = this.valid(property, name);
    const required: string[] = schema.required ?? [];
    let arbitrary: fc.Arbitrary<Record<string, unknown>> = fc.record(model, {
      requiredKeys: required,
      noNullPrototype: true,
    }) as fc.Arbitrary<Record<string, unknown>>;
    if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
      const extra = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), this.valid(schema.additionalProperties), {
        maxKeys: 2,
        noNullPrototype: true,
      });
      arbitrary = fc.tuple(arbitrary, extra).map(([known, more]) => ({ ...more, ...known }));
    }
    const minProperties = schema.minProperties ?? 0;
    const maxProperties = schema.maxProperties ?? Infinity;
    if (minProperties > 0 || maxProperties < Infinity) {
      arbitrary = arbitrary.filter((value) => Object.keys(value).length >= minProperties && Object.keys(value).length <= maxProperties);
    }
    return arbitrary;
  }
}

// ---------------------------------------------------------------------------------------------
// Breaking a valid value in one place

export type Path = Array<string | number>;

interface Node {
  path: Path;
  value: unknown;
}

/** Every node of a JSON value, the root first. */
export function nodesOf(value: unknown, path: Path = []): Node[] {
  const nodes: Node[] = [{ path, value }];
  if (Array.isArray(value)) value.forEach((item, index) => nodes.push(...nodesOf(item, [...path, index])));
  else if (isObjectNode(value)) for (const key of Object.keys(value)) nodes.push(...nodesOf(value[key], [...path, key]));
  return nodes;
}

/** A copy of the value with the node at the path replaced (or removed, with `remove`). */
export function updateAt(value: unknown, path: Path, replace: (node: unknown) => unknown): unknown {
  if (path.length === 0) return replace(value);
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? updateAt(item, rest, replace) : item));
  if (isObjectNode(value)) {
    const copy = {};
    for (const key of Object.keys(value)) defineOwn(copy, key, key === head ? updateAt(value[key], rest, replace) : value[key]);
    return copy;
  }
  return value;
}

/** The object with one more own key (any name, `__proto__` included), or that key replaced. */
export function withKey(object: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = {};
  for (const existing of Object.keys(object)) if (existing !== key) defineOwn(copy, existing, object[existing]);
  defineOwn(copy, key, value);
  return copy as Record<string, unknown>;
}

export function withoutKey(object: Record<string, unknown>, key: string): Record<string, unknown> {
  const copy = {};
  for (const existing of Object.keys(object)) if (existing !== key) defineOwn(copy, existing, object[existing]);
  return copy as Record<string, unknown>;
}

const jsonType = (value: unknown) =>
  value === null ? "null" : Array.isArray(value) ? "array" : isPlaceholder(value) ? "string" : typeof value;

/** A JSON value of another type than the given one. */
export function otherTypeThan(value: unknown): fc.Arbitrary<unknown> {
  return fc
    .oneof(
      fc.constant(null),
      fc.boolean(),
      fc.integer({ min: -5, max: 5 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.constantFrom("1", "true", "null", ""),
      fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2, noNullPrototype: true }),
    )
    .filter((other) => jsonType(other) !== jsonType(value));
}

/** Payloads that would pollute Object.prototype if merged carelessly. */
export const pollutingValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant({ polluted: "yes" }),
  fc.constant({ prototype: { polluted: "yes" } }),
  fc.constant({ toString: "polluted" }),
  fc.constant("polluted"),
  fc.jsonValue({ maxDepth: 1 }),
);

const outOfRangeNumber = fc.constantFrom(-1, 0, 1.5, -0.5, 2 ** 31, 2 ** 53 + 2, 1e21, -1e21, 1e308, Number.MIN_VALUE);

/** The valid value broken in exactly one place: a wrong type, an extra or hostile key, a removed key, an odd string or number. */
export function brokenOnce(valid: unknown): fc.Arbitrary<unknown> {
  const nodes = nodesOf(valid);
  const inner = nodes.filter((node) => node.path.length > 0);
  const objects = nodes.filter((node) => isObjectNode(node.value));
  const withKeys = objects.filter((node) => Object.keys(node.value as object).length > 0);
  const strings = inner.filter((node) => typeof node.value === "string" || isPlaceholder(node.value));
  const numbers = inner.filter((node) => typeof node.value === "number");
  const options: Array<fc.Arbitrary<unknown>> = [
    fc.constantFrom(...nodes).chain((node) => otherTypeThan(node.value).map((other) => updateAt(valid, node.path, () => other))),
  ];
  if (objects.length > 0) {
    const key = fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_KEYS, ...PROTOTYPE_NAMES) },
      { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
    );
    options.push(
      fc
        .tuple(fc.constantFrom(...objects), key, pollutingValue)
        .map(([node, name, value]) => updateAt(valid, node.path, (object) => withKey(object as Record<string, unknown>, name, value))),
    );
  }
  if (withKeys.length > 0) {
    options.push(
      fc
        .constantFrom(...withKeys)
        .chain((node) =>
          fc
            .constantFrom(...Object.keys(node.value as object))
            .map((name) => updateAt(valid, node.path, (object) => withoutKey(object as Record<string, unknown>, name))),
        ),
    );
  }
  if (strings.length > 0)
    options.push(fc.tuple(fc.constantFrom(...strings), anyString).map(([node, text]) => updateAt(valid, node.path, () => text)));
  if (numbers.length > 0)
    options.push(fc.tuple(fc.constantFrom(...numbers), outOfRangeNumber).map(([node, number]) => updateAt(valid, node.path, () => number)));
  return fc.oneof(...options);
}

/** Replaces one string of the value by a prototype name; `skip` leaves some out (an enum's, which could only be refused). */
export function withPrototypeName(valid: unknown, skip: (path: Path) => boolean = () => false): fc.Arbitrary<unknown> | null {
  const strings = nodesOf(valid).filter((node) => (typeof node.value === "string" || node.value instanceof FixtureRef) && !skip(node.path));
  if (strings.length === 0) return null;
  return fc
    .tuple(fc.constantFrom(...strings), fc.constantFrom(...PROTOTYPE_NAMES))
    .map(([node, name]) => updateAt(valid, node.path, () => name));
}

// ---------------------------------------------------------------------------------------------
// Path segments and query strings

/** Path segments that routers and decoders trip on: encoded slashes, dot segments, bad escapes, NULs, other routes' words. */
export const oddSegment: fc.Arbitrary<Raw> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .constantFrom(
        "",
        "%00",
        "a%00b",
        "%2F",
        "a%2Fb",
        "%2f..%2f",
        "..",
        ".",
        "%2e%2e",
        "%2E",
        "%",
        "%zz",
        "a%",
        "%E0%A4%A",
        "%C3%28",
        "%FF",
        "%C0%AE%C0%AE",
        "%ED%A0%80",
        "%20",
        "%20%20",
        "+",
        "%09",
        "%0A",
        "%0D%0A",
        "%2520",
        "%25",
        "~",
        "'",
        "%22",
        "%3Cb%3E",
        "%3F",
        "%23",
        "%3B",
        ";x=1",
        ",",
        "*",
        "@",
        ":",
        "$",
        "&",
        "=",
        "%C3%BC",
        "%F0%9F%98%80",
        "%E2%80%AE",
        "%EF%BB%BF",
        "tlds",
        "transfer",
        "transfers",
        "availability",
        "dns",
        "bulk",
        "template",
        "renew",
        "test",
        "deliveries",
        "rotate_secret",
        "status",
        "users",
        "__proto__",
        "constructor",
        "prototype",
        "hasOwnProperty",
      )
      .map((text) => new Raw(text)),
  },
  {
    weight: 2,
    // Long ones stay under Node's 16 KiB limit of the request head, which answers 431 before any application code.
    arbitrary: anyString.map((text) => {
      if (typeof text === "string") return new Raw(percentEncode(text));
      const unit = percentEncode(text.unit);
      return new Raw(new Repeat(unit, Math.min(text.times, Math.floor(7_000 / unit.length))));
    }),
  },
  { weight: 1, arbitrary: fc.constantFrom(64, 65, 253, 254, 256, 2_000, 7_000).map((times) => new Raw(new Repeat("a", times))) },
);

export type QueryPair = [key: string | Raw, value: string | Raw | null];

const ODD_QUERY_KEYS = [
  "foo",
  "__proto__",
  "constructor",
  "prototype",
  "__proto__[polluted]",
  "constructor[prototype][polluted]",
  "toString",
  "a[b]",
  "a[]",
  "",
  "%",
  "%00",
  "q%20q",
  ";",
];
const ODD_QUERY_VALUES = [
  "",
  "abc",
  "1.5",
  "-1",
  "0",
  "1e2",
  "0x10",
  "%201",
  "+1",
  "99999999999999999999",
  "NaN",
  "null",
  "true",
  "[]",
  "%",
  "%00",
  "%zz",
  "a%26b%3Dc",
  "\u00e9",
];

/** A query string's parts: declared parameters valid or not, unknown and repeated ones. */
export function queryPairs(values: SchemaValues, parameters: Schema[], { onlyValid = false } = {}): fc.Arbitrary<QueryPair[]> {
  const declared = parameters.map((parameter) =>
    fc.option(
      onlyValid
        ? values
            .valid(parameter.schema ?? {}, parameter.name)
            .map((value): QueryPair => [parameter.name as string, percentEncode(String(value))])
        : fc
            .oneof(
              { weight: 3, arbitrary: values.valid(parameter.schema ?? {}, parameter.name).map((value) => percentEncode(String(value))) },
              { weight: 1, arbitrary: fc.constantFrom(...ODD_QUERY_VALUES).map((text) => new Raw(text)) },
              { weight: 1, arbitrary: fc.integer({ min: -1_000, max: 1_000_000 }).map(String) },
            )
            .map((value): QueryPair => [parameter.name as string, value]),
      { nil: null, freq: 2 },
    ),
  );
  const names = parameters.map((parameter) => parameter.name as string);
  const extraKey = fc.oneof(
    ...(names.length > 0 ? [fc.constantFrom(...names)] : []),
    fc.constantFrom(...ODD_QUERY_KEYS).map((text) => new Raw(text)),
    fc.string({ minLength: 1, maxLength: 8 }).map(percentEncode),
  );
  const extraValue = fc.oneof(
    fc.constant(null),
    fc.constantFrom(...ODD_QUERY_VALUES).map((text) => new Raw(text)),
    fc.string({ maxLength: 8 }).map(percentEncode),
  );
  const extras = onlyValid
    ? fc.constant([])
    : fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 1, arbitrary: fc.array(fc.tuple(extraKey, extraValue), { minLength: 1, maxLength: 3 }) },
      );
  return fc
    .tuple(fc.tuple(...declared), extras)
    .map(([chosen, more]) => [...chosen.filter((pair): pair is QueryPair => pair !== null), ...(more as QueryPair[])]);
}

/** The query string of the pairs, `?` included, or "". */
export function queryString(pairs: readonly QueryPair[]): string {
  if (pairs.length === 0) return "";
  const text = (part: string | Raw) => (typeof part === "string" ? part : part.resolve());
  return `?${pairs.map(([key, value]) => (value === null ? text(key) : `${text(key)}=${text(value)}`)).join("&")}`;
}

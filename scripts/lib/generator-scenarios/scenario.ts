/**
 * The scenario every generated client runs in `npm run check:generators`, written once against
 * ScenarioClient: each generator's adapter (beside this file) maps its client's calls onto it.
 * This file is copied beside the generated clients and compiled with them, so it imports nothing.
 */

/** An A record to create: the scenario needs no other type to exercise names and entity tags. */
export interface RecordDraft {
  name: string;
  address: string;
}

export interface StoredRecord extends RecordDraft {
  id: string;
  /** The `ETag` of the answer that wrote it. */
  etag: string;
}

/** What a write answered: its status, and the record when it succeeded. */
export interface WriteAnswer {
  status: number;
  record?: StoredRecord;
}

/** One variant's record operations, as that variant's generated client makes them. */
export interface RecordClient {
  create(domainId: string, draft: RecordDraft, idempotencyKey: string): Promise<StoredRecord>;
  /** Sends `If-Match: <ifMatch>`; a refusal resolves with its status. */
  update(domainId: string, record: StoredRecord, address: string, ifMatch: string): Promise<WriteAnswer>;
  /** Sends `If-Match: <record.etag>`; resolves with the status. */
  remove(domainId: string, record: StoredRecord): Promise<number>;
}

export interface SessionAnswer {
  loginUrl: string;
  /** `Idempotent-Replayed`; undefined where the client shows no response headers. */
  replayed: string | null | undefined;
}

export interface ScenarioClient {
  /** The base address the generated client uses unless told another (servers[0].url); undefined where it has none. */
  defaultBaseUrl: string | undefined;
  createUserSession(userIdentifier: string, idempotencyKey: string): Promise<SessionAnswer>;
  isAvailable(domainName: string): Promise<boolean>;
  registerSandboxDomain(userIdentifier: string, domainName: string, idempotencyKey: string): Promise<string>;
  variantR: RecordClient;
  variantD: RecordClient;
  /** The domain's records filtered by `name`, sent as the client sends it (Variant D: Variant R has no record list). */
  recordsNamed(domainId: string, name: string): Promise<Array<{ id: string; name: string }>>;
  /** GET /api/v1/domains/{domain_id} of a domain that does not exist: the status and the typed body's `error`. */
  readMissingDomain(domainId: string): Promise<{ status: number; error: string }>;
  /** Undoes what the adapter changed outside its clients. */
  dispose?(): void;
}

export class ScenarioFailure extends Error {}

function expectEqual<T>(actual: T, expected: T, what: string): void {
  const [a, e] = [JSON.stringify(actual), JSON.stringify(expected)];
  if (a !== e) throw new ScenarioFailure(`${what}: expected ${e}, got ${a}`);
}

const sortedIds = (records: ReadonlyArray<{ id: string }>) => records.map(({ id }) => id).sort();

/** Runs the scenario; `label` keeps this client's users and domains apart from the other clients' on one server. */
export async function runScenario(client: ScenarioClient, label: string): Promise<void> {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
  const user = `matrix_${slug}`;
  const domainName = `${slug}-matrix.dev`;

  if (client.defaultBaseUrl !== undefined && !/^https?:\/\/[^{}]+$/.test(client.defaultBaseUrl))
    throw new ScenarioFailure(`the client's default base address is not an address: ${client.defaultBaseUrl}`);

  const first = await client.createUserSession(user, `${label}-session`);
  const replay = await client.createUserSession(user, `${label}-session`);
  expectEqual(replay.loginUrl, first.loginUrl, "a replayed session's login_url");
  if (replay.replayed !== undefined) expectEqual(replay.replayed, "true", "Idempotent-Replayed of the replay");

  expectEqual(await client.isAvailable(domainName), true, `availability of ${domainName}`);
  const domainId = await client.registerSandboxDomain(user, domainName, `${label}-domain`);

  const records: Array<[RecordClient, StoredRecord]> = [];
  for (const [variant, recordClient, octet] of [
    ["r", client.variantR, 1],
    ["d", client.variantD, 3],
  ] as const) {
    for (const [name, offset] of [
      ["@", 0],
      ["*", 1],
    ] as const) {
      const draft = { name, address: `192.0.2.${octet + offset}` };
      const created = await recordClient.create(domainId, draft, `${label}-${variant}-${name === "@" ? "apex" : "wildcard"}`);
      expectEqual({ name: created.name, address: created.address }, draft, `the ${variant.toUpperCase()} record created at ${name}`);
      records.push([recordClient, created]);
    }
  }
  const named = (name: string) => records.filter(([, record]) => record.name === name).map(([, record]) => record);
  for (const name of ["*", "@"]) {
    expectEqual(sortedIds(await client.recordsNamed(domainId, name)), sortedIds(named(name)), `the records listed with name=${name}`);
  }

  for (const [index, [recordClient, record]] of records.entries()) {
    const address = `198.51.100.${index + 1}`;
    const updated = await recordClient.update(domainId, record, address, record.etag);
    if (!updated.record) throw new ScenarioFailure(`updating ${record.id} with If-Match of its ETag answered ${updated.status}`);
    expectEqual(updated.record.address, address, `${record.id}'s address after the update`);
    const stale = await recordClient.update(domainId, record, `203.0.113.${index + 1}`, record.etag);
    expectEqual(stale.status, 412, `updating ${record.id} with If-Match of an earlier ETag`);
    expectEqual(await recordClient.remove(domainId, updated.record), 204, `deleting ${record.id} with If-Match of its ETag`);
  }
  expectEqual(await client.recordsNamed(domainId, "@"), [], "the records at @ after the deletions");

  expectEqual(await client.readMissingDomain("dom_matrixMissing0000000000"), { status: 404, error: "not_found" }, "a missing domain");
}

/**
 * Causes one event of every type the spec's `x-webhooks` lists (but the test event) through the
 * public API and the sandbox helpers, on data of its own, and says how to recognise each: the
 * events API and the webhook checks both hold what they find against these.
 */
import { expect } from "expect";
import type { CheckContext } from "../check.js";
import type { CallResult } from "../contract-client.js";
import { expectStatus } from "./expectations.js";

/** One write and the event it must emit. */
export interface ExpectedEvent {
  type: string;
  /** What the write was, for messages. */
  cause: string;
  /** Whether `event` is the one this write emitted (by the resource's id). */
  isFrom(event: any): boolean;
  /** Fails unless the event's data shows the resource as the API answered it. */
  expectData(event: any): void;
}

/** The sandbox clock's advance that moves a `sandbox-cancel` transfer to `cancelled` (1 hour, Sandbox tag). */
const TRANSFER_CANCEL_AFTER_S = 3600;

/** How far an event's created_at may be from the partner's clock read right after its write. */
const EVENT_TIME_TOLERANCE_S = 60;

/** Fields of a record both an answer and an event show, whichever variant answered. */
const recordFields = (record: any) => ({
  id: record.id,
  type: record.type,
  name: record.name,
  ttl: record.ttl,
  ...(record.content !== undefined ? { content: record.content } : { content: record.value }),
});

async function must(
  context: CheckContext,
  operationId: string,
  input: Parameters<CheckContext["api"]["call"]>[1],
  status: number,
  why: string,
) {
  const result: CallResult = await context.api.call(operationId, input);
  expectStatus(result, status, why);
  return result.body;
}

/**
 * Makes a user with a sandbox domain and walks it through every event type. Returns what must
 * have been emitted, in the order it happened.
 */
export async function causeEveryEvent(context: CheckContext): Promise<ExpectedEvent[]> {
  const { api } = context;
  const expected: ExpectedEvent[] = [];
  const user = context.unique("events_user").replaceAll("-", "_");
  await must(context, "createUserSession", { body: { user_identifier: user } }, 201, "opening a session for the events' user");

  const registered = await must(
    context,
    "createSandboxDomain",
    { body: { user_identifier: user, domain_name: `${context.unique("events")}.com`, years: 1 } },
    201,
    "registering a sandbox domain",
  );
  const domainId: string = registered.id;
  const ofDomain = (event: any) => event.data?.id === domainId;
  expected.push({
    type: "domain.registered",
    cause: "POST /api/v1/sandbox/domains",
    isFrom: ofDomain,
    expectData: (event) => expect(event.data).toMatchObject({ id: domainId, name: registered.name }),
  });

  const detail = await must(context, "getDomain", { path: { domain_id: domainId } }, 200, "reading the new domain");
  const updated = await must(
    context,
    "updateDomain",
    { path: { domain_id: domainId }, body: { auto_renew: !detail.auto_renew } },
    200,
    "changing auto_renew",
  );
  expected.push({
    type: "domain.updated",
    cause: "PUT /api/v1/domains/{domain_id}",
    isFrom: ofDomain,
    expectData: (event) => expect(event.data).toMatchObject({ id: domainId, auto_renew: updated.auto_renew }),
  });

  const renewed = await must(context, "renewDomain", { path: { domain_id: domainId }, body: { years: 2 } }, 200, "renewing for 2 years");
  expected.push({
    type: "domain.renewed",
    cause: "POST /api/v1/domains/{domain_id}/renew",
    isFrom: ofDomain,
    expectData: (event) => expect(Date.parse(event.data.expires_at)).toBe(Date.parse(renewed.expires_at)),
  });

  const viaD = api.has("createDomainDnsRecord");
  const created = viaD
    ? await must(
        context,
        "createDomainDnsRecord",
        { path: { domain_id: domainId }, body: { type: "TXT", name: "events", content: "v=event-check" } },
        201,
        "creating a record",
      )
    : await must(
        context,
        "createDnsRecord",
        { body: { domain_id: domainId, type: "TXT", name: "events", value: "v=event-check" } },
        201,
        "creating a record",
      );
  const recordId: string = created.id;
  const ofRecord = (event: any) => event.data?.id === recordId;
  const recordEvent = (type: string, cause: string, record: any) =>
    expected.push({
      type,
      cause,
      isFrom: ofRecord,
      expectData: (event) => {
        expect(event.domain_id).toBe(domainId);
        expect(recordFields(event.data)).toEqual(recordFields(record));
      },
    });
  recordEvent("dns_record.created", "creating a DNS record", created);
  const changed = viaD
    ? await must(
        context,
        "updateDomainDnsRecord",
        { path: { domain_id: domainId, record_id: recordId }, body: { ttl: 900 } },
        200,
        "changing the record's ttl",
      )
    : await must(context, "updateDnsRecord", { path: { id: recordId }, body: { ttl: 900 } }, 200, "changing the record's ttl");
  recordEvent("dns_record.updated", "updating a DNS record", changed);
  if (viaD)
    await must(context, "deleteDomainDnsRecord", { path: { domain_id: domainId, record_id: recordId } }, 204, "deleting the record");
  else await must(context, "deleteDnsRecord", { path: { id: recordId } }, 204, "deleting the record");
  recordEvent("dns_record.deleted", "deleting a DNS record", changed);

  await must(context, "setSandboxDomainStatus", { path: { domain_id: domainId }, body: { status: "expired" } }, 200, "expiring the domain");
  expected.push({
    type: "domain.expired",
    cause: "PUT /api/v1/sandbox/domains/{domain_id}/status expired",
    isFrom: ofDomain,
    expectData: (event) => expect(event.data).toMatchObject({ id: domainId, name: registered.name }),
  });

  const transfer = await must(
    context,
    "initiateTransfer",
    { body: { domain_name: `${context.unique("events-transfer")}.com`, user_identifier: user, auth_code: "sandbox-cancel" } },
    201,
    "starting a transfer the sandbox cancels",
  );
  await must(context, "advanceSandboxClock", { body: { seconds: TRANSFER_CANCEL_AFTER_S + 60 } }, 200, "advancing the sandbox clock");
  expected.push({
    type: "transfer.status_changed",
    cause: "a sandbox-cancel transfer, an hour later",
    isFrom: (event) => event.data?.transfer_id === transfer.transfer_id,
    expectData: (event) => {
      expect(event.previous_status).toBe("pending");
      expect(event.data).toMatchObject({ transfer_id: transfer.transfer_id, domain_name: transfer.domain_name, status: "cancelled" });
    },
  });

  if (api.has("deleteUser")) {
    await must(context, "deleteUser", { path: { user_identifier: user } }, 204, "deleting the user");
    const clock = await must(context, "getSandboxClock", {}, 200, "reading the sandbox clock");
    expected.push({
      type: "user.deleted",
      cause: "DELETE /api/v1/users/{user_identifier}",
      isFrom: (event) => event.data?.user_identifier === user,
      expectData: (event) => {
        expect(event.data).toEqual({ user_identifier: user });
        // created_at is on the partner's clock, which the advance above moved ahead of the real one.
        const offBy = Math.abs(Date.parse(event.created_at) - Date.parse(clock.now)) / 1000;
        if (offBy > EVENT_TIME_TOLERANCE_S)
          throw new Error(
            `user.deleted has created_at ${event.created_at}, ${Math.round(offBy)} s from the sandbox clock (${clock.now}) when it happened`,
          );
      },
    });
  }
  return expected;
}

/** The operations `causeEveryEvent` needs besides one of each DNS variant's. */
export const EVENT_CAUSING_OPERATIONS = [
  "createSandboxDomain",
  "getDomain",
  "updateDomain",
  "renewDomain",
  "setSandboxDomainStatus",
  "initiateTransfer",
  "advanceSandboxClock",
  "getSandboxClock",
];

/** The partner's events of `type`, newest first, paged by `limit` to `pages` pages at most. */
export async function eventsOfType(context: CheckContext, type: string, limit = 100, pages = 10): Promise<any[]> {
  const events: any[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < pages; page++) {
    const result: CallResult = await context.api.call("listEvents", { query: cursor ? { type, limit, cursor } : { type, limit } });
    expectStatus(result, 200, "listing events");
    events.push(...result.body.events);
    cursor = result.body.next_cursor;
    if (!cursor) break;
  }
  return events;
}

/** The `data.status` of a domain's events of `type`, oldest first: what its status changes announced. */
export async function announcedStatuses(context: CheckContext, domainId: string, type: string): Promise<string[]> {
  const events = await eventsOfType(context, type, 100, 3);
  return events
    .filter((event) => event.data?.id === domainId)
    .reverse()
    .map((event) => event.data.status);
}

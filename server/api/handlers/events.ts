/** The event history: list and read the events the service emitted, and deliver a range again to an endpoint. */
import type { OperationHandlers } from "../../../generated/handlers.js";
import { partnerOf, type RequestContext } from "../../application/context.js";
import { apiErrors } from "../../platform/errors.js";
import { eventPage } from "../../domain/events/event-pages.js";
import { eventEnvelope } from "../../domain/webhooks/dispatcher.js";
import { endpointOfPartner } from "../../domain/webhooks/endpoint-access.js";

type Handlers = OperationHandlers<RequestContext>;

/** The most events one replay queues: a longer range is refused, to be split. */
export const MAX_REPLAYED_EVENTS = 1000;

export const eventHandlers: Pick<Handlers, "listEvents" | "getEvent" | "replayWebhookEvents"> = {
  listEvents: async ({ query }, context) => {
    const { services } = context;
    const page = await eventPage(services.events, partnerOf(context).id, query);
    const now = services.clock.now();
    return { status: 200, body: { events: page.events.map((event) => eventEnvelope(event, now) as never), next_cursor: page.nextCursor } };
  },

  getEvent: async ({ path }, context) => {
    const { services } = context;
    const event = await services.events.findEvent(partnerOf(context).id, path.event_id);
    if (!event) throw apiErrors.notFound("Event", path.event_id);
    return { status: 200, body: eventEnvelope(event, services.clock.now()) as never };
  },

  replayWebhookEvents: async ({ path, body }, context) => {
    const { services } = context;
    const partner = partnerOf(context);
    const endpoint = await endpointOfPartner(services, partner.id, path.endpoint_id);
    const since = new Date(body.since);
    // Without `until`, everything emitted so far: the events stamped with this very moment too.
    const until = body.until ? new Date(body.until) : new Date(services.clock.now().getTime() + 1);
    if (until <= since) throw apiErrors.invalidValue("until", "out_of_range", "until must be after since");
    // The endpoint's subscriptions, narrowed to the types asked for.
    const subscribed = endpoint.events;
    const types = body.types ? body.types.filter((type) => subscribed === null || subscribed.includes(type)) : subscribed;
    if (types !== null && types.length === 0) return { status: 200, body: { queued: 0 } };
    const events = await services.events.eventsBetween(partner.id, since, until, types, MAX_REPLAYED_EVENTS + 1);
    if (events.length > MAX_REPLAYED_EVENTS)
      throw apiErrors.unprocessable(`The range holds more than ${MAX_REPLAYED_EVENTS} events; split it into shorter ranges`, {
        field: "since",
        code: "too_many_events",
        limit: MAX_REPLAYED_EVENTS,
      });
    for (const event of events) await services.webhooks.dispatcher.queue(endpoint, event, services.webhooks.store);
    return { status: 200, body: { queued: events.length } };
  },
};

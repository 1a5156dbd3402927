/** Event types added after 1.0.0 are opt-in: an endpoint that names no types never gets one (WebhookEndpointCreate, x-opt-in). */
import { describe, expect, it } from "vitest";
import { defaultWebhookEvents, subscribableWebhookEvents } from "../../../../generated/operations.js";
import { loadDocument } from "../../../support/openapi-document.js";
import { endpointTakes, type WebhookEndpointRow } from "../../../../server/domain/webhooks/webhook-store.js";

const endpoint = (events: WebhookEndpointRow["events"]) => ({ enabled: true, events }) as WebhookEndpointRow;

describe("opt-in event types", () => {
  const document = loadDocument("full");
  const optIn = subscribableWebhookEvents.filter((type) => document["x-webhooks"][type].post["x-opt-in"] === true);

  it("are the types added after 1.0.0, left out of what an endpoint naming none receives", () => {
    expect(optIn).toEqual(
      expect.arrayContaining(["domain.nameservers_changed", "domain.connection_changed", "domain.transfer_out.completed"]),
    );
    expect([...defaultWebhookEvents].sort()).toEqual(subscribableWebhookEvents.filter((type) => !optIn.includes(type)).sort());
  });

  it("reach an endpoint only when it names them; the other types reach one that names none", () => {
    expect(endpointTakes(endpoint(null), "domain.updated")).toBe(true);
    expect(endpointTakes(endpoint(null), "domain.connection_changed")).toBe(false);
    expect(endpointTakes(endpoint(["domain.connection_changed"]), "domain.connection_changed")).toBe(true);
    expect(endpointTakes(endpoint(["domain.connection_changed"]), "domain.updated")).toBe(false);
    expect(endpointTakes({ ...endpoint(null), enabled: false }, "domain.updated")).toBe(false);
  });
});

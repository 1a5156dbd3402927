/** Webhook endpoints as the dashboard manages them, delivering to a real receiver on loopback. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { signatureOf } from "../../../server/domain/webhooks/signing.js";
import { visibleText, type DashboardBrowser } from "../../support/dashboard-browser.js";
import { useDashboardTestServer } from "../../support/dashboard-test-server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../../support/webhook-receiver.js";

const server = useDashboardTestServer();
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.stop());
beforeEach(() => {
  receiver.received.length = 0;
  receiver.answerWith(200);
});

const SIGNATURE_HEADER = "partner-signature";
const SECRET = /whsec_[A-Za-z0-9]{32}/;

async function addEndpoint(browser: DashboardBrowser, fields: Record<string, string | string[]> = {}) {
  await browser.get("/webhooks/new");
  const page = await browser.post("/webhooks", { url: receiver.url, description: "Orders", ...fields });
  expect(page.status).toBe(201);
  const id = /href="\/webhooks\/(whe_[A-Za-z0-9]+)\/edit"/.exec(page.text)![1]!;
  return { id, page, secret: SECRET.exec(page.text)![0] };
}

async function deliver() {
  await server.api.services.webhooks.dispatcher.tick();
  await server.api.services.webhooks.dispatcher.idle();
}

describe("webhook endpoints in the dashboard", () => {
  it("are added with the events chosen, the secret shown once, and then sign what they send with it", async () => {
    const browser = await server.signedIn();
    const { id, page, secret } = await addEndpoint(browser, { events: ["user.deleted", "domain.registered"] });
    expect(visibleText(page.text)).toContain("Copy it now");
    const shown = await browser.get(`/webhooks/${id}`);
    expect(shown.text).not.toContain(secret);
    expect(visibleText(shown.text)).toContain("Events user.deleted, domain.registered");
    const api = await server.api.api.GET("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: id } } });
    expect(api.data).toMatchObject({ url: receiver.url, description: "Orders", events: ["user.deleted", "domain.registered"] });
    // The test event is signed with the secret shown.
    await browser.post(`/webhooks/${id}/test`);
    await deliver();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.body.type).toBe("webhook.test");
    const received = receiver.received[0]!;
    expect(String(received.headers[SIGNATURE_HEADER])).toContain(signatureOf(received.rawBody, secret));
  });

  it("show each delivery with its attempts' status and timing, and redeliver one", async () => {
    const browser = await server.signedIn();
    const { id } = await addEndpoint(browser);
    receiver.answerWith(500);
    const tested = await browser.post(`/webhooks/${id}/test`);
    expect(tested.location).toBe(`/webhooks/${id}?done=test`);
    await deliver();
    const failing = visibleText((await browser.get(`/webhooks/${id}`)).text);
    expect(failing).toContain("webhook.test");
    expect(failing).toMatch(/pending HTTP 500, \d+(\.\d)? ms/);
    expect(failing).toMatch(/1 attempt .*: HTTP 500 \(receiver answered 500\), \d+(\.\d)? ms Next attempt/);
    receiver.answerWith(200);
    const delivery = /\/deliveries\/(whd_[A-Za-z0-9]+)\/redeliver/.exec((await browser.get(`/webhooks/${id}`)).text)![1]!;
    expect((await browser.post(`/webhooks/${id}/deliveries/${delivery}/redeliver`)).location).toBe(`/webhooks/${id}?done=redelivered`);
    await deliver();
    const after = visibleText((await browser.get(`/webhooks/${id}`)).text);
    expect(after).toMatch(/succeeded HTTP 200/);
    expect(receiver.received.filter((request) => request.body.type === "webhook.test")).toHaveLength(2);
  });

  it("are edited, disabled and enabled, their secret rotated, and deleted behind a confirmation", async () => {
    const browser = await server.signedIn();
    const { id, secret } = await addEndpoint(browser);
    await browser.get(`/webhooks/${id}/edit`);
    expect(
      (await browser.post(`/webhooks/${id}/edit`, { url: `${receiver.url}/v2`, description: "Orders v2", events: ["user.deleted"] }))
        .location,
    ).toBe(`/webhooks/${id}?done=updated`);
    await browser.post(`/webhooks/${id}/disable`);
    expect(visibleText((await browser.get(`/webhooks/${id}`)).text)).toContain("Status Disabled");
    await browser.post(`/webhooks/${id}/enable`);
    const endpoint = (await server.api.api.GET("/api/v1/webhook_endpoints/{endpoint_id}", { params: { path: { endpoint_id: id } } })).data!;
    expect(endpoint).toMatchObject({ url: `${receiver.url}/v2`, description: "Orders v2", events: ["user.deleted"], status: "enabled" });
    await browser.get(`/webhooks/${id}/rotate`);
    const rotated = await browser.post(`/webhooks/${id}/rotate`, { previous_secret_valid_for: "3600" });
    const fresh = SECRET.exec(rotated.text)![0];
    expect(fresh).not.toBe(secret);
    expect(visibleText(rotated.text)).toContain("Previous secret signs until");
    expect(visibleText((await browser.get(`/webhooks/${id}/delete`)).text)).toContain("Delete this endpoint?");
    expect((await browser.post(`/webhooks/${id}/delete`)).location).toBe("/webhooks?done=deleted");
    expect((await browser.get(`/webhooks/${id}`)).status).toBe(404);
  });

  it("refuse a URL the sender would not send to, beside the field, keeping what was typed", async () => {
    const browser = await server.signedIn();
    await browser.get("/webhooks/new");
    for (const url of ["not a url", "http://169.254.169.254/latest", "ftp://example.com/x"]) {
      const page = await browser.post("/webhooks", { url, description: "x" });
      expect(page.status).toBe(422);
      expect(page.text).toContain('id="url-error"');
      expect(page.text).toContain(`value="${url}"`);
    }
    expect((await server.api.api.GET("/api/v1/webhook_endpoints")).data!.endpoints).toEqual([]);
  });
});

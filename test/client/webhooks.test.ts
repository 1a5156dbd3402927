/**
 * client/webhooks: the verifier against fixed vectors computed outside Node, rotation headers,
 * malformed values, the replay window, and real deliveries of the reference server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createPartnerClient } from "../../client/src/index.js";
import {
  checkReplayWindow,
  hasValidWebhookSignature,
  signWebhookBody,
  verifyWebhookSignature,
  WebhookVerificationError,
  type WebhookRejection,
} from "../../client/src/webhooks.js";
import { PARTNER_A_KEY, useTestServer } from "../support/test-server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.js";

// Vectors computed once with OpenSSL 3.0, independently of Node's crypto:
//   printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"
// BODY_1 comes from a sandbox whose clock was advanced a year: created_at is on that clock, sent_at
// on the real one, which the window compares.
const BODY_1 =
  '{"id":"evt_1","type":"webhook.test","created_at":"2027-11-22T10:00:00Z","sent_at":"2026-11-22T10:00:00Z","api_version":"v1","data":{"endpoint_id":"whe_1"}}';
// BODY_1, SECRET whsec_test_secret_1:
const SIG_1_SECRET_1 = "sha256=5992357fe6b8886a0e4416173b51d509502aa0e3427796b04deae20220adee2e";
// BODY_1, SECRET whsec_test_secret_2:
const SIG_1_SECRET_2 = "sha256=e9696865a6aa9daaaaa631041ccbb80e8323d8237caed705a5f1af8cc181dc04";
// Non-ASCII: the HMAC covers the UTF-8 bytes (ë is c3 ab; 158 bytes in all). BODY_2, SECRET whsec_test_secret_1:
const BODY_2 =
  '{"id":"evt_2","type":"user.deleted","created_at":"2026-11-22T10:00:00Z","sent_at":"2026-11-22T10:00:00Z","api_version":"v1","data":{"user_identifier":"zoë"}}';
const SIG_2_SECRET_1 = "sha256=5f41e366e2bce86c8b4d63af3f5d71e9aac5214e34990e8389afa374c64f5188";
const SECRET_1 = "whsec_test_secret_1";
const SECRET_2 = "whsec_test_secret_2";
const SENT = Date.parse("2026-11-22T10:00:00Z");
const at = (offsetSeconds: number) => () => SENT + offsetSeconds * 1000;

function rejection(run: () => unknown): WebhookRejection {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  throw new Error("expected a WebhookVerificationError");
}

describe("signature against fixed vectors", () => {
  it("signs as openssl does, for ASCII and UTF-8 bodies, strings and bytes", () => {
    expect(signWebhookBody(BODY_1, SECRET_1)).toBe(SIG_1_SECRET_1);
    expect(signWebhookBody(BODY_1, SECRET_2)).toBe(SIG_1_SECRET_2);
    expect(signWebhookBody(BODY_2, SECRET_1)).toBe(SIG_2_SECRET_1);
    expect(signWebhookBody(Buffer.from(BODY_2, "utf8"), SECRET_1)).toBe(SIG_2_SECRET_1);
    expect(signWebhookBody(new TextEncoder().encode(BODY_2), SECRET_1)).toBe(SIG_2_SECRET_1);
  });

  it("verifies and returns the event, typed by its type", () => {
    const event = verifyWebhookSignature(BODY_1, SIG_1_SECRET_1, SECRET_1, { now: at(0) });
    expect(event).toEqual({
      id: "evt_1",
      type: "webhook.test",
      created_at: "2027-11-22T10:00:00Z",
      sent_at: "2026-11-22T10:00:00Z",
      api_version: "v1",
      data: { endpoint_id: "whe_1" },
    });
    const deleted = verifyWebhookSignature(Buffer.from(BODY_2, "utf8"), SIG_2_SECRET_1, SECRET_1, { now: at(0) });
    expect(deleted.type === "user.deleted" && deleted.data.user_identifier).toBe("zoë");
  });

  it("refuses a wrong secret, a changed body, and a signature of another body", () => {
    expect(rejection(() => verifyWebhookSignature(BODY_1, SIG_1_SECRET_1, SECRET_2, { now: at(0) }))).toBe("signature_mismatch");
    expect(rejection(() => verifyWebhookSignature(BODY_1.replace("whe_1", "whe_2"), SIG_1_SECRET_1, SECRET_1, { now: at(0) }))).toBe(
      "signature_mismatch",
    );
    expect(rejection(() => verifyWebhookSignature(BODY_1, SIG_2_SECRET_1, SECRET_1, { now: at(0) }))).toBe("signature_mismatch");
    // Whitespace is part of what was signed: re-serialised JSON does not verify.
    expect(
      rejection(() => verifyWebhookSignature(JSON.stringify(JSON.parse(BODY_1), null, 2), SIG_1_SECRET_1, SECRET_1, { now: at(0) })),
    ).toBe("signature_mismatch");
  });
});

describe("the Partner-Signature header", () => {
  it("during a rotation, any one valid value of several suffices, in either order", () => {
    for (const header of [`${SIG_1_SECRET_2}, ${SIG_1_SECRET_1}`, `${SIG_1_SECRET_1}, ${SIG_1_SECRET_2}`]) {
      expect(hasValidWebhookSignature(BODY_1, header, SECRET_1)).toBe(true);
      expect(hasValidWebhookSignature(BODY_1, header, SECRET_2)).toBe(true);
      expect(verifyWebhookSignature(BODY_1, header, SECRET_2, { now: at(0) }).id).toBe("evt_1");
    }
    // A value for another secret next to a wrong one is still no match.
    expect(hasValidWebhookSignature(BODY_1, `${SIG_1_SECRET_2}, ${SIG_2_SECRET_1}`, SECRET_1)).toBe(false);
    // Node joins repeated headers; an array of values works too.
    expect(hasValidWebhookSignature(BODY_1, [SIG_1_SECRET_2, SIG_1_SECRET_1], SECRET_1)).toBe(true);
  });

  it("accepts the receiver's own two secrets while it switches", () => {
    expect(verifyWebhookSignature(BODY_1, SIG_1_SECRET_2, [SECRET_1, SECRET_2], { now: at(0) }).id).toBe("evt_1");
  });

  it("a value without sha256=, of another algorithm, in upper case or of the wrong length is invalid", () => {
    const hex = SIG_1_SECRET_1.slice("sha256=".length);
    expect(rejection(() => verifyWebhookSignature(BODY_1, hex, SECRET_1))).toBe("malformed_signature");
    expect(rejection(() => verifyWebhookSignature(BODY_1, `sha1=${hex}`, SECRET_1))).toBe("malformed_signature");
    expect(rejection(() => verifyWebhookSignature(BODY_1, `sha256=${hex.toUpperCase()}`, SECRET_1))).toBe("malformed_signature");
    expect(rejection(() => verifyWebhookSignature(BODY_1, `sha256=${hex.slice(0, 62)}`, SECRET_1))).toBe("malformed_signature");
    expect(rejection(() => verifyWebhookSignature(BODY_1, `sha256=${hex}00`, SECRET_1))).toBe("malformed_signature");
    // An invalid value does not spoil a valid one beside it.
    expect(verifyWebhookSignature(BODY_1, `${hex}, ${SIG_1_SECRET_1}`, SECRET_1, { now: at(0) }).id).toBe("evt_1");
  });

  it("a missing or empty header is missing_signature", () => {
    for (const header of [undefined, null, "", "  ", []])
      expect(rejection(() => verifyWebhookSignature(BODY_1, header, SECRET_1))).toBe("missing_signature");
  });

  it("refuses parsed JSON and empty secrets as programming errors", () => {
    expect(() => verifyWebhookSignature(JSON.parse(BODY_1) as never, SIG_1_SECRET_1, SECRET_1)).toThrow(TypeError);
    expect(() => verifyWebhookSignature(BODY_1, SIG_1_SECRET_1, "")).toThrow(TypeError);
    expect(() => verifyWebhookSignature(BODY_1, SIG_1_SECRET_1, [])).toThrow(TypeError);
  });

  it("a signed body that is not an event envelope is malformed_body", () => {
    for (const body of [
      "not json",
      "[]",
      '{"id":"evt_1"}',
      '{"id":"evt_1","type":"webhook.test","created_at":"2026-11-22T10:00:00Z","sent_at":"2026-11-22T10:00:00Z","api_version":"v1","data":null}',
    ]) {
      expect(rejection(() => verifyWebhookSignature(body, signWebhookBody(body, SECRET_1), SECRET_1, { now: at(0) }))).toBe(
        "malformed_body",
      );
    }
  });
});

describe("the replay window", () => {
  const verifyAt = (offsetSeconds: number, toleranceSeconds?: number) => () =>
    verifyWebhookSignature(BODY_1, SIG_1_SECRET_1, SECRET_1, { now: at(offsetSeconds), toleranceSeconds });

  it("accepts sent_at up to 300 s old or ahead by default, and refuses beyond", () => {
    expect(verifyAt(300)().id).toBe("evt_1");
    expect(verifyAt(-300)().id).toBe("evt_1");
    expect(rejection(verifyAt(301))).toBe("timestamp_too_old");
    expect(rejection(verifyAt(-301))).toBe("timestamp_too_new");
  });

  it("takes another tolerance, and `now` as a Date", () => {
    expect(rejection(verifyAt(61, 60))).toBe("timestamp_too_old");
    expect(verifyAt(26 * 3600, 26 * 3600 + 1)().id).toBe("evt_1");
    expect(() => checkReplayWindow("2026-11-22T10:00:00Z", { now: () => new Date(SENT + 299_000) })).not.toThrow();
    expect(() => checkReplayWindow("2026-11-22T10:00:00Z", { toleranceSeconds: 0 })).toThrow(RangeError);
  });

  it("refuses a sent_at that is not an RFC 3339 timestamp", () => {
    for (const sentAt of ["yesterday", "2026-11-22", 1_700_000_000, undefined]) {
      expect(rejection(() => checkReplayWindow(sentAt, { now: at(0) }))).toBe("invalid_timestamp");
    }
    expect(() => checkReplayWindow("2026-11-22T11:00:00+01:00", { now: at(0) })).not.toThrow();
  });

  it("compares sent_at, never created_at, which follows the partner's clock (here a sandbox's, a year ahead)", () => {
    expect(verifyWebhookSignature(BODY_1, SIG_1_SECRET_1, SECRET_1, { now: at(0) }).created_at).toBe("2027-11-22T10:00:00Z");
    const withoutSentAt =
      '{"id":"evt_3","type":"webhook.test","created_at":"2026-11-22T10:00:00Z","api_version":"v1","data":{"endpoint_id":"whe_1"}}';
    expect(rejection(() => verifyWebhookSignature(withoutSentAt, signWebhookBody(withoutSentAt, SECRET_1), SECRET_1, { now: at(0) }))).toBe(
      "malformed_body",
    );
  });

  it("checks the signature before the window: a forged old event is a mismatch, not too old", () => {
    expect(rejection(() => verifyWebhookSignature(BODY_1, SIG_1_SECRET_2, SECRET_1, { now: at(10_000) }))).toBe("signature_mismatch");
  });
});

describe("deliveries of the reference server", () => {
  const s = useTestServer();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.stop());
  beforeEach(() => {
    receiver.received.length = 0;
  });
  const api = () => createPartnerClient({ apiKey: PARTNER_A_KEY, baseUrl: s.baseUrl });
  const now = () => s.clock.now();

  it("verifies a test event sent through the API with the endpoint's secret", async () => {
    const { data: endpoint } = await api().POST("/api/v1/webhook_endpoints", { body: { url: receiver.url } });
    await api().POST("/api/v1/webhook_endpoints/{endpoint_id}/test", { params: { path: { endpoint_id: endpoint!.id } } });
    await s.services.webhooks.dispatcher.tick();
    const [delivery] = receiver.received;
    const event = verifyWebhookSignature(delivery!.rawBody, delivery!.headers["partner-signature"], endpoint!.secret, { now });
    expect(event).toMatchObject({ type: "webhook.test", data: { endpoint_id: endpoint!.id } });
    expect(delivery!.headers["partner-event-id"]).toBe(event.id);
  });

  it("during a rotation both the new and the old secret verify; after the overlap only the new one", async () => {
    const { data: endpoint } = await api().POST("/api/v1/webhook_endpoints", { body: { url: receiver.url } });
    const { data: rotated } = await api().POST("/api/v1/webhook_endpoints/{endpoint_id}/rotate_secret", {
      params: { path: { endpoint_id: endpoint!.id } },
      body: { previous_secret_valid_for: 3600 },
    });
    await api().POST("/api/v1/webhook_endpoints/{endpoint_id}/test", { params: { path: { endpoint_id: endpoint!.id } } });
    await s.services.webhooks.dispatcher.tick();
    const during = receiver.received[0]!;
    expect(during.headers["partner-signature"]).toMatch(/^sha256=[0-9a-f]{64}, sha256=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(during.rawBody, during.headers["partner-signature"], rotated!.secret, { now }).type).toBe("webhook.test");
    expect(verifyWebhookSignature(during.rawBody, during.headers["partner-signature"], endpoint!.secret, { now }).type).toBe(
      "webhook.test",
    );

    s.clock.advance(3601 * 1000);
    await api().POST("/api/v1/webhook_endpoints/{endpoint_id}/test", { params: { path: { endpoint_id: endpoint!.id } } });
    await s.services.webhooks.dispatcher.tick();
    const after = receiver.received[1]!;
    expect(verifyWebhookSignature(after.rawBody, after.headers["partner-signature"], rotated!.secret, { now }).type).toBe("webhook.test");
    expect(rejection(() => verifyWebhookSignature(after.rawBody, after.headers["partner-signature"], endpoint!.secret, { now }))).toBe(
      "signature_mismatch",
    );
  });

  it("verifies a sandbox's deliveries after its clock moved a year ahead: the event's times follow the partner's clock, sent_at is the real time the window compares", async () => {
    await s.api.POST("/api/v1/sandbox/clock/advance", { body: { seconds: 365 * 86_400 } });
    const { data: endpoint } = await api().POST("/api/v1/webhook_endpoints", { body: { url: receiver.url } });
    await s.api.POST("/api/v1/users", { body: { user_identifier: "u1" } });
    await s.api.POST("/api/v1/sandbox/domains", { body: { user_identifier: "u1", domain_name: "adalovelace.com" } });
    await api().POST("/api/v1/webhook_endpoints/{endpoint_id}/test", { params: { path: { endpoint_id: endpoint!.id } } });
    await s.services.webhooks.dispatcher.tick();
    expect(receiver.received.map((delivery) => delivery.body.type)).toEqual(["domain.registered", "webhook.test"]);
    for (const delivery of receiver.received) {
      // The receiver's clock is the real one, which the deployment's clock stands for here.
      const event = verifyWebhookSignature(delivery.rawBody, delivery.headers["partner-signature"], endpoint!.secret, { now });
      expect(event.created_at).toBe("2027-11-22T10:00:00Z");
      expect(delivery.body.sent_at).toBe("2026-11-22T10:00:00Z");
    }
    expect(receiver.received[0]!.body.data).toMatchObject({ purchased_at: "2027-11-22T10:00:00Z", expires_at: "2028-11-22T10:00:00Z" });
  });

  it("a retry is signed anew with its own sent_at, so it passes the default window; the event id stays", async () => {
    const { data: endpoint } = await api().POST("/api/v1/webhook_endpoints", { body: { url: receiver.url } });
    receiver.answerWith(500);
    await api().POST("/api/v1/webhook_endpoints/{endpoint_id}/test", { params: { path: { endpoint_id: endpoint!.id } } });
    await s.services.webhooks.dispatcher.tick();
    receiver.answerWith(200);
    // The schedule's third attempt comes 1 + 5 minutes after the first; walk there.
    for (const minutes of [1, 5]) {
      s.clock.advance(minutes * 60_000);
      await s.services.webhooks.dispatcher.tick();
    }
    const first = receiver.received[0]!;
    const last = receiver.received.at(-1)!;
    expect(receiver.received.length).toBeGreaterThan(1);
    expect(JSON.parse(last.rawBody)).toMatchObject({ id: JSON.parse(first.rawBody).id, created_at: JSON.parse(first.rawBody).created_at });
    expect(JSON.parse(last.rawBody).sent_at).not.toBe(JSON.parse(first.rawBody).sent_at);
    const later = () => s.clock.now();
    expect(verifyWebhookSignature(last.rawBody, last.headers["partner-signature"], endpoint!.secret, { now: later }).type).toBe(
      "webhook.test",
    );
    // The first attempt's body, replayed now, is refused.
    expect(
      rejection(() => verifyWebhookSignature(first.rawBody, first.headers["partner-signature"], endpoint!.secret, { now: later })),
    ).toBe("timestamp_too_old");
  });
});

/**
 * Idempotency keys (the spec's "Idempotent requests"), on the POST every deployment serves,
 * `POST /api/v1/users`: its answer carries a new `login_url` each time it runs, so a replayed
 * answer is told from a second run by that alone.
 */
import { expect } from "expect";
import { defineChecks, type CheckContext } from "../check.js";
import type { CallResult } from "../contract-client.js";
import { eventsOfType } from "./events-support.js";
import { expectAnswer, expectConforming, expectStatus } from "./expectations.js";

const replayed = (result: CallResult) => result.headers.get("idempotent-replayed") === "true";

const userOf = (context: CheckContext) => context.unique("idem").replaceAll("-", "_");

const openSession = (context: CheckContext, user: string, key: string, apiKey?: string) =>
  context.api.call("createUserSession", {
    body: { user_identifier: user },
    headers: { "Idempotency-Key": key },
    ...(apiKey ? { key: apiKey } : {}),
  });

function expectReplayOf(first: CallResult, retry: CallResult): void {
  expectConforming(retry);
  if (!replayed(retry))
    throw new Error(
      `a retry with the same Idempotency-Key and body was not answered as a replay (Idempotent-Replayed: ${retry.headers.get("idempotent-replayed")}): ${retry.status} ${JSON.stringify(retry.body)}`,
    );
  expect(retry.status).toBe(first.status);
  expect(retry.body).toEqual(first.body);
}

export default defineChecks([
  {
    id: "idempotency.replay-answers-first-answer",
    title: "a retry with the same key and body answers the first status and body, marked Idempotent-Replayed, without running again",
    needs: ["state"],
    async run(context) {
      const user = userOf(context);
      const key = context.unique("key");
      const first = await openSession(context, user, key);
      expectAnswer(first, 201);
      expect(replayed(first)).toBe(false);
      const retry = await openSession(context, user, key);
      expectReplayOf(first, retry);
      expect(retry.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
      // Run again, the same request opens another session: the replay above did not run.
      const other = await openSession(context, user, context.unique("key"));
      expectAnswer(other, 201);
      expect(replayed(other)).toBe(false);
      expect(other.body.login_url).not.toBe(first.body.login_url);
    },
  },
  {
    id: "idempotency.replay-of-a-refusal",
    title: "the 4xx an operation itself answered is stored: a retry with the key answers it again, replayed",
    needs: ["state"],
    operations: ["initiateTransfer"],
    async run(context) {
      const key = context.unique("key");
      // A transfer for a user that does not exist is the operation's own 404.
      const body = { domain_name: `${context.unique("idem-transfer")}.com`, user_identifier: userOf(context), auth_code: "Xk8#pL2q!Rm9" };
      const first = await context.api.call("initiateTransfer", { body, headers: { "Idempotency-Key": key } });
      expectAnswer(first, 404, { error: "not_found" }, "a transfer to a user that does not exist");
      const retry = await context.api.call("initiateTransfer", { body, headers: { "Idempotency-Key": key } });
      expectReplayOf(first, retry);
    },
  },
  {
    id: "idempotency.same-json-value-replays",
    title: "a retry whose body is the same JSON value written otherwise (whitespace, member order) is a replay",
    needs: ["state"],
    async run(context) {
      const user = userOf(context);
      const key = context.unique("key");
      const first = await context.api.call("createUserSession", {
        rawBody: JSON.stringify({ user_identifier: user, email: "idem@example.com" }),
        headers: { "Idempotency-Key": key },
      });
      expectAnswer(first, 201);
      const retry = await context.api.call("createUserSession", {
        rawBody: `{ "email" : "idem@example.com",\n  "user_identifier": ${JSON.stringify(user)} }`,
        headers: { "Idempotency-Key": key },
      });
      expectReplayOf(first, retry);
    },
  },
  {
    id: "idempotency.replay-emits-no-event",
    title: "a replayed request emits no event again",
    needs: ["state", "sandbox"],
    operations: ["createSandboxDomain", "listEvents"],
    async run(context) {
      const user = userOf(context);
      expectStatus(await context.api.call("createUserSession", { body: { user_identifier: user } }), 201);
      const key = context.unique("key");
      const body = { user_identifier: user, domain_name: `${context.unique("idem")}.com`, years: 1 };
      const first = await context.api.call("createSandboxDomain", { body, headers: { "Idempotency-Key": key } });
      expectAnswer(first, 201);
      expectReplayOf(first, await context.api.call("createSandboxDomain", { body, headers: { "Idempotency-Key": key } }));
      const registered = (await eventsOfType(context, "domain.registered", 100, 3)).filter((event) => event.data?.id === first.body.id);
      expect(registered).toHaveLength(1);
    },
  },
  {
    id: "idempotency.other-body-refused",
    title: "the same key with another body: 422 unprocessable_entity, details.code idempotency_key_reused, nothing run",
    needs: ["state"],
    operations: ["getUser"],
    async run(context) {
      const key = context.unique("key");
      expectStatus(await openSession(context, userOf(context), key), 201);
      const other = userOf(context);
      const reused = await openSession(context, other, key);
      expectAnswer(
        reused,
        422,
        { error: "unprocessable_entity", details: { code: "idempotency_key_reused" } },
        "the key reused with another body",
      );
      expectAnswer(
        await context.api.call("getUser", { path: { user_identifier: other } }),
        404,
        { error: "not_found" },
        "the refused request's user must not exist",
      );
    },
  },
  {
    id: "idempotency.concurrent-duplicates-run-once",
    title: "of concurrent duplicates one runs; the others answer its answer or 409 idempotency_key_in_use with Retry-After",
    needs: ["state"],
    async run(context) {
      const user = userOf(context);
      const key = context.unique("key");
      const answers = await Promise.all(Array.from({ length: 5 }, () => openSession(context, user, key)));
      answers.forEach(expectConforming);
      const ran = answers.filter((answer) => answer.status === 201 && !replayed(answer));
      expect(ran).toHaveLength(1);
      for (const answer of answers.filter((a) => a !== ran[0])) {
        if (answer.status === 201) expect(answer.body).toEqual(ran[0]!.body);
        else {
          expectStatus(answer, 409, "a concurrent duplicate");
          expect(answer.body).toMatchObject({ error: "conflict", details: { code: "idempotency_key_in_use" } });
          expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
        }
      }
    },
  },
  {
    id: "idempotency.refused-before-running-stores-nothing",
    title: "a request refused before it ran (400) stores nothing: the same key then runs",
    needs: ["state"],
    async run(context) {
      const key = context.unique("key");
      const refused = await context.api.call("createUserSession", { body: {}, headers: { "Idempotency-Key": key } });
      expectAnswer(refused, 400, { error: "validation_error" });
      const ran = await openSession(context, userOf(context), key);
      expectAnswer(ran, 201);
      expect(replayed(ran)).toBe(false);
    },
  },
  {
    id: "idempotency.key-bounds",
    title: "a key of 256 characters, or with a character outside visible ASCII, is refused with 400; 255 visible ones are accepted",
    needs: ["state"],
    async run(context) {
      const long = await openSession(context, userOf(context), "k".repeat(256));
      expectAnswer(long, 400, { error: "validation_error" }, "a 256-character key");
      const spaced = await openSession(context, userOf(context), "key with spaces");
      expectAnswer(spaced, 400, { error: "validation_error" }, "a key with spaces");
      const longest = await openSession(context, userOf(context), `${context.unique("k")}-`.padEnd(255, "x"));
      expectAnswer(longest, 201, undefined, "a 255-character key");
    },
  },
  {
    id: "idempotency.key-scoped-to-partner-and-path",
    title: "the same key sent by another partner, or to another path, is another key: it runs",
    needs: ["state", "second-key"],
    operations: ["createWebhookEndpoint"],
    async run(context) {
      const user = userOf(context);
      const key = context.unique("key");
      const first = await openSession(context, user, key);
      expectAnswer(first, 201);
      const otherPartner = await openSession(context, user, key, context.target.secondKey!);
      expectAnswer(otherPartner, 201, undefined, "the same key and body from another partner");
      expect(replayed(otherPartner)).toBe(false);
      expect(otherPartner.body.login_url).not.toBe(first.body.login_url);
      const transfer = await context.api.call("initiateTransfer", {
        body: { domain_name: `${context.unique("idem-path")}.com`, user_identifier: user, auth_code: "Xk8#pL2q!Rm9" },
        headers: { "Idempotency-Key": key },
      });
      expectAnswer(transfer, 201, undefined, "the same key on another path");
      expect(replayed(transfer)).toBe(false);
    },
  },
  {
    id: "idempotency.secret-shown-once",
    title: "a replay of an answer carrying a secret (endpoint creation, rotation) is 409 secret_shown_once and does nothing again",
    needs: ["state"],
    operations: ["createWebhookEndpoint", "rotateWebhookSecret", "listWebhookEndpoints", "getWebhookEndpoint", "deleteWebhookEndpoint"],
    async run(context) {
      const key = context.unique("key");
      const body = {
        url: `https://hooks.conformance.invalid/${context.unique("shown-once")}`,
        description: "conformance: secret shown once",
      };
      const created = await context.api.call("createWebhookEndpoint", { body, headers: { "Idempotency-Key": key } });
      expectAnswer(created, 201);
      try {
        const again = await context.api.call("createWebhookEndpoint", { body, headers: { "Idempotency-Key": key } });
        expectAnswer(again, 409, { error: "conflict", details: { code: "secret_shown_once" } }, "replaying an endpoint's creation");
        expect(JSON.stringify(again.body)).not.toContain(created.body.secret);
        expect(again.body.message).toContain(created.body.id);
        const listed = await context.api.call("listWebhookEndpoints");
        expectAnswer(listed, 200);
        expect(listed.body.endpoints.filter((endpoint: any) => endpoint.url === body.url)).toHaveLength(1);

        const rotateKey = context.unique("key");
        const rotation = { previous_secret_valid_for: 0 };
        const rotated = await context.api.call("rotateWebhookSecret", {
          path: { endpoint_id: created.body.id },
          body: rotation,
          headers: { "Idempotency-Key": rotateKey },
        });
        expectAnswer(rotated, 200);
        const replay = await context.api.call("rotateWebhookSecret", {
          path: { endpoint_id: created.body.id },
          body: rotation,
          headers: { "Idempotency-Key": rotateKey },
        });
        expectAnswer(replay, 409, { error: "conflict", details: { code: "secret_shown_once" } }, "replaying a rotation");
        expect(JSON.stringify(replay.body)).not.toContain(rotated.body.secret);
        expect(replay.body.message).toContain(created.body.id);
        const after = await context.api.call("getWebhookEndpoint", { path: { endpoint_id: created.body.id } });
        expectAnswer(after, 200);
        expect(after.body.updated_at).toBe(rotated.body.updated_at);
      } finally {
        await context.api.call("deleteWebhookEndpoint", { path: { endpoint_id: created.body.id } });
      }
    },
  },
]);

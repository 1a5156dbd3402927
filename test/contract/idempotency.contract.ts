/**
 * The contract of idempotency keys (the spec's "Idempotent requests"), checked on the POST every
 * deployment serves, `POST /api/v1/users`: its answer carries a new `login_url` each time it runs,
 * so a replayed answer is told from a second run by that alone.
 */
import { describe, expect, it } from "vitest";
import { ContractClient, type CallResult } from "./support/contract-client.js";
import { newRunId } from "./support/fixtures.js";
import { RateLimitPacer } from "./support/rate-limit-pacer.js";
import { loadTarget } from "./support/target.js";

const target = loadTarget();
const client = new ContractClient(target, new RateLimitPacer());
const run = newRunId();
let counter = 0;
const freshKey = () => `contract-${run}-${++counter}`;
const openSession = (userIdentifier: string, key: string) =>
  client.call("createUserSession", { body: { user_identifier: `contract_${run}_${userIdentifier}` }, headers: { "Idempotency-Key": key } });
const replayed = (result: CallResult) => result.headers.get("idempotent-replayed") === "true";

function expectConforming(result: CallResult): void {
  expect(result.violations, result.violations.join("\n")).toEqual([]);
}

describe.skipIf(target.stateless)("idempotency keys", () => {
  it("answers a retry with the same key and body with the first answer, marked Idempotent-Replayed, without running it again", async () => {
    const key = freshKey();
    const first = await openSession("replay", key);
    const retry = await openSession("replay", key);
    [first, retry].forEach(expectConforming);
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect([replayed(first), replayed(retry)]).toEqual([false, true]);
    expect(retry.body).toEqual(first.body);
    // Run again, the same request opens another session.
    const other = await openSession("replay", freshKey());
    expect(other.body.login_url).not.toBe(first.body.login_url);
  });

  it("refuses the key with another body: 422 idempotency_key_reused", async () => {
    const key = freshKey();
    expect((await openSession("reuse-a", key)).status).toBe(201);
    const reused = await openSession("reuse-b", key);
    expectConforming(reused);
    expect(reused.status).toBe(422);
    expect(reused.body).toMatchObject({ error: "unprocessable_entity", details: { code: "idempotency_key_reused" } });
  });

  it("runs one of concurrent duplicates: the others answer its answer or 409 idempotency_key_in_use with Retry-After", async () => {
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: 5 }, () => openSession("race", key)));
    answers.forEach(expectConforming);
    expect(answers.filter((answer) => answer.status === 201 && !replayed(answer))).toHaveLength(1);
    const ran = answers.find((answer) => answer.status === 201 && !replayed(answer))!;
    for (const answer of answers.filter((a) => a !== ran)) {
      if (answer.status === 201) expect(answer.body).toEqual(ran.body);
      else {
        expect(answer.status).toBe(409);
        expect(answer.body).toMatchObject({ error: "conflict", details: { code: "idempotency_key_in_use" } });
        expect(answer.headers.get("retry-after")).toMatch(/^\d+$/);
      }
    }
  });

  it("stores nothing for a request refused before it ran (400): the same key then runs", async () => {
    const key = freshKey();
    const refused = await client.call("createUserSession", { body: {}, headers: { "Idempotency-Key": key } });
    expectConforming(refused);
    expect(refused.status).toBe(400);
    const ran = await openSession("after-400", key);
    expect([ran.status, replayed(ran)]).toEqual([201, false]);
  });

  it("refuses a key longer than 255 characters with 400", async () => {
    const result = await openSession("long-key", "k".repeat(256));
    expectConforming(result);
    expect(result.status).toBe(400);
  });
});

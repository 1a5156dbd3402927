/** Migration 0010: answers kept for a replay before secrets were left out of them lose the secret. */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { PostgresPersistence } from "../../../server/store/postgres/index.js";
import { emptyTestPersistence, testStore } from "../../support/test-persistence.js";

const MIGRATION = readFileSync(
  new URL("../../../server/store/postgres/migrations/0010_secret_free_idempotency_answers.sql", import.meta.url),
  "utf8",
);

const ENDPOINT = { id: "whe_1", url: "https://partner.example/hooks", status: "enabled" };

describe("0010_secret_free_idempotency_answers", () => {
  it("removes the secret from kept answers of endpoint creations and rotations, and touches nothing else", async () => {
    const persistence = (await emptyTestPersistence(testStore() === "memory" ? "pglite" : testStore())) as PostgresPersistence;
    const keep = (path: string, key: string, body: unknown) =>
      persistence.sql.query(
        `INSERT INTO idempotency_keys (partner_id, environment, method, path, idempotency_key, fingerprint, claim_token, created_at,
           answer_status, answer_body, answer_headers)
         VALUES ('p', 'sandbox', 'POST', $1, $2, 'f', 't', now(), 201, $3::jsonb, '{}'::jsonb)`,
        [path, key, JSON.stringify(body)],
      );
    await keep("/api/v1/webhook_endpoints", "create", { ...ENDPOINT, secret: "whsec_a" });
    await keep("/api/v1/webhook_endpoints/whe_1/rotate_secret", "rotate", { ...ENDPOINT, secret: "whsec_b" });
    // Another operation's field of that name is not a signing secret; a 204 keeps no body.
    await keep("/api/v1/users", "user", { user_identifier: "u1", secret: "kept" });
    await keep("/api/v1/webhook_endpoints", "no-body", null);
    await persistence.sql.exec(MIGRATION);
    const bodies = await persistence.sql.query<{ idempotency_key: string; answer_body: unknown }>(
      "SELECT idempotency_key, answer_body FROM idempotency_keys ORDER BY idempotency_key",
    );
    expect(Object.fromEntries(bodies.map((row) => [row.idempotency_key, row.answer_body]))).toEqual({
      create: ENDPOINT,
      rotate: ENDPOINT,
      user: { user_identifier: "u1", secret: "kept" },
      "no-body": null,
    });
  });
});

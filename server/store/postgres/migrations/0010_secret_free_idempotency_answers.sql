-- A webhook endpoint's signing secret is shown once: answers kept for a replay leave it out
-- (`replayableAnswer`, server/idempotency/idempotent-requests.ts). Answers kept before that may
-- still hold one for up to 24 hours: remove it, so the table holds no secret and their replays
-- answer as every replay now does.
UPDATE idempotency_keys
SET answer_body = answer_body - 'secret'
WHERE method = 'POST'
  AND jsonb_typeof(answer_body) = 'object'
  AND answer_body ? 'secret'
  AND (path = '/api/v1/webhook_endpoints' OR path LIKE '/api/v1/webhook\_endpoints/%/rotate\_secret');

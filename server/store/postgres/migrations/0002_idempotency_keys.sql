-- Idempotency keys (server/idempotency): who took a key, with a lease while its request runs, and
-- the answer once it ran, written in that request's transaction.
CREATE TABLE idempotency_keys (
  partner_id text NOT NULL,
  environment text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  idempotency_key text NOT NULL,
  fingerprint text NOT NULL,
  claim_token text NOT NULL,
  created_at timestamptz NOT NULL,
  -- Real time the claim's lease ends; null once the answer is stored.
  locked_until timestamptz,
  answer_status integer,
  answer_body jsonb,
  answer_headers jsonb,
  PRIMARY KEY (partner_id, environment, method, path, idempotency_key)
);

-- The sweep forgets keys by age.
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);

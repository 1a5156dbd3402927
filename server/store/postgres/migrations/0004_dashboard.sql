-- The partner dashboard (server/dashboard): partner accounts and their members, invitations,
-- sign-ups awaiting confirmation and signed-in sessions; keys with a name, an id, their last use
-- and a roll's grace period; the partners' request logs; the origins they allow to frame the
-- embedded interface. Secrets are kept as hashes only.
CREATE TABLE partner_accounts (
  id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE dashboard_members (
  id text COLLATE "C" PRIMARY KEY,
  partner_id text COLLATE "C" NOT NULL REFERENCES partner_accounts ON DELETE CASCADE,
  -- One member per address, whichever account it belongs to; kept in lower case.
  email text COLLATE "C" NOT NULL UNIQUE,
  password_hash text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'developer')),
  created_at timestamptz NOT NULL
);
CREATE INDEX dashboard_members_of_partner ON dashboard_members (partner_id, created_at);

CREATE TABLE dashboard_invitations (
  token_hash text COLLATE "C" PRIMARY KEY,
  partner_id text COLLATE "C" NOT NULL REFERENCES partner_accounts ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'developer')),
  invited_by text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX dashboard_invitations_of_partner ON dashboard_invitations (partner_id, created_at);

CREATE TABLE dashboard_sign_ups (
  token_hash text COLLATE "C" PRIMARY KEY,
  email text NOT NULL,
  partner_name text NOT NULL,
  password_hash text NOT NULL,
  expires_at timestamptz NOT NULL
);

CREATE TABLE dashboard_sessions (
  id_hash text COLLATE "C" PRIMARY KEY,
  member_id text COLLATE "C" NOT NULL REFERENCES dashboard_members ON DELETE CASCADE,
  partner_id text NOT NULL,
  csrf_token text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX dashboard_sessions_of_member ON dashboard_sessions (member_id);

-- Keys made before the dashboard get an id from their hash and say where they came from.
ALTER TABLE api_keys
  ADD COLUMN id text COLLATE "C",
  ADD COLUMN name text,
  ADD COLUMN last_four text,
  ADD COLUMN last_used_at timestamptz,
  ADD COLUMN expires_at timestamptz;
UPDATE api_keys SET id = 'key_' || left(hash, 24), name = 'Created with npm run keys', last_four = '';
ALTER TABLE api_keys ALTER COLUMN id SET NOT NULL, ALTER COLUMN name SET NOT NULL, ALTER COLUMN last_four SET NOT NULL;
CREATE UNIQUE INDEX api_keys_by_id ON api_keys (id);
CREATE INDEX api_keys_of_partner ON api_keys (partner_id, environment, created_at);
CREATE INDEX api_keys_by_expiry ON api_keys (expires_at) WHERE expires_at IS NOT NULL;

CREATE TABLE request_log (
  seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  partner_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  at timestamptz NOT NULL,
  method text NOT NULL,
  route text,
  status smallint NOT NULL,
  request_id text NOT NULL,
  duration_ms double precision NOT NULL,
  key_name text NOT NULL
);
-- A partner's log, newest first; a request id is looked up within it.
CREATE INDEX request_log_of_partner ON request_log (partner_id, environment, seq DESC);
CREATE INDEX request_log_by_request_id ON request_log (partner_id, environment, request_id);

CREATE TABLE framing_origins (
  partner_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  origins text[] NOT NULL,
  PRIMARY KEY (partner_id, environment)
);

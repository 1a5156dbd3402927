-- "Is it pointing at us?" (issue 35): what a domain connected to a partner must have in its DNS,
-- per partner and environment like the partner's other settings, and per domain the last answer
-- the partner was told of (domain.connection_changed is sent when it turns). Tables of their own:
-- the domains' table keeps its columns, and a domain's state goes with it.
CREATE TABLE connection_requirements (
  partner_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  -- The list as the API answers it, checked before it is stored (at most a handful of small objects).
  requirements jsonb NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment)
);

CREATE TABLE domain_connection_states (
  domain_id text PRIMARY KEY REFERENCES domains ON DELETE CASCADE,
  partner_id text COLLATE "C" NOT NULL,
  configured boolean NOT NULL,
  -- When the answer may turn without a write: a propagation ending on the sandbox clock.
  recheck_at timestamptz,
  checked_at timestamptz NOT NULL
);
-- What the sweep and a clock advance recheck: each partner's propagations under way, by when they end.
CREATE INDEX domain_connection_rechecks ON domain_connection_states (partner_id, recheck_at) WHERE recheck_at IS NOT NULL;

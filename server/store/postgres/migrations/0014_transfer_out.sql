-- Registrar controls and transfers to other registrars (issue 35): tables of their own, so the
-- domains' table stays as it was; rows go with their domain. A domain without a controls row is
-- locked and has no auth code yet, the state registration leaves, so existing domains need none.
CREATE TABLE transfer_controls (
  domain_id text PRIMARY KEY REFERENCES domains ON DELETE CASCADE,
  partner_id text NOT NULL,
  transfer_lock boolean NOT NULL,
  auth_code text,
  auth_code_created_at timestamptz,
  updated_at timestamptz NOT NULL,
  CHECK ((auth_code IS NULL) = (auth_code_created_at IS NULL))
);

CREATE TABLE outbound_transfers (
  id text PRIMARY KEY,
  domain_id text NOT NULL REFERENCES domains ON DELETE CASCADE,
  partner_id text NOT NULL,
  domain_name text NOT NULL,
  status text NOT NULL CHECK (status IN ('pending', 'completed', 'rejected', 'cancelled')),
  gaining_registrar text NOT NULL,
  requested_at timestamptz NOT NULL,
  auto_approve_at timestamptz NOT NULL,
  completed_at timestamptz
);
-- A domain's latest transfer; at most one pending, whichever instance accepts the request.
CREATE INDEX outbound_transfers_of_domain ON outbound_transfers (domain_id, requested_at DESC, id DESC);
CREATE UNIQUE INDEX one_pending_outbound_transfer ON outbound_transfers (domain_id) WHERE status = 'pending';
-- What the sweep moves on.
CREATE INDEX pending_outbound_transfers ON outbound_transfers (partner_id, requested_at) WHERE status = 'pending';

-- The event history (server/event-history): every event the service emitted, written in the
-- transaction of the change that caused it, for the events API and replays to an endpoint.
CREATE TABLE events (
  id text COLLATE "C" PRIMARY KEY,
  partner_id text NOT NULL,
  type text NOT NULL,
  created_at timestamptz NOT NULL,
  payload jsonb NOT NULL
);

-- A partner's list, newest first, and the ranges a replay reads oldest first.
CREATE INDEX events_of_partner ON events (partner_id, created_at DESC, id DESC);
-- The sweep forgets events by age.
CREATE INDEX events_by_age ON events (created_at);

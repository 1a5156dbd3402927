-- The webhook outbox: one entry per event some endpoint takes, written in the transaction of the
-- change that caused it whatever the number of endpoints; the dispatcher turns entries into
-- deliveries in bounded batches, each a short transaction of its own, and removes them
-- (server/webhooks/dispatcher.ts).
CREATE TABLE webhook_outbox (
  -- Drawn from the deliveries' own sequence (set below): a delivery fanned out from an entry takes
  -- the entry's number, so an endpoint's deliveries are attempted in the order their events
  -- entered the outbox, whether fanned out or queued directly (test events, redeliveries).
  seq bigint PRIMARY KEY,
  partner_id text NOT NULL,
  event jsonb NOT NULL,
  -- The endpoints that took the event when it was emitted (a JSON array of ids): one created later
  -- gets none of it, as when deliveries were written with the event.
  endpoint_ids jsonb NOT NULL
);
DO $$
BEGIN
  EXECUTE format('ALTER TABLE webhook_outbox ALTER COLUMN seq SET DEFAULT nextval(%L)', pg_get_serial_sequence('webhook_deliveries', 'seq'));
END
$$;
-- A partner's entries oldest first: the fan-out takes each partner's in turn, and a claim looks
-- for an earlier entry of the delivery's partner still waiting.
CREATE INDEX webhook_outbox_of_partner ON webhook_outbox (partner_id, seq);

-- A partner's deliveries due and not yet sent: the fan-out writes more only while they are few,
-- so a backlog waits as one outbox entry per event rather than as a delivery per endpoint.
CREATE INDEX webhook_deliveries_due_of_partner ON webhook_deliveries (partner_id, next_attempt_at) WHERE status = 'pending';

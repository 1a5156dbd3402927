-- Bounded histories (server/request-history, server/event-history; docs/dashboard.md, docs/webhooks.md).
-- The request log counts requests refused for the rate limits in one entry per key, method, route and
-- minute (`count`, and the minute in `refused_minute`, set only on such entries, which the upsert finds
-- through request_log_refusals). Pages are keyed by each partner's own (time, request id), not by the
-- sequence number every partner shares, and each filter of the dashboard has an index of its own.
ALTER TABLE request_log ADD COLUMN count integer NOT NULL DEFAULT 1;
ALTER TABLE request_log ADD COLUMN refused_minute timestamptz;

DROP INDEX request_log_of_partner;
-- A partner's log, newest first; the retention finds each partner's oldest kept entry through it.
CREATE INDEX request_log_of_partner ON request_log (partner_id, environment, at DESC, request_id DESC);
CREATE INDEX request_log_by_status_class ON request_log (partner_id, environment, (status / 100), at DESC, request_id DESC);
CREATE INDEX request_log_by_route ON request_log (partner_id, environment, route, at DESC, request_id DESC);
CREATE UNIQUE INDEX request_log_refusals ON request_log (partner_id, environment, key_name, method, (coalesce(route, '')), refused_minute)
  WHERE refused_minute IS NOT NULL;

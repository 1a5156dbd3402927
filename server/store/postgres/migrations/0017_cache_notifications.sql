-- Cache invalidation (issue 37): each instance keeps what changes rarely (stored API keys by hash,
-- sandbox clock offsets, framing origins, branding) in memory while it listens on the channel
-- partner_api_cache (server/store/postgres/notification-listener.ts). Every change to those rows
-- notifies it, whoever writes: another instance, `npm run keys`, the dashboard, SQL by hand. A
-- notification is delivered when its transaction commits, and not at all if it rolls back.
--
-- The payload is {"table": ..., "key": ...}: the row's cache key (the key's hash, the partner's id,
-- or [partner id, environment]). A key too long for a notification's 8000 bytes sends the table
-- alone, which drops everything cached of it: a write never fails for its notification.
CREATE FUNCTION notify_cache_change(changed_table text, changed_key jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  payload text := jsonb_build_object('table', changed_table, 'key', changed_key)::text;
BEGIN
  IF octet_length(payload) >= 8000 THEN
    payload := jsonb_build_object('table', changed_table)::text;
  END IF;
  -- The same payload twice in one transaction is delivered once (an UPDATE that keeps its key).
  PERFORM pg_notify('partner_api_cache', payload);
END;
$$;

-- One function per shape of key: each names its columns, so a row's other columns (a logo's
-- bytes) are never copied to make the notification. An UPDATE names the key before and after.
CREATE FUNCTION notify_cache_change_by_hash() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM notify_cache_change(TG_TABLE_NAME, to_jsonb(OLD.hash)); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM notify_cache_change(TG_TABLE_NAME, to_jsonb(NEW.hash)); END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION notify_cache_change_by_partner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM notify_cache_change(TG_TABLE_NAME, to_jsonb(OLD.partner_id)); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM notify_cache_change(TG_TABLE_NAME, to_jsonb(NEW.partner_id)); END IF;
  RETURN NULL;
END;
$$;

CREATE FUNCTION notify_cache_change_by_partner_environment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN PERFORM notify_cache_change(TG_TABLE_NAME, jsonb_build_array(OLD.partner_id, OLD.environment)); END IF;
  IF TG_OP <> 'DELETE' THEN PERFORM notify_cache_change(TG_TABLE_NAME, jsonb_build_array(NEW.partner_id, NEW.environment)); END IF;
  RETURN NULL;
END;
$$;

-- TRUNCATE names no row: it drops the table's whole cache.
CREATE FUNCTION notify_cache_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('partner_api_cache', jsonb_build_object('table', TG_TABLE_NAME)::text);
  RETURN NULL;
END;
$$;

CREATE TRIGGER api_keys_cache_change AFTER INSERT OR DELETE ON api_keys
  FOR EACH ROW EXECUTE FUNCTION notify_cache_change_by_hash();
-- Recording a key's use (last_used_at, at most once a minute per key and instance) changes nothing
-- an instance decides by; notifying it would drop a busy key from every instance's cache each time.
CREATE TRIGGER api_keys_cache_update AFTER UPDATE ON api_keys
  FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION notify_cache_change_by_hash();
CREATE TRIGGER sandbox_clock_offsets_cache_change AFTER INSERT OR UPDATE OR DELETE ON sandbox_clock_offsets
  FOR EACH ROW EXECUTE FUNCTION notify_cache_change_by_partner();
CREATE TRIGGER framing_origins_cache_change AFTER INSERT OR UPDATE OR DELETE ON framing_origins
  FOR EACH ROW EXECUTE FUNCTION notify_cache_change_by_partner_environment();
CREATE TRIGGER embed_branding_cache_change AFTER INSERT OR UPDATE OR DELETE ON embed_branding
  FOR EACH ROW EXECUTE FUNCTION notify_cache_change_by_partner_environment();

CREATE TRIGGER api_keys_cache_truncate AFTER TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_truncate();
CREATE TRIGGER sandbox_clock_offsets_cache_truncate AFTER TRUNCATE ON sandbox_clock_offsets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_truncate();
CREATE TRIGGER framing_origins_cache_truncate AFTER TRUNCATE ON framing_origins
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_truncate();
CREATE TRIGGER embed_branding_cache_truncate AFTER TRUNCATE ON embed_branding
  FOR EACH STATEMENT EXECUTE FUNCTION notify_cache_truncate();

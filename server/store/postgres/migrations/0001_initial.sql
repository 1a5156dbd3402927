-- The service's data, webhook endpoints and their delivery outbox, and what every instance on the
-- database shares: rate-limit counters, sandbox clock offsets, API keys. Times are timestamptz,
-- money bigint cents. Text that orders a list is collated "C": code-point order, as the memory
-- store orders it, whatever the database's locale.

CREATE TABLE users (
  partner_id text NOT NULL,
  user_identifier text COLLATE "C" NOT NULL,
  email text,
  created_at timestamptz NOT NULL,
  last_login timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  total_spent bigint NOT NULL,
  -- Kept by the trigger below: the users list sorts by it.
  domain_count integer NOT NULL DEFAULT 0,
  PRIMARY KEY (partner_id, user_identifier)
);
-- The users list: every sort in both directions, ties by user_identifier ascending.
CREATE INDEX users_by_created_at_asc ON users (partner_id, created_at, user_identifier);
CREATE INDEX users_by_created_at_desc ON users (partner_id, created_at DESC, user_identifier);
CREATE INDEX users_by_last_login_asc ON users (partner_id, last_login, user_identifier);
CREATE INDEX users_by_last_login_desc ON users (partner_id, last_login DESC, user_identifier);
CREATE INDEX users_by_domain_count_asc ON users (partner_id, domain_count, user_identifier);
CREATE INDEX users_by_domain_count_desc ON users (partner_id, domain_count DESC, user_identifier);

-- Each partner's number of users, the total of every users page, without counting them: in
-- shards by user, so users created at once rarely update the same row (a conflict to retry).
CREATE TABLE partner_user_counts (
  partner_id text NOT NULL,
  shard smallint NOT NULL,
  count integer NOT NULL,
  PRIMARY KEY (partner_id, shard)
);

CREATE FUNCTION count_users() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO partner_user_counts AS c (partner_id, shard, count)
      SELECT partner_id, abs(hashtext(user_identifier)) % 16, count(*)::integer FROM new_rows GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (partner_id, shard) DO UPDATE SET count = c.count + EXCLUDED.count;
  ELSE
    UPDATE partner_user_counts AS c SET count = c.count - o.count
      FROM (SELECT partner_id, abs(hashtext(user_identifier)) % 16 AS shard, count(*)::integer AS count FROM old_rows GROUP BY 1, 2) AS o
      WHERE c.partner_id = o.partner_id AND c.shard = o.shard;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER users_counted_in AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION count_users();
CREATE TRIGGER users_counted_out AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION count_users();

CREATE TABLE domains (
  id text PRIMARY KEY,
  partner_id text NOT NULL,
  user_identifier text COLLATE "C" NOT NULL,
  -- A name is registered once, whoever asks and on whichever instance.
  name text NOT NULL UNIQUE,
  status text NOT NULL,
  purchased_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  auto_renew boolean NOT NULL,
  whois_privacy boolean NOT NULL,
  nameservers text[] NOT NULL,
  registration_price bigint NOT NULL,
  renewal_price bigint NOT NULL,
  currency text NOT NULL,
  updated_at timestamptz NOT NULL,
  FOREIGN KEY (partner_id, user_identifier) REFERENCES users ON DELETE CASCADE
);
CREATE INDEX domains_of_user ON domains (partner_id, user_identifier, purchased_at DESC, name);
-- What the sweep expires or renews: the active domains whose registration has ended.
CREATE INDEX active_domains_by_end ON domains (partner_id, expires_at) WHERE status = 'active';

CREATE FUNCTION count_domains() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE users SET domain_count = domain_count + 1 WHERE partner_id = NEW.partner_id AND user_identifier = NEW.user_identifier;
    RETURN NEW;
  END IF;
  UPDATE users SET domain_count = domain_count - 1 WHERE partner_id = OLD.partner_id AND user_identifier = OLD.user_identifier;
  RETURN OLD;
END;
$$;
CREATE TRIGGER domains_counted AFTER INSERT OR DELETE ON domains FOR EACH ROW EXECUTE FUNCTION count_domains();

CREATE TABLE dns_records (
  id text COLLATE "C" PRIMARY KEY,
  domain_id text NOT NULL REFERENCES domains ON DELETE CASCADE,
  type text COLLATE "C" NOT NULL,
  name text NOT NULL,
  -- DNS compares names without regard to case: conflicts and the list order read this.
  name_key text COLLATE "C" GENERATED ALWAYS AS (lower(name)) STORED,
  content text NOT NULL,
  ttl integer NOT NULL,
  priority integer,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
-- The list order (RecordListPosition); its first two columns find the records at a name.
CREATE INDEX dns_records_in_list_order ON dns_records (domain_id, name_key, type, created_at, id);

CREATE TABLE transfers (
  id text PRIMARY KEY,
  partner_id text NOT NULL,
  user_identifier text COLLATE "C" NOT NULL,
  domain_name text NOT NULL,
  status text NOT NULL,
  auth_code text NOT NULL,
  extend_registration boolean NOT NULL,
  cost bigint NOT NULL,
  currency text NOT NULL,
  started_at timestamptz NOT NULL,
  estimated_completion timestamptz NOT NULL,
  completed_at timestamptz,
  domain_id text,
  history jsonb NOT NULL,
  FOREIGN KEY (partner_id, user_identifier) REFERENCES users ON DELETE CASCADE
);
-- One active transfer per name.
CREATE UNIQUE INDEX one_active_transfer_per_name ON transfers (domain_name) WHERE status IN ('pending', 'in_progress');
CREATE INDEX active_transfers_of_partner ON transfers (partner_id) WHERE status IN ('pending', 'in_progress');
CREATE INDEX transfers_of_user ON transfers (partner_id, user_identifier);

CREATE TABLE login_sessions (
  token_hash text PRIMARY KEY,
  partner_id text NOT NULL,
  user_identifier text COLLATE "C" NOT NULL,
  expires_at timestamptz NOT NULL,
  -- Creation order: a user's oldest sessions end first when it holds too many.
  seq bigint GENERATED ALWAYS AS IDENTITY,
  FOREIGN KEY (partner_id, user_identifier) REFERENCES users ON DELETE CASCADE
);
CREATE INDEX login_sessions_of_user ON login_sessions (partner_id, user_identifier, seq);
CREATE INDEX login_sessions_by_end ON login_sessions (partner_id, expires_at);

CREATE TABLE embed_sessions (
  id_hash text PRIMARY KEY,
  login_token_hash text NOT NULL REFERENCES login_sessions ON DELETE CASCADE,
  partner_id text NOT NULL,
  user_identifier text COLLATE "C" NOT NULL,
  csrf_token text NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX embed_sessions_of_user ON embed_sessions (partner_id, user_identifier, seq);
CREATE INDEX embed_sessions_of_login ON embed_sessions (login_token_hash);

CREATE TABLE ended_embed_sessions (
  id_hash text PRIMARY KEY,
  partner_id text NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX ended_embed_sessions_by_end ON ended_embed_sessions (partner_id, expires_at);

CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  partner_id text NOT NULL,
  url text NOT NULL,
  events text[],
  description text,
  enabled boolean NOT NULL,
  failing boolean NOT NULL,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX webhook_endpoints_of_partner ON webhook_endpoints (partner_id, seq);

-- The outbox: a delivery is written in the transaction of the change that caused it.
CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  endpoint_id text NOT NULL REFERENCES webhook_endpoints ON DELETE CASCADE,
  partner_id text NOT NULL,
  event jsonb NOT NULL,
  status text NOT NULL,
  attempts jsonb NOT NULL,
  next_attempt_at timestamptz,
  created_at timestamptz NOT NULL,
  -- Until when an instance holds it for an attempt (real time); another may take it after.
  claimed_until timestamptz,
  seq bigint GENERATED ALWAYS AS IDENTITY
);
CREATE INDEX webhook_deliveries_of_endpoint ON webhook_deliveries (endpoint_id, seq);
CREATE INDEX webhook_deliveries_pending ON webhook_deliveries (endpoint_id, seq) WHERE status = 'pending';

CREATE TABLE rate_limit_counters (
  key text COLLATE "C" PRIMARY KEY,
  window_start bigint NOT NULL,
  count integer NOT NULL
);

-- Counts a request in every counter, or in none when any is full, in one round trip. Rows are
-- locked in key order, so two requests that share counters never wait on each other in a cycle.
CREATE FUNCTION consume_rate_limits(p_keys text[], p_windows bigint[], p_limits integer[])
RETURNS TABLE (counts integer[], refused integer[]) LANGUAGE plpgsql AS $$
DECLARE
  current_counts integer[] := '{}';
  refusals integer[] := '{}';
  counted integer;
BEGIN
  INSERT INTO rate_limit_counters (key, window_start, count)
    SELECT k, w, 0 FROM unnest(p_keys, p_windows) AS u(k, w) ORDER BY k
    ON CONFLICT (key) DO NOTHING;
  PERFORM 1 FROM rate_limit_counters WHERE key = ANY (p_keys) ORDER BY key FOR UPDATE;
  FOR i IN 1 .. coalesce(array_length(p_keys, 1), 0) LOOP
    SELECT CASE WHEN window_start = p_windows[i] THEN count ELSE 0 END INTO counted FROM rate_limit_counters WHERE key = p_keys[i];
    current_counts := current_counts || counted;
    IF counted >= p_limits[i] THEN
      refusals := refusals || (i - 1);
    END IF;
  END LOOP;
  IF coalesce(array_length(refusals, 1), 0) > 0 THEN
    RETURN QUERY SELECT current_counts, refusals;
    RETURN;
  END IF;
  UPDATE rate_limit_counters AS r
    SET window_start = u.w, count = CASE WHEN r.window_start = u.w THEN r.count + 1 ELSE 1 END
    FROM unnest(p_keys, p_windows) AS u(k, w) WHERE r.key = u.k;
  RETURN QUERY SELECT (SELECT coalesce(array_agg(c + 1 ORDER BY n), '{}') FROM unnest(current_counts) WITH ORDINALITY AS t(c, n)), refusals;
END;
$$;

CREATE TABLE sandbox_clock_offsets (
  partner_id text PRIMARY KEY,
  offset_ms bigint NOT NULL
);

CREATE TABLE api_keys (
  hash text PRIMARY KEY,
  partner_id text NOT NULL,
  partner_name text NOT NULL,
  environment text NOT NULL,
  hint text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX api_keys_by_environment ON api_keys (environment, created_at);

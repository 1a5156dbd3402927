-- Rate limits in one pass (issue 37): every authenticated request calls consume_rate_limits, so
-- its cost is PostgreSQL's share of every request. The function of 0001 inserted the missing
-- counters, locked them, read each in a loop and then updated them: six statements and more. This
-- one counts the request in every counter with one upsert (rows locked in key order, as before, so
-- two requests that share counters never wait on each other in a cycle) and reads the counts it
-- returns. A refused request counts in none: its counts are taken back in the same transaction,
-- before any other request can read those rows, so no request ever sees a count a refusal added.
-- Same signature and answer: counts after the request when it fits (before it when refused), and
-- the positions (from 0) of the full counters.
CREATE OR REPLACE FUNCTION consume_rate_limits(p_keys text[], p_windows bigint[], p_limits integer[])
RETURNS TABLE (counts integer[], refused integer[]) LANGUAGE plpgsql AS $$
DECLARE
  after_counts integer[];
  refusals integer[];
BEGIN
  WITH counted AS (
    INSERT INTO rate_limit_counters AS r (key, window_start, count)
      SELECT k, w, 1 FROM unnest(p_keys, p_windows) AS u(k, w) ORDER BY k
      ON CONFLICT (key) DO UPDATE SET
        window_start = EXCLUDED.window_start,
        count = CASE WHEN r.window_start = EXCLUDED.window_start THEN r.count + 1 ELSE 1 END
      RETURNING r.key, r.count
  )
  SELECT coalesce(array_agg(c.count ORDER BY u.n), '{}'),
         coalesce(array_agg(u.n - 1 ORDER BY u.n) FILTER (WHERE c.count > p_limits[u.n]), '{}')
    INTO after_counts, refusals
    FROM unnest(p_keys) WITH ORDINALITY AS u(k, n) JOIN counted c ON c.key = u.k;
  IF cardinality(refusals) = 0 THEN
    RETURN QUERY SELECT after_counts, refusals;
    RETURN;
  END IF;
  UPDATE rate_limit_counters AS r SET count = r.count - 1 FROM unnest(p_keys) AS u(k) WHERE r.key = u.k;
  RETURN QUERY SELECT (SELECT coalesce(array_agg(c - 1 ORDER BY n), '{}') FROM unnest(after_counts) WITH ORDINALITY AS t(c, n)), refusals;
END;
$$;

-- Request admission (issue 37): on a server, instances keep stored keys and sandbox clock offsets
-- in memory and drop them when notified (0017). A notification arrives a moment after the commit,
-- so a request could reach another instance first. The call every request makes anyway, the rate
-- limits' count, also confirms the stored key (by id: revoked keys are deleted, expired ones have
-- passed expires_at) and reads the partner's clock offset, so that request is answered as the
-- database stands. A key no longer accepted counts nothing, as a request refused at
-- authentication never did.
CREATE FUNCTION admit_request(p_keys text[], p_windows bigint[], p_limits integer[], p_key_id text, p_now timestamptz,
                              p_clock_of text)
RETURNS TABLE (key_accepted boolean, counts integer[], refused integer[], clock_offset_ms bigint) LANGUAGE plpgsql AS $$
BEGIN
  IF p_key_id IS NOT NULL
     AND NOT EXISTS (SELECT 1 FROM api_keys WHERE id = p_key_id AND (expires_at IS NULL OR expires_at > p_now)) THEN
    RETURN QUERY SELECT false, '{}'::integer[], '{}'::integer[], 0::bigint;
    RETURN;
  END IF;
  RETURN QUERY
    SELECT true, c.counts, c.refused,
           CASE WHEN p_clock_of IS NULL THEN 0::bigint
                ELSE coalesce((SELECT offset_ms FROM sandbox_clock_offsets WHERE partner_id = p_clock_of), 0) END
    FROM consume_rate_limits(p_keys, p_windows, p_limits) AS c;
END;
$$;

-- Restricted keys (issue 36): what a stored key may do, and the request log's record of what each
-- key was allowed. Existing keys stay full keys (scopes NULL); expiry is the existing expires_at.
ALTER TABLE api_keys
  -- The scopes of ApiKeyScope the key holds; NULL: a full key.
  ADD COLUMN scopes text[],
  -- {domains, record_names, record_types, client_ips}, each a list or null, checked before it is stored; NULL: none.
  ADD COLUMN restrictions jsonb;

ALTER TABLE request_log
  -- The stored key's id; NULL for keys of the configuration or the partners file (key_name names them).
  ADD COLUMN key_id text COLLATE "C",
  ADD COLUMN scope_decision text NOT NULL DEFAULT 'allowed',
  -- The scope missing or the restriction that refused; NULL when allowed.
  ADD COLUMN scope_detail text;

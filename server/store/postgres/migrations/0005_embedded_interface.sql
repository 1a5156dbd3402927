-- The embedded interface's polish: the language a partner chose for a user session, and the
-- partner's look (accent colour and logo) per environment. A logo is kept whole here: it is small
-- (a limit the dashboard enforces), read rarely (browsers cache it by its version) and must reach
-- every instance.
ALTER TABLE login_sessions ADD COLUMN locale text;

CREATE TABLE embed_branding (
  partner_id text COLLATE "C" NOT NULL,
  environment text NOT NULL,
  accent_colour text,
  logo bytea,
  logo_type text,
  -- A hash of the logo's bytes: its URL carries it, so a changed logo is a new address.
  logo_version text,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (partner_id, environment),
  CHECK ((logo IS NULL) = (logo_type IS NULL) AND (logo IS NULL) = (logo_version IS NULL))
);

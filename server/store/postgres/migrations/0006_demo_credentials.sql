-- The demo partner's sign-in and key as `npm start` first printed them (server/startup/demo-partner.ts),
-- so that every instance and every restart on this database prints the same ones. In plain text on
-- purpose: they are the sandbox demo partner's, and every start prints them anyway. Saved before
-- the demo's account exists, so no reference to it.
CREATE TABLE demo_credentials (
  partner_id text COLLATE "C" PRIMARY KEY,
  password text NOT NULL,
  -- The hash set with the password: the member holding another means it was changed in the dashboard.
  password_hash text NOT NULL,
  key_id text COLLATE "C" NOT NULL,
  api_key text NOT NULL
);

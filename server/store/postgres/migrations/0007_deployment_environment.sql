-- The environment whose deployment owns this database. Sandbox and production never share one:
-- users, domains, records, webhooks and events carry no environment, so a database is one
-- environment's world as a whole. `npm run db:migrate` stamps it with the environment it is run
-- for (server/store/postgres/environment-stamp.ts); a deployment of the other environment refuses
-- to start on it. One row at most.
CREATE TABLE deployment_environment (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  environment text NOT NULL CHECK (environment IN ('sandbox', 'production')),
  stamped_at timestamptz NOT NULL DEFAULT now()
);

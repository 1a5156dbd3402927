-- A domain's delegation at the registry (issue 35): the nameserver change waiting for the registry
-- and the last one it carried out, glue addresses of nameserver hosts under the domain, and DNSSEC
-- DS records. Tables of their own, so the domains' table keeps its columns; each goes with its domain.
CREATE TABLE nameserver_changes (
  domain_id text NOT NULL REFERENCES domains ON DELETE CASCADE,
  -- One pending and one applied per domain at most: a new request replaces the pending one.
  state text NOT NULL CHECK (state IN ('pending', 'applied')),
  partner_id text COLLATE "C" NOT NULL,
  nameservers text[] NOT NULL,
  requested_at timestamptz NOT NULL,
  completes_at timestamptz NOT NULL,
  PRIMARY KEY (domain_id, state)
);
-- What the sweep and a clock advance carry out: each partner's pending changes by when they fall due.
CREATE INDEX pending_nameserver_changes ON nameserver_changes (partner_id, completes_at) WHERE state = 'pending';

CREATE TABLE glue_records (
  domain_id text NOT NULL REFERENCES domains ON DELETE CASCADE,
  host text COLLATE "C" NOT NULL,
  partner_id text COLLATE "C" NOT NULL,
  ipv4 text[] NOT NULL,
  ipv6 text[] NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (domain_id, host),
  CHECK (cardinality(ipv4) + cardinality(ipv6) > 0)
);

CREATE TABLE ds_records (
  id text COLLATE "C" PRIMARY KEY,
  domain_id text NOT NULL REFERENCES domains ON DELETE CASCADE,
  partner_id text COLLATE "C" NOT NULL,
  key_tag integer NOT NULL CHECK (key_tag BETWEEN 0 AND 65535),
  algorithm integer NOT NULL,
  digest_type integer NOT NULL,
  digest text COLLATE "C" NOT NULL,
  created_at timestamptz NOT NULL,
  -- The same DS twice is one record: the API answers 409.
  UNIQUE (domain_id, key_tag, algorithm, digest_type, digest)
);
CREATE INDEX ds_records_of_domain ON ds_records (domain_id, created_at, id);

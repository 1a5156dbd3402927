-- A record's comment and the partner's lock (issue 35): columns of the record itself, read with
-- it on every answer and written in the same statement. Existing records have no comment and are
-- not locked. The comment's bounds are checked before writing (record-annotations.ts); the
-- constraint keeps a database edited by hand within what the API can answer.
ALTER TABLE dns_records
  ADD COLUMN comment text CHECK (char_length(comment) BETWEEN 1 AND 500),
  ADD COLUMN locked boolean NOT NULL DEFAULT false;

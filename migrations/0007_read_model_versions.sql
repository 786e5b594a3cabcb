-- The version of the code that built each kind of document (a hash of its SQL). `migrate` and `serve`
-- rebuild a kind whose stored version is not the running code's, so that after an upgrade that changes a
-- document's SQL, details never disagree with listings. Empty at first: every kind is built once, which
-- also brings the documents up to date with the numbers 0006 trimmed.
CREATE TABLE read_model_versions (
  kind     text PRIMARY KEY,
  version  text NOT NULL
);

-- Never read: every face shows the representative a record names (orders, ARPs, bidding providers).
ALTER TABLE suppliers DROP COLUMN representative_name;

-- Order-query access tokens: one organization each. Only the SHA-256 of the token is stored.
CREATE TABLE access_tokens (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id  uuid NOT NULL REFERENCES organizations (id),
  label            text,
  token_hash       bytea NOT NULL UNIQUE,
  created_at       timestamptz NOT NULL DEFAULT now(),
  revoked_at       timestamptz
);
CREATE INDEX access_tokens_organization ON access_tokens (organization_id);

-- One row per order query: who asked (token id, never the token), for what, and the answer.
CREATE TABLE access_log (
  at               timestamptz NOT NULL,
  token_id         bigint REFERENCES access_tokens (id),
  organization_id  uuid,
  order_number     text,
  status           smallint NOT NULL
);
CREATE INDEX access_log_token_at ON access_log (token_id, at DESC) WHERE token_id IS NOT NULL;
CREATE INDEX access_log_at ON access_log (at);

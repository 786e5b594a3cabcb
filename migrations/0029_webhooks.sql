-- Webhooks (src/webhooks, docs/webhooks.md): the operator's subscriptions, each following the public change
-- log (migrations/0015_change_log.sql) from its own position, and the attempts each made. Every instance's
-- dispatcher delivers them; a subscription's advisory lock keeps one attempt in flight across all instances.

CREATE TABLE IF NOT EXISTS webhook_subscriptions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  url              text NOT NULL,
  -- The kinds it follows (the public feed's kinds); null: every kind.
  kinds            text[],
  -- The listing's filters it takes, as their canonical query text ('' for none).
  filter           text NOT NULL DEFAULT '',
  -- Its signing secret (whsec_ and base64), and during a rotation the one before, which signs too until then.
  secret           text NOT NULL,
  previous_secret  text,
  previous_until   timestamptz,
  -- The last entry of the public change log it has been given or has no need of: it goes on after it.
  position         bigint NOT NULL,
  -- Failed attempts at the entry after its position, and when the next may be made.
  attempts         integer NOT NULL DEFAULT 0,
  next_attempt     timestamptz NOT NULL DEFAULT now(),
  failing_since    timestamptz,
  disabled_at      timestamptz,
  disabled_reason  text,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS webhook_subscriptions_due ON webhook_subscriptions (next_attempt)
  WHERE disabled_at IS NULL;

-- Every attempt: the entry (its sequence in the log), when, the endpoint's status, or why it failed.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  subscription_id  bigint NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  entry            bigint NOT NULL,
  attempted_at     timestamptz NOT NULL DEFAULT now(),
  status           integer,
  error            text,
  milliseconds     integer NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_subscription ON webhook_deliveries (subscription_id, id DESC);

-- Every instance keeps the tokens it has checked, and drops them when told that access_tokens changed: a
-- token issued, revoked or deleted, by `compras token` or by hand in SQL. The notification goes out when the
-- change commits, on the channel that src/channel.ts names TOKENS_CHANNEL.
CREATE OR REPLACE FUNCTION notify_token_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('compras_tokens', '');
  RETURN NULL;
END
$$;

DROP TRIGGER IF EXISTS access_tokens_changed ON access_tokens;
CREATE TRIGGER access_tokens_changed
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON access_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION notify_token_changes();

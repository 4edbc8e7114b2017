-- Web processes keep API keys and merchant settings in memory (README, "Performance") and forget an entry
-- when PostgreSQL tells them it changed. A trigger sends that notice, not the code that writes, so that
-- no write can forget it: the dashboard, the CLI, a future service and an operator's own UPDATE in psql all
-- notify alike. pg_notify inside the writing transaction is delivered when it commits, and never when it
-- rolls back. The payload names the row ('api_key:<id>', 'merchant:<id>'), or '*' to forget everything.
CREATE FUNCTION "notify_cached_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  target text;
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    target := '*';
  ELSIF TG_TABLE_NAME = 'api_keys' THEN
    target := 'api_key:' || COALESCE(NEW."id", OLD."id");
  ELSE
    target := 'merchant:' || COALESCE(NEW."merchant_id", OLD."merchant_id");
  END IF;
  PERFORM pg_notify('cache_changes', target);
  RETURN NULL;
END $$;

-- merchants has "id", the others "merchant_id": its own function keeps the one above simple
CREATE FUNCTION "notify_cached_merchant_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cache_changes', 'merchant:' || COALESCE(NEW."id", OLD."id"));
  RETURN NULL;
END $$;

-- last_used_at moves once a minute per key in use and changes nothing a cached key says
CREATE TRIGGER "api_keys_notify_change" AFTER UPDATE ON "api_keys"
  FOR EACH ROW WHEN ((to_jsonb(OLD) - 'last_used_at') IS DISTINCT FROM (to_jsonb(NEW) - 'last_used_at'))
  EXECUTE FUNCTION "notify_cached_change"();
CREATE TRIGGER "api_keys_notify_insert_or_delete" AFTER INSERT OR DELETE ON "api_keys"
  FOR EACH ROW EXECUTE FUNCTION "notify_cached_change"();
CREATE TRIGGER "merchants_notify_change" AFTER UPDATE OR DELETE ON "merchants"
  FOR EACH ROW EXECUTE FUNCTION "notify_cached_merchant_change"();
CREATE TRIGGER "approved_websites_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "approved_websites"
  FOR EACH ROW EXECUTE FUNCTION "notify_cached_change"();
CREATE TRIGGER "api_keys_notify_truncate" AFTER TRUNCATE ON "api_keys"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_cached_change"();
CREATE TRIGGER "merchants_notify_truncate" AFTER TRUNCATE ON "merchants"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_cached_change"();
CREATE TRIGGER "approved_websites_notify_truncate" AFTER TRUNCATE ON "approved_websites"
  FOR EACH STATEMENT EXECUTE FUNCTION "notify_cached_change"();

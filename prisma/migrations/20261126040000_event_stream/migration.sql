-- GET /v1/events/stream (README, "Event stream"). An open stream reads its merchant's new events after a
-- cursor: "seq" numbers events in the order they were written (created_at is the connection's clock, which
-- a test clock moves, and ids are random). Existing rows get numbers in their physical order.
ALTER TABLE "events" ADD COLUMN "seq" BIGSERIAL NOT NULL;
CREATE INDEX "events_merchant_id_seq_idx" ON "events" ("merchant_id", "seq");

-- Every process LISTENs on one connection (lib/db/change-notices.ts); this tells it that an event was
-- committed, whichever process wrote it (a web process, the worker, the CLI), so that its open streams read
-- it at once. The payload is '<merchant id> <event id>'. A notice is sent on commit, never on rollback.
CREATE FUNCTION "notify_event_created"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('event_created', NEW."merchant_id" || ' ' || NEW."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "events_notify_insert" AFTER INSERT ON "events"
  FOR EACH ROW EXECUTE FUNCTION "notify_event_created"();

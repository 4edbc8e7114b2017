-- A test event sent from the dashboard is logged as a delivery of its endpoint, with its one attempt, so
-- it shows among the endpoint's deliveries. It is not a stored event (it would show in /v1/events), so
-- such a delivery names none: event_id is null exactly for webhook_endpoint.test. It is never retried.
ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_id" DROP NOT NULL;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_test_has_no_event_check"
    CHECK (("event_id" IS NULL) = ("event_type" = 'webhook_endpoint.test'));

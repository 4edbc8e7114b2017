-- Webhook fault injection (api.md §16, lib/webhooks/faults.ts): each endpoint's faults, the numbering that a
-- seed makes reproducible, the injected duplicate's due time, and which attempts were injected.
ALTER TABLE "webhook_endpoints"
    ADD COLUMN "fault_duplicate_rate" DOUBLE PRECISION NOT NULL DEFAULT 0,
    ADD COLUMN "fault_delay_seconds" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "fault_shuffle" BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN "fault_seed" BIGINT,
    -- the number of the last delivery made for the endpoint since its seed was set
    ADD COLUMN "fault_sequence" BIGINT NOT NULL DEFAULT 0,
    ADD CONSTRAINT "webhook_endpoints_fault_duplicate_rate_range" CHECK ("fault_duplicate_rate" BETWEEN 0 AND 1),
    ADD CONSTRAINT "webhook_endpoints_fault_delay_seconds_range" CHECK ("fault_delay_seconds" BETWEEN 0 AND 3600);

ALTER TABLE "webhook_deliveries"
    ADD COLUMN "fault_number" BIGINT,
    ADD COLUMN "duplicate_due_at" TIMESTAMPTZ(3);

-- the worker's claim of due duplicates: the few deliveries with one waiting
CREATE INDEX "webhook_deliveries_duplicate_due_at_idx" ON "webhook_deliveries"("duplicate_due_at")
    WHERE "duplicate_due_at" IS NOT NULL;

ALTER TABLE "webhook_attempts" ADD COLUMN "injected" TEXT;

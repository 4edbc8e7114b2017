-- The worker's queues compare each row with its own merchant's time (a test clock's offset, api.md §15). They
-- scan in two parts (claimOnEachClock in lib/test-clocks/repository.ts): what is due by the wall clock, through
-- the indexes they had, then what is due only on an advanced clock, through the few merchants whose offset is
-- above zero and these indexes of their rows. One merchant's clock a year ahead used to widen every scan to
-- every merchant's rows due within that year.
CREATE INDEX "merchants_advanced_clock_idx" ON "merchants" ("id") WHERE "clock_offset_seconds" > 0;
CREATE INDEX "checkout_sessions_open_merchant_id_expires_at_idx"
    ON "checkout_sessions" ("merchant_id", "expires_at") WHERE "status" = 'open';
CREATE INDEX "refund_requests_processing_merchant_id_processing_at_idx"
    ON "refund_requests" ("merchant_id", "processing_at") WHERE "status" = 'processing';
CREATE INDEX "webhook_deliveries_pending_endpoint_id_next_attempt_at_idx"
    ON "webhook_deliveries" ("endpoint_id", "next_attempt_at") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_endpoint_id_duplicate_due_at_idx"
    ON "webhook_deliveries" ("endpoint_id", "duplicate_due_at") WHERE "duplicate_due_at" IS NOT NULL;

-- Indexes for every filter that /v1 and the dashboard offer, so that a page, a lookup or a filter reads
-- the rows it shows and not the merchant's whole history (README, "Performance"; lib/db/explain.test.ts
-- fails when one of them is missing). A list's index leads with merchant_id and the filtered column and
-- ends in the lists' order, newest first with the id breaking ties, so a filtered page is one index range.

-- partial matches of order references (the dashboard's search) through trigram indexes
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "payments_merchant_id_order_reference_created_at_id_idx"
    ON "payments"("merchant_id", "order_reference", "created_at" DESC, "id" DESC);
CREATE INDEX "payments_merchant_id_status_created_at_id_idx"
    ON "payments"("merchant_id", "status", "created_at" DESC, "id" DESC);
CREATE INDEX "payments_merchant_id_payment_method_created_at_id_idx"
    ON "payments"("merchant_id", "payment_method", "created_at" DESC, "id" DESC);
CREATE INDEX "payments_merchant_id_currency_created_at_id_idx"
    ON "payments"("merchant_id", "currency", "created_at" DESC, "id" DESC);
-- the dashboard's "refunded" and "partially refunded" filters: the few payments with money back, in the
-- conditions lib/payments/repository.ts writes
CREATE INDEX "payments_refunded_merchant_id_created_at_id_idx"
    ON "payments"("merchant_id", "created_at" DESC, "id" DESC) WHERE "amount_refunded" >= "amount";
CREATE INDEX "payments_partially_refunded_merchant_id_created_at_id_idx"
    ON "payments"("merchant_id", "created_at" DESC, "id" DESC)
    WHERE "amount_refunded" > 0 AND "amount_refunded" < "amount";
-- a session's attempts, and a payment link's payments (through its sessions)
CREATE INDEX "payments_checkout_session_id_idx" ON "payments"("checkout_session_id");
CREATE INDEX "payments_order_reference_idx" ON "payments" USING GIN ("order_reference" gin_trgm_ops);

CREATE INDEX "checkout_sessions_merchant_id_order_reference_created_at_id_idx"
    ON "checkout_sessions"("merchant_id", "order_reference", "created_at" DESC, "id" DESC);
CREATE INDEX "checkout_sessions_merchant_id_status_created_at_id_idx"
    ON "checkout_sessions"("merchant_id", "status", "created_at" DESC, "id" DESC);
-- a payment link's sales: its complete sessions' amounts, read from the index alone
CREATE INDEX "checkout_sessions_payment_link_id_complete_idx"
    ON "checkout_sessions"("payment_link_id") INCLUDE ("merchant_id", "amount") WHERE "status" = 'complete';
CREATE INDEX "checkout_sessions_order_reference_idx" ON "checkout_sessions" USING GIN ("order_reference" gin_trgm_ops);

CREATE INDEX "refund_requests_merchant_id_status_created_at_id_idx"
    ON "refund_requests"("merchant_id", "status", "created_at" DESC, "id" DESC);

-- the timelines find an object's events by data.object.id, in the expression Prisma writes for that path
CREATE INDEX "events_merchant_id_object_id_idx" ON "events"("merchant_id", ("data" #> ARRAY['object', 'id']));
-- retention: the worker deletes the oldest rows first
CREATE INDEX "events_created_at_idx" ON "events"("created_at");
CREATE INDEX "webhook_attempts_created_at_idx" ON "webhook_attempts"("created_at");

-- Developers → Logs pages by id, newest first, and filters by status code or class
CREATE INDEX "api_request_logs_merchant_id_id_idx" ON "api_request_logs"("merchant_id", "id" DESC);
CREATE INDEX "api_request_logs_merchant_id_status_id_idx" ON "api_request_logs"("merchant_id", "status", "id" DESC);

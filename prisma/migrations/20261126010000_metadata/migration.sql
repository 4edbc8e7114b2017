-- The merchant's own key/value pairs on sessions, payments, refund requests and payment links (api.md §14).
-- jsonb, so POST /v1/payment-links/{id} can merge keys inside its UPDATE (|| and -) and concurrent updates
-- with different keys both keep theirs. A constant default adds the column without rewriting the tables.
ALTER TABLE "checkout_sessions" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "payments" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "refund_requests" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';
ALTER TABLE "payment_links" ADD COLUMN "metadata" JSONB NOT NULL DEFAULT '{}';

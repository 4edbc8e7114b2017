-- The lists of sessions, payments and refund requests filter by one metadata pair (metadata[key]=value): the
-- repositories ask `"metadata" @> '{"key":"value"}'`, which a GIN index of jsonb_path_ops answers without reading
-- the merchant's rows that lack the pair (lib/db/explain.test.ts). The merchant's own condition is checked on
-- the few rows it finds.
CREATE INDEX "checkout_sessions_metadata_idx" ON "checkout_sessions" USING GIN ("metadata" jsonb_path_ops);
CREATE INDEX "payments_metadata_idx" ON "payments" USING GIN ("metadata" jsonb_path_ops);
CREATE INDEX "refund_requests_metadata_idx" ON "refund_requests" USING GIN ("metadata" jsonb_path_ops);

-- Which API key made each logged request, for Developers → Logs (its name or prefix in the list, a filter
-- by key, the detail page). Null for the requests logged before this column. No foreign key: a key is
-- revoked, never deleted, and a log row must not hold up a merchant's deletion.
ALTER TABLE "api_request_logs" ADD COLUMN "api_key_id" TEXT;

-- the filter by key, newest first
CREATE INDEX "api_request_logs_merchant_id_api_key_id_id_idx" ON "api_request_logs"("merchant_id", "api_key_id", "id" DESC);

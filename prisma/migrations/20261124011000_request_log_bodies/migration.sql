-- Developers → Logs shows each request's body and the answer's, with secrets redacted and each cut at
-- 16 KiB before it is written (lib/api-logs/redact.ts). Text, not JSONB: a cut body is no longer JSON.
-- Null where there was no body (GET) or none could be read. Kept, like the rest of the row, 30 days.
ALTER TABLE "api_request_logs" ADD COLUMN "request_body" TEXT;
ALTER TABLE "api_request_logs" ADD COLUMN "response_body" TEXT;

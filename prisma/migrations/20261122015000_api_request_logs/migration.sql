-- What the /v1 wrapper saw of each authenticated request, shown in Developers → Logs.
CREATE TABLE "api_request_logs" (
    "id" BIGSERIAL NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "method" TEXT NOT NULL,
    "path" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "request_id" TEXT NOT NULL,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "api_request_logs_merchant_id_created_at_id_idx" ON "api_request_logs"("merchant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "api_request_logs_created_at_idx" ON "api_request_logs"("created_at");

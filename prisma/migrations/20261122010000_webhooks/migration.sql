-- Webhooks: endpoints, one delivery row per (event, endpoint) written with the event, and the log of
-- every attempt. Workers claim due deliveries with FOR UPDATE SKIP LOCKED.

CREATE TYPE "WebhookEndpointStatus" AS ENUM ('enabled', 'disabled');
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "events" TEXT[] NOT NULL CHECK (cardinality("events") > 0),
    "status" "WebhookEndpointStatus" NOT NULL DEFAULT 'enabled',
    "secret" TEXT NOT NULL CHECK ("secret" LIKE 'whsec\_%'),
    "previous_secret" TEXT,
    "previous_secret_expires_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    CHECK (("previous_secret" IS NULL) = ("previous_secret_expires_at" IS NULL))
);
CREATE INDEX "webhook_endpoints_merchant_id_created_at_id_idx" ON "webhook_endpoints"("merchant_id", "created_at" DESC, "id" DESC);

CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "event_id" TEXT NOT NULL REFERENCES "events"("id") ON DELETE CASCADE,
    "event_type" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempt_count" INTEGER NOT NULL DEFAULT 0 CHECK ("attempt_count" >= 0),
    "next_attempt_at" TIMESTAMPTZ(3),
    "last_attempt_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- only a pending delivery is ever claimed again
    CHECK (("status" = 'pending') = ("next_attempt_at" IS NOT NULL))
);
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_key" ON "webhook_deliveries"("event_id", "endpoint_id");
CREATE INDEX "webhook_deliveries_endpoint_id_created_at_id_idx" ON "webhook_deliveries"("endpoint_id", "created_at" DESC, "id" DESC);
-- the workers' claim looks only at pending deliveries, oldest due first
CREATE INDEX "webhook_deliveries_pending_next_attempt_at_idx" ON "webhook_deliveries"("next_attempt_at") WHERE "status" = 'pending';

CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL PRIMARY KEY,
    "delivery_id" TEXT NOT NULL REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE,
    "attempt" INTEGER NOT NULL CHECK ("attempt" >= 1),
    "response_status" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL CHECK ("duration_ms" >= 0),
    "response_excerpt" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
-- one log row per attempt number: a claim hands each number to one worker
CREATE UNIQUE INDEX "webhook_attempts_delivery_id_attempt_key" ON "webhook_attempts"("delivery_id", "attempt");

-- GET /v1/events?type=… pages through one merchant's events of one type
CREATE INDEX "events_merchant_id_type_created_at_id_idx" ON "events"("merchant_id", "type", "created_at" DESC, "id" DESC);

-- The initial model: merchants and their keys, orders, checkout sessions, payments, refund requests,
-- idempotency keys and the event outbox. Constraints back the money rules the services check first.

CREATE TYPE "PaymentMethod" AS ENUM ('card', 'usdc', 'interac');
CREATE TYPE "Currency" AS ENUM ('CAD', 'USD');
CREATE TYPE "RefundPolicy" AS ENUM ('automatic', 'manual');
CREATE TYPE "OrderStatus" AS ENUM ('unpaid', 'paid');
CREATE TYPE "CheckoutSessionStatus" AS ENUM ('open', 'complete', 'expired');
CREATE TYPE "PaymentStatus" AS ENUM ('succeeded', 'failed');
CREATE TYPE "RefundStatus" AS ENUM ('requested', 'processing', 'completed', 'failed', 'declined', 'canceled');

CREATE TABLE "merchants" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "payment_methods" "PaymentMethod"[] NOT NULL,
    "refund_policy" "RefundPolicy" NOT NULL DEFAULT 'automatic',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE "approved_websites" (
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "host" TEXT NOT NULL CHECK ("host" = lower("host") AND "host" <> ''),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY ("merchant_id", "host")
);

CREATE TABLE "users" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "email" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "scopes" TEXT[] NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMPTZ(3),
    "revoked_at" TIMESTAMPTZ(3)
);
CREATE UNIQUE INDEX "api_keys_hash_key" ON "api_keys"("hash");
CREATE INDEX "api_keys_merchant_id_idx" ON "api_keys"("merchant_id");

CREATE TABLE "orders" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "reference" TEXT NOT NULL,
    "status" "OrderStatus" NOT NULL DEFAULT 'unpaid',
    "payment_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CHECK (("status" = 'paid') = ("payment_id" IS NOT NULL))
);
CREATE UNIQUE INDEX "orders_merchant_id_reference_key" ON "orders"("merchant_id", "reference");

CREATE TABLE "checkout_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "order_id" TEXT NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
    "order_reference" TEXT NOT NULL,
    "status" "CheckoutSessionStatus" NOT NULL DEFAULT 'open',
    "currency" "Currency" NOT NULL,
    "amount" INTEGER NOT NULL CHECK ("amount" BETWEEN 1 AND 99999999),
    "shipping_amount" INTEGER NOT NULL CHECK ("shipping_amount" >= 0),
    "tax_amount" INTEGER NOT NULL CHECK ("tax_amount" >= 0),
    "payment_methods" "PaymentMethod"[] NOT NULL CHECK (cardinality("payment_methods") > 0),
    "return_url" TEXT NOT NULL,
    "cancel_url" TEXT,
    "payment_id" TEXT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "expired_at" TIMESTAMPTZ(3),
    CHECK (("status" = 'complete') = ("payment_id" IS NOT NULL))
);
CREATE INDEX "checkout_sessions_merchant_id_created_at_id_idx" ON "checkout_sessions"("merchant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "checkout_sessions_order_id_idx" ON "checkout_sessions"("order_id");
-- the expiry sweep looks only at open sessions
CREATE INDEX "checkout_sessions_open_expires_at_idx" ON "checkout_sessions"("expires_at") WHERE "status" = 'open';

CREATE TABLE "checkout_items" (
    "checkout_session_id" TEXT NOT NULL REFERENCES "checkout_sessions"("id") ON DELETE CASCADE,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL CHECK ("quantity" BETWEEN 1 AND 10000),
    "unit_amount" INTEGER NOT NULL CHECK ("unit_amount" BETWEEN 0 AND 99999999),
    PRIMARY KEY ("checkout_session_id", "position")
);

CREATE TABLE "payments" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "order_id" TEXT NOT NULL REFERENCES "orders"("id") ON DELETE CASCADE,
    "order_reference" TEXT NOT NULL,
    "checkout_session_id" TEXT NOT NULL REFERENCES "checkout_sessions"("id") ON DELETE CASCADE,
    "status" "PaymentStatus" NOT NULL,
    "amount" INTEGER NOT NULL CHECK ("amount" > 0),
    "currency" "Currency" NOT NULL,
    "payment_method" "PaymentMethod" NOT NULL,
    "method_details" JSONB NOT NULL,
    "failure_code" TEXT,
    "amount_reserved" INTEGER NOT NULL DEFAULT 0,
    "amount_refunded" INTEGER NOT NULL DEFAULT 0,
    "refunds_fail_in_sandbox" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- never refund more than was paid, and only what was reserved
    CONSTRAINT "payments_amount_reserved_check" CHECK ("amount_reserved" BETWEEN 0 AND "amount"),
    CONSTRAINT "payments_amount_refunded_check" CHECK ("amount_refunded" BETWEEN 0 AND "amount_reserved"),
    CONSTRAINT "payments_refunds_need_success_check" CHECK ("status" = 'succeeded' OR "amount_reserved" = 0)
);
CREATE INDEX "payments_merchant_id_created_at_id_idx" ON "payments"("merchant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "payments_order_id_idx" ON "payments"("order_id");
-- an order is paid at most once
CREATE UNIQUE INDEX "payments_one_success_per_order" ON "payments"("order_id") WHERE "status" = 'succeeded';

CREATE TABLE "refund_requests" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "payment_id" TEXT NOT NULL REFERENCES "payments"("id") ON DELETE CASCADE,
    "amount" INTEGER NOT NULL CHECK ("amount" > 0),
    "currency" "Currency" NOT NULL,
    "status" "RefundStatus" NOT NULL DEFAULT 'requested',
    "reason" TEXT,
    "crypto_refund_destination_note" TEXT,
    "failure_reason" TEXT,
    "processing_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "refund_requests_merchant_id_created_at_id_idx" ON "refund_requests"("merchant_id", "created_at" DESC, "id" DESC);
CREATE INDEX "refund_requests_payment_id_idx" ON "refund_requests"("payment_id");
CREATE INDEX "refund_requests_status_idx" ON "refund_requests"("status");

CREATE TABLE "idempotency_keys" (
    "id" BIGSERIAL NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "endpoint" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "response_status" INTEGER,
    "response_body" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE UNIQUE INDEX "idempotency_keys_merchant_id_endpoint_key_key" ON "idempotency_keys"("merchant_id", "endpoint", "key");
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys"("created_at");

CREATE TABLE "events" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "events_merchant_id_created_at_id_idx" ON "events"("merchant_id", "created_at" DESC, "id" DESC);

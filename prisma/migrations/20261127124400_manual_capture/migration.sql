-- Manual capture: a session says how its card payment is captured; a payment says how much of it was captured
-- and, when an authorization was canceled, when and why. A held authorization keeps its order as a succeeded
-- payment does (the order's row says paid, and the one-per-order index covers both), until it is canceled.
CREATE TYPE "CaptureMethod" AS ENUM ('automatic', 'manual');

ALTER TABLE "checkout_sessions" ADD COLUMN "capture_method" "CaptureMethod" NOT NULL DEFAULT 'automatic';

ALTER TABLE "payments"
    ADD COLUMN "capture_method" "CaptureMethod" NOT NULL DEFAULT 'automatic',
    ADD COLUMN "amount_captured" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "canceled_at" TIMESTAMPTZ(3),
    ADD COLUMN "cancellation_reason" TEXT;

UPDATE "payments" SET "amount_captured" = "amount" WHERE "status" = 'succeeded';

-- refunds reach at most what was captured
ALTER TABLE "payments"
    DROP CONSTRAINT "payments_amount_reserved_check",
    ADD CONSTRAINT "payments_amount_captured_check" CHECK ("amount_captured" BETWEEN 0 AND "amount"),
    ADD CONSTRAINT "payments_amount_reserved_check" CHECK ("amount_reserved" BETWEEN 0 AND "amount_captured"),
    ADD CONSTRAINT "payments_cancellation_reason_check"
        CHECK ("cancellation_reason" IN ('requested_by_merchant', 'expired')),
    ADD CONSTRAINT "payments_canceled_check"
        CHECK (("status" = 'canceled') = ("canceled_at" IS NOT NULL AND "cancellation_reason" IS NOT NULL));

-- one order, one payment that holds or took its money
DROP INDEX "payments_one_success_per_order";
CREATE UNIQUE INDEX "payments_one_success_per_order" ON "payments"("order_id")
    WHERE "status" IN ('succeeded', 'requires_capture');

-- the worker's sweep of authorizations past their 7 days: only those waiting, oldest first
CREATE INDEX "payments_requires_capture_created_at_idx" ON "payments"("created_at")
    WHERE "status" = 'requires_capture';

-- Home counts captured money: a payment's share is what was captured of it, and changes when it is captured
CREATE OR REPLACE FUNCTION "payments_to_figures"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM "add_to_payment_figures"(OLD."merchant_id", OLD."created_at", OLD."currency",
            -(CASE WHEN OLD."status" = 'succeeded' THEN OLD."amount_captured" ELSE 0 END),
            -(OLD."status" = 'succeeded')::int, -(OLD."status" = 'failed')::int, 0, 0);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM "add_to_payment_figures"(NEW."merchant_id", NEW."created_at", NEW."currency",
            CASE WHEN NEW."status" = 'succeeded' THEN NEW."amount_captured" ELSE 0 END,
            (NEW."status" = 'succeeded')::int, (NEW."status" = 'failed')::int, 0, 0);
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER "payments_to_figures_on_change" ON "payments";
CREATE TRIGGER "payments_to_figures_on_change"
    AFTER UPDATE OF "merchant_id", "created_at", "currency", "status", "amount_captured" ON "payments"
    FOR EACH ROW WHEN ((OLD."merchant_id", OLD."created_at", OLD."currency", OLD."status", OLD."amount_captured")
        IS DISTINCT FROM (NEW."merchant_id", NEW."created_at", NEW."currency", NEW."status", NEW."amount_captured"))
    EXECUTE FUNCTION "payments_to_figures"();

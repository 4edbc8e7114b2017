-- Home's 30-day figures without reading 30 days of payments: sums per merchant, currency and quarter hour,
-- kept by triggers in the statement that writes each payment or refund, so they are exact at every commit
-- (lib/payments/figures.test.ts recounts them after a mix of concurrent payments and refunds). A quarter
-- hour because every time zone's offset is a whole number of quarter hours: each one lies within one local
-- day wherever the dashboard is read. Writers add to one of 8 slots at random, so concurrent payments of a
-- merchant rarely wait on the same row; readers sum the slots.
CREATE TABLE "payment_figures" (
    "merchant_id" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(3) NOT NULL,
    "currency" "Currency" NOT NULL,
    "slot" INTEGER NOT NULL,
    -- succeeded payments: their sum and count; failed attempts
    "gross" BIGINT NOT NULL DEFAULT 0,
    "succeeded" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    -- active refunds (requested, processing, completed), by when they were requested
    "refunded" BIGINT NOT NULL DEFAULT 0,
    "refunds" INTEGER NOT NULL DEFAULT 0,
    -- no foreign key: rows of a deleted merchant are left at zero by the triggers of its cascade
    CONSTRAINT "payment_figures_pkey" PRIMARY KEY ("merchant_id", "period_start", "currency", "slot")
);

CREATE FUNCTION "add_to_payment_figures"(
    merchant TEXT, at TIMESTAMPTZ, cur "Currency",
    gross BIGINT, succeeded INTEGER, failed INTEGER, refunded BIGINT, refunds INTEGER
) RETURNS VOID LANGUAGE sql AS $$
    INSERT INTO "payment_figures" AS f
        ("merchant_id", "period_start", "currency", "slot", "gross", "succeeded", "failed", "refunded", "refunds")
    VALUES (merchant, date_bin('15 minutes', at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), cur, floor(random() * 8)::int,
            gross, succeeded, failed, refunded, refunds)
    ON CONFLICT ("merchant_id", "period_start", "currency", "slot") DO UPDATE SET
        "gross" = f."gross" + excluded."gross",
        "succeeded" = f."succeeded" + excluded."succeeded",
        "failed" = f."failed" + excluded."failed",
        "refunded" = f."refunded" + excluded."refunded",
        "refunds" = f."refunds" + excluded."refunds"
$$;

-- a payment counts by its status; a change takes the old row's share out and puts the new one's in
CREATE FUNCTION "payments_to_figures"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM "add_to_payment_figures"(OLD."merchant_id", OLD."created_at", OLD."currency",
            -(CASE WHEN OLD."status" = 'succeeded' THEN OLD."amount" ELSE 0 END),
            -(OLD."status" = 'succeeded')::int, -(OLD."status" = 'failed')::int, 0, 0);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM "add_to_payment_figures"(NEW."merchant_id", NEW."created_at", NEW."currency",
            CASE WHEN NEW."status" = 'succeeded' THEN NEW."amount" ELSE 0 END,
            (NEW."status" = 'succeeded')::int, (NEW."status" = 'failed')::int, 0, 0);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "payments_to_figures" AFTER INSERT OR DELETE ON "payments"
    FOR EACH ROW EXECUTE FUNCTION "payments_to_figures"();
CREATE TRIGGER "payments_to_figures_on_change"
    AFTER UPDATE OF "merchant_id", "created_at", "currency", "status", "amount" ON "payments"
    FOR EACH ROW WHEN ((OLD."merchant_id", OLD."created_at", OLD."currency", OLD."status", OLD."amount")
        IS DISTINCT FROM (NEW."merchant_id", NEW."created_at", NEW."currency", NEW."status", NEW."amount"))
    EXECUTE FUNCTION "payments_to_figures"();

-- a refund counts while active; requested → processing → completed changes nothing and writes nothing
CREATE FUNCTION "refund_requests_to_figures"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" IN ('requested', 'processing', 'completed') THEN
        PERFORM "add_to_payment_figures"(OLD."merchant_id", OLD."created_at", OLD."currency", 0, 0, 0, -OLD."amount", -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."status" IN ('requested', 'processing', 'completed') THEN
        PERFORM "add_to_payment_figures"(NEW."merchant_id", NEW."created_at", NEW."currency", 0, 0, 0, NEW."amount", 1);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER "refund_requests_to_figures" AFTER INSERT OR DELETE ON "refund_requests"
    FOR EACH ROW EXECUTE FUNCTION "refund_requests_to_figures"();
CREATE TRIGGER "refund_requests_to_figures_on_change"
    AFTER UPDATE OF "merchant_id", "created_at", "currency", "status", "amount" ON "refund_requests"
    FOR EACH ROW WHEN ((OLD."merchant_id", OLD."created_at", OLD."currency", OLD."amount",
                        OLD."status" IN ('requested', 'processing', 'completed'))
        IS DISTINCT FROM (NEW."merchant_id", NEW."created_at", NEW."currency", NEW."amount",
                        NEW."status" IN ('requested', 'processing', 'completed')))
    EXECUTE FUNCTION "refund_requests_to_figures"();

-- what was there before the triggers
INSERT INTO "payment_figures"
    ("merchant_id", "period_start", "currency", "slot", "gross", "succeeded", "failed", "refunded", "refunds")
SELECT "merchant_id", "period_start", "currency", 0, sum("gross"), sum("succeeded"), sum("failed"), sum("refunded"), sum("refunds")
FROM (
    SELECT "merchant_id", date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00') AS "period_start",
           "currency", CASE WHEN "status" = 'succeeded' THEN "amount" ELSE 0 END AS "gross",
           ("status" = 'succeeded')::int AS "succeeded", ("status" = 'failed')::int AS "failed",
           0 AS "refunded", 0 AS "refunds"
    FROM "payments"
    UNION ALL
    SELECT "merchant_id", date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), "currency",
           0, 0, 0, "amount", 1
    FROM "refund_requests" WHERE "status" IN ('requested', 'processing', 'completed')
) AS rows
GROUP BY "merchant_id", "period_start", "currency";

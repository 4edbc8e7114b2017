-- Home's "Refunds" and "Refund rate" count money given back: completed refunds only, not ones still waiting
-- for approval or for the provider. A refund now enters the figures when it completes (still on the day it
-- was requested) and leaves them if it ever stops being completed; the figures are recounted to match.
CREATE OR REPLACE FUNCTION "refund_requests_to_figures"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" = 'completed' THEN
        PERFORM "add_to_payment_figures"(OLD."merchant_id", OLD."created_at", OLD."currency", 0, 0, 0, -OLD."amount", -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."status" = 'completed' THEN
        PERFORM "add_to_payment_figures"(NEW."merchant_id", NEW."created_at", NEW."currency", 0, 0, 0, NEW."amount", 1);
    END IF;
    RETURN NULL;
END $$;

DROP TRIGGER "refund_requests_to_figures_on_change" ON "refund_requests";
CREATE TRIGGER "refund_requests_to_figures_on_change"
    AFTER UPDATE OF "merchant_id", "created_at", "currency", "status", "amount" ON "refund_requests"
    FOR EACH ROW WHEN ((OLD."merchant_id", OLD."created_at", OLD."currency", OLD."amount", OLD."status" = 'completed')
        IS DISTINCT FROM (NEW."merchant_id", NEW."created_at", NEW."currency", NEW."amount", NEW."status" = 'completed'))
    EXECUTE FUNCTION "refund_requests_to_figures"();

-- the refunds already counted, recounted: every row's refund share to zero, then the completed ones added
UPDATE "payment_figures" SET "refunded" = 0, "refunds" = 0 WHERE "refunded" <> 0 OR "refunds" <> 0;
INSERT INTO "payment_figures" AS f
    ("merchant_id", "period_start", "currency", "slot", "gross", "succeeded", "failed", "refunded", "refunds")
SELECT "merchant_id", date_bin('15 minutes', "created_at", TIMESTAMPTZ '2000-01-01 00:00:00+00'), "currency", 0,
       0, 0, 0, sum("amount"), count(*)
FROM "refund_requests" WHERE "status" = 'completed'
GROUP BY 1, 2, 3
ON CONFLICT ("merchant_id", "period_start", "currency", "slot") DO UPDATE SET
    "refunded" = f."refunded" + excluded."refunded",
    "refunds" = f."refunds" + excluded."refunds";

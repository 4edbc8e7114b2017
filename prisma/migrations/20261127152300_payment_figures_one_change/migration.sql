-- A payment whose merchant, day and currency stay the same (a capture, a cancel, any status change) changes
-- Home's figures by one delta in one slot. Taking OLD out of one random slot and adding NEW to another locked
-- two rows in an order of chance, and concurrent captures of different payments deadlocked on them.
CREATE OR REPLACE FUNCTION "payments_to_figures"() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' AND (OLD."merchant_id", OLD."created_at", OLD."currency")
            IS NOT DISTINCT FROM (NEW."merchant_id", NEW."created_at", NEW."currency") THEN
        PERFORM "add_to_payment_figures"(NEW."merchant_id", NEW."created_at", NEW."currency",
            (CASE WHEN NEW."status" = 'succeeded' THEN NEW."amount_captured" ELSE 0 END)
              - (CASE WHEN OLD."status" = 'succeeded' THEN OLD."amount_captured" ELSE 0 END),
            (NEW."status" = 'succeeded')::int - (OLD."status" = 'succeeded')::int,
            (NEW."status" = 'failed')::int - (OLD."status" = 'failed')::int, 0, 0);
        RETURN NULL;
    END IF;
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

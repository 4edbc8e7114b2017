-- A payment is refunded when all it captured went back, not all it authorized: an authorization captured in
-- part and refunded in full reads "refunded". The dashboard's two filters compare amount_refunded with
-- amount_captured (lib/payments/repository.ts), so their partial indexes follow, in the same conditions.
DROP INDEX "payments_refunded_merchant_id_created_at_id_idx";
CREATE INDEX "payments_refunded_merchant_id_created_at_id_idx"
    ON "payments"("merchant_id", "created_at" DESC, "id" DESC)
    WHERE "amount_refunded" > 0 AND "amount_refunded" >= "amount_captured";
DROP INDEX "payments_partially_refunded_merchant_id_created_at_id_idx";
CREATE INDEX "payments_partially_refunded_merchant_id_created_at_id_idx"
    ON "payments"("merchant_id", "created_at" DESC, "id" DESC)
    WHERE "amount_refunded" > 0 AND "amount_refunded" < "amount_captured";

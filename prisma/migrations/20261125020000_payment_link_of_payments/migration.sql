-- A payment link's page lists its payments newest first, a page at a time. The link is copied from the
-- session onto each payment as it is made, so that list is one index range instead of a walk of every
-- payment of the merchant, probing each one's session (140–220 ms at a million payments).
ALTER TABLE "payments" ADD COLUMN "payment_link_id" TEXT REFERENCES "payment_links"("id") ON DELETE SET NULL;

UPDATE "payments" AS p SET "payment_link_id" = s."payment_link_id"
FROM "checkout_sessions" AS s
WHERE s."id" = p."checkout_session_id" AND s."payment_link_id" IS NOT NULL;

CREATE INDEX "payments_merchant_id_payment_link_id_created_at_id_idx"
    ON "payments"("merchant_id", "payment_link_id", "created_at" DESC, "id" DESC) WHERE "payment_link_id" IS NOT NULL;

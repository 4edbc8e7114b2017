-- Payment links (api.md §10): a shareable page for a fixed amount. Each "Pay" makes a fresh order,
-- referenced "{link id}-{n}" with n from order_count, and a checkout session that points back to its link.

CREATE TABLE "payment_links" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "merchant_id" TEXT NOT NULL REFERENCES "merchants"("id") ON DELETE CASCADE,
    "name" TEXT NOT NULL CHECK (char_length("name") BETWEEN 1 AND 200),
    "description" TEXT CHECK (char_length("description") <= 1000),
    "amount" INTEGER NOT NULL CHECK ("amount" BETWEEN 1 AND 99999999),
    "currency" "Currency" NOT NULL,
    -- empty: every approved method that takes the currency, decided when someone pays
    "payment_methods" "PaymentMethod"[] NOT NULL DEFAULT '{}',
    "after_payment_url" TEXT CHECK ("after_payment_url" ~ '^https?://'),
    "active" BOOLEAN NOT NULL DEFAULT true,
    "order_count" INTEGER NOT NULL DEFAULT 0 CHECK ("order_count" >= 0),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX "payment_links_merchant_id_created_at_id_idx" ON "payment_links"("merchant_id", "created_at" DESC, "id" DESC);

-- Links are deactivated, never deleted; SET NULL only keeps a stray delete from taking sessions with it.
ALTER TABLE "checkout_sessions" ADD COLUMN "payment_link_id" TEXT REFERENCES "payment_links"("id") ON DELETE SET NULL;
CREATE INDEX "checkout_sessions_payment_link_id_idx" ON "checkout_sessions"("payment_link_id");

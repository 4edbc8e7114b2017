-- A payment link may let the customer choose how many they buy (adjustable_quantity, Stripe's shape), between a
-- minimum and a maximum; both null when the quantity is fixed at one.
ALTER TABLE "payment_links" ADD COLUMN "quantity_minimum" INTEGER;
ALTER TABLE "payment_links" ADD COLUMN "quantity_maximum" INTEGER;
ALTER TABLE "payment_links" ADD CONSTRAINT "payment_links_quantity_range_check" CHECK (
  ("quantity_minimum" IS NULL AND "quantity_maximum" IS NULL)
  OR ("quantity_minimum" >= 1 AND "quantity_maximum" >= "quantity_minimum")
);

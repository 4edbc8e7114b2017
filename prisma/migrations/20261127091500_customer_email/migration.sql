-- Who paid: the e-mail a merchant gives a checkout session, and the one its customer gave on the hosted page,
-- copied to the payment. GET /v1/payments?customer_email= matches it exactly but for case, and the dashboard's
-- search finds part of it: both through a trigram index, as order references are searched.
ALTER TABLE "checkout_sessions" ADD COLUMN "customer_email" TEXT;
ALTER TABLE "payments" ADD COLUMN "customer_email" TEXT;

CREATE INDEX "payments_customer_email_idx" ON "payments" USING GIN ("customer_email" gin_trgm_ops);

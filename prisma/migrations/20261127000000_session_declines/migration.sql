-- A session counts its declined payments on its own row, so that paying is one statement (lib/payments/pay.ts):
-- the hosted page's limit on declines is a condition of the session's UPDATE, which PostgreSQL checks again
-- on the row as a concurrent payment left it, where a count of payment rows would be read from the
-- statement's snapshot and let parallel declines slip past. Existing sessions get the count they have.
ALTER TABLE "checkout_sessions" ADD COLUMN "declined_payments" INTEGER NOT NULL DEFAULT 0;

UPDATE "checkout_sessions" AS s SET "declined_payments" = d."declined"
FROM (
  SELECT "checkout_session_id", count(*)::int AS "declined"
  FROM "payments" WHERE "status" = 'failed'
  GROUP BY "checkout_session_id"
) AS d
WHERE d."checkout_session_id" = s."id";

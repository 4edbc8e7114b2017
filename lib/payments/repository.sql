-- record-payment
--   $1 succeeded
--   $2 paymentId
--   $3 at
--   $4 sessionId
--   $5 declineLimit
--   $6 merchantId
--   $7 orderReference
--   $8 amount
--   $9 currency
--   $10 method
--   $11 methodDetails
--   $12 failureCode
--   $13 refundsFail
--   $14 metadata
--   $15 paymentLinkId
--   $16 customerEmail
--   $17 eventMerchantId
--   $18 eventIds
--   $19 eventTypes
--   $20 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "payable" AS (
  UPDATE "checkout_sessions" AS s SET
    "status" = CASE WHEN $1::boolean THEN 'complete'::"CheckoutSessionStatus" ELSE s."status" END,
    "payment_id" = CASE WHEN $1::boolean THEN $2::text ELSE s."payment_id" END,
    "completed_at" = CASE WHEN $1::boolean THEN $3::timestamptz ELSE s."completed_at" END,
    "declined_payments" = s."declined_payments" + CASE WHEN $1::boolean THEN 0 ELSE 1 END
  FROM "permitted"
  WHERE s."id" = $4::text AND s."status" = 'open' AND s."expires_at" > $3::timestamptz
    AND ($1::boolean OR $5::int IS NULL OR s."declined_payments" < $5::int)
  RETURNING s."order_id"
), "paid_order" AS (
  UPDATE "orders" AS o SET "status" = 'paid', "payment_id" = $2::text
  FROM "payable" AS p
  WHERE $1::boolean AND o."id" = p."order_id" AND o."status" <> 'paid'
  RETURNING o."id"
), "recorded" AS (
  INSERT INTO "payments" ("id", "merchant_id", "order_id", "order_reference", "checkout_session_id", "status",
    "amount", "currency", "payment_method", "method_details", "failure_code", "refunds_fail_in_sandbox",
    "metadata", "created_at", "payment_link_id", "customer_email")
  SELECT $2::text, $6::text, p."order_id", $7::text, $4::text,
         CASE WHEN $1::boolean THEN 'succeeded' ELSE 'failed' END::"PaymentStatus",
         $8::int, $9::"Currency", $10::"PaymentMethod", $11::jsonb, $12::text,
         $13::boolean, $14::jsonb, $3::timestamptz, $15::text, $16::text
  FROM "payable" AS p
  WHERE NOT $1::boolean OR EXISTS (SELECT 1 FROM "paid_order")
  RETURNING "id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $17::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $17::text)))
  FROM unnest($18::text[], $19::text[], $20::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "recorded")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $17::text
    AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    WHERE e."fault_seed" IS NOT NULL GROUP BY e."id"
  ) AS n
  WHERE e."id" = n."id"
  RETURNING e."id", e."fault_sequence" - n."count" AS "before"
), "new_deliveries" AS (
  INSERT INTO "webhook_deliveries" ("id", "event_id", "event_type", "endpoint_id", "next_attempt_at", "created_at", "fault_number")
  SELECT 'whd_' || left(replace(gen_random_uuid()::text, '-', ''), 24), ev."id", ev."type",
         e."id", ev."created_at" + make_interval(secs => e."fault_delay_seconds"), ev."created_at",
         n."before" + row_number() OVER (PARTITION BY e."id" ORDER BY ev."seq")
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $17::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "payable") THEN 'checkout_session_not_payable'
  WHEN NOT EXISTS (SELECT 1 FROM "recorded") THEN abort_statement('order_already_paid')::text
END AS "refused";

-- record-payment-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 succeeded
--   $8 paymentId
--   $9 at
--   $10 sessionId
--   $11 declineLimit
--   $12 merchantId
--   $13 orderReference
--   $14 amount
--   $15 currency
--   $16 method
--   $17 methodDetails
--   $18 failureCode
--   $19 refundsFail
--   $20 metadata
--   $21 paymentLinkId
--   $22 customerEmail
--   $23 eventMerchantId
--   $24 eventIds
--   $25 eventTypes
--   $26 eventData
WITH "answer" AS (
  SELECT $1::text AS "answer"
), "new_claim" AS (
  INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
  SELECT $2::text, $3::text, $4::text, $5::text, $6::int, w."answer"
  FROM "answer" AS w
  ON CONFLICT ("merchant_id", "endpoint", "key") DO NOTHING
  RETURNING "id"
), "taken_over" AS (
  UPDATE "idempotency_keys" AS k
  SET "fingerprint" = $5::text, "response_status" = $6::int, "response_body" = w."answer",
      "created_at" = now(), "locked_at" = now()
  FROM "answer" AS w
  WHERE k."merchant_id" = $2::text AND k."endpoint" = $3::text AND k."key" = $4::text
    AND NOT EXISTS (SELECT 1 FROM "new_claim")
    AND (k."created_at" < now() - interval '24 hours'
         OR (k."response_status" IS NULL AND k."locked_at" < now() - interval '1 minute'
             AND k."fingerprint" = $5::text))
  RETURNING k."id"
), "permitted" AS (
  SELECT "id" FROM "new_claim" UNION ALL SELECT "id" FROM "taken_over"
), "payable" AS (
  UPDATE "checkout_sessions" AS s SET
    "status" = CASE WHEN $7::boolean THEN 'complete'::"CheckoutSessionStatus" ELSE s."status" END,
    "payment_id" = CASE WHEN $7::boolean THEN $8::text ELSE s."payment_id" END,
    "completed_at" = CASE WHEN $7::boolean THEN $9::timestamptz ELSE s."completed_at" END,
    "declined_payments" = s."declined_payments" + CASE WHEN $7::boolean THEN 0 ELSE 1 END
  FROM "permitted"
  WHERE s."id" = $10::text AND s."status" = 'open' AND s."expires_at" > $9::timestamptz
    AND ($7::boolean OR $11::int IS NULL OR s."declined_payments" < $11::int)
  RETURNING s."order_id"
), "paid_order" AS (
  UPDATE "orders" AS o SET "status" = 'paid', "payment_id" = $8::text
  FROM "payable" AS p
  WHERE $7::boolean AND o."id" = p."order_id" AND o."status" <> 'paid'
  RETURNING o."id"
), "recorded" AS (
  INSERT INTO "payments" ("id", "merchant_id", "order_id", "order_reference", "checkout_session_id", "status",
    "amount", "currency", "payment_method", "method_details", "failure_code", "refunds_fail_in_sandbox",
    "metadata", "created_at", "payment_link_id", "customer_email")
  SELECT $8::text, $12::text, p."order_id", $13::text, $10::text,
         CASE WHEN $7::boolean THEN 'succeeded' ELSE 'failed' END::"PaymentStatus",
         $14::int, $15::"Currency", $16::"PaymentMethod", $17::jsonb, $18::text,
         $19::boolean, $20::jsonb, $9::timestamptz, $21::text, $22::text
  FROM "payable" AS p
  WHERE NOT $7::boolean OR EXISTS (SELECT 1 FROM "paid_order")
  RETURNING "id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $23::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $23::text)))
  FROM unnest($24::text[], $25::text[], $26::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "recorded")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $23::text
    AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    WHERE e."fault_seed" IS NOT NULL GROUP BY e."id"
  ) AS n
  WHERE e."id" = n."id"
  RETURNING e."id", e."fault_sequence" - n."count" AS "before"
), "new_deliveries" AS (
  INSERT INTO "webhook_deliveries" ("id", "event_id", "event_type", "endpoint_id", "next_attempt_at", "created_at", "fault_number")
  SELECT 'whd_' || left(replace(gen_random_uuid()::text, '-', ''), 24), ev."id", ev."type",
         e."id", ev."created_at" + make_interval(secs => e."fault_delay_seconds"), ev."created_at",
         n."before" + row_number() OVER (PARTITION BY e."id" ORDER BY ev."seq")
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $23::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "payable") THEN abort_statement('checkout_session_not_payable')::text
    WHEN NOT EXISTS (SELECT 1 FROM "recorded") THEN abort_statement('order_already_paid')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- list-payments-127
--   $1 merchantId
--   $2 orderReference
--   $3 status
--   $4 customerEmail
--   $5 checkoutSessionId
--   $6 metadata
--   $7 afterCreatedAt
--   $8 afterId
--   $9 take
SELECT "id", "merchant_id" AS "merchantId", "order_id" AS "orderId", "order_reference" AS "orderReference",
"checkout_session_id" AS "checkoutSessionId", "status"::text AS "status", "amount",
"currency"::text AS "currency", "payment_method"::text AS "paymentMethod", "method_details" AS "methodDetails",
"failure_code" AS "failureCode", "metadata", "amount_reserved" AS "amountReserved",
"amount_refunded" AS "amountRefunded", "refunds_fail_in_sandbox" AS "refundsFailInSandbox",
"created_at" AS "createdAt", "payment_link_id" AS "paymentLinkId", "customer_email" AS "customerEmail"
FROM "payments" WHERE "merchant_id" = $1::text AND "order_reference" = $2::text AND "status" = $3::"PaymentStatus" AND "customer_email" ILIKE $4::text AND "checkout_session_id" = $5::text AND "metadata" @> $6::jsonb AND ("created_at", "id") < ($7::timestamptz, $8::text)
ORDER BY "created_at" DESC, "id" DESC LIMIT $9::int;

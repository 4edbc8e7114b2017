-- insert-checkout-session
--   $1 orderId
--   $2 merchantId
--   $3 orderReference
--   $4 sessionId
--   $5 currency
--   $6 amount
--   $7 shippingAmount
--   $8 taxAmount
--   $9 paymentMethods
--   $10 returnUrl
--   $11 cancelUrl
--   $12 paymentLinkId
--   $13 createdAt
--   $14 expiresAt
--   $15 metadata
--   $16 customerEmail
--   $17 itemNames
--   $18 itemQuantities
--   $19 itemUnitAmounts
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "upserted_order" AS (
  INSERT INTO "orders" ("id", "merchant_id", "reference")
  SELECT $1::text, $2::text, $3::text FROM "permitted"
  ON CONFLICT ("merchant_id", "reference") DO UPDATE SET "reference" = EXCLUDED."reference"
  RETURNING "id", "status"::text AS "status"
), "new_session" AS (
  INSERT INTO "checkout_sessions" ("id", "merchant_id", "order_id", "order_reference", "currency", "amount",
    "shipping_amount", "tax_amount", "payment_methods", "return_url", "cancel_url", "payment_link_id", "created_at",
    "expires_at", "metadata", "customer_email")
  SELECT $4::text, $2::text, o."id", $3::text, $5::"Currency", $6::int, $7::int,
         $8::int, $9::"PaymentMethod"[], $10::text, $11::text, $12::text, $13::timestamptz,
         $14::timestamptz, $15::jsonb, $16::text
  FROM "upserted_order" AS o WHERE o."status" = 'unpaid'
  RETURNING "id"
), "new_items" AS (
  INSERT INTO "checkout_items" ("checkout_session_id", "position", "name", "quantity", "unit_amount")
  SELECT s."id", i."ordinality" - 1, i."name", i."quantity", i."unit_amount"
  FROM "new_session" AS s,
    unnest($17::text[], $18::int[], $19::int[]) WITH ORDINALITY AS i("name", "quantity", "unit_amount", "ordinality")
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "new_session") THEN 'order_already_paid'
END AS "refused", r.* FROM (SELECT 1) AS "one" LEFT JOIN "upserted_order" AS r ON true;

-- insert-checkout-session-claiming-key
--   $1 merchantId
--   $2 orderReference
--   $3 orderId
--   $4 answer
--   $5 keyMerchantId
--   $6 keyEndpoint
--   $7 key
--   $8 keyFingerprint
--   $9 answerStatus
--   $10 sessionId
--   $11 currency
--   $12 amount
--   $13 shippingAmount
--   $14 taxAmount
--   $15 paymentMethods
--   $16 returnUrl
--   $17 cancelUrl
--   $18 paymentLinkId
--   $19 createdAt
--   $20 expiresAt
--   $21 metadata
--   $22 customerEmail
--   $23 itemNames
--   $24 itemQuantities
--   $25 itemUnitAmounts
WITH "answer_order" AS (
  SELECT coalesce(
    (SELECT "id" FROM "orders" WHERE "merchant_id" = $1::text AND "reference" = $2::text),
    $3::text
  ) AS "id"
), "answer" AS (
  SELECT replace($4::text, to_json($3::text)::text, to_json(a."id")::text) AS "answer"
  FROM "answer_order" AS a
), "new_claim" AS (
  INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
  SELECT $5::text, $6::text, $7::text, $8::text, $9::int, w."answer"
  FROM "answer" AS w
  ON CONFLICT ("merchant_id", "endpoint", "key") DO NOTHING
  RETURNING "id"
), "taken_over" AS (
  UPDATE "idempotency_keys" AS k
  SET "fingerprint" = $8::text, "response_status" = $9::int, "response_body" = w."answer",
      "created_at" = now(), "locked_at" = now()
  FROM "answer" AS w
  WHERE k."merchant_id" = $5::text AND k."endpoint" = $6::text AND k."key" = $7::text
    AND NOT EXISTS (SELECT 1 FROM "new_claim")
    AND (k."created_at" < now() - interval '24 hours'
         OR (k."response_status" IS NULL AND k."locked_at" < now() - interval '1 minute'
             AND k."fingerprint" = $8::text))
  RETURNING k."id"
), "permitted" AS (
  SELECT "id" FROM "new_claim" UNION ALL SELECT "id" FROM "taken_over"
), "upserted_order" AS (
  INSERT INTO "orders" ("id", "merchant_id", "reference")
  SELECT $3::text, $1::text, $2::text FROM "permitted"
  ON CONFLICT ("merchant_id", "reference") DO UPDATE SET "reference" = EXCLUDED."reference"
  RETURNING "id", "status"::text AS "status"
), "new_session" AS (
  INSERT INTO "checkout_sessions" ("id", "merchant_id", "order_id", "order_reference", "currency", "amount",
    "shipping_amount", "tax_amount", "payment_methods", "return_url", "cancel_url", "payment_link_id", "created_at",
    "expires_at", "metadata", "customer_email")
  SELECT $10::text, $1::text, o."id", $2::text, $11::"Currency", $12::int, $13::int,
         $14::int, $15::"PaymentMethod"[], $16::text, $17::text, $18::text, $19::timestamptz,
         $20::timestamptz, $21::jsonb, $22::text
  FROM "upserted_order" AS o WHERE o."status" = 'unpaid'
  RETURNING "id"
), "new_items" AS (
  INSERT INTO "checkout_items" ("checkout_session_id", "position", "name", "quantity", "unit_amount")
  SELECT s."id", i."ordinality" - 1, i."name", i."quantity", i."unit_amount"
  FROM "new_session" AS s,
    unnest($23::text[], $24::int[], $25::int[]) WITH ORDINALITY AS i("name", "quantity", "unit_amount", "ordinality")
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "new_session") THEN abort_statement('order_already_paid')::text
    WHEN (SELECT "id" FROM "upserted_order") <> (SELECT "id" FROM "answer_order") THEN abort_statement('order_changed')::text
  END AS "refused", r.*
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $5::text
    AND e."endpoint" = $6::text AND e."key" = $7::text
  LEFT JOIN "upserted_order" AS r ON true;

-- expire-checkout-session
--   $1 at
--   $2 sessionId
--   $3 merchantId
--   $4 eventMerchantId
--   $5 eventIds
--   $6 eventTypes
--   $7 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "checkout_sessions" SET "status" = 'expired', "expired_at" = $1::timestamptz
  FROM "permitted"
  WHERE "checkout_sessions"."id" = $2::text AND "merchant_id" = $3::text
    AND "status" = 'open' AND "expires_at" > $1::timestamptz
  RETURNING "checkout_sessions"."id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $4::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $4::text)))
  FROM unnest($5::text[], $6::text[], $7::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $4::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $4::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'checkout_session_not_open'
END AS "refused";

-- expire-checkout-session-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 at
--   $8 sessionId
--   $9 merchantId
--   $10 eventMerchantId
--   $11 eventIds
--   $12 eventTypes
--   $13 eventData
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
), "changed" AS (
  UPDATE "checkout_sessions" SET "status" = 'expired', "expired_at" = $7::timestamptz
  FROM "permitted"
  WHERE "checkout_sessions"."id" = $8::text AND "merchant_id" = $9::text
    AND "status" = 'open' AND "expires_at" > $7::timestamptz
  RETURNING "checkout_sessions"."id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $10::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $10::text)))
  FROM unnest($11::text[], $12::text[], $13::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $10::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $10::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('checkout_session_not_open')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- list-checkout-sessions-127
--   $1 merchantId
--   $2 orderReference
--   $3 status
--   $4 openAt
--   $5 expiredBy
--   $6 metadata
--   $7 afterCreatedAt
--   $8 afterId
--   $9 take
SELECT s."id", s."merchant_id" AS "merchantId", s."order_id" AS "orderId", s."order_reference" AS "orderReference",
s."status"::text AS "status", s."currency"::text AS "currency", s."amount",
s."shipping_amount" AS "shippingAmount", s."tax_amount" AS "taxAmount",
s."payment_methods"::text[] AS "paymentMethods", s."return_url" AS "returnUrl", s."cancel_url" AS "cancelUrl",
s."payment_id" AS "paymentId", s."expires_at" AS "expiresAt", s."created_at" AS "createdAt",
s."completed_at" AS "completedAt", s."expired_at" AS "expiredAt", s."payment_link_id" AS "paymentLinkId",
s."metadata", s."declined_payments" AS "declinedPayments", s."customer_email" AS "customerEmail",
COALESCE((SELECT json_agg(json_build_object('checkoutSessionId', i."checkout_session_id", 'position', i."position",
                                            'name', i."name", 'quantity', i."quantity", 'unitAmount', i."unit_amount")
                          ORDER BY i."position")
          FROM "checkout_items" AS i WHERE i."checkout_session_id" = s."id"), '[]'::json) AS "items"
FROM "checkout_sessions" AS s WHERE s."merchant_id" = $1::text AND s."order_reference" = $2::text AND s."status" = $3::"CheckoutSessionStatus" AND s."expires_at" > $4::timestamptz AND (s."status" = 'expired' OR (s."status" = 'open' AND s."expires_at" <= $5::timestamptz)) AND s."metadata" @> $6::jsonb AND (s."created_at", s."id") < ($7::timestamptz, $8::text)
ORDER BY s."created_at" DESC, s."id" DESC LIMIT $9::int;

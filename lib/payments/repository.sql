-- record-payment
--   $1 accepted
--   $2 paymentId
--   $3 at
--   $4 sessionId
--   $5 declineLimit
--   $6 merchantId
--   $7 orderReference
--   $8 status
--   $9 amount
--   $10 currency
--   $11 method
--   $12 methodDetails
--   $13 failureCode
--   $14 refundsFail
--   $15 metadata
--   $16 paymentLinkId
--   $17 customerEmail
--   $18 captureMethod
--   $19 amountCaptured
--   $20 eventMerchantId
--   $21 eventIds
--   $22 eventTypes
--   $23 eventData
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
    "metadata", "created_at", "payment_link_id", "customer_email", "capture_method", "amount_captured")
  SELECT $2::text, $6::text, p."order_id", $7::text, $4::text, $8::"PaymentStatus",
         $9::int, $10::"Currency", $11::"PaymentMethod", $12::jsonb, $13::text,
         $14::boolean, $15::jsonb, $3::timestamptz, $16::text, $17::text, $18::"CaptureMethod",
         $19::int
  FROM "payable" AS p
  WHERE NOT $1::boolean OR EXISTS (SELECT 1 FROM "paid_order")
  RETURNING "id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $20::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $20::text)))
  FROM unnest($21::text[], $22::text[], $23::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "recorded")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $20::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $20::text
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
--   $7 accepted
--   $8 paymentId
--   $9 at
--   $10 sessionId
--   $11 declineLimit
--   $12 merchantId
--   $13 orderReference
--   $14 status
--   $15 amount
--   $16 currency
--   $17 method
--   $18 methodDetails
--   $19 failureCode
--   $20 refundsFail
--   $21 metadata
--   $22 paymentLinkId
--   $23 customerEmail
--   $24 captureMethod
--   $25 amountCaptured
--   $26 eventMerchantId
--   $27 eventIds
--   $28 eventTypes
--   $29 eventData
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
    "metadata", "created_at", "payment_link_id", "customer_email", "capture_method", "amount_captured")
  SELECT $8::text, $12::text, p."order_id", $13::text, $10::text, $14::"PaymentStatus",
         $15::int, $16::"Currency", $17::"PaymentMethod", $18::jsonb, $19::text,
         $20::boolean, $21::jsonb, $9::timestamptz, $22::text, $23::text, $24::"CaptureMethod",
         $25::int
  FROM "payable" AS p
  WHERE NOT $7::boolean OR EXISTS (SELECT 1 FROM "paid_order")
  RETURNING "id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $26::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $26::text)))
  FROM unnest($27::text[], $28::text[], $29::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "recorded")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $26::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $26::text
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

-- capture-payment
--   $1 amountToCapture
--   $2 paymentId
--   $3 merchantId
--   $4 at
--   $5 eventMerchantId
--   $6 eventIds
--   $7 eventTypes
--   $8 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "payments" SET "status" = 'succeeded', "amount_captured" = $1::int
  FROM "permitted"
  WHERE "payments"."id" = $2::text AND "payments"."merchant_id" = $3::text
    AND "payments"."status" = 'requires_capture'
    AND "payments"."created_at" > $4::timestamptz - interval '7 days' AND $1::int BETWEEN 1 AND "payments"."amount"
  RETURNING "payments"."id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $5::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $5::text)))
  FROM unnest($6::text[], $7::text[], $8::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $5::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $5::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'payment_not_capturable'
END AS "refused";

-- capture-payment-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 amountToCapture
--   $8 paymentId
--   $9 merchantId
--   $10 at
--   $11 eventMerchantId
--   $12 eventIds
--   $13 eventTypes
--   $14 eventData
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
  UPDATE "payments" SET "status" = 'succeeded', "amount_captured" = $7::int
  FROM "permitted"
  WHERE "payments"."id" = $8::text AND "payments"."merchant_id" = $9::text
    AND "payments"."status" = 'requires_capture'
    AND "payments"."created_at" > $10::timestamptz - interval '7 days' AND $7::int BETWEEN 1 AND "payments"."amount"
  RETURNING "payments"."id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $11::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $11::text)))
  FROM unnest($12::text[], $13::text[], $14::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $11::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $11::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('payment_not_capturable')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- cancel-payment
--   $1 at
--   $2 reason
--   $3 paymentId
--   $4 merchantId
--   $5 eventMerchantId
--   $6 eventIds
--   $7 eventTypes
--   $8 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "payments" SET "status" = 'canceled', "canceled_at" = $1::timestamptz, "cancellation_reason" = $2::text
  FROM "permitted"
  WHERE "payments"."id" = $3::text AND "payments"."merchant_id" = $4::text
    AND "payments"."status" = 'requires_capture'
    AND ($2::text <> 'expired'
         OR "payments"."created_at" <= $1::timestamptz - interval '7 days')
  RETURNING "payments"."id", "payments"."order_id"
), "freed_order" AS (
  UPDATE "orders" AS o SET "status" = 'unpaid', "payment_id" = NULL
  FROM "changed" AS c
  WHERE o."id" = c."order_id" AND o."payment_id" = c."id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $5::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $5::text)))
  FROM unnest($6::text[], $7::text[], $8::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $5::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $5::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'payment_not_cancelable'
END AS "refused";

-- cancel-payment-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 at
--   $8 reason
--   $9 paymentId
--   $10 merchantId
--   $11 eventMerchantId
--   $12 eventIds
--   $13 eventTypes
--   $14 eventData
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
  UPDATE "payments" SET "status" = 'canceled', "canceled_at" = $7::timestamptz, "cancellation_reason" = $8::text
  FROM "permitted"
  WHERE "payments"."id" = $9::text AND "payments"."merchant_id" = $10::text
    AND "payments"."status" = 'requires_capture'
    AND ($8::text <> 'expired'
         OR "payments"."created_at" <= $7::timestamptz - interval '7 days')
  RETURNING "payments"."id", "payments"."order_id"
), "freed_order" AS (
  UPDATE "orders" AS o SET "status" = 'unpaid', "payment_id" = NULL
  FROM "changed" AS c
  WHERE o."id" = c."order_id" AND o."payment_id" = c."id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $11::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $11::text)))
  FROM unnest($12::text[], $13::text[], $14::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $11::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $11::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('payment_not_cancelable')::text
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
"created_at" AS "createdAt", "payment_link_id" AS "paymentLinkId", "customer_email" AS "customerEmail",
"capture_method"::text AS "captureMethod", "amount_captured" AS "amountCaptured",
"canceled_at" AS "canceledAt", "cancellation_reason" AS "cancellationReason"
FROM "payments" WHERE "merchant_id" = $1::text AND "order_reference" = $2::text AND "status" = $3::"PaymentStatus" AND "customer_email" ILIKE $4::text AND "checkout_session_id" = $5::text AND "metadata" @> $6::jsonb AND ("created_at", "id") < ($7::timestamptz, $8::text)
ORDER BY "created_at" DESC, "id" DESC LIMIT $9::int;

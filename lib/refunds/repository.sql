-- reserve-and-insert-refund
--   $1 amount
--   $2 paymentId
--   $3 refundId
--   $4 merchantId
--   $5 reason
--   $6 cryptoNote
--   $7 at
--   $8 metadata
--   $9 eventMerchantId
--   $10 eventIds
--   $11 eventTypes
--   $12 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "reserved" AS (
  UPDATE "payments" SET "amount_reserved" = "amount_reserved" + $1::int
  FROM "permitted"
  WHERE "payments"."id" = $2::text AND "status" = 'succeeded' AND "amount_reserved" + $1::int <= "amount"
  RETURNING "payments"."id", "currency"
), "inserted" AS (
  INSERT INTO "refund_requests" ("id", "merchant_id", "payment_id", "amount", "currency", "reason",
    "crypto_refund_destination_note", "created_at", "updated_at", "metadata")
  SELECT $3::text, $4::text, p."id", $1::int, p."currency", $5::text, $6::text,
         $7::timestamptz, $7::timestamptz, $8::jsonb
  FROM "reserved" AS p
  RETURNING "id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $9::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "reserved" AS c ON p."id" = c."id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $9::text)))
  FROM unnest($10::text[], $11::text[], $12::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "inserted")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $9::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $9::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "inserted") THEN 'refund_exceeds_available'
END AS "refused";

-- reserve-and-insert-refund-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 amount
--   $8 paymentId
--   $9 refundId
--   $10 merchantId
--   $11 reason
--   $12 cryptoNote
--   $13 at
--   $14 metadata
--   $15 eventMerchantId
--   $16 eventIds
--   $17 eventTypes
--   $18 eventData
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
), "reserved" AS (
  UPDATE "payments" SET "amount_reserved" = "amount_reserved" + $7::int
  FROM "permitted"
  WHERE "payments"."id" = $8::text AND "status" = 'succeeded' AND "amount_reserved" + $7::int <= "amount"
  RETURNING "payments"."id", "currency"
), "inserted" AS (
  INSERT INTO "refund_requests" ("id", "merchant_id", "payment_id", "amount", "currency", "reason",
    "crypto_refund_destination_note", "created_at", "updated_at", "metadata")
  SELECT $9::text, $10::text, p."id", $7::int, p."currency", $11::text, $12::text,
         $13::timestamptz, $13::timestamptz, $14::jsonb
  FROM "reserved" AS p
  RETURNING "id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $15::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "reserved" AS c ON p."id" = c."id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $15::text)))
  FROM unnest($16::text[], $17::text[], $18::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "inserted")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $15::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $15::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "inserted") THEN abort_statement('refund_exceeds_available')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- cancel-refund
--   $1 at
--   $2 refundId
--   $3 merchantId
--   $4 eventMerchantId
--   $5 eventIds
--   $6 eventTypes
--   $7 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "refund_requests" SET "status" = 'canceled', "updated_at" = $1::timestamptz
  FROM "permitted"
  WHERE "refund_requests"."id" = $2::text AND "merchant_id" = $3::text AND "status" = 'requested'
  RETURNING "payment_id", "amount"
), "released" AS (
  UPDATE "payments" SET "amount_reserved" = "payments"."amount_reserved" - r."amount"
  FROM "changed" AS r WHERE "payments"."id" = r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $4::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $4::text)))
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
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'refund_not_cancelable'
END AS "refused";

-- cancel-refund-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 at
--   $8 refundId
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
  UPDATE "refund_requests" SET "status" = 'canceled', "updated_at" = $7::timestamptz
  FROM "permitted"
  WHERE "refund_requests"."id" = $8::text AND "merchant_id" = $9::text AND "status" = 'requested'
  RETURNING "payment_id", "amount"
), "released" AS (
  UPDATE "payments" SET "amount_reserved" = "payments"."amount_reserved" - r."amount"
  FROM "changed" AS r WHERE "payments"."id" = r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $10::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $10::text)))
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
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('refund_not_cancelable')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- approve-refund-automatically
--   $1 at
--   $2 refundId
--   $3 merchantId
--   $4 eventMerchantId
--   $5 eventIds
--   $6 eventTypes
--   $7 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "refund_requests" AS r SET "status" = 'processing', "processing_at" = $1::timestamptz, "updated_at" = $1::timestamptz
  FROM "permitted"
  WHERE r."id" = $2::text AND r."merchant_id" = $3::text AND r."status" = 'requested'
    AND EXISTS (SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic')
  RETURNING r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $4::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $4::text)))
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
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'refund_not_requested'
END AS "refused";

-- approve-refund-automatically-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 at
--   $8 refundId
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
  UPDATE "refund_requests" AS r SET "status" = 'processing', "processing_at" = $7::timestamptz, "updated_at" = $7::timestamptz
  FROM "permitted"
  WHERE r."id" = $8::text AND r."merchant_id" = $9::text AND r."status" = 'requested'
    AND EXISTS (SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic')
  RETURNING r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $10::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $10::text)))
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
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('refund_not_requested')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- finish-refund-completed
--   $1 failureReason
--   $2 at
--   $3 refundId
--   $4 merchantId
--   $5 from
--   $6 eventMerchantId
--   $7 eventIds
--   $8 eventTypes
--   $9 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "refund_requests" AS r SET "status" = 'completed', "failure_reason" = $1::text,
    "processing_at" = coalesce(r."processing_at", $2::timestamptz), "updated_at" = $2::timestamptz
  FROM "permitted"
  WHERE r."id" = $3::text AND r."merchant_id" = $4::text
    AND r."status"::text = $5::text AND (r."status" = 'processing' OR EXISTS (
      SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic'))
  RETURNING r."payment_id", r."amount"
), "finished_amounts" AS (
  UPDATE "payments" SET "amount_refunded" = "payments"."amount_refunded" + r."amount" FROM "changed" AS r WHERE "payments"."id" = r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $6::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $6::text)))
  FROM unnest($7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $6::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $6::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'refund_not_pending'
END AS "refused";

-- finish-refund-completed-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 failureReason
--   $8 at
--   $9 refundId
--   $10 merchantId
--   $11 from
--   $12 eventMerchantId
--   $13 eventIds
--   $14 eventTypes
--   $15 eventData
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
  UPDATE "refund_requests" AS r SET "status" = 'completed', "failure_reason" = $7::text,
    "processing_at" = coalesce(r."processing_at", $8::timestamptz), "updated_at" = $8::timestamptz
  FROM "permitted"
  WHERE r."id" = $9::text AND r."merchant_id" = $10::text
    AND r."status"::text = $11::text AND (r."status" = 'processing' OR EXISTS (
      SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic'))
  RETURNING r."payment_id", r."amount"
), "finished_amounts" AS (
  UPDATE "payments" SET "amount_refunded" = "payments"."amount_refunded" + r."amount" FROM "changed" AS r WHERE "payments"."id" = r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $12::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $12::text)))
  FROM unnest($13::text[], $14::text[], $15::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $12::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $12::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('refund_not_pending')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- finish-refund-failed
--   $1 failureReason
--   $2 at
--   $3 refundId
--   $4 merchantId
--   $5 from
--   $6 eventMerchantId
--   $7 eventIds
--   $8 eventTypes
--   $9 eventData
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "refund_requests" AS r SET "status" = 'failed', "failure_reason" = $1::text,
    "processing_at" = coalesce(r."processing_at", $2::timestamptz), "updated_at" = $2::timestamptz
  FROM "permitted"
  WHERE r."id" = $3::text AND r."merchant_id" = $4::text
    AND r."status"::text = $5::text AND (r."status" = 'processing' OR EXISTS (
      SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic'))
  RETURNING r."payment_id", r."amount"
), "finished_amounts" AS (
  UPDATE "payments" SET "amount_reserved" = "payments"."amount_reserved" - r."amount" FROM "changed" AS r WHERE "payments"."id" = r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $6::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $6::text)))
  FROM unnest($7::text[], $8::text[], $9::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $6::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $6::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'refund_not_pending'
END AS "refused";

-- finish-refund-failed-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 failureReason
--   $8 at
--   $9 refundId
--   $10 merchantId
--   $11 from
--   $12 eventMerchantId
--   $13 eventIds
--   $14 eventTypes
--   $15 eventData
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
  UPDATE "refund_requests" AS r SET "status" = 'failed', "failure_reason" = $7::text,
    "processing_at" = coalesce(r."processing_at", $8::timestamptz), "updated_at" = $8::timestamptz
  FROM "permitted"
  WHERE r."id" = $9::text AND r."merchant_id" = $10::text
    AND r."status"::text = $11::text AND (r."status" = 'processing' OR EXISTS (
      SELECT 1 FROM "merchants" AS m WHERE m."id" = r."merchant_id" AND m."refund_policy" = 'automatic'))
  RETURNING r."payment_id", r."amount"
), "finished_amounts" AS (
  UPDATE "payments" SET "amount_reserved" = "payments"."amount_reserved" - r."amount" FROM "changed" AS r WHERE "payments"."id" = r."payment_id"
), "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $12::text, v."type", jsonb_set(v."data"::jsonb, '{object}', (v."data"::jsonb -> 'object') || (SELECT jsonb_build_object('payment_metadata', p."metadata") FROM "payments" AS p JOIN "changed" AS c ON p."id" = c."payment_id")), (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $12::text)))
  FROM unnest($13::text[], $14::text[], $15::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")
  WHERE EXISTS (SELECT 1 FROM "changed")
  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $12::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $12::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('refund_not_pending')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- list-refund-requests-31
--   $1 merchantId
--   $2 paymentId
--   $3 status
--   $4 metadata
--   $5 afterCreatedAt
--   $6 afterId
--   $7 take
SELECT "id", "merchant_id" AS "merchantId", "payment_id" AS "paymentId", "amount", "currency"::text AS "currency",
       "status"::text AS "status", "reason", "crypto_refund_destination_note" AS "cryptoRefundDestinationNote",
       "failure_reason" AS "failureReason", "metadata", "processing_at" AS "processingAt",
       "created_at" AS "createdAt", "updated_at" AS "updatedAt"
FROM "refund_requests" WHERE "merchant_id" = $1::text AND "payment_id" = $2::text AND "status" = $3::"RefundStatus" AND "metadata" @> $4::jsonb AND ("created_at", "id") < ($5::timestamptz, $6::text)
ORDER BY "created_at" DESC, "id" DESC LIMIT $7::int;

-- insert-payment-link-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 linkId
--   $8 merchantId
--   $9 name
--   $10 description
--   $11 amount
--   $12 currency
--   $13 paymentMethods
--   $14 afterPaymentUrl
--   $15 active
--   $16 metadata
--   $17 quantityMinimum
--   $18 quantityMaximum
--   $19 createdAt
--   $20 updatedAt
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
), "inserted" AS (
  INSERT INTO "payment_links" ("id", "merchant_id", "name", "description", "amount", "currency", "payment_methods",
    "after_payment_url", "active", "metadata", "quantity_minimum", "quantity_maximum", "created_at", "updated_at")
  SELECT $7::text, $8::text, $9::text, $10::text, $11::int, $12::"Currency", $13::"PaymentMethod"[],
         $14::text, $15::boolean, $16::jsonb, $17::int, $18::int,
         $19::timestamptz, $20::timestamptz
  FROM "permitted"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  NULL::text AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- update-payment-link
--   $1 metadataSet
--   $2 metadataRemove
--   $3 amount
--   $4 setsQuantity
--   $5 quantityMinimum
--   $6 quantityMaximum
--   $7 linkId
--   $8 name
--   $9 setsDescription
--   $10 description
--   $11 active
--   $12 updatedAt
WITH "locked" AS (
  SELECT "id", (("metadata" || $1::jsonb) - $2::text[]) AS "metadata",
    coalesce($3::int, "amount") AS "amount",
    CASE WHEN $4::boolean THEN $5::int ELSE "quantity_minimum" END AS "quantity_minimum",
    CASE WHEN $4::boolean THEN $6::int ELSE "quantity_maximum" END AS "quantity_maximum"
  FROM "payment_links"
  WHERE "id" = $7::text FOR UPDATE
), "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "payment_links" SET
    "name" = coalesce($8::text, "name"),
    "description" = CASE WHEN $9::boolean THEN $10::text ELSE "description" END,
    "active" = coalesce($11::boolean, "active"),
    "amount" = l."amount",
    "quantity_minimum" = l."quantity_minimum",
    "quantity_maximum" = l."quantity_maximum",
    "metadata" = l."metadata",
    "updated_at" = coalesce($12::timestamptz, "payment_links"."updated_at")
  FROM "locked" AS l, "permitted"
  WHERE "payment_links"."id" = l."id" AND (SELECT count(*) FROM jsonb_object_keys(l."metadata")) <= 50
    AND coalesce(l."amount"::bigint * l."quantity_maximum" <= 99999999, true)
  RETURNING "payment_links"."id", "payment_links"."merchant_id" AS "merchantId", "payment_links"."name", "payment_links"."description", "payment_links"."amount",
  "payment_links"."currency"::text AS "currency", "payment_links"."payment_methods"::text[] AS "paymentMethods",
  "payment_links"."after_payment_url" AS "afterPaymentUrl", "payment_links"."active", "payment_links"."metadata", "payment_links"."order_count" AS "orderCount",
  "payment_links"."quantity_minimum" AS "quantityMinimum", "payment_links"."quantity_maximum" AS "quantityMaximum",
  "payment_links"."created_at" AS "createdAt", "payment_links"."updated_at" AS "updatedAt"
)
SELECT CASE
  WHEN EXISTS (SELECT 1 FROM "locked" AS l WHERE l."amount"::bigint * l."quantity_maximum" > 99999999) THEN 'amount_limit'
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'metadata_limit'
END AS "refused", r.* FROM (SELECT 1) AS "one" LEFT JOIN "changed" AS r ON true;

-- update-payment-link-claiming-key
--   $1 metadataSet
--   $2 metadataRemove
--   $3 amount
--   $4 setsQuantity
--   $5 quantityMinimum
--   $6 quantityMaximum
--   $7 linkId
--   $8 answer
--   $9 metadataMarker
--   $10 keyMerchantId
--   $11 keyEndpoint
--   $12 key
--   $13 keyFingerprint
--   $14 answerStatus
--   $15 name
--   $16 setsDescription
--   $17 description
--   $18 active
--   $19 updatedAt
WITH "locked" AS (
  SELECT "id", (("metadata" || $1::jsonb) - $2::text[]) AS "metadata",
    coalesce($3::int, "amount") AS "amount",
    CASE WHEN $4::boolean THEN $5::int ELSE "quantity_minimum" END AS "quantity_minimum",
    CASE WHEN $4::boolean THEN $6::int ELSE "quantity_maximum" END AS "quantity_maximum"
  FROM "payment_links"
  WHERE "id" = $7::text FOR UPDATE
), "answer" AS (
  SELECT replace($8::text, to_json($9::text)::text, l."metadata"::text) AS "answer" FROM "locked" AS l
), "new_claim" AS (
  INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
  SELECT $10::text, $11::text, $12::text, $13::text, $14::int, w."answer"
  FROM "answer" AS w
  ON CONFLICT ("merchant_id", "endpoint", "key") DO NOTHING
  RETURNING "id"
), "taken_over" AS (
  UPDATE "idempotency_keys" AS k
  SET "fingerprint" = $13::text, "response_status" = $14::int, "response_body" = w."answer",
      "created_at" = now(), "locked_at" = now()
  FROM "answer" AS w
  WHERE k."merchant_id" = $10::text AND k."endpoint" = $11::text AND k."key" = $12::text
    AND NOT EXISTS (SELECT 1 FROM "new_claim")
    AND (k."created_at" < now() - interval '24 hours'
         OR (k."response_status" IS NULL AND k."locked_at" < now() - interval '1 minute'
             AND k."fingerprint" = $13::text))
  RETURNING k."id"
), "permitted" AS (
  SELECT "id" FROM "new_claim" UNION ALL SELECT "id" FROM "taken_over"
), "changed" AS (
  UPDATE "payment_links" SET
    "name" = coalesce($15::text, "name"),
    "description" = CASE WHEN $16::boolean THEN $17::text ELSE "description" END,
    "active" = coalesce($18::boolean, "active"),
    "amount" = l."amount",
    "quantity_minimum" = l."quantity_minimum",
    "quantity_maximum" = l."quantity_maximum",
    "metadata" = l."metadata",
    "updated_at" = coalesce($19::timestamptz, "payment_links"."updated_at")
  FROM "locked" AS l, "permitted"
  WHERE "payment_links"."id" = l."id" AND (SELECT count(*) FROM jsonb_object_keys(l."metadata")) <= 50
    AND coalesce(l."amount"::bigint * l."quantity_maximum" <= 99999999, true)
  RETURNING "payment_links"."id", "payment_links"."merchant_id" AS "merchantId", "payment_links"."name", "payment_links"."description", "payment_links"."amount",
  "payment_links"."currency"::text AS "currency", "payment_links"."payment_methods"::text[] AS "paymentMethods",
  "payment_links"."after_payment_url" AS "afterPaymentUrl", "payment_links"."active", "payment_links"."metadata", "payment_links"."order_count" AS "orderCount",
  "payment_links"."quantity_minimum" AS "quantityMinimum", "payment_links"."quantity_maximum" AS "quantityMaximum",
  "payment_links"."created_at" AS "createdAt", "payment_links"."updated_at" AS "updatedAt"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN EXISTS (SELECT 1 FROM "locked" AS l WHERE l."amount"::bigint * l."quantity_maximum" > 99999999) THEN abort_statement('amount_limit')::text
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('metadata_limit')::text
  END AS "refused", r.*
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $10::text
    AND e."endpoint" = $11::text AND e."key" = $12::text
  LEFT JOIN "changed" AS r ON true;

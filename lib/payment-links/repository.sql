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
--   $17 createdAt
--   $18 updatedAt
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
    "after_payment_url", "active", "metadata", "created_at", "updated_at")
  SELECT $7::text, $8::text, $9::text, $10::text, $11::int, $12::"Currency", $13::"PaymentMethod"[],
         $14::text, $15::boolean, $16::jsonb, $17::timestamptz, $18::timestamptz
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
--   $3 linkId
--   $4 name
--   $5 setsDescription
--   $6 description
--   $7 active
--   $8 updatedAt
WITH "locked" AS (
  SELECT "id", (("metadata" || $1::jsonb) - $2::text[]) AS "metadata" FROM "payment_links"
  WHERE "id" = $3::text FOR UPDATE
), "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "payment_links" SET
    "name" = coalesce($4::text, "name"),
    "description" = CASE WHEN $5::boolean THEN $6::text ELSE "description" END,
    "active" = coalesce($7::boolean, "active"),
    "metadata" = l."metadata",
    "updated_at" = coalesce($8::timestamptz, "payment_links"."updated_at")
  FROM "locked" AS l, "permitted"
  WHERE "payment_links"."id" = l."id" AND (SELECT count(*) FROM jsonb_object_keys(l."metadata")) <= 50
  RETURNING "payment_links"."id", "payment_links"."merchant_id" AS "merchantId", "payment_links"."name", "payment_links"."description", "payment_links"."amount",
  "payment_links"."currency"::text AS "currency", "payment_links"."payment_methods"::text[] AS "paymentMethods",
  "payment_links"."after_payment_url" AS "afterPaymentUrl", "payment_links"."active", "payment_links"."metadata", "payment_links"."order_count" AS "orderCount",
  "payment_links"."created_at" AS "createdAt", "payment_links"."updated_at" AS "updatedAt"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'metadata_limit'
END AS "refused", r.* FROM (SELECT 1) AS "one" LEFT JOIN "changed" AS r ON true;

-- update-payment-link-claiming-key
--   $1 metadataSet
--   $2 metadataRemove
--   $3 linkId
--   $4 answer
--   $5 metadataMarker
--   $6 keyMerchantId
--   $7 keyEndpoint
--   $8 key
--   $9 keyFingerprint
--   $10 answerStatus
--   $11 name
--   $12 setsDescription
--   $13 description
--   $14 active
--   $15 updatedAt
WITH "locked" AS (
  SELECT "id", (("metadata" || $1::jsonb) - $2::text[]) AS "metadata" FROM "payment_links"
  WHERE "id" = $3::text FOR UPDATE
), "answer" AS (
  SELECT replace($4::text, to_json($5::text)::text, l."metadata"::text) AS "answer" FROM "locked" AS l
), "new_claim" AS (
  INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
  SELECT $6::text, $7::text, $8::text, $9::text, $10::int, w."answer"
  FROM "answer" AS w
  ON CONFLICT ("merchant_id", "endpoint", "key") DO NOTHING
  RETURNING "id"
), "taken_over" AS (
  UPDATE "idempotency_keys" AS k
  SET "fingerprint" = $9::text, "response_status" = $10::int, "response_body" = w."answer",
      "created_at" = now(), "locked_at" = now()
  FROM "answer" AS w
  WHERE k."merchant_id" = $6::text AND k."endpoint" = $7::text AND k."key" = $8::text
    AND NOT EXISTS (SELECT 1 FROM "new_claim")
    AND (k."created_at" < now() - interval '24 hours'
         OR (k."response_status" IS NULL AND k."locked_at" < now() - interval '1 minute'
             AND k."fingerprint" = $9::text))
  RETURNING k."id"
), "permitted" AS (
  SELECT "id" FROM "new_claim" UNION ALL SELECT "id" FROM "taken_over"
), "changed" AS (
  UPDATE "payment_links" SET
    "name" = coalesce($11::text, "name"),
    "description" = CASE WHEN $12::boolean THEN $13::text ELSE "description" END,
    "active" = coalesce($14::boolean, "active"),
    "metadata" = l."metadata",
    "updated_at" = coalesce($15::timestamptz, "payment_links"."updated_at")
  FROM "locked" AS l, "permitted"
  WHERE "payment_links"."id" = l."id" AND (SELECT count(*) FROM jsonb_object_keys(l."metadata")) <= 50
  RETURNING "payment_links"."id", "payment_links"."merchant_id" AS "merchantId", "payment_links"."name", "payment_links"."description", "payment_links"."amount",
  "payment_links"."currency"::text AS "currency", "payment_links"."payment_methods"::text[] AS "paymentMethods",
  "payment_links"."after_payment_url" AS "afterPaymentUrl", "payment_links"."active", "payment_links"."metadata", "payment_links"."order_count" AS "orderCount",
  "payment_links"."created_at" AS "createdAt", "payment_links"."updated_at" AS "updatedAt"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('metadata_limit')::text
  END AS "refused", r.*
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $6::text
    AND e."endpoint" = $7::text AND e."key" = $8::text
  LEFT JOIN "changed" AS r ON true;

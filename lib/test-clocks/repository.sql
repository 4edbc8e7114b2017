-- advance-test-clock-claiming-key
--   $1 seconds
--   $2 merchantId
--   $3 answer
--   $4 keyMerchantId
--   $5 keyEndpoint
--   $6 key
--   $7 keyFingerprint
--   $8 answerStatus
WITH "locked" AS (
  SELECT "clock_offset_seconds" + $1::int AS "offset" FROM "merchants" WHERE "id" = $2::text
  FOR UPDATE
), "answer" AS (
  SELECT ($3::text::jsonb || jsonb_build_object(
    'now', to_char((now() + make_interval(secs => l."offset")) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'offset_seconds', l."offset"))::text AS "answer"
  FROM "locked" AS l
), "new_claim" AS (
  INSERT INTO "idempotency_keys" ("merchant_id", "endpoint", "key", "fingerprint", "response_status", "response_body")
  SELECT $4::text, $5::text, $6::text, $7::text, $8::int, w."answer"
  FROM "answer" AS w
  ON CONFLICT ("merchant_id", "endpoint", "key") DO NOTHING
  RETURNING "id"
), "taken_over" AS (
  UPDATE "idempotency_keys" AS k
  SET "fingerprint" = $7::text, "response_status" = $8::int, "response_body" = w."answer",
      "created_at" = now(), "locked_at" = now()
  FROM "answer" AS w
  WHERE k."merchant_id" = $4::text AND k."endpoint" = $5::text AND k."key" = $6::text
    AND NOT EXISTS (SELECT 1 FROM "new_claim")
    AND (k."created_at" < now() - interval '24 hours'
         OR (k."response_status" IS NULL AND k."locked_at" < now() - interval '1 minute'
             AND k."fingerprint" = $7::text))
  RETURNING k."id"
), "permitted" AS (
  SELECT "id" FROM "new_claim" UNION ALL SELECT "id" FROM "taken_over"
), "changed" AS (
  UPDATE "merchants" SET "clock_offset_seconds" = "clock_offset_seconds" + $1::int
  FROM "permitted"
  WHERE "merchants"."id" = $2::text
    AND "clock_offset_seconds" + $1::int <= 1576800000
  RETURNING 1
), "clock" AS (
  SELECT l."offset" AS "offsetSeconds", date_trunc('milliseconds', now() + make_interval(secs => l."offset")) AS "now" FROM "locked" AS l
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('test_clock_limit')::text
  END AS "refused", r.*
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $4::text
    AND e."endpoint" = $5::text AND e."key" = $6::text
  LEFT JOIN "clock" AS r ON true;

-- insert-webhook-endpoint-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 endpointId
--   $8 merchantId
--   $9 url
--   $10 description
--   $11 events
--   $12 secret
--   $13 createdAt
--   $14 faultDuplicateRate
--   $15 faultDelaySeconds
--   $16 faultShuffle
--   $17 faultSeed
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
  INSERT INTO "webhook_endpoints" ("id", "merchant_id", "url", "description", "events", "secret", "created_at",
    "fault_duplicate_rate", "fault_delay_seconds", "fault_shuffle", "fault_seed")
  SELECT $7::text, $8::text, $9::text, $10::text, $11::text[], $12::text, $13::timestamptz,
         $14::float8, $15::int4, $16::bool, $17::int8
  FROM "permitted"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  NULL::text AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- rotate-webhook-secret
--   $1 previousExpiresAt
--   $2 secret
--   $3 endpointId
--   $4 merchantId
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "webhook_endpoints"
  SET "previous_secret" = "secret", "previous_secret_expires_at" = $1::timestamptz, "secret" = $2::text
  FROM "permitted"
  WHERE "webhook_endpoints"."id" = $3::text AND "merchant_id" = $4::text AND "deleted_at" IS NULL
  RETURNING "webhook_endpoints"."id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'resource_missing'
END AS "refused";

-- rotate-webhook-secret-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 previousExpiresAt
--   $8 secret
--   $9 endpointId
--   $10 merchantId
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
  UPDATE "webhook_endpoints"
  SET "previous_secret" = "secret", "previous_secret_expires_at" = $7::timestamptz, "secret" = $8::text
  FROM "permitted"
  WHERE "webhook_endpoints"."id" = $9::text AND "merchant_id" = $10::text AND "deleted_at" IS NULL
  RETURNING "webhook_endpoints"."id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('resource_missing')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

-- update-webhook-endpoint
--   $1 url
--   $2 events
--   $3 setsDescription
--   $4 description
--   $5 status
--   $6 faultDuplicateRate
--   $7 faultDelaySeconds
--   $8 faultShuffle
--   $9 setsFaultSeed
--   $10 faultSeed
--   $11 endpointId
--   $12 merchantId
WITH "permitted" AS (
  SELECT NULL::text AS "id"
), "changed" AS (
  UPDATE "webhook_endpoints" AS e
  SET "url" = COALESCE($1::text, e."url"),
      "events" = COALESCE($2::text[], e."events"),
      "description" = CASE WHEN $3::boolean THEN $4::text ELSE e."description" END,
      "status" = COALESCE($5::"WebhookEndpointStatus", e."status"),
      "fault_duplicate_rate" = COALESCE($6::float8, e."fault_duplicate_rate"),
      "fault_delay_seconds" = COALESCE($7::int4, e."fault_delay_seconds"),
      "fault_shuffle" = COALESCE($8::boolean, e."fault_shuffle"),
      "fault_seed" = CASE WHEN $9::boolean THEN $10::int8 ELSE e."fault_seed" END,
      "fault_sequence" = CASE WHEN $9::boolean THEN 0 ELSE e."fault_sequence" END
  FROM "permitted"
  WHERE e."id" = $11::text AND e."merchant_id" = $12::text AND e."deleted_at" IS NULL
  RETURNING e."id", e."fault_delay_seconds"
), "moved" AS (
  UPDATE "webhook_deliveries" AS d
  SET "next_attempt_at" = ev."created_at" + make_interval(secs => c."fault_delay_seconds")
  FROM "changed" AS c, "events" AS ev
  WHERE $7::int4 IS NOT NULL AND d."endpoint_id" = c."id" AND d."status" = 'pending'
    AND d."attempt_count" = 0 AND ev."id" = d."event_id"
)
SELECT CASE
  WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN 'resource_missing'
END AS "refused";

-- update-webhook-endpoint-claiming-key
--   $1 answer
--   $2 keyMerchantId
--   $3 keyEndpoint
--   $4 key
--   $5 keyFingerprint
--   $6 answerStatus
--   $7 url
--   $8 events
--   $9 setsDescription
--   $10 description
--   $11 status
--   $12 faultDuplicateRate
--   $13 faultDelaySeconds
--   $14 faultShuffle
--   $15 setsFaultSeed
--   $16 faultSeed
--   $17 endpointId
--   $18 merchantId
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
  UPDATE "webhook_endpoints" AS e
  SET "url" = COALESCE($7::text, e."url"),
      "events" = COALESCE($8::text[], e."events"),
      "description" = CASE WHEN $9::boolean THEN $10::text ELSE e."description" END,
      "status" = COALESCE($11::"WebhookEndpointStatus", e."status"),
      "fault_duplicate_rate" = COALESCE($12::float8, e."fault_duplicate_rate"),
      "fault_delay_seconds" = COALESCE($13::int4, e."fault_delay_seconds"),
      "fault_shuffle" = COALESCE($14::boolean, e."fault_shuffle"),
      "fault_seed" = CASE WHEN $15::boolean THEN $16::int8 ELSE e."fault_seed" END,
      "fault_sequence" = CASE WHEN $15::boolean THEN 0 ELSE e."fault_sequence" END
  FROM "permitted"
  WHERE e."id" = $17::text AND e."merchant_id" = $18::text AND e."deleted_at" IS NULL
  RETURNING e."id", e."fault_delay_seconds"
), "moved" AS (
  UPDATE "webhook_deliveries" AS d
  SET "next_attempt_at" = ev."created_at" + make_interval(secs => c."fault_delay_seconds")
  FROM "changed" AS c, "events" AS ev
  WHERE $13::int4 IS NOT NULL AND d."endpoint_id" = c."id" AND d."status" = 'pending'
    AND d."attempt_count" = 0 AND ev."id" = d."event_id"
)
SELECT c."id" IS NOT NULL AS "claimed", e."fingerprint", e."response_status" AS "responseStatus",
  e."response_body" AS "responseBody",
  CASE
    WHEN c."id" IS NULL THEN NULL
    WHEN NOT EXISTS (SELECT 1 FROM "changed") THEN abort_statement('resource_missing')::text
  END AS "refused"
FROM (SELECT 1) AS "one" LEFT JOIN "permitted" AS c ON true
  LEFT JOIN "idempotency_keys" AS e ON c."id" IS NULL AND e."merchant_id" = $2::text
    AND e."endpoint" = $3::text AND e."key" = $4::text;

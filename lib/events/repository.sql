-- insert-event
--   $1 eventMerchantId
--   $2 eventIds
--   $3 eventTypes
--   $4 eventData
WITH "new_event" AS (
  INSERT INTO "events" ("id", "merchant_id", "type", "data", "created_at")
  SELECT v."id", $1::text, v."type", v."data"::jsonb, (now() + make_interval(secs => (SELECT "clock_offset_seconds" FROM "merchants" WHERE "id" = $1::text)))
  FROM unnest($2::text[], $3::text[], $4::text[]) WITH ORDINALITY AS v("id", "type", "data", "position")

  ORDER BY v."position"
  RETURNING "id", "type", "created_at", "seq"
), "numbered" AS (
  UPDATE "webhook_endpoints" AS e SET "fault_sequence" = e."fault_sequence" + n."count"
  FROM (
    SELECT e."id", count(*) AS "count" FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $1::text
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
  FROM "new_event" AS ev JOIN "webhook_endpoints" AS e ON e."merchant_id" = $1::text
  AND e."status" = 'enabled' AND e."deleted_at" IS NULL AND e."events" && ARRAY[ev."type", '*']
    LEFT JOIN "numbered" AS n ON n."id" = e."id"
)
SELECT 1;

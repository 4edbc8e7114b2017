-- Rate limits off the request's path (README, "Performance"): each web process spends tokens it has
-- claimed from a window's row and settles with it in the background, several times a second. A row is one
-- bucket (a key's or a merchant's steady rate, or its burst) in one fixed window of the clock: "taken" is
-- every token handed out, which a claim never takes past "points"; "demand" counts the requests every
-- process saw, from which each process learns its part of the traffic.
CREATE TABLE "rate_limit_windows" (
    "bucket" TEXT NOT NULL,
    -- Unix milliseconds
    "window_start" BIGINT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "points" INTEGER NOT NULL,
    "taken" INTEGER NOT NULL DEFAULT 0,
    "demand" INTEGER NOT NULL DEFAULT 0,
    CONSTRAINT "rate_limit_windows_pkey" PRIMARY KEY ("bucket", "window_start")
);
CREATE INDEX "rate_limit_windows_expires_at_idx" ON "rate_limit_windows"("expires_at");

-- One process's settlement in one round trip. Per bucket and window: record the tokens it spent on credit
-- (a first request it served before it held any), add its demand, and grant what it wants of what is left.
-- Callers send the rows in one order (bucket, window) so that two settling processes never deadlock.
CREATE FUNCTION "settle_rate_limits"(
    "buckets" TEXT[], "window_starts" BIGINT[], "window_ms" INTEGER[], "limits" INTEGER[],
    "credits" INTEGER[], "wants" INTEGER[], "demands" INTEGER[]
) RETURNS TABLE ("bucket" TEXT, "window_start" BIGINT, "granted" INTEGER, "taken" INTEGER, "demand" INTEGER)
LANGUAGE plpgsql AS $$
DECLARE
  i INTEGER;
  before INTEGER;
BEGIN
  FOR i IN 1 .. COALESCE(array_length(buckets, 1), 0) LOOP
    INSERT INTO rate_limit_windows AS w ("bucket", "window_start", "expires_at", "points")
      VALUES (buckets[i], window_starts[i], to_timestamp((window_starts[i] + window_ms[i]) / 1000.0), limits[i])
      ON CONFLICT DO NOTHING;
    SELECT w."taken" INTO before FROM rate_limit_windows w
      WHERE w."bucket" = buckets[i] AND w."window_start" = window_starts[i] FOR UPDATE;
    "bucket" := buckets[i];
    "window_start" := window_starts[i];
    "granted" := LEAST(wants[i], GREATEST(0, limits[i] - before - credits[i]));
    UPDATE rate_limit_windows w SET "taken" = before + credits[i] + "granted", "demand" = w."demand" + demands[i]
      WHERE w."bucket" = buckets[i] AND w."window_start" = window_starts[i]
      RETURNING w."taken", w."demand" INTO "taken", "demand";
    RETURN NEXT;
  END LOOP;
END $$;

-- rate-limiter-flexible's table, which nothing of this release reads or writes. Migrations only add (README,
-- "Running in production"): a web process of the previous release still counts in it during a rolling
-- deploy, so it is dropped by a later release.
COMMENT ON TABLE "rate_limits" IS 'unused since the rate_limit_windows migration; drop in a later release';

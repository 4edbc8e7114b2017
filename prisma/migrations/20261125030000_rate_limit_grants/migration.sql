-- Rate limits granted by PostgreSQL, spent in memory (README, "Performance"): a web process claims tokens of
-- a bucket's window in a background statement several times a second and spends them on requests. The
-- grant is one conditional UPDATE of the window's row, so all processes together never get more than the
-- limit. rate_limit_windows and settle_rate_limits, an earlier form of this that was never released, go.
DROP FUNCTION "settle_rate_limits";
DROP TABLE "rate_limit_windows";

-- One bucket (a key's or a merchant's steady rate, or its burst) in one fixed window of the clock.
CREATE TABLE "rate_limit_grants" (
    "bucket" TEXT NOT NULL,
    -- Unix milliseconds
    "window_start" BIGINT NOT NULL,
    "points" INTEGER NOT NULL,
    -- tokens handed out to every process together
    "granted" INTEGER NOT NULL,
    -- what the last claim got: the statement that made the claim returns it
    "last_grant" INTEGER NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "rate_limit_grants_pkey" PRIMARY KEY ("bucket", "window_start"),
    CONSTRAINT "rate_limit_grants_within_points" CHECK ("granted" <= "points")
);
CREATE INDEX "rate_limit_grants_expires_at_idx" ON "rate_limit_grants"("expires_at");

-- The web processes that claimed lately: each takes a fair part of a window, counting the others here.
CREATE TABLE "rate_limit_processes" (
    "process" TEXT NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "rate_limit_processes_pkey" PRIMARY KEY ("process")
);

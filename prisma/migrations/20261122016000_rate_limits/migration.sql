-- rate-limiter-flexible's PostgreSQL store, made here so that no web process runs DDL at request time.
CREATE TABLE "rate_limits" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT
);
CREATE INDEX "rate_limits_expire_idx" ON "rate_limits"("expire");

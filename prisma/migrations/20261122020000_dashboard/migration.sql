-- Dashboard sign-in throttling: failed attempts counted per e-mail and per client address in a fixed
-- 15-minute window, in the database so that every web process shares the count. Keys are SHA-256
-- hashes ("email:<hash>", "ip:<hash>"), so the table holds no e-mail address or IP in clear.

CREATE TABLE "login_throttles" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "attempts" INTEGER NOT NULL CHECK ("attempts" >= 0),
    "window_started_at" TIMESTAMPTZ(3) NOT NULL
);
-- old windows are purged by age
CREATE INDEX "login_throttles_window_started_at_idx" ON "login_throttles"("window_started_at");

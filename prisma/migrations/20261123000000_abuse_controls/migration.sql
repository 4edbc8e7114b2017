-- Abuse controls. Sign-in throttling becomes one table of fixed-window counters for every anonymous or
-- guessable action (sign-in per address and e-mail, sign-up and payment-link checkouts per address,
-- failed API authentication per address). Keys stay SHA-256 hashes: no e-mail or IP in clear.
ALTER TABLE "login_throttles" RENAME TO "throttles";
ALTER TABLE "throttles" RENAME COLUMN "attempts" TO "hits";
ALTER TABLE "throttles" RENAME CONSTRAINT "login_throttles_attempts_check" TO "throttles_hits_check";
ALTER TABLE "throttles" RENAME CONSTRAINT "login_throttles_pkey" TO "throttles_pkey";
ALTER INDEX "login_throttles_window_started_at_idx" RENAME TO "throttles_window_started_at_idx";

-- A dashboard session cookie carries the version it was issued under; signing out bumps it, so every
-- earlier cookie of that user stops opening the dashboard at once.
ALTER TABLE "users" ADD COLUMN "session_version" INTEGER NOT NULL DEFAULT 0;

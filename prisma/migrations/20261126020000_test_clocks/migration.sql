-- One test clock per connection (api.md §15): the connection's "now" is the wall clock plus this offset,
-- which only moves forward (POST /v1/test-helpers/clock/advance adds to it in one UPDATE).
ALTER TABLE "merchants" ADD COLUMN "clock_offset_seconds" INTEGER NOT NULL DEFAULT 0,
  ADD CONSTRAINT "merchants_clock_offset_not_negative" CHECK ("clock_offset_seconds" >= 0);

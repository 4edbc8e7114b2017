-- The merchant's time zone for the dashboard's dates, day filters and chart: an IANA name chosen in
-- Settings (checked against Intl.supportedValuesOf('timeZone') by the app). NULL means "the browser's":
-- the dashboard then uses the zone the signed-in browser reports.
ALTER TABLE "merchants" ADD COLUMN "time_zone" TEXT;
